// @ts-check
// What the console's views share: money and percentages, a reason prompt, an error line.
import { html } from "../../ui/html.js";
import { money } from "../../ui/format.js";
import { errorText } from "../../api/errors.js";
import { t, TEXT } from "../i18n.js";

/** Minor units as the room shows money. @param {number | null | undefined} n */
export function amount(n) {
  return n === null || n === undefined ? "—" : money(n);
}

/** A return (1 = 100 %) with 4 decimals. @param {number | null | undefined} x @param {number} [digits] */
export function pct(x, digits = 4) {
  return x === null || x === undefined || Number.isNaN(x) ? "—" : `${(x * 100).toFixed(digits)} %`;
}

/**
 * A round id as the console shows it: its last 12 characters. A round id starts with the time it
 * opened (a version-7 UUID, `qipai/core/ids.py`), so its first characters are shared by every
 * round of the same hours; its last ones are random, and the round search finds a round by them.
 * @param {string} id
 */
export function roundRef(id) {
  return id.length > 12 ? `…${id.slice(-12)}` : id;
}

/** An ISO time in the browser's zone. @param {string | null | undefined} iso */
export function when(iso) {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** Ask for a reason (every change needs one); null when cancelled or empty. @param {string} what */
export function askReason(what) {
  const answer = globalThis.prompt(t("reason_for", { what }));
  return answer && answer.trim() ? answer.trim() : null;
}

/** The console's text of an error: its own by code, else the room's; the server's words in the tooltip. @param {any} err */
export function opsError(err) {
  if (!err) return "";
  const key = `err_${err.code}`;
  return key in TEXT.en ? t(key) : errorText(err);
}

/** @param {{ error: any }} props */
export function ErrorLine({ error }) {
  return html`<p class="error-text" role="alert" data-code=${error ? error.code : ""} title=${error ? error.message : ""}>${opsError(error)}</p>`;
}

/** @param {{ n: number | null | undefined }} props */
export function Signed({ n }) {
  if (n === null || n === undefined) return html`<span>—</span>`;
  return html`<span class=${n > 0 ? "pos" : n < 0 ? "neg" : ""}>${n > 0 ? "+" : ""}${money(n)}</span>`;
}
