// @ts-check
// What every game's renderer shares: seat names, phase names, choice buttons, result colours.
import { html, cx } from "../ui/html.js";
import { has, t } from "../i18n/index.js";
import { signed } from "../ui/format.js";

/**
 * The context a renderer gets beside the state: how to act and whether an action is in flight.
 * @typedef {{ act: (a: Record<string, unknown>) => unknown, busy: boolean, ui: any,
 *             setUi: (patch: Record<string, unknown>) => void, note: (text: string, bad?: boolean) => void,
 *             pushChip: (spot: string, amount: number) => void, chipStack: {spot: string, amount: number}[],
 *             lastBets: {spot: string, amount: number}[] | null }} Ctx
 */

/** A bot's name in the UI language ("机器人 稳健 B"), a person's as chosen. @param {any} seat */
export function displayName(seat) {
  if (!seat || !seat.occupied) return t("empty");
  if (seat.bot) {
    const level = has(`botlevel_${seat.bot}`) ? t(`botlevel_${seat.bot}`) : seat.bot;
    return t("bot_name", { level, seat: seat.seat });
  }
  return seat.name || seat.seat;
}

/** The name of `seat` at the table of state `st` ("alice (you)" for mine). @param {any} st @param {string | null | undefined} seat */
export function seatName(st, seat) {
  if (!seat) return "";
  const s = st && st.table && st.table.seats.find((/** @type {any} */ x) => x.seat === seat);
  if (!s) return seat;
  const name = displayName(s);
  return st.you && st.you.seat === seat ? `${name} (${t("you")})` : name;
}

/** @param {string} p */
export function phaseLabel(p) {
  return has(`phase_${p}`) ? t(`phase_${p}`) : p;
}

/** @param {number | null | undefined} n */
export function netClass(n) {
  return n === null || n === undefined ? "" : n > 0 ? "pos" : n < 0 ? "neg" : "";
}

/** @param {{ n: number | null | undefined, cls?: string }} props */
export function Net({ n, cls }) {
  if (n === null || n === undefined) return null;
  return html`<b class=${cx("net", netClass(n), cls)}>${signed(n)}</b>`;
}

/** @param {{ text: string, cls?: string, title?: string }} props */
export function Badge({ text, cls, title }) {
  return html`<span class=${cx("badge", cls)} title=${title}>${text}</span>`;
}

/**
 * One button per choice of a spec ({type, choices}): a bid or a bet multiple.
 * @param {{ spec: any, field: string, label: string, ctx: Ctx, fmt?: (c: number) => string }} props
 */
export function ChoiceButtons({ spec, field, label, ctx, fmt }) {
  return html`<div class="action-group"><span class="action-label">${label}</span>
    ${(spec.choices || []).map((/** @type {number} */ c) => html`<button type="button" key=${c}
        class=${cx("btn", "action", c === 0 ? "ghost" : "gold")} data-action=${spec.type} data-value=${c}
        disabled=${ctx.busy} onClick=${() => ctx.act({ type: spec.type, [field]: c })}>
        ${fmt ? fmt(c) : c === 0 ? t("no_bid") : `×${c}`}</button>`)}
  </div>`;
}

/** The legal spec of `type` in state `st`, if any. @param {any} st @param {string} type */
export function legal(st, type) {
  return (st.legal || []).find((/** @type {any} */ a) => a.type === type) || null;
}
