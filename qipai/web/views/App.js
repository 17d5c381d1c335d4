// @ts-check
// The whole page: the top bar, the current view, the dialogs and the note.
import { html } from "../ui/html.js";
import { t, named } from "../i18n/index.js";
import { money } from "../ui/format.js";
import { useStore } from "../store.js";
import { LoginView } from "./login.js";
import { LobbyView } from "./lobby.js";
import { TableView } from "./table.js";
import { HistoryView } from "./history.js";
import { RulesView } from "./rules.js";
import { GuideView } from "./guide.js";
import { DepositDialog, BuyInDialog } from "./dialogs.js";

/** A speaker drawn in SVG (no emoji font needed). @param {{ muted: boolean }} props */
function SpeakerIcon({ muted }) {
  return html`<svg class="icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" />
    ${muted ? html`<path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" stroke-width="2" />` : html`<path d="M16 8a5 5 0 0 1 0 8M18.5 5.5a8.5 8.5 0 0 1 0 13" stroke="currentColor" stroke-width="2" fill="none" />`}</svg>`;
}

/** @param {{ store: import("../store.js").Store<import("../app.js").AppState>, actions: any }} props */
export function App({ store, actions }) {
  const s = useStore(store);
  const signed = !!s.token;
  // the rules pages and the player's guide are public (read before signing in too)
  const view = s.route.name === "rules" || s.route.name === "guide" ? s.route.name : !signed ? "login" : s.route.name;
  void named;
  return html`<div class=${["page", signed && "signed", view === "table" && "on-table"].filter(Boolean).join(" ")} data-lang=${s.lang}>
    <header class="topbar">
      <a class="brand" href="#/lobby"><span class="brand-zh">棋牌室</span><span class="brand-en">${t("brand_en")}</span></a>
      <nav class="topnav">
        ${signed ? html`<span class="who">${s.player}</span>
          <span class="wallet-pill" id="wallet" title=${t("wallet")}>${t("wallet")} ${money(s.me && s.me.wallet)}</span>
          <button type="button" class="btn small gold" id="btn-deposit" onClick=${() => actions.openDialog("deposit")}>${t("deposit")}</button>
          <button type="button" class="btn small ghost" id="btn-history" onClick=${() => actions.go("#/history")}>${t("history")}</button>` : null}
        <button type="button" class="btn small ghost" id="btn-guide" onClick=${() => actions.go("#/guide")}>${t("guide")}</button>
        <button type="button" class="btn small ghost" id="btn-sound" aria-pressed=${s.muted ? "true" : "false"} title=${s.muted ? t("sound_off") : t("sound_on")}
          onClick=${actions.toggleMute}><${SpeakerIcon} muted=${s.muted} /><span class="sr">${s.muted ? t("sound_off") : t("sound_on")}</span></button>
        <button type="button" class="btn small ghost" id="btn-lang" onClick=${() => actions.setLang(s.lang === "zh" ? "en" : "zh")}>${s.lang === "zh" ? "EN" : "中文"}</button>
        ${signed ? html`<button type="button" class="btn small ghost" id="btn-logout" onClick=${actions.logout}>${t("logout")}</button>` : null}
      </nav>
    </header>
    <main id="app-main">
      ${view === "login" ? html`<${LoginView} actions=${actions} />`
        : view === "table" ? html`<${TableView} s=${s} actions=${actions} />`
        : view === "history" ? html`<${HistoryView} s=${s} actions=${actions} />`
        : view === "rules" ? html`<${RulesView} s=${s} actions=${actions} />`
        : view === "guide" ? html`<${GuideView} s=${s} actions=${actions} />`
        : html`<${LobbyView} s=${s} actions=${actions} />`}
    </main>
    ${s.dialog === "deposit" ? html`<${DepositDialog} actions=${actions} />` : null}
    ${s.dialog === "buyin" ? html`<${BuyInDialog} s=${s} actions=${actions} />` : null}
    ${s.note ? html`<div class=${s.note.bad ? "toast bad" : "toast"} id="toast" role="status" title=${s.note.title || ""} key=${s.note.id}>${s.note.text}</div>` : null}
  </div>`;
}
