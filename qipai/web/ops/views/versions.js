// @ts-check
// Tables per template version (docs/operators.md "Tables on older versions"): every template's
// tables grouped by the version they play, a version behind the template's newest marked, and
// for each table behind the operator's choice, with a reason: move it to the newest version at
// its next deal-unit boundary, or leave it (withdrawing a move asked for). Both are in the
// operator log; auditors only read.
import { html, cx } from "../../ui/html.js";
import { useEffect, useState } from "../../vendor/hooks.module.js";
import { api } from "../api.js";
import { t } from "../i18n.js";
import { askReason, ErrorLine } from "./common.js";

/** @param {{ me: any }} props */
export function Versions({ me }) {
  const [templates, setTemplates] = useState(/** @type {any[] | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));

  async function load() {
    try {
      setTemplates((await api.get("/api/ops/terms/tables")).templates);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => { load(); }, []);

  /** @param {string} id @param {"at_boundary" | "leave"} choice */
  async function choose(id, choice) {
    const reason = askReason(t(`move_${choice}`));
    if (!reason) return;
    try {
      await api.post(`/api/ops/tables/${encodeURIComponent(id)}/terms`, { choice, reason });
      await load();
    } catch (err) {
      setError(err);
    }
  }

  return html`<section class="view" id="ops-versions">
    <div class="row"><h2>${t("tab_versions")}</h2><span class="spacer"></span>
      <button type="button" class="btn small ghost" id="versions-refresh" onClick=${load}>${t("refresh")}</button></div>
    <p class="small muted">${t("versions_hint")}</p>
    <${ErrorLine} error=${error} />
    ${templates === null ? html`<p class="muted">…</p>` : !templates.length ? html`<p class="muted">${t("no_tables")}</p>` : html`
    <table class="grid" id="versions-tables">
      <thead><tr><th>${t("template")}</th><th>${t("version")}</th><th>${t("table")}</th><th>${t("state")}</th><th>${t("moves_to")}</th><th></th></tr></thead>
      <tbody>${templates.flatMap((tp) => tp.versions.flatMap((/** @type {any} */ v) => v.tables.map((/** @type {any} */ tb) => html`
        <tr key=${tb.table_id} data-table=${tb.table_id} data-template=${tp.template_id} data-version=${v.version} data-behind=${v.behind ? "true" : "false"}
          data-pending=${tb.pending_version ?? ""} class=${cx(v.behind && "behind")}>
          <td>${tp.name || tp.template_id} <span class="muted small">${tp.template_id}</span></td>
          <td>v${v.version}${v.behind ? html` <span class="badge suspended">${t("behind_newest", { newest: tp.newest_version })}</span>` : html` <span class="badge live">${t("newest")}</span>`}</td>
          <td class="mono small">${tb.name || tb.table_id}</td>
          <td>${t(`status_${tb.status}`)}</td>
          <td>${tb.pending_version ? html`<span class="pending-move">v${tb.pending_version} · ${t("at_boundary")}</span>` : "—"}</td>
          <td>${me.can_write && v.behind ? html`
            ${tb.pending_version ? null : html`<button type="button" class="btn small" data-choice="at_boundary" onClick=${() => choose(tb.table_id, "at_boundary")}>${t("move_at_boundary")}</button>`}
            <button type="button" class="btn small ghost" data-choice="leave" onClick=${() => choose(tb.table_id, "leave")}>${t("move_leave")}</button>` : null}</td>
        </tr>`)))}</tbody></table>`}
  </section>`;
}
