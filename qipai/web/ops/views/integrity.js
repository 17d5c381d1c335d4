// @ts-check
// Integrity: the last audit run from the console and its result, the chains' heads, run an audit
// now (operators), and the operator action log (filtered and paged, oplog.js) with its own hash
// chain's check.
import { html } from "../../ui/html.js";
import { useEffect, useState } from "../../vendor/hooks.module.js";
import { api } from "../api.js";
import { t } from "../i18n.js";
import { ErrorLine } from "./common.js";
import { OperatorLog } from "./oplog.js";

/** @param {{ me: any }} props */
export function Integrity({ me }) {
  const [info, setInfo] = useState(/** @type {any} */ (null));
  const [running, setRunning] = useState(false);
  const [logged, setLogged] = useState(0);
  const [error, setError] = useState(/** @type {any} */ (null));

  async function load() {
    try {
      setInfo(await api.get("/api/ops/integrity"));
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => { load(); }, []);

  async function run() {
    setRunning(true);
    try {
      await api.post("/api/ops/integrity/audit", { replay: true });
      await load();
      setLogged((n) => n + 1);
    } catch (err) {
      setError(err);
    } finally {
      setRunning(false);
    }
  }

  const last = info && info.last_audit;
  return html`<section class="view" id="ops-integrity">
    <div class="row"><h2>${t("tab_integrity")}</h2><span class="spacer"></span>
      ${me.can_write ? html`<button type="button" class="btn small gold" id="btn-audit" disabled=${running} onClick=${run}>${running ? t("auditing") : t("run_audit")}</button>` : null}</div>
    <${ErrorLine} error=${error} />
    ${info ? html`<div class="panel" id="last-audit" data-ok=${last ? String(last.detail.ok) : ""}>
      <h4>${t("last_audit")}</h4>
      ${last ? html`<p class=${last.detail.ok ? "pos" : "neg"}>${last.detail.ok ? t("audit_ok") : t("audit_failed")} · ${last.actor} · ${new Date(last.at * 1000).toLocaleString()}</p>
        ${(last.detail.violations || []).map((/** @type {string} */ v, /** @type {number} */ i) => html`<p key=${i} class="neg small">${v}</p>`)}
        <p class="small muted">${Object.entries(last.detail.stats || {}).map(([k, v]) => `${k} ${v}`).join(" · ")}</p>` : html`<p class="muted">${t("no_audit")}</p>`}
      <p class=${info.log_ok ? "pos small" : "neg small"}>${info.log_ok ? t("log_ok") : t("log_broken")}</p></div>
    <h4>${t("chain_heads")}</h4>
    <table class="grid" id="heads"><thead><tr><th>${t("chain")}</th><th>seq</th><th>MAC</th></tr></thead>
      <tbody>${info.heads.map((/** @type {any} */ h) => html`<tr key=${h.chain}><td class="mono small">${h.chain}</td><td class="num">${h.seq}</td><td class="mono small">${h.mac}</td></tr>`)}</tbody></table>` : null}
    <${OperatorLog} refresh=${logged} />
  </section>`;
}
