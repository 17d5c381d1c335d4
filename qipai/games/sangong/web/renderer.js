// @ts-check
// San Gong 抢庄三公 (rules/en.md): bid for the bank, bet, three cards each, show, compare with the
// banker. An ES module the server serves at /games/sangong/renderer.js; its imports are the card
// room's own modules at the paths the server serves them from.
import { html, cx } from "/ui/html.js";
import { t, named } from "/i18n/index.js";
import { money, percent } from "/ui/format.js";
import { Card, CardRow } from "/ui/card.js";
import { Badge, ChoiceButtons, Net, phaseLabel, seatName } from "/games/common.js";
import { useShowdown } from "/ui/showdown.js";

/** @param {any} v @param {string | null} seat */
function seatOf(v, seat) {
  return ((v && v.seats) || []).find((/** @type {any} */ s) => s.id === seat) || null;
}

/** A hand's name and what it pays, e.g. "单公 8点 ×2". @param {any} hand */
function handText(hand) {
  return hand ? t("sg_pays", { hand: named(hand), m: hand.multiplier }) : "";
}

/** The showdown turns the banker's hand first, then the others in seat order. @param {any} v */
function revealOrder(v) {
  const seats = (v.seats || []).filter((/** @type {any} */ s) => s.cards || s.settlement);
  return [...seats.filter((/** @type {any} */ s) => s.is_banker), ...seats.filter((/** @type {any} */ s) => !s.is_banker)].map((/** @type {any} */ s) => s.id);
}

/** A seat as the showdown shows it now (as before the end until its hand is turned). @param {any} v @param {string} id @param {ReturnType<typeof useShowdown>} sd */
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
    ${s.is_banker ? html`<${Badge} text=${`${t("banker")} ×${v.banker_multiple || 1}`} cls="banker" />` : null}
    ${s.bid !== null && s.bid !== undefined && v.phase === "bid" ? html`<${Badge} text=${s.bid ? `×${s.bid}` : t("no_bid")} />` : null}
    ${s.bet ? html`<${Badge} text=${`${t("bet")} ×${s.bet}`} />` : null}
    ${v.phase === "show" && s.shown ? html`<${Badge} text=${t("sg_shown")} />` : null}
    ${s.settlement ? html`<${Net} n=${s.settlement.net} />` : null}
  </div>`;
}

/** @param {{ st: any }} props */
function Center({ st }) {
  const v = st.round.view;
  const sd = useShowdown();
  const me = v.me ? v.me.id : null;
  return html`<div class="nn-table sg-table">
    <div class="pg-meta"><${Badge} text=${phaseLabel(v.phase)} />
      ${v.banker ? html`<${Badge} text=${`${t("banker")}: ${seatName(st, v.banker)} ×${v.banker_multiple}`} cls="banker" />` : null}
      ${v.deal_order ? html`<span class="muted small">${t("sg_deal_from", { seat: seatName(st, v.deal_order[0]) })}</span>` : null}
      <span class="muted small">${t("base")} ${money(v.base)} · ${t("commission")} ${percent(v.commission)}</span>
      ${v.silence ? html`<span class="muted small" data-silence="">${t("sg_silence", { what: named(v.silence) })}</span>` : null}
    </div>
    <div class="pg-hands">${(v.seats || []).filter((/** @type {any} */ s) => s.id !== me).map((/** @type {any} */ x) => shownSeat(v, x.id, sd)).map((/** @type {any} */ s) => html`<div key=${s.id}
        class=${cx("pg-hand", s.is_banker && "banker")} data-seat=${s.id}>
      <div class="label">${seatName(st, s.id)}</div>
      ${s.cards ? html`<${CardRow} codes=${s.cards} size="small" deal squeeze />` : html`<${CardRow} count=${s.card_count} size="small" />`}
      ${s.hand ? html`<div class="hand-name">${handText(s.hand)}</div>` : null}
      ${s.settlement ? html`<${Net} n=${s.settlement.net} />` : null}
    </div>`)}</div>
  </div>`;
}

/** @param {{ st: any }} props */
function Mine({ st }) {
  const v = st.round.view;
  const sd = useShowdown();
  if (!v.me) return null;
  const mine = shownSeat(v, v.me.id, sd);
  return html`<div class="my-hand nn-mine">
    <div class="nn-hand">
      ${v.me.cards.length
        ? html`<div class="card-row mine">${v.me.cards.map((/** @type {string} */ c) => html`<${Card} key=${c} code=${c} size="big" cls="deal" />`)}</div>`
        : html`<div class="muted small">${t("sg_wait_deal")}</div>`}
      ${v.me.hand ? html`<div class="hand-name">${handText(v.me.hand)}</div>` : null}
      ${mine && mine.settlement ? html`<${Net} n=${mine.settlement.net} />` : null}
    </div>
  </div>`;
}

/** @param {{ st: any, ctx: any }} props */
function Actions({ st, ctx }) {
  return html`<div class="action-bar">${(st.legal || []).map((/** @type {any} */ spec) => {
    if (spec.type === "bid") return html`<${ChoiceButtons} key="bid" spec=${spec} field="multiple" label=${t("bid")} ctx=${ctx} />`;
    if (spec.type === "bet") return html`<${ChoiceButtons} key="bet" spec=${spec} field="multiple" label=${t("bet")} ctx=${ctx} />`;
    return html`<button type="button" key=${spec.type} class="btn gold action" data-action=${spec.type} disabled=${ctx.busy}
      onClick=${() => ctx.act({ type: spec.type })}>${t(spec.type)}</button>`;
  })}</div>`;
}

/** The round at its end (history and recall). @param {{ view: any, seat?: string | null }} props */
function Summary({ view: v, seat }) {
  return html`<div class="summary row wrap">${(v.seats || []).map((/** @type {any} */ s) => html`<span key=${s.id} class=${cx("small hand-line", s.id === seat && "mine")} data-seat=${s.id}>
    ${s.id}${s.id === seat ? ` (${t("you")})` : ""}${s.is_banker ? ` (${t("banker")} ×${v.banker_multiple || 1})` : s.bet ? ` ×${s.bet}` : ""}:
    <${CardRow} codes=${s.cards || (v.me && s.id === v.me.id ? v.me.cards : [])} size="tiny" />
    ${s.hand ? html`<i class="muted">${handText(s.hand)}</i>` : null} ${s.settlement ? html`<${Net} n=${s.settlement.net} />` : null}</span>`)}</div>`;
}

/**
 * A finished round told step by step from the view I had at its end: the banker, the bets, my
 * hand, everyone's show, the settlement. Built from the view alone.
 * @param {any} v @param {string | null} seat @returns {{ title: string, body: any }[]}
 */
function recall(v, seat) {
  const end = { title: t("step_result"), body: html`<${Summary} view=${v} seat=${seat} />` };
  if (!v) return [end];
  const me = seatOf(v, seat);
  const players = (v.seats || []).filter((/** @type {any} */ s) => !s.is_banker);
  return [
    { title: t("step_banker"), body: html`${t("banker")}: ${v.banker || "–"} ×${v.banker_multiple || 1}` },
    { title: t("sg_step_bets"), body: players.map((/** @type {any} */ s) => html`<span key=${s.id} class="hand-line">${s.id}: ×${s.bet || 1} </span>`) },
    { title: t("step_your_hand"), body: html`<span class="hand-line mine"><${CardRow} codes=${(me && me.cards) || (v.me && v.me.cards) || []} size="tiny" /> ${me && me.hand ? handText(me.hand) : ""}</span>` },
    end,
  ];
}

/** The lobby's picture of the game. */
function art() {
  return html`<div class="art-cards"><${Card} code="Kh" /><${Card} code="Qs" /><${Card} code="Jd" /></div>`;
}

export const sangong = { Center, Mine, Actions, SeatExtra, Summary, revealOrder, recall, art, Art: art };
// The name the client loads a game folder's renderer by (docs/adding-a-game.md, "The browser
// client": `renderer`, or the default export); `Art` is the lobby's picture there.
export const renderer = sangong;
export default sangong;
