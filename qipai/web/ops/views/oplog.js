// @ts-check
// The operator log: filtered by kind (an action's family), operator and time, a page at a time
// back to its first row (GET /api/ops/log, docs/operators.md#operator-log).
import { html } from "../../ui/html.js";
import { useEffect, useState } from "../../vendor/hooks.module.js";
import { api, query } from "../api.js";
import { t } from "../i18n.js";
import { ErrorLine } from "./common.js";

const PAGE = 50;

/** @param {{ refresh?: number }} props a new `refresh` reads the first page again (after an action the log records) */
export function OperatorLog({ refresh = 0 }) {
  const [filters, setFilters] = useState(/** @type {Record<string, string>} */ ({}));
  const [pages, setPages] = useState(/** @type {number[]} */ ([]));
  const [found, setFound] = useState(/** @type {any} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));

  /** @param {Record<string, string>} params @param {number[]} back the `before_id` of each page before */
  async function load(params, back = []) {
    try {
      const before_id = back.length ? back[back.length - 1] : undefined;
      setFound(await api.get(`/api/ops/log${query({ ...params, before_id, limit: PAGE })}`));
      setFilters(params);
      setPages(back);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => { load(filters); }, [refresh]);

  /** @param {Event} e */
  function submit(e) {
    e.preventDefault();
    const data = new FormData(/** @type {HTMLFormElement} */ (e.target));
    /** @type {Record<string, string>} */
    const params = {};
    for (const k of ["kind", "actor", "since", "until"]) {
      const v = String(data.get(k) || "").trim();
      if (v) params[k] = k === "since" || k === "until" ? new Date(v).toISOString() : v;
    }
    load(params);
  }

  const entries = found ? found.entries : [];
  return html`<div id="op-log-view">
    <h4>${t("operator_log")}</h4>
    <form class="row small" id="op-log-filter" onSubmit=${submit}>
      <select name="kind" id="op-log-kind"><option value="">${t("all_kinds")}</option>
        ${(found ? found.kinds : []).map((/** @type {string} */ k) => html`<option key=${k} value=${k} selected=${filters.kind === k}>${k}</option>`)}</select>
      <input name="actor" id="op-log-actor" placeholder=${t("actor")} maxlength="40" value=${filters.actor || ""} />
      <label>${t("since")} <input name="since" type="datetime-local" /></label>
      <label>${t("until")} <input name="until" type="datetime-local" /></label>
      <button type="submit" class="btn small" id="op-log-find">${t("search")}</button>
      <span>${t("page_n", { n: pages.length + 1 })}</span>
      <button type="button" class="btn small ghost" id="op-log-newer" disabled=${!pages.length} onClick=${() => load(filters, pages.slice(0, -1))}>${t("page_newer")}</button>
      <button type="button" class="btn small ghost" id="op-log-older" disabled=${!(found && found.next)} onClick=${() => found && found.next && load(filters, [...pages, found.next])}>${t("page_older")}</button>
    </form>
    <${ErrorLine} error=${error} />
    <table class="grid" id="op-log"><thead><tr><th>#</th><th>${t("time")}</th><th>${t("actor")}</th><th>${t("action")}</th><th>${t("target")}</th><th>${t("reason")}</th><th>${t("outcome")}</th></tr></thead>
      <tbody>${entries.map((/** @type {any} */ e) => html`<tr key=${e.id}><td>${e.id}</td><td class="small">${new Date(e.at * 1000).toLocaleString()}</td><td>${e.actor} <span class="muted small">${e.role}</span></td>
        <td>${e.action}</td><td class="mono small">${e.target}</td><td class="small">${e.reason}</td><td>${e.outcome}</td></tr>`)}</tbody></table>
  </div>`;
}
