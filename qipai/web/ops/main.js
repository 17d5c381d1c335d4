// @ts-check
// The back office at /ops (docs/operators.md): operators and auditors only (auditors read). Every figure
// comes from /api/ops/…, which refuses anyone else; this page holds no data of its own.
// Views: live room, tables per template version, players, round inspector, house results, exact
// vs observed return, integrity, the cashier's desk, templates and (a supervisor's) operators;
// each role sees the tabs it may use.
import { render } from "../vendor/preact.module.js";
import { useEffect, useState } from "../vendor/hooks.module.js";
import { html, cx } from "../ui/html.js";
import { api, setToken, token, whenUnauthorized } from "./api.js";
import { t, lang, setLang, openLang, missing } from "./i18n.js";
import { Login } from "./views/login.js";
import { Room } from "./views/room.js";
import { Players } from "./views/players.js";
import { Rounds } from "./views/rounds.js";
import { House, Returns } from "./views/reports.js";
import { Integrity } from "./views/integrity.js";
import { Versions } from "./views/versions.js";
import { Desk } from "./views/desk.js";
import { Templates } from "./views/templates.js";
import { Staff } from "./views/staff.js";
import { tabsFor } from "./tabs.js";

const TABS = ["room", "versions", "players", "rounds", "house", "returns", "integrity", "cashier", "templates", "staff"];

/** The tab and round of the address: #/rounds/<id>. */
function route() {
  const parts = (globalThis.location.hash || "").replace(/^#\/?/, "").split("/");
  const tab = TABS.includes(parts[0]) ? parts[0] : "room";
  return { tab, round: tab === "rounds" && parts[1] ? decodeURIComponent(parts[1]) : null };
}

function App() {
  const [me, setMe] = useState(/** @type {any} */ (null));
  const [checked, setChecked] = useState(false);
  const [where, setWhere] = useState(route());
  const [, setLangTick] = useState(0);

  useEffect(() => {
    whenUnauthorized(() => { setToken(null); setMe(null); });
    const onHash = () => setWhere(route());
    globalThis.addEventListener("hashchange", onHash);
    if (token()) {
      api.get("/api/ops/me").then((m) => { setMe(m.stage === "full" ? m : null); setChecked(true); }, () => { setToken(null); setChecked(true); });
    } else setChecked(true);
    return () => globalThis.removeEventListener("hashchange", onHash);
  }, []);

  /** @param {string} tab @param {string | null} [round] */
  function go(tab, round = null) {
    globalThis.location.hash = round ? `#/${tab}/${encodeURIComponent(round)}` : `#/${tab}`;
  }

  async function signOut() {
    try {
      await api.post("/api/ops/logout");
    } catch {
      /* the session is gone either way */
    }
    setToken(null);
    setMe(null);
  }

  function switchLang() {
    setLang(lang() === "zh" ? "en" : "zh");
    setLangTick((n) => n + 1);
  }

  const openRound = (/** @type {string} */ id) => go("rounds", id);
  const bar = html`<header class="topbar ops-bar">
    <span class="brand"><span class="brand-zh">${t("brand")}</span><span class="brand-en" id="ops-version">${me ? `qipai ${me.version}` : "back office"}</span></span>
    ${me ? html`<nav class="topnav" id="ops-tabs">${tabsFor(me, TABS).map((tab) => html`<a key=${tab} href=${`#/${tab}`} data-tab=${tab}
        class=${cx("btn", "small", where.tab === tab ? "gold" : "ghost")}>${t(`tab_${tab}`)}</a>`)}</nav>` : null}
    <span class="topnav">
      ${me ? html`<span class="who" id="ops-who" data-role=${me.role}>${me.operator} · ${t(`role_${me.role}`)}</span>` : null}
      <button type="button" class="btn small ghost" id="ops-lang" onClick=${switchLang}>${lang() === "zh" ? "EN" : "中文"}</button>
      ${me ? html`<button type="button" class="btn small ghost" id="ops-sign-out" onClick=${signOut}>${t("sign_out")}</button>` : null}
    </span></header>`;
  if (!checked) return html`${bar}<main class="ops-main"><p class="muted">…</p></main>`;
  if (!me) return html`${bar}<main class="ops-main"><${Login} onSignedIn=${setMe} /></main>`;
  let body;
  if (where.tab === "players") body = html`<${Players} me=${me} openRound=${openRound} />`;
  else if (where.tab === "rounds") body = html`<${Rounds} me=${me} roundId=${where.round} setRoundId=${(/** @type {string | null} */ id) => go("rounds", id)} />`;
  else if (where.tab === "house") body = html`<${House} />`;
  else if (where.tab === "returns") body = html`<${Returns} />`;
  else if (where.tab === "integrity") body = html`<${Integrity} me=${me} />`;
  else if (where.tab === "versions") body = html`<${Versions} me=${me} />`;
  else if (where.tab === "cashier" && tabsFor(me, TABS).includes("cashier")) body = html`<${Desk} me=${me} />`;
  else if (where.tab === "templates") body = html`<${Templates} me=${me} />`;
  else if (where.tab === "staff" && tabsFor(me, TABS).includes("staff")) body = html`<${Staff} me=${me} />`;
  else body = html`<${Room} me=${me} openRound=${openRound} />`;
  return html`${bar}<main class="ops-main" data-lang=${lang()}>${!me.can_write ? html`<p class="badge read-only" id="read-only">${t("read_only")}</p>` : null}${body}</main>`;
}

openLang();
render(html`<${App} />`, /** @type {HTMLElement} */ (document.getElementById("root")));
/** What the browser tests read: the keys asked for but missing in a language. */
globalThis.qipaiOps = { missing };
