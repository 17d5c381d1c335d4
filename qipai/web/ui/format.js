// @ts-check
// Numbers, money and times as the player reads them. Money is an integer count of minor units
// everywhere (docs/protocol.md); the client never does arithmetic on it beyond adding chips.
import { lang, t } from "../i18n/index.js";

// One formatter for every amount: `toLocaleString` builds a new one on each call, and a table
// draws dozens of amounts per state (it was the largest single cost of a draw in the profile).
const GROUPED = new Intl.NumberFormat("en-US");

/** @param {number | null | undefined} n */
export function money(n) {
  if (n === null || n === undefined) return "–";
  return GROUPED.format(Number(n));
}

/** A signed amount: +1,000 / −250 / ±0. @param {number | null | undefined} n */
export function signed(n) {
  if (n === null || n === undefined) return "–";
  return (n > 0 ? "+" : n < 0 ? "−" : "±") + money(Math.abs(n));
}

/** The short face text of a chip (2,500 is 2.5K); the exact amount goes in its title. @param {number} n */
export function chipText(n) {
  if (n >= 1e6 && n % 1e4 === 0) return `${n / 1e6}M`;
  if (n >= 1000 && n % 100 === 0) return `${n / 1000}K`;
  return money(n);
}

/** A percentage from a fraction or a decimal string ("0.975" → "97.50%"). @param {number | string} x @param {number} [digits] */
export function percent(x, digits = 2) {
  return `${(Number(x) * 100).toFixed(digits)}%`;
}

/**
 * A moment in the player's local time with its zone ("2026-12-01 19:04:05 GMT+8"). Accepts an ISO
 * string (a zone-less one is UTC, as the server writes them) or epoch seconds.
 * @param {string | number | null | undefined} when
 */
export function localTime(when) {
  if (when === null || when === undefined || when === "") return "–";
  let date;
  if (typeof when === "number") date = new Date(when * 1000);
  else date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(when) ? when : `${when}Z`);
  if (Number.isNaN(date.getTime())) return String(when);
  return timeFormat(lang()).format(date);
}

/** @type {Map<string, Intl.DateTimeFormat>} */
const TIME_FORMATS = new Map();

/** The local-time formatter of a UI language (made once). @param {string} ui */
function timeFormat(ui) {
  let fmt = TIME_FORMATS.get(ui);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat(ui === "zh" ? "zh-CN" : "en-GB", {
      year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit",
      second: "2-digit", hour12: false, timeZoneName: "short",
    });
    TIME_FORMATS.set(ui, fmt);
  }
  return fmt;
}

/** "3 s" / "3 秒". @param {number} s */
export function seconds(s) {
  return `${Math.max(0, Math.ceil(s))} ${t("seconds")}`;
}

/** Join names in the UI language's list style. @param {string[]} items */
export function list(items) {
  return items.join(lang() === "zh" ? "、" : ", ");
}
