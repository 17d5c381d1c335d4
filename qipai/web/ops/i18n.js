// @ts-check
// The console's text in Chinese and English (ops/i18n/zh.json, en.json), by key like the
// player's client; the language is the room's (one setting, `qipai.lang`), so the player's
// renderers drawn in the round inspector speak the same language. Until the operator chooses
// one, the console follows the browser's (lang.js).
import zh from "./i18n/zh.json" with { type: "json" };
import en from "./i18n/en.json" with { type: "json" };
import { lang, setLang as setRoomLang, showLang } from "../i18n/index.js";
import { chosenLang, openingLang } from "./lang.js";

/** @type {Record<"zh" | "en", Record<string, string>>} */
export const TEXT = { zh, en };

/** Keys asked for but missing, as "lang:key" (the browser test asserts it stays empty). */
export const missing = new Set();

export { lang };

/** The operator's choice (saved). @param {"zh" | "en"} next */
export function setLang(next) {
  setRoomLang(next);
}

/** Open in the operator's saved choice, else the browser's language (not saved). */
export function openLang() {
  if (chosenLang()) setRoomLang(openingLang());
  else showLang(openingLang());
}

/** @param {string} key @param {Record<string, string | number>} [vars] */
export function t(key, vars) {
  const cur = lang();
  let text = TEXT[cur][key];
  if (text === undefined) {
    missing.add(`${cur}:${key}`);
    text = TEXT.en[key] ?? key;
  }
  if (vars) for (const [k, v] of Object.entries(vars)) text = text.split(`{${k}}`).join(String(v));
  return text;
}
