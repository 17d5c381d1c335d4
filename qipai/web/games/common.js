// @ts-check
// What every game's renderer shares: seat names, phase names, choice buttons, result colours.
import { html, cx } from "../ui/html.js";
import { has, t, named } from "../i18n/index.js";
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

/**
 * What the table does for me if I stay silent until the countdown ends, in the UI language, or ""
 * when I have nothing to do. The defaults are the rules' (docs/rules/common.md#silence-defaults);
 * docs/rules/common.md#silence-defaults asks the room to show them before the countdown runs out.
 * @param {any} st
 */
export function silenceText(st) {
  const r = st && st.round;
  if (!r || r.finished || !(st.legal || []).length) return "";
  const types = new Set((st.legal || []).map((/** @type {any} */ a) => a.type));
  const game = st.table.game;
  let key = "";
  if (game === "pokdeng") key = "silence_pd_bet";
  else if (game === "holdem-bonus") {
    if (r.phase === "betting") key = "silence_he_bet";
    else if (r.phase === "flop") key = "silence_he_flop";
    else key = "silence_he_check";
  } else if (game === "tiengow") key = types.has("discard") ? "silence_tg_discard" : "silence_tg_lead";
  else if (types.has("bid")) key = "silence_no_bid";
  else if (types.has("swap")) key = "silence_no_swap";
  else if (types.has("bet")) {
    const bet = legal(st, "bet");
    const low = bet && Array.isArray(bet.choices) && bet.choices.length ? Math.min(...bet.choices) : 1;
    return t("silence_bet_low", { m: low });
  } else if (types.has("reveal")) key = "silence_reveal";
  return key ? t(key) : "";
}

/**
 * A table's name in the UI language: a name the room made ("Pok Deng 9fb2": the game's English
 * title and a short id) is read with the game's title in the UI language; an operator's own name
 * is shown as written. @param {any} table
 */
export function tableName(table) {
  const name = String((table && table.name) || "");
  const en = table && table.title && table.title.en;
  if (en && name.startsWith(`${en} `)) {
    const rest = name.slice(en.length + 1);
    if (/^[0-9a-z]{1,12}$/.test(rest)) return `${named(table.title) || en} ${rest}`;
  }
  return name;
}

/**
 * A template's name in the UI language: the shipped templates have one in each language
 * (`tpl_<id>`); an operator's own template is shown as the operator named it. @param {any} tpl
 */
export function templateName(tpl) {
  if (!tpl) return "";
  return has(`tpl_${tpl.id}`) ? t(`tpl_${tpl.id}`) : String(tpl.name || tpl.id || "");
}
