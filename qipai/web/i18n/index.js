// @ts-check
// UI text in Chinese and English. Every string the client shows comes from zh.json / en.json by
// key; `t(key, vars)` fills {name} placeholders. A key missing in the current language is
// recorded in `missing` (the browser and unit tests assert it stays empty) and falls back to
// English, never to a raw key in the Chinese UI.
import zh from "./zh.json" with { type: "json" };
import en from "./en.json" with { type: "json" };

/** @typedef {"zh" | "en"} Lang */

/** @type {Record<Lang, Record<string, string>>} */
export const TEXT = { zh, en };

/** Keys asked for but missing in the language asked, as "lang:key". */
export const missing = new Set();

/** @type {Lang} */
let current = readLang();

function readLang() {
  try {
    const saved = globalThis.localStorage && globalThis.localStorage.getItem("qipai.lang");
    return saved === "en" ? "en" : "zh";
  } catch {
    return "zh";
  }
}

/** @returns {Lang} */
export function lang() {
  return current;
}

/**
 * Show `next` on this page without saving it as the choice (the back office follows the
 * browser's language until the operator picks one: qipai/web/ops/lang.js).
 * @param {Lang} next
 */
export function showLang(next) {
  current = next;
  if (globalThis.document) globalThis.document.documentElement.lang = next;
}

/** @param {Lang} next */
export function setLang(next) {
  current = next;
  try {
    globalThis.localStorage && globalThis.localStorage.setItem("qipai.lang", next);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  if (globalThis.document) globalThis.document.documentElement.lang = next;
}

/**
 * The text of `key` in the current language with {name} placeholders filled.
 * @param {string} key
 * @param {Record<string, string | number>} [vars]
 */
export function t(key, vars) {
  let text = TEXT[current][key];
  if (text === undefined) {
    missing.add(`${current}:${key}`);
    text = TEXT.en[key] ?? key;
  }
  if (vars) for (const [k, v] of Object.entries(vars)) text = text.split(`{${k}}`).join(String(v));
  return text;
}

/**
 * Merge strings a game ships in its folder (`web/i18n.json`: {"zh": {...}, "en": {...}}); the
 * client's own keys win, so a game cannot rename the room's buttons.
 * @param {{ zh?: Record<string, string>, en?: Record<string, string> } | null | undefined} strings
 */
export function addStrings(strings) {
  for (const l of /** @type {Lang[]} */ (["zh", "en"])) {
    const more = (strings && strings[l]) || {};
    for (const [k, v] of Object.entries(more)) if (!(k in TEXT[l]) && typeof v === "string") TEXT[l][k] = v;
  }
}

/** Whether `key` exists (in both languages: a key only one language has is a bug). */
export function has(key) {
  return key in TEXT.zh && key in TEXT.en;
}

/**
 * A server-given name object {zh, en} (game titles, hand names) in the current language.
 * @param {{zh?: string, en?: string} | null | undefined} names
 */
export function named(names) {
  if (!names) return "";
  return (current === "zh" ? names.zh : names.en) || names.en || names.zh || "";
}
