// @ts-check
// The player's guide as a page of the room, in the player's language (served by the room from
// the package's qipai/server/guide/<lang>.md; docs/players.md is written from the same pages).
import { html } from "../ui/html.js";
import { t } from "../i18n/index.js";
import { markdown } from "./rules.js";

/** @param {{ s: import("../app.js").AppState, actions: any }} props */
export function GuideView({ s, actions }) {
  const text = s.guidePage ? s.guidePage[s.lang] : null;
  const back = () => (globalThis.history && globalThis.history.length > 1 ? globalThis.history.back() : actions.go("#/lobby"));
  return html`<section class="view rules-view guide-view" id="view-guide" lang=${s.lang}>
    <div class="table-bar"><button type="button" class="btn small ghost" id="guide-back" onClick=${back}>${t("back")}</button>
      <span class="table-title">${t("guide")}</span></div>
    <article class="rules-page" id="guide-text">${text ? markdown(text) : html`<p class="muted loading">…</p>`}</article>
  </section>`;
}
