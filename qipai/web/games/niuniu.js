// @ts-check
// Swap Niu Niu 换牌牛牛 (docs/rules/niuniu.md): swap (with the exact advisor's hint), bid, bet, reveal.
import { html, cx } from "../ui/html.js";
import { t, named } from "../i18n/index.js";
import { money, percent } from "../ui/format.js";
import { Card, CardRow } from "../ui/card.js";
import { Badge, ChoiceButtons, Net, legal, phaseLabel, seatName } from "./common.js";
import { useShowdown } from "../ui/showdown.js";

/**
 * @typedef {import("../protocol.js").NiuniuView} NiuniuView the view as docs/schema/niuniu.view.json types it
 * @typedef {import("../protocol.js").LiveState<NiuniuView>} Live
 */

/** @param {NiuniuView} v @param {string | null} seat */
function seatOf(v, seat) {
  return ((v && v.seats) || []).find((/** @type {any} */ s) => s.id === seat) || null;
}

/** @param {any} hand */
function handText(hand) {
  return hand ? `${named(hand)} ×${hand.multiplier}` : "";
}

/** The hands in the order the showdown turns them: the banker's, then the others in seat order (ui/showdown.js). @param {NiuniuView} v */
function revealOrder(v) {
  const seats = (v.seats || []).filter((/** @type {any} */ s) => s.cards || s.settlement);
  return [...seats.filter((/** @type {any} */ s) => s.is_banker), ...seats.filter((/** @type {any} */ s) => !s.is_banker)].map((/** @type {any} */ s) => s.id);
}

/**
 * Seat `id` of view `v` as the showdown shows it now: as it was before the round ended until its
 * hand is turned. @param {any} v @param {string} id @param {ReturnType<typeof useShowdown>} sd
 */
function shownSeat(v, id, sd) {
  return sd.turned(id) ? seatOf(v, id) : seatOf(sd.before, id) || seatOf(v, id);
}

/** @param {{ st: import("../protocol.js").StateOf<NiuniuView>, seat: string }} props */
function SeatExtra({ st, seat }) {
  const sd = useShowdown();
  const v = st.round && st.round.view;
  const s = v && shownSeat(v, seat, sd);
  if (!s) return null;
  return html`<div class="seat-info">
    ${s.is_banker ? html`<${Badge} text=${`${t("banker")} ×${v.banker_multiple || 1}`} cls="banker" />` : null}
    ${v.phase === "swap" && s.swap_confirmed ? html`<${Badge} text="✓" />` : null}
    ${s.swapped !== null && s.swapped !== undefined ? html`<${Badge} text=${`${t("swap")} ${s.swapped}`} />` : null}
    ${s.bid !== null && s.bid !== undefined && v.phase === "bid" ? html`<${Badge} text=${s.bid ? `×${s.bid}` : t("no_bid")} />` : null}
    ${s.bet ? html`<${Badge} text=${`${t("bet")} ×${s.bet}`} />` : null}
    ${s.settlement ? html`<${Net} n=${s.settlement.net} />` : null}
  </div>`;
}

/** @param {{ st: Live }} props */
function Center({ st }) {
  const v = st.round.view;
  const sd = useShowdown();
  return html`<div class="nn-table">
    <div class="pg-meta"><${Badge} text=${phaseLabel(v.phase)} />
      ${v.banker ? html`<${Badge} text=${`${t("banker")}: ${seatName(st, v.banker)} ×${v.banker_multiple}`} cls="banker" />` : null}
      <span class="muted small">${t("base")} ${money(v.base)} · ${t("commission")} ${percent(v.commission)}</span>
    </div>
    <div class="pg-hands">${(v.seats || []).filter((/** @type {any} */ s) => s.id !== (v.me ? v.me.id : null)).map((/** @type {any} */ x) => shownSeat(v, x.id, sd)).map((/** @type {any} */ s) => html`<div key=${s.id}
        class=${cx("pg-hand", s.is_banker && "banker")} data-seat=${s.id}>
      <div class="label">${seatName(st, s.id)}</div>
      ${s.cards ? html`<${CardRow} codes=${s.cards} size="small" deal squeeze />` : html`<${CardRow} count=${s.card_count} size="small" />`}
      ${s.hand ? html`<div class="hand-name">${handText(s.hand)}</div>` : null}
      ${s.settlement ? html`<${Net} n=${s.settlement.net} />` : null}
    </div>`)}</div>
  </div>`;
}

/** @param {{ st: Live, ctx: import("./common.js").Ctx }} props */
function Mine({ st, ctx }) {
  const v = st.round.view;
  const sd = useShowdown();
  if (!v.me) return null;
  const swapping = legal(st, "swap");
  /** @type {string[]} */
  const marked = v.me.marked ? v.me.marked : ctx.ui.marked || [];
  // the exact advisor's money-best swap (round.py's hint; the schema leaves its shape open):
  // expected_net is the expected result against the banker per unit of stake
  const hint = v.me.hint && swapping ? /** @type {{ discard?: string[], expected_net?: number, expected_multiplier?: number }} */ (v.me.hint.best || {}) : null;
  const hinted = new Set((hint && hint.discard) || []);
  const mine = shownSeat(v, v.me.id, sd);  // my cards are mine to see; my hand's result comes in its turn
  const toggle = (/** @type {string} */ c) => {
    const set = new Set(marked);
    if (set.has(c)) set.delete(c);
    else set.add(c);
    ctx.setUi({ marked: [...set] });
  };
  return html`<div class="my-hand nn-mine">
    <div class="nn-hand">
      <div class="card-row mine">${v.me.cards.map((/** @type {string} */ c) => html`<${Card} key=${c} code=${c} size="big"
        cls=${cx("deal", marked.includes(c) ? "marked" : hinted.has(c) && "suggested")} onClick=${swapping ? () => toggle(c) : null} />`)}</div>
      ${mine && mine.hand ? html`<div class="hand-name">${handText(mine.hand)}</div>` : null}
      ${mine && mine.settlement ? html`<${Net} n=${mine.settlement.net} />` : null}
      ${v.me.received && v.me.received.length ? html`<div class="small muted received">${t("received")}: <span class="tiny-cards">${v.me.received.map((/** @type {string} */ c) => html`<${Card} key=${c} code=${c} size="tiny" />`)}</span></div>` : null}
    </div>
    ${hint ? html`<div class="hint" data-hint="swap">
      <div class="hint-title"><span class="hint-icon" aria-hidden="true"></span><b>${t("hint")}</b></div>
      ${hint.discard && hint.discard.length ? html`<div class="hint-cards"><span>${t("swap")} ${hint.discard.length}:</span>
        <span class="tiny-cards">${hint.discard.map((/** @type {string} */ c) => html`<${Card} key=${c} code=${c} size="tiny" />`)}</span></div>` : html`<div>${t("keep_all")}</div>`}
      ${hint.expected_net !== undefined ? html`<div class="muted small" data-hint-ev="">${t("expected_net")} ${hint.expected_net >= 0 ? "+" : ""}${Number(hint.expected_net).toFixed(3)}</div>` : null}
      ${hint.expected_multiplier !== undefined ? html`<div class="muted small">${t("expected")} ${Number(hint.expected_multiplier).toFixed(3)}</div>` : null}
      ${hint.discard && hint.discard.length ? html`<button type="button" class="btn small ghost" data-hint-use="" onClick=${() => ctx.setUi({ marked: [...(hint.discard || [])] })}>${t("use_hint")}</button>` : null}
    </div>` : null}
  </div>`;
}

/** @param {{ st: Live, ctx: import("./common.js").Ctx }} props */
function Actions({ st, ctx }) {
  return html`<div class="action-bar">${(st.legal || []).map((/** @type {any} */ spec) => {
    if (spec.type === "swap") {
      const marked = ctx.ui.marked || [];
      return html`<button type="button" key="swap" class="btn gold action" data-action="swap" disabled=${ctx.busy}
        onClick=${() => { ctx.setUi({ marked: [] }); ctx.act({ type: "swap", cards: marked }); }}>${marked.length ? `${t("swap")} ${marked.length}` : t("keep_all")}</button>`;
    }
    if (spec.type === "bid") return html`<${ChoiceButtons} key="bid" spec=${spec} field="multiple" label=${t("bid")} ctx=${ctx} />`;
    if (spec.type === "bet") return html`<${ChoiceButtons} key="bet" spec=${spec} field="multiple" label=${t("bet")} ctx=${ctx} />`;
    return html`<button type="button" key=${spec.type} class="btn gold action" data-action=${spec.type} disabled=${ctx.busy} onClick=${() => ctx.act({ type: spec.type })}>${t(spec.type)}</button>`;
  })}</div>`;
}

/** @param {{ view: NiuniuView, seat?: string | null }} props */
function Summary({ view: v, seat }) {
  return html`<div class="summary row wrap">${(v.seats || []).map((/** @type {any} */ s) => html`<span key=${s.id} class=${cx("small hand-line", s.id === seat && "mine")} data-seat=${s.id}>
    ${s.id}${s.id === seat ? ` (${t("you")})` : ""}${s.is_banker ? ` (${t("banker")})` : ""}: <${CardRow} codes=${s.cards || (v.me && s.id === v.me.id ? v.me.cards : [])} size="tiny" />
    ${s.hand ? html`<i class="muted">${handText(s.hand)}</i>` : null} ${s.settlement ? html`<${Net} n=${s.settlement.net} />` : null}</span>`)}</div>`;
}

export const niuniu = { Center, Mine, Actions, SeatExtra, Summary, revealOrder };
