// @ts-check
// Start-up: render the page, route by the address, connect the table socket, and expose a small
// read-only handle (`window.qipai`) that the browser tests and benchmarks read.
import { render } from "./vendor/preact.module.js";
import { html } from "./ui/html.js";
import { App } from "./views/App.js";
import * as app from "./app.js";
import { setLang, missing, lang } from "./i18n/index.js";
import { sound } from "./ui/sound.js";

const s = app.store.get();
setLang(s.lang);
sound.muted = s.muted;

/** What the views may call (no view talks to the server itself). */
const actions = {
  go: app.go,
  signIn: app.signIn,
  logout: app.logout,
  setLang: app.setLang,
  toggleMute: app.toggleMute,
  quickStart: app.quickStart,
  newTable: app.newTable,
  deposit: app.deposit,
  openDialog: (/** @type {string} */ d) => app.store.set({ dialog: d }),
  closeDialog: () => app.store.set({ dialog: null }),
  act: app.act,
  setUi: (/** @type {Record<string, unknown>} */ patch) => app.store.set((st) => ({ ui: { ...st.ui, ...patch } })),
  note: app.note,
  pushChip: app.pushChip,
  sitDialog: app.sitDialog,
  sit: app.sit,
  standUp: app.standUp,
  setClientSeed: app.setClientSeed,
  newClientSeed: () => app.setClientSeed(app.newClientSeed(), true),
  fillBots: app.fillBots,
  imBack: app.imBack,
  back: () => app.go("#/lobby"),
  toggleHelp: () => app.store.set((st) => ({ help: !st.help })),
  moreHistory: () => app.once("history", () => {
    const h = app.store.get().history;
    return app.loadHistory(h && h.rounds.length ? (h.next || h.rounds[h.rounds.length - 1].round_id) : null);
  }),
};

render(html`<${App} store=${app.store} actions=${actions} />`, /** @type {HTMLElement} */ (document.getElementById("root")));
globalThis.addEventListener("hashchange", () => app.route());
globalThis.addEventListener("pointerdown", () => sound.unlock(), { once: true, capture: true });
globalThis.addEventListener("keydown", () => sound.unlock(), { once: true, capture: true });
setInterval(() => { if (app.store.get().tableId) app.refreshMe(); }, 15000);
if (s.token) app.socket.connect();
app.route();

/** Read-only handle for tests and benchmarks. */
Object.defineProperty(globalThis, "qipai", {
  value: Object.freeze({
    store: app.store,
    socket: app.socket,
    missing,
    lang,
    sound,
    state: () => app.store.get().state,
  }),
});
