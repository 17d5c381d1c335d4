// @ts-check
// Pok Deng 博丁 (docs/rules/pokdeng.md): five player hands P1–P5 and their pair bets against the dealer,
// an 8-deck shoe with its road. The view is round.py's `view(seat)`.
import { html, cx } from "../ui/html.js";
import { t, lang } from "../i18n/index.js";
import { money, signed, chipText } from "../ui/format.js";
import { CardRow } from "../ui/card.js";
import { Chip } from "../ui/chip.js";
import { Badge, Net, legal, netClass } from "./common.js";
import { useHeld, useShowdown } from "../ui/showdown.js";

/**
 * @typedef {import("../protocol.js").PokDengView} PokDengViewG the view as docs/schema/pokdeng.view.json types it
 * @typedef {import("../protocol.js").LiveState<PokDengViewG>} Live a state with a round of this game
 */

/** @typedef {import("../types/pokdeng.view").PokDengView} PokDengView the view as docs/schema/pokdeng.view.json types it */

/** Chip denominations as multiples of the table's smallest bet. */
const CHIP_STEPS = [1, 2, 5, 10, 25, 50, 100];

/** @param {any} h */
export function handLabel(h) {
  if (!h) return "";
  let name;
  if (h.zh && h.en) name = lang() === "zh" ? h.zh : h.en;
  else if (h.name && typeof h.name === "object") name = lang() === "zh" ? h.name.zh : h.name.en;
  else if (h.name_zh && h.name_en) name = lang() === "zh" ? h.name_zh : h.name_en;
  else name = t(h.points === 1 ? "points_one" : "points_n", { n: h.points });
  return h.double ? `${name} · ${t("double")}` : name;
}

/** The chips a player can choose from this round (all of them; unaffordable ones are disabled). @param {any} bet */
export function chipValues(bet) {
  const min = Math.min(...Object.values(bet.spots).map((/** @type {any} */ s) => s.min));
  const max = Math.max(...Object.values(bet.spots).map((/** @type {any} */ s) => s.max));
  return CHIP_STEPS.map((k) => k * min).filter((c) => c <= max);
}

/** The smallest hold of any spot: a chip is affordable somewhere if chip × this ≤ available. @param {any} bet */
function minHold(bet) {
  return Math.min(...Object.values(bet.spots).map((/** @type {any} */ s) => s.hold || 1));
}

/**
 * Place the selected chip on `spot`, or say why not (never another amount silently).
 * @param {any} st @param {import("./common.js").Ctx} ctx @param {string} spot
 */
function placeBet(st, ctx, spot) {
  const bet = legal(st, "bet");
  if (!bet || ctx.busy) return;
  const chip = ctx.ui.chip;
  const info = bet.spots[spot];
  const current = ((st.round.view.me || {}).bets || {})[spot] || 0;
  if (!chip) return;
  if (chip * (info.hold || 1) > bet.available) {
    ctx.note(t("chip_unaffordable", { chip: money(chip), need: money(chip * (info.hold || 1)), available: money(bet.available) }), true);
    return;
  }
  if (current + chip > info.max) {
    ctx.note(t("spot_limit", { spot: spotName(spot), max: money(info.max) }), true);
    return;
  }
  ctx.pushChip(spot, chip);
  ctx.act({ type: "bet", spot, amount: chip });
}

/** A spot's name in the UI language ("P2 对子", "B pair" → "庄对"). @param {string} spot */
export function spotName(spot) {
  if (spot === "B pair") return t("banker_pair");
  const m = spot.match(/^(P\d|B)( pair)?$/);
  if (!m) return spot;
  return m[2] ? t("spot_pair", { hand: m[1] }) : m[1];
}

/** The hands in the order the showdown turns them: the dealer's, then P1–P5 (ui/showdown.js). @param {any} v */
function revealOrder(v) {
  return v.cards ? ["B", ...Object.keys(v.cards).filter((k) => k !== "B")] : [];
}

/** My bets' results by spot, from a view's payouts. @param {any} v @param {string | null} player */
function betResults(v, player) {
  return new Map((v && v.payouts && v.payouts.bets ? v.payouts.bets : []).filter((/** @type {any} */ b) => !player || b.player === player).map((/** @type {any} */ b) => [b.spot, b]));
}

/** @param {{ st: Live, ctx: import("./common.js").Ctx }} props */
function Center({ st, ctx }) {
  const now = /** @type {PokDengView} */ (st.round.view);
  const me = now.me || { id: null, bets: {} };
  const bet = legal(st, "bet");
  // a hand the showdown has not turned yet is drawn as it was before the round ended
  const sd = useShowdown();
  const at = (/** @type {string} */ hand) => (sd.turned(hand) ? now : sd.before);
  const results = betResults(now, me.id);
  const before = betResults(sd.before, me.id);
  // one column per player position: its own bet, and below it the banker's bet on it (Bn,
  // banker-player mode) and its pair bet, so the five columns fit the felt at every size
  const spots = Object.entries(now.spots).filter(([, s]) => /** @type {any} */ (s).kind === "player");
  const b = at("B");
  const bankerPair = Object.keys(now.spots).find((k) => now.spots[k].kind === "pair" && now.spots[k].hand === "B");
  const sub = (/** @type {string} */ name, /** @type {string} */ label, /** @type {string} */ cls, /** @type {any} */ result) => html`<div
      class=${cx(cls, "pd-sub", bet && "clickable")} data-spot=${name} role=${bet ? "button" : undefined} aria-label=${bet ? t("bet_on", { spot: label }) : undefined}
      onClick=${bet ? (/** @type {Event} */ e) => { e.stopPropagation(); placeBet(st, ctx, name); } : undefined}>
    <span class="sub-name">${label}</span> ${me.bets && me.bets[name] ? html`<${Chip} amount=${me.bets[name]} cls="mine" />` : null}
    ${result ? html`<span class=${cx("bet-result", netClass(result.net))} data-bet=${name}>${signed(result.net)}</span>` : null}
  </div>`;
  return html`<div class="pd-table">
    <div class="pd-banker"><div class="label">${t("dealer")}</div>
      ${b.cards ? html`<${CardRow} codes=${b.cards.B} deal squeeze />` : html`<${CardRow} count=${2} cls="dim" />`}
      ${b.hands && b.hands.B ? html`<div class="hand-name">${handLabel(b.hands.B)}</div>` : null}
      ${bankerPair ? sub(bankerPair, t("banker_pair"), "pd-pair", (sd.turned("B") ? results : before).get(bankerPair)) : null}
    </div>
    ${now.shoe && now.shoe.new_shoe && !now.cards ? html`<div class="shoe-note" role="status">${t("new_shoe")}</div>` : null}
    <div class="pd-spots">${spots.map(([name, info]) => {
      const hand = /** @type {any} */ (info).hand;
      const v = at(hand);
      const mine = v === now ? results : before;
      const res = v.results && v.results[hand];
      const pairName = Object.keys(v.spots).find((k) => v.spots[k].kind === "pair" && v.spots[k].hand === hand);
      const bankName = Object.keys(v.spots).find((k) => v.spots[k].kind === "banker" && v.spots[k].hand === hand);
      const mineBet = mine.get(name);
      return html`<div key=${name} class=${cx("pd-spot", res && `res-${res.result}`, bet && "clickable", me.bets && me.bets[name] && "has-mine")}
          data-spot=${name} role=${bet ? "button" : undefined} aria-label=${bet ? t("bet_on", { spot: name }) : undefined}
          onClick=${bet ? () => placeBet(st, ctx, name) : undefined}>
        <div class="spot-name">${name}</div>
        ${v.cards ? html`<${CardRow} codes=${v.cards[hand]} size="small" deal squeeze />` : html`<div class="spot-ring"></div>`}
        ${v.hands && v.hands[hand] ? html`<div class="hand-name">${handLabel(v.hands[hand])}</div>` : null}
        <div class="spot-chips">
          ${v.spot_totals && v.spot_totals[name] ? html`<${Chip} amount=${v.spot_totals[name]} cls="all" />` : null}
          ${me.bets && me.bets[name] ? html`<${Chip} amount=${me.bets[name]} cls=${cx("mine", mineBet && `to-${mineBet.net > 0 ? "me" : mineBet.net < 0 ? "house" : "back"}`)} />` : null}
        </div>
        ${res ? html`<${Badge} text=${t(res.result)} cls=${res.result} />` : null}
        ${mineBet ? html`<div class=${cx("bet-result", netClass(mineBet.net))} data-bet=${name}>${signed(mineBet.net)}</div>` : null}
        ${bankName ? sub(bankName, t("banker_on", { spot: bankName }), "pd-bank", mine.get(bankName)) : null}
        ${pairName ? sub(pairName, t("pair"), "pd-pair", mine.get(pairName)) : null}
      </div>`;
    })}</div>
  </div>`;
}

/** My stake this round, and my bets with their results: "my hand" in Pok Deng. @param {{ st: Live }} props */
function Mine({ st }) {
  const v = /** @type {PokDengView} */ (st.round.view);
  const sd = useShowdown();  // a bet's result shows once its hand is turned
  const me = v.me;
  // my stack after the round comes with the showdown's result (ui/showdown.js)
  const held = useHeld(me ? { stack: me.stack, taken: me.taken, available: me.available } : null);
  if (!me || !held) return null;
  const bets = Object.entries(me.bets || {});
  const results = betResults(v, me.id);
  return html`<div class="my-hand pd-mine">
    <div class="kv-row">
      <span>${t("stack")} <b>${money(held.stack)}</b></span>
      <span title=${t("held_note")}>${t("held")} <b>${money(held.taken)}</b></span>
      <span class="muted">${t("available")} <b data-available=${held.available}>${money(held.available)}</b></span>
    </div>
    ${bets.length ? html`<div class="my-bets">${bets.map(([spot, amount]) => {
      const r = sd.turned(v.spots[spot] ? v.spots[spot].hand : spot) ? results.get(spot) : null;
      return html`<span key=${spot} class="my-bet" data-spot=${spot}>${spotName(spot)} ${chipText(Number(amount))}${r ? html` <b class=${netClass(r.net)}>${signed(r.net)}</b>` : null}</span>`;
    })}</div>` : null}
  </div>`;
}

/** @param {{ st: Live, ctx: import("./common.js").Ctx }} props */
function Actions({ st, ctx }) {
  const bet = legal(st, "bet");
  const v = st.round.view;
  const me = v.me || { bets: {} };
  const current = Object.entries(me.bets || {}).map(([spot, amount]) => ({ spot, amount: Number(amount) }));
  const total = (/** @type {{spot: string, amount: number}[]} */ list) => list.reduce((a, b) => a + b.amount * ((bet && bet.spots[b.spot] && bet.spots[b.spot].hold) || 1), 0);
  const chips = bet ? chipValues(bet) : [];
  const hold = bet ? minHold(bet) : 1;
  if (bet && !ctx.ui.chip) ctx.setUi({ chip: chips.find((c) => c * hold <= bet.available) || chips[0] });
  const rebet = ctx.lastBets && !current.length ? ctx.lastBets : null;
  const last = ctx.chipStack.length ? ctx.chipStack[ctx.chipStack.length - 1] : null;
  return html`<div class="action-bar">
    ${bet ? html`<div class="chip-select" role="group" aria-label=${t("chip")}><span class="action-label">${t("chip")}</span>
      ${chips.map((c) => html`<${Chip} key=${c} amount=${c} selected=${c === ctx.ui.chip} disabled=${c * hold > bet.available}
          onClick=${() => ctx.setUi({ chip: c })} />`)}
    </div>
    <span class="muted small click-spot">${t("click_spot")}</span>` : null}
    ${bet && rebet ? html`<button type="button" class="btn action ghost" data-action="rebet" disabled=${ctx.busy || total(rebet) > bet.available}
        title=${rebet.map((b) => `${spotName(b.spot)} ${money(b.amount)}`).join(", ")}
        onClick=${() => ctx.act({ type: "bets", bets: rebet })}>${t("rebet")}</button>` : null}
    ${bet && current.length ? html`<button type="button" class="btn action ghost" data-action="double" disabled=${ctx.busy || total(current) > bet.available}
        onClick=${() => ctx.act({ type: "bets", bets: current })}>${t("double_bets")}</button>` : null}
    ${bet && last && me.bets && me.bets[last.spot] ? html`<button type="button" class="btn action ghost" data-action="undo" disabled=${ctx.busy}
        onClick=${() => undo(st, ctx, last)}>${t("undo_chip")}</button>` : null}
    ${legal(st, "clear") && current.length ? html`<button type="button" class="btn action ghost" data-action="clear" disabled=${ctx.busy} onClick=${() => ctx.act({ type: "clear" })}>${t("clear")}</button>` : null}
    ${legal(st, "done") ? html`<button type="button" class="btn action gold" data-action="done" disabled=${ctx.busy} onClick=${() => ctx.act({ type: "done" })}>${t("done")}</button>` : null}
  </div>`;
}

/** Take the last chip back: clear its spot and put back what stays. @param {any} st @param {import("./common.js").Ctx} ctx @param {{spot: string, amount: number}} last */
function undo(st, ctx, last) {
  const had = Number(st.round.view.me.bets[last.spot] || 0);
  ctx.setUi({ undo: { spot: last.spot, keep: had - last.amount } });
  ctx.act({ type: "clear", spot: last.spot });
}

/** After an undo's clear is applied, put back the rest of that spot. @param {any} st @param {import("./common.js").Ctx} ctx */
export function afterState(st, ctx) {
  const u = ctx.ui.undo;
  if (!u || ctx.busy) return;
  const v = st.round && st.round.view;
  if (!v || !v.me || (v.me.bets || {})[u.spot]) return;
  ctx.setUi({ undo: null });
  if (u.keep > 0 && legal(st, "bet")) ctx.act({ type: "bet", spot: u.spot, amount: u.keep });
}

// The road arrives compact (round.py's view docstring): rows joined by ";", each P1–P5's bead then
// the banker's pair mark; a bead is W/L/T + "r" (ringed) + "p" (pair dot).
const POSITIONS = ["P1", "P2", "P3", "P4", "P5"];
const RESULT = /** @type {Record<string, string>} */ ({ W: "win", L: "lose", T: "tie" });

/** @param {string} code @param {number} last */
export function roadRows(code, last) {
  if (!code) return [];
  return code.split(";").slice(-last).map((text) => {
    const f = text.split(",");
    /** @type {Record<string, {result?: string, ring: boolean, pair: boolean}>} */
    const cells = {};
    POSITIONS.forEach((p, i) => {
      const b = f[i] || "";
      cells[p] = { result: RESULT[b[0]], ring: b.includes("r"), pair: b.slice(1).includes("p") };
    });
    return { cells, bankerPair: f[5] === "p" };
  });
}

/** @param {{ st: any }} props */
function Side({ st }) {
  const v = st.round && st.round.view;
  if (!v || !v.road) return null;
  const spots = Object.keys(v.road.counts || {});
  const rows = roadRows(v.road.code, 12);
  const title = (/** @type {any} */ c) => [t(c.result === "win" ? "road_win" : c.result === "lose" ? "road_lose" : "tie"), c.ring ? t("road_ring") : "", c.pair ? t("pair") : ""].filter(Boolean).join(" · ");
  return html`<div class="road-panel">
    <h4>${v.shoe ? `${t("road")} · ${t("shoe_round", { n: v.shoe.round })}` : t("road")}</h4>
    <table class="road"><thead><tr>${spots.map((s) => html`<th key=${s}>${s}</th>`)}</tr></thead>
      <tbody>${rows.map((row, i) => html`<tr key=${i}>${spots.map((s) => {
        const c = row.cells[s] || {};
        return html`<td key=${s}>${c.result ? html`<span class=${cx("road-dot", c.result, c.ring && "ring", c.pair && "pair")} title=${title(c)}></span>` : null}</td>`;
      })}</tr>`)}</tbody></table>
    ${rows.length ? null : html`<div class="small muted">${t("road_empty")}</div>`}
    <div class="road-legend small muted">
      <span><i class="road-dot win"></i>${t("road_win")}</span><span><i class="road-dot lose"></i>${t("road_lose")}</span>
      <span><i class="road-dot tie"></i>${t("tie")}</span><span><i class="road-dot ring"></i>${t("road_ring")}</span>
      <span><i class="road-dot pair"></i>${t("pair")}</span>
    </div>
    ${v.shoe ? html`<div class="small muted">${v.shoe.cards_remaining} ${t("cards_left")}${v.shoe.last_round ? ` · ${t("last_of_shoe")}` : ""}</div>` : null}
  </div>`;
}

/** @param {{ st: any, seat: string }} props */
function SeatExtra({ st, seat }) {
  const v = st.round && st.round.view;
  const p = v && (v.players || []).find((/** @type {any} */ x) => x.id === seat);
  if (!p) return null;
  return html`<span class="small muted">${p.spots.join(" ")}${p.done ? " ✓" : ""}</span>`;
}

/** The bets of a finished round with stake, outcome (×2 for a double hand) and net. @param {{ view: any }} props */
function BetTable({ view: v }) {
  const bets = v.payouts && v.payouts.bets ? v.payouts.bets : [];
  if (!bets.length) return null;
  return html`<table class="bet-table"><thead><tr><th>${t("spot")}</th><th>${t("stake")}</th><th>${t("outcome")}</th><th>${t("net")}</th></tr></thead>
      <tbody>${bets.map((/** @type {any} */ b) => html`<tr key=${b.id} data-bet=${b.spot}><td>${spotName(b.spot)}</td><td>${money(b.amount)}</td>
        <td>${t(b.outcome)}${b.multiple > 1 ? ` ×${b.multiple}` : ""}</td><td><${Net} n=${b.net} /></td></tr>`)}</tbody></table>`;
}

/** The round as I saw it at its end (history, recall): the hands and my bets with results. @param {{ view: any }} props */
function Summary({ view: v }) {
  return html`<div class="summary">
    ${v.cards ? html`<div class="row wrap">${Object.entries(v.cards).map(([k, cs]) => html`<span key=${k} class="small hand-line" data-hand=${k}>${k === "B" ? t("dealer") : k}: <${CardRow} codes=${cs} size="tiny" />
      ${v.hands && v.hands[k] ? html`<i class="muted">${handLabel(v.hands[k])}</i>` : null}</span>`)}</div>` : null}
    <${BetTable} view=${v} />
  </div>`;
}

/** On the live table the felt shows the hands; the results panel adds only the bet table. @param {{ view: any }} props */
function Details({ view: v }) {
  return html`<div class="summary"><${BetTable} view=${v} /></div>`;
}

export const pokdeng = { Center, Mine, Actions, Side, SeatExtra, Summary, Details, afterState, revealOrder };
