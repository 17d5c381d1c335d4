// @ts-check
// Texas Hold'em Bonus (Singapore variant, docs/rules/holdem-bonus.md): boxes against the dealer, ante / flop /
// turn / river bets, the bonus bet and the progressive pool, and the exact optimal-strategy hint
// the server computes from my own view.
import { html, cx } from "../ui/html.js";
import { t, has } from "../i18n/index.js";
import { money, chipText, percent } from "../ui/format.js";
import { CardRow, Card } from "../ui/card.js";
import { Chip } from "../ui/chip.js";
import { Badge, Net, legal, seatName } from "./common.js";
import { useShowdown } from "../ui/showdown.js";

/**
 * @typedef {import("../protocol.js").HoldemBonusView} HoldemBonusViewG the view as docs/schema/holdem-bonus.view.json types it
 * @typedef {import("../protocol.js").LiveState<HoldemBonusViewG>} Live a state with a round of this game
 */

const BETS = ["ante", "bonus", "pool", "flop", "turn", "river"];
const CHIP_STEPS = [1, 2, 5, 10, 25, 50, 100];

/** @param {string | null | undefined} key */
export function category(key) {
  return key ? (has(`cat_${key}`) ? t(`cat_${key}`) : key) : "";
}

/** @param {any} o */
const sum = (o) => Object.values(o || {}).reduce((a, b) => a + (Number(b) || 0), 0);

/** The boxes I play (my view's `me.boxes`). @param {any} v */
function myBoxes(v) {
  const boxes = new Set(v.me && v.me.boxes ? v.me.boxes : []);
  // before my ante the box of my own seat is still mine to bet on
  if (v.me && (v.boxes || []).some((/** @type {any} */ b) => b.box === v.me.id && (b.seated === v.me.id || b.player === v.me.id))) boxes.add(v.me.id);
  return boxes;
}

/** The hands in the order the showdown turns them: the dealer's, then the boxes in order (ui/showdown.js). @param {any} v */
function revealOrder(v) {
  return [...(v.dealer && v.dealer.cards ? ["dealer"] : []), ...(v.boxes || []).filter((/** @type {any} */ b) => b.cards || b.nets).map((/** @type {any} */ b) => b.box)];
}

/** @param {any} v @param {string} box */
const boxOf = (v, box) => ((v && v.boxes) || []).find((/** @type {any} */ x) => x.box === box);

/**
 * Box `b` of the view as the showdown shows it now: as it was before the round ended until its
 * hand is turned. @param {any} b @param {ReturnType<typeof useShowdown>} sd
 */
function shownBox(b, sd) {
  return sd.turned(b.box) ? b : boxOf(sd.before, b.box) || b;
}

/** @param {{ st: any, seat: string }} props */
function SeatExtra({ st, seat }) {
  const sd = useShowdown();
  const v = st.round && st.round.view;
  const now = v && boxOf(v, seat);
  const b = now && shownBox(now, sd);
  if (!b || !b.bets || !b.bets.ante) return null;
  return html`<div class="seat-info"><${Badge} text=${`${t("ante")} ${money(b.bets.ante)}`} />
    ${b.status ? html`<${Badge} text=${t(`status_${b.status}`)} />` : null}
    ${b.nets ? html`<${Net} n=${sum(b.nets)} />` : null}</div>`;
}

/** @param {{ b: any, v: any, st: any, mine: boolean }} props */
function Box({ b, v, st, mine }) {
  const who = b.player || b.seated;
  return html`<div class=${cx("pd-spot", "he-box", b.outcome && `res-${b.outcome}`, mine && "mine")} data-box=${b.box}>
    <div class="spot-name">${b.box}</div>
    <div class="box-player" title=${who ? seatName(st, who) : ""}>${who ? seatName(st, who) : t("empty")}</div>
    ${b.bets && b.bets.ante ? html`<${CardRow} codes=${b.cards} count=${b.cards ? 0 : v.phase === "betting" ? 0 : 2} size="small" deal />` : html`<div class="spot-ring"></div>`}
    ${b.hand ? html`<div class="hand-name">${category(b.hand.category)}</div>` : b.pool_hand ? html`<div class="hand-name">${category(b.pool_hand.category)}</div>` : null}
    <div class="he-bets">${BETS.filter((k) => b.bets && b.bets[k]).map((k) => html`<span key=${k} class=${`he-bet he-${k}`} title=${t(`bet_${k}`)}>
      <i>${t(`betshort_${k}`)}</i><b>${chipText(b.bets[k])}</b></span>`)}</div>
    ${b.outcome ? html`<${Badge} text=${t(b.outcome)} cls=${b.outcome} />` : b.status ? html`<${Badge} text=${t(`status_${b.status}`)} />` : null}
    ${b.nets ? html`<${Net} n=${sum(b.nets)} />` : null}
  </div>`;
}

/** @param {{ st: Live }} props */
function Center({ st }) {
  const v = st.round.view;
  const sd = useShowdown();
  const dealer = (sd.turned("dealer") ? v.dealer : sd.before.dealer) || {};
  const board = v.board || [];
  const mine = myBoxes(v);
  return html`<div class="he-table">
    <div class="he-top">
      <div class="pd-banker he-dealer"><div class="label">${t("dealer")}</div>
        <${CardRow} codes=${dealer.cards} count=${dealer.cards ? 0 : dealer.dealt ? 2 : 0} size="small" deal />
        ${dealer.hand ? html`<div class="hand-name">${category(dealer.hand.category)}</div>` : null}</div>
      <div class="he-board-wrap"><div class="label">${t("board")}</div>
        <div class="he-board">${board.map((/** @type {string} */ c) => html`<${Card} key=${c} code=${c} cls="deal" />`)}
          ${Array.from({ length: 5 - board.length }, (_, i) => html`<div key=${`s${i}`} class="card slot"></div>`)}</div></div>
    </div>
    <div class="pd-spots">${(v.boxes || []).filter((/** @type {any} */ b) => !mine.has(b.box) && (b.seated !== null || (b.bets && b.bets.ante)))
      .map((/** @type {any} */ b) => html`<${Box} key=${b.box} b=${shownBox(b, sd)} v=${v} st=${st} mine=${false} />`)}</div>
  </div>`;
}

/** My boxes — my own hole cards, bets and results — in front of me. @param {{ st: Live }} props */
function Mine({ st }) {
  const v = st.round.view;
  const sd = useShowdown();
  if (!v.me) return null;
  const mine = myBoxes(v);
  const boxes = (v.boxes || []).filter((/** @type {any} */ b) => mine.has(b.box));
  return html`<div class="my-hand he-mine">
    <div class="he-my-boxes">${boxes.map((/** @type {any} */ b) => html`<${Box} key=${b.box} b=${shownBox(b, sd)} v=${v} st=${st} mine=${true} />`)}</div>
    ${st.round.finished ? null : html`<div class="kv-row">
      <span>${t("stack")} <b>${money(v.me.stack)}</b></span>
      <span title=${t("held_note")}>${t("held")} <b>${money(v.me.committed)}</b></span>
      <span class="muted">${t("available")} <b>${money(v.me.available)}</b></span></div>`}
    ${sd.done && v.me.net !== null && v.me.net !== undefined ? html`<div class="pd-net">${t("net")} <${Net} n=${v.me.net} /></div>` : null}
  </div>`;
}

/** @param {{ st: Live, ctx: import("./common.js").Ctx }} props */
function Actions({ st, ctx }) {
  const bet = legal(st, "bet");
  const advice = st.round && st.round.hint && st.round.hint.boxes && st.round.hint.boxes[0];
  const suggested = advice ? ({ play: "flop", fold: "fold", check: "check", bet: advice.phase })[/** @type {"play"} */ (advice.action)] : null;
  const ui = ctx.ui;
  let chips = /** @type {number[]} */ ([]);
  if (bet) {
    // the largest ante my stack can cover comes from the server when it says so (max_ante)
    const cap = Math.min(bet.ante.max, bet.max_ante ?? bet.ante.max);
    chips = CHIP_STEPS.map((k) => k * bet.ante.min).filter((c) => c <= bet.ante.max);
    // side bets are opt-in: the jackpot stake (a low-return bet, docs/rules/holdem-bonus.md) and
    // the bonus start unticked on every fresh table
    if (!ui.ante) ctx.setUi({ ante: chips.find((c) => c <= cap) || chips[0], bonus: false, pool: false });
    void cap;
  }
  const box = bet ? (bet.boxes.includes(st.you.seat) ? st.you.seat : bet.boxes[0]) : null;
  const cap = bet ? Math.min(bet.ante.max, bet.max_ante ?? bet.ante.max) : 0;
  return html`<div class="action-bar">
    ${bet ? html`<div class="chip-select" role="group" aria-label=${t("ante")}><span class="action-label">${t("ante")}</span>
      ${chips.map((c) => html`<${Chip} key=${c} amount=${c} selected=${c === ui.ante} disabled=${c > cap} onClick=${() => ctx.setUi({ ante: c })} />`)}</div>
      <label class="small check"><input type="checkbox" id="he-bonus" checked=${!!ui.bonus} onChange=${(/** @type {any} */ e) => ctx.setUi({ bonus: e.currentTarget.checked })} /> ${t("bonus_bet")}</label>
      ${bet.pool ? html`<label class="small check"><input type="checkbox" id="he-pool" checked=${ui.pool === true} onChange=${(/** @type {any} */ e) => ctx.setUi({ pool: e.currentTarget.checked })} /> ${t("pool_bet")} ${money(bet.pool)}</label>` : null}
      <button type="button" class="btn gold action" data-action="bet" disabled=${ctx.busy || !ui.ante}
        onClick=${() => ctx.act({ type: "bet", box, ante: ui.ante, bonus: ui.bonus ? ui.ante : 0, pool: !!(bet.pool && ui.pool === true), done: true })}>${t("bet")}</button>` : null}
    ${(st.legal || []).filter((/** @type {any} */ s) => s.type !== "bet").map((/** @type {any} */ spec) => {
      const amounts = spec.boxes && !Array.isArray(spec.boxes) ? Object.values(spec.boxes) : [];
      const label = `${t(spec.type)}${amounts.length ? ` ${money(Number(amounts[0]))}` : ""}`;
      return html`<button type="button" key=${spec.type} class=${cx("btn", "action", ["flop", "turn", "river"].includes(spec.type) ? "gold" : "ghost", spec.type === suggested && "suggested")}
        data-action=${spec.type} disabled=${ctx.busy} onClick=${() => ctx.act({ type: spec.type })}>${label}</button>`;
    })}
    ${advice && suggested ? html`<div class="hint he-hint" data-hint=${advice.action}>
      <div class="hint-title"><span class="hint-icon" aria-hidden="true"></span><b>${t("he_hint")}</b></div>
      <div class="small"><b>${t(suggested)}</b>${advice.ev ? html`<span class="muted"> · ${t("ev_bet")} ${fmtEv(advice.ev.bet)} / ${t("ev_check")} ${fmtEv(advice.ev.check)} ${t("per_ante")}</span>` : null}</div>
    </div>` : null}
  </div>`;
}

/** @param {number} x */
const fmtEv = (x) => `${x > 0 ? "+" : ""}${Number(x).toFixed(2)}`;

/** @param {{ st: any }} props */
function Side({ st }) {
  const v = st.round && st.round.view;
  if (!v || !v.pool) return null;
  const p = v.pool;
  const seed = Number(p.seed) || 0;
  // a pool below its seed is topped up by the house before any award (docs/rules/holdem-bonus.md#pool-order, pool awards)
  return html`<div class="pool"><h4>${t("pool")}</h4>
    <div class="pool-amount" data-pool=${p.balance}>${money(Math.max(p.balance, seed))}</div>
    ${seed ? html`<div class="small muted">${t("pool_floor")} ${money(seed)} · ${t("pool_stake")} ${money(p.stake)}</div>` : null}
    <div class="small muted pool-pct">${Object.entries(p.percent || {}).map(([k, x]) => html`<span key=${k}>${category(k)} ${percent(x, 1)}</span>`)}</div>
  </div>`;
}

/** The round at its end: dealer, board and my own boxes with their hole cards and nets. @param {{ view: any, seat?: string | null }} props */
function Summary({ view: v }) {
  const mine = myBoxes(v);
  return html`<div class="summary row wrap">
    ${v.dealer && v.dealer.cards ? html`<span class="small hand-line">${t("dealer")}: <${CardRow} codes=${v.dealer.cards} size="tiny" /></span>` : null}
    ${v.board ? html`<span class="small hand-line">${t("board")}: <${CardRow} codes=${v.board} size="tiny" /></span>` : null}
    ${(v.boxes || []).filter((/** @type {any} */ b) => mine.has(b.box)).map((/** @type {any} */ b) => html`<span key=${b.box} class="small hand-line mine" data-box=${b.box}>
      ${t("your_box", { box: b.box })}: <${CardRow} codes=${b.cards} size="tiny" /> ${b.hand ? html`<i class="muted">${category(b.hand.category)}</i>` : null}
      <${BetNets} b=${b} /></span>`)}
  </div>`;
}

/** A box's net of each bet (ante, bonus, flop …). @param {{ b: any }} props */
function BetNets({ b }) {
  return b.nets ? html`<span class="bet-nets">${BETS.filter((k) => b.nets[k]).map((k) => html`<span key=${k}>${t(`bet_${k}`)} <${Net} n=${b.nets[k]} /> </span>`)}</span>` : null;
}

/** On the live table the felt shows the cards and each box's total; the results panel adds my boxes' net per bet. @param {{ view: any }} props */
function Details({ view: v }) {
  const mine = myBoxes(v);
  const boxes = (v.boxes || []).filter((/** @type {any} */ b) => mine.has(b.box) && b.nets);
  if (!boxes.length) return null;
  return html`<div class="summary row wrap">${boxes.map((/** @type {any} */ b) => html`<span key=${b.box} class="small hand-line mine" data-box=${b.box}>
    ${t("your_box", { box: b.box })}: <${BetNets} b=${b} /></span>`)}</div>`;
}

export const holdem = { Center, Mine, Actions, Side, SeatExtra, Summary, Details, revealOrder };
