// @ts-check
// Bid-for-banker Pai Gow 抢庄牌九 (docs/rules/paigow.md#the-game): bid, bet multiples, dice, two tiles each, two
// rounds on one set of 32 tiles. The view is round.py's `view(seat)`.
import { html, cx } from "../ui/html.js";
import { t, named } from "../i18n/index.js";
import { Tile, Die } from "../ui/tile.js";
import { Badge, ChoiceButtons, Net, seatName } from "./common.js";
import { useShowdown } from "../ui/showdown.js";

/**
 * @typedef {import("../protocol.js").PaigowView} PaigowViewG the view as docs/schema/paigow.view.json types it
 * @typedef {import("../protocol.js").LiveState<PaigowViewG>} Live a state with a round of this game
 */

/** @param {any} v @param {string | null} seat */
function seatOf(v, seat) {
  return ((v && v.seats) || []).find((/** @type {any} */ s) => s.id === seat) || null;
}

/** The hands in the order the showdown turns them: the banker's, then the others in seat order (ui/showdown.js). @param {any} v */
function revealOrder(v) {
  const seats = (v.seats || []).filter((/** @type {any} */ s) => s.tiles || s.net !== null && s.net !== undefined);
  return [...seats.filter((/** @type {any} */ s) => s.banker), ...seats.filter((/** @type {any} */ s) => !s.banker)].map((/** @type {any} */ s) => s.id);
}

/**
 * Seat `id` of view `v` as the showdown shows it now: as it was before the round ended until its
 * hand is turned. @param {any} v @param {string} id @param {ReturnType<typeof useShowdown>} sd
 */
function shownSeat(v, id, sd) {
  return sd.turned(id) ? seatOf(v, id) : seatOf(sd.before, id) || seatOf(v, id);
}

/** @param {{ st: any, seat: string }} props */
function SeatExtra({ st, seat }) {
  const sd = useShowdown();
  const v = st.round && st.round.view;
  const s = v && shownSeat(v, seat, sd);
  if (!s) return null;
  return html`<div class="seat-info">
    ${s.banker ? html`<${Badge} text=${t("banker")} cls="banker" />` : null}
    ${s.bid !== null && s.bid !== undefined && v.phase === "bid" ? html`<${Badge} text=${s.bid ? `${t("bid")} ×${s.bid}` : t("no_bid")} />` : null}
    ${s.bet ? html`<${Badge} text=${`${t("bet")} ×${s.bet}`} />` : null}
    <${Net} n=${s.net} />
  </div>`;
}

/** @param {{ s: any, v: any, st: any, mine?: boolean }} props */
function Hand({ s, v, st, mine }) {
  return html`<div class=${cx("pg-hand", mine && "me", s.outcome && `out-${s.outcome}`)} data-seat=${s.id}>
    <div class="label" title=${seatName(st, s.id)}>${s.banker ? html`<span class="mini-banker">${t("banker")}</span>` : null}${seatName(st, s.id)}</div>
    <div class="tile-row">${s.tiles ? s.tiles.map((/** @type {any} */ x, /** @type {number} */ i) => html`<${Tile} key=${i} tile=${x} cls="deal" />`)
      : v.deal_order ? [html`<${Tile} key="a" />`, html`<${Tile} key="b" />`] : null}</div>
    ${s.hand ? html`<div class="hand-name">${named(s.hand)}</div>` : null}
    <${Net} n=${s.net} />
  </div>`;
}

/** @param {{ st: Live }} props */
function Center({ st }) {
  const v = st.round.view;
  const sd = useShowdown();
  return html`<div class="pg-table">
    <div class="pg-meta">
      <${Badge} text=${t("pg_round", { n: v.round, of: v.rounds || 2 })} />
      ${v.banker ? html`<${Badge} text=${`${t("banker")}: ${seatName(st, v.banker)} ×${v.banker_multiple || 1}`} cls="banker" />` : null}
      ${v.dice ? html`<span class="dice" title=${v.dice.join(" + ")}>${v.dice.map((/** @type {number} */ d, /** @type {number} */ i) => html`<${Die} key=${i} n=${d} />`)}</span>` : null}
      <span class="muted small">${v.tiles_left} ${t("tiles_left")}</span>
    </div>
    <div class="pg-hands">${(v.seats || []).filter((/** @type {any} */ s) => s.id !== (v.me ? v.me.id : null)).map((/** @type {any} */ s) => html`<${Hand} key=${s.id} s=${shownSeat(v, s.id, sd)} v=${v} st=${st} />`)}</div>
    ${v.seen_tiles && v.seen_tiles.length ? html`<div class="pg-seen"><span class="muted small">${t("round1_tiles")}</span>
      <div class="tile-row tiny">${v.seen_tiles.map((/** @type {any} */ x, /** @type {number} */ i) => html`<${Tile} key=${i} tile=${x} size="tiny" />`)}</div></div>` : null}
    ${v.phase === "finished" && v.round < (v.rounds || 2) && st.you && st.you.in_round ? html`<div class="pg-next small" role="note">${t("pg_second_round")}</div>` : null}
  </div>`;
}

/** @param {{ st: Live }} props */
function Mine({ st }) {
  const v = st.round.view;
  const sd = useShowdown();
  const s = v.me ? shownSeat(v, v.me.id, sd) : null;
  if (!s) return null;
  return html`<div class="my-hand pg-mine"><${Hand} s=${s} v=${v} st=${st} mine /></div>`;
}

/** @param {{ st: Live, ctx: import("./common.js").Ctx }} props */
function Actions({ st, ctx }) {
  return html`<div class="action-bar">${(st.legal || []).map((/** @type {any} */ spec) => {
    if (spec.type === "bid") return html`<${ChoiceButtons} key="bid" spec=${spec} field="multiple" label=${t("bid")} ctx=${ctx} />`;
    if (spec.type === "bet") return html`<${ChoiceButtons} key="bet" spec=${spec} field="multiple" label=${t("bet")} ctx=${ctx} />`;
    return html`<button type="button" key=${spec.type} class="btn gold action" data-action=${spec.type} disabled=${ctx.busy}
      onClick=${() => ctx.act({ type: spec.type })}>${t(spec.type)}</button>`;
  })}</div>`;
}

/** @param {{ view: any, seat?: string | null, st?: any }} props */
function Summary({ view: v, seat }) {
  return html`<div class="summary row wrap">${(v.seats || []).map((/** @type {any} */ s) => html`<span key=${s.id} class=${cx("small hand-line", s.id === seat && "mine")} data-seat=${s.id}>
    ${s.id}${s.id === seat ? ` (${t("you")})` : ""}${s.banker ? ` (${t("banker")})` : ""}:
    <span class="tile-row tiny">${(s.tiles || []).map((/** @type {any} */ x, /** @type {number} */ i) => html`<${Tile} key=${i} tile=${x} size="tiny" />`)}</span>
    ${s.hand ? html`<i class="muted">${named(s.hand)}</i>` : null} <${Net} n=${s.net} /></span>`)}</div>`;
}

export const paigow = { Center, Mine, Actions, SeatExtra, Summary, revealOrder };
