// @ts-check
// The console's language: the operator's own choice once made (the language button, kept in
// `qipai.lang`), until then the browser's (navigator.languages, in the user's order: the first
// Chinese or English one). A browser that prefers neither gets English, the language an operator
// who reads no Chinese can use; a browser that names none gets the room's Chinese.

/** @typedef {"zh" | "en"} Lang */

/**
 * The console's language for the browser's preferred languages.
 * @param {readonly string[] | null | undefined} languages e.g. navigator.languages
 * @returns {Lang}
 */
export function browserLang(languages) {
  const list = (languages || []).filter((l) => typeof l === "string" && l);
  for (const l of list) {
    const tag = l.toLowerCase();
    if (tag === "zh" || tag.startsWith("zh-")) return "zh";
    if (tag === "en" || tag.startsWith("en-")) return "en";
  }
  return list.length ? "en" : "zh";
}

/** The operator's saved choice, if any. @returns {Lang | null} */
export function chosenLang() {
  try {
    const saved = globalThis.localStorage && globalThis.localStorage.getItem("qipai.lang");
    return saved === "zh" || saved === "en" ? saved : null;
  } catch {
    return null;
  }
}

/** The language the console opens in. @returns {Lang} */
export function openingLang() {
  const nav = globalThis.navigator;
  return chosenLang() ?? browserLang(nav ? (nav.languages && nav.languages.length ? nav.languages : [nav.language]) : null);
}
