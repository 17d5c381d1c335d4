// @ts-check
// House results (per day, game, template, table: turnover, GGR, commission, rounding, jackpot,
// bots; CSV) and exact vs observed return of every bet of every template (95 % interval, z,
// flag; the observed return over time as a chart).
import { html, cx } from "../../ui/html.js";
import { useEffect, useState } from "../../vendor/hooks.module.js";
import { named } from "../../i18n/index.js";
import { api, query } from "../api.js";
import { t } from "../i18n.js";
import { amount, ErrorLine, pct } from "./common.js";
import { Chart } from "./chart.js";
import { downloadCsv, downloadJson } from "./export.js";

const GROUPS = ["day", "game", "template", "table"];
const MONEY = ["turnover", "bot_turnover", "people_net", "ggr", "house", "commission", "rounding",
  "jackpot_seed", "jackpot_top_ups", "jackpot_contributions", "jackpot_awards", "bots_net"];

export function House() {
  const [by, setBy] = useState(["game", "template"]);
  const [range, setRange] = useState({ since: "", until: "" });
  const [report, setReport] = useState(/** @type {any} */ (null));
  const [daily, setDaily] = useState(/** @type {any} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));

  async function load() {
    try {
      const [r, d] = await Promise.all([
        api.get(`/api/ops/reports/house${query({ by: by.join(","), ...span() })}`),
        api.get(`/api/ops/reports/house${query({ by: "day", ...span() })}`),
      ]);
      setReport(r);
      setDaily(d);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => { load(); }, [by.join(","), range.since, range.until]);

  /** The chosen days as the API's range: from the first day's start to the end of the last, in the browser's zone. */
  function span() {
    /** @type {Record<string, string>} */
    const out = {};
    if (range.since) out.since = new Date(`${range.since}T00:00:00`).toISOString();
    if (range.until) {
      const end = new Date(`${range.until}T00:00:00`);
      end.setDate(end.getDate() + 1);
      out.until = end.toISOString();
    }
    return out;
  }

  function fileName() {
    return `house-results-${by.join("-")}${range.since ? `-from-${range.since}` : ""}${range.until ? `-to-${range.until}` : ""}`;
  }

  async function csv() {
    try {
      await downloadCsv(`/api/ops/reports/house${query({ by: by.join(","), ...span(), format: "csv" })}`, `${fileName()}.csv`);
    } catch (err) {
      setError(err);
    }
  }

  /** @param {string} g */
  function toggle(g) {
    setBy(by.includes(g) ? by.filter((x) => x !== g) : GROUPS.filter((x) => x === g || by.includes(x)));
  }

  const labels = report ? report.columns.filter((/** @type {string} */ c) => !MONEY.includes(c) && c !== "rounds" && c !== "voided") : [];
  const days = daily ? daily.rows : [];
  return html`<section class="view" id="ops-house">
    <div class="row"><h2>${t("tab_house")}</h2><span class="spacer"></span>
      ${GROUPS.map((g) => html`<label key=${g} class="small"><input type="checkbox" data-group=${g} checked=${by.includes(g)} onChange=${() => toggle(g)} /> ${t(`by_${g}`)}</label>`)}
      <label class="small">${t("since")} <input type="date" id="house-since" value=${range.since} onChange=${(/** @type {any} */ e) => setRange({ ...range, since: e.target.value })} /></label>
      <label class="small">${t("until")} <input type="date" id="house-until" value=${range.until} onChange=${(/** @type {any} */ e) => setRange({ ...range, until: e.target.value })} /></label>
      <button type="button" class="btn small" id="house-refresh" onClick=${load}>${t("refresh")}</button>
      <button type="button" class="btn small ghost" id="house-csv" onClick=${csv}>CSV</button>
      <button type="button" class="btn small ghost" id="house-json" disabled=${!report} onClick=${() => downloadJson(report, `${fileName()}.json`)}>JSON</button></div>
    <${ErrorLine} error=${error} />
    ${report ? html`<div class="scroll"><table class="grid" id="house-table"><thead><tr>${labels.map((/** @type {string} */ c) => html`<th key=${c}>${t(`col_${c}`)}</th>`)}
      <th>${t("col_rounds")}</th>${MONEY.map((c) => html`<th key=${c}>${t(`col_${c}`)}</th>`)}</tr></thead>
      <tbody>${report.rows.map((/** @type {any} */ r, /** @type {number} */ i) => html`<tr key=${i}>${labels.map((/** @type {string} */ c) => html`<td key=${c} class="small">${r[c] ?? "—"}</td>`)}
        <td class="num">${r.rounds}</td>${MONEY.map((c) => html`<td key=${c} class="num" data-col=${c}>${amount(r[c])}</td>`)}</tr>`)}
        <tr class="total" id="house-total"><td colspan=${Math.max(1, labels.length)}><b>${t("total")}</b></td>${labels.length ? null : null}
          <td class="num">${report.total.rounds}</td>${MONEY.map((c) => html`<td key=${c} class="num" data-col=${c}><b>${amount(report.total[c])}</b></td>`)}</tr></tbody></table></div>
      <div class="row small muted" id="house-books">${t("jackpot_liability")}: ${amount(report.books.jackpot_liability)} ·
        ${t("bot_bankroll")}: ${amount(report.books.bots.bankroll)} (${t("bots_at_tables")} ${amount(report.books.bots.at_tables)}, ${t("bots_result")} ${amount(report.books.bots.result)}) ·
        ${t("house_accounts")}: ${amount(report.books.house_at_tables)}</div>` : html`<p class="muted">…</p>`}
    ${days.length ? html`<h4>${t("ggr_by_day")}</h4><${Chart} id="house-chart" x=${days.map((/** @type {any} */ d) => Date.parse(`${d.day}T00:00:00Z`) / 1000)}
      series=${[
        { label: t("col_ggr"), values: days.map((/** @type {any} */ d) => d.ggr / 100), color: "#d9a441" },
        { label: t("col_turnover"), values: days.map((/** @type {any} */ d) => d.turnover / 100), color: "#3fbf7f" },
      ]} />` : null}
  </section>`;
}

export function Returns() {
  const [rows, setRows] = useState(/** @type {any[] | null} */ (null));
  const [decisions, setDecisions] = useState(/** @type {any[]} */ ([]));
  const [pick, setPick] = useState(/** @type {number | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));

  async function load() {
    try {
      const found = await api.get("/api/ops/reports/returns?series=true");
      setRows(found.rows);
      setDecisions(found.decisions || []);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => { load(); }, []);
  const chosen = rows && pick !== null ? rows[pick] : null;
  return html`<section class="view" id="ops-returns">
    <div class="row"><h2>${t("tab_returns")}</h2><span class="spacer"></span>
      <button type="button" class="btn small" id="returns-refresh" onClick=${load}>${t("refresh")}</button></div>
    <p class="small muted">${t("returns_hint")}</p>
    <${ErrorLine} error=${error} />
    ${rows ? html`<div class="scroll"><table class="grid" id="returns-table"><thead><tr><th>${t("template")}</th><th>${t("bet")}</th><th>${t("scope")}</th>
      <th>${t("col_rounds")}</th><th>${t("bets")}</th><th>${t("exact")}</th><th>${t("reference")}</th><th>${t("observed")}</th><th>95 %</th><th>z</th><th></th></tr></thead>
      <tbody>${rows.map((r, i) => html`<tr key=${i} class=${cx(r.flag && "flagged", pick === i && "selected")} data-template=${r.template_id} data-bet=${r.bet} data-scope=${r.scope}
          data-strategy=${r.strategy || ""} data-rounds=${r.rounds} data-flag=${r.flag ? "true" : "false"}>
        <td>${r.template_id} <span class="muted">v${r.template_version}</span></td>
        <td>${named(r.label) || r.bet}${r.strategy ? html` <span class="muted small">(${r.strategy})</span>` : null}</td>
        <td>${t(`scope_${r.scope}`)}</td><td class="num">${r.rounds}</td><td class="num">${r.bets}</td>
        <td class="num">${pct(r.exact)}</td><${ReferenceCell} r=${r} /><td class="num observed">${pct(r.observed)}</td>
        <td class="num small">${r.low === null ? "—" : `${pct(r.low, 2)} – ${pct(r.high, 2)}`}</td>
        <td class="num">${r.z === null ? "—" : r.z.toFixed(2)}</td>
        <td>${r.flag ? html`<span class="badge suspended">${t("flag")}</span>` : r.given_up !== null ? html`<span class="small">${t("given_up")} ${pct(r.given_up, 2)}</span>` : null}
          ${r.series && r.series.length ? html`<button type="button" class="btn small ghost" onClick=${() => setPick(i)}>${t("chart")}</button>` : null}</td></tr>`)}</tbody></table></div>` : html`<p class="muted">…</p>`}
    ${decisions.length ? html`<h4>${t("decisions_title")}</h4><p class="small muted">${t("decisions_hint")}</p>
      <table class="grid" id="decisions"><thead><tr><th>${t("template")}</th><th>${t("boxes")}</th><th>${t("flop_deviations")}</th>
        <th>${t("later_deviations")}</th><th>${t("given_up")}</th><th>${t("given_up_per_ante")}</th></tr></thead>
        <tbody>${decisions.map((d) => html`<tr key=${`${d.template_id}:${d.template_version}`} data-template=${d.template_id}>
          <td>${d.template_id} <span class="muted">v${d.template_version}</span></td><td class="num">${d.boxes}</td>
          <td class="num">${d.flop_deviations} / ${d.flop_decisions}</td><td class="num">${d.later_deviations} / ${d.later_decisions}</td>
          <td class="num">${amount(Math.round(d.given_up))}</td><td class="num">${pct(d.given_up_per_ante, 3)}</td></tr>`)}</tbody></table>` : null}
    ${chosen ? html`<h4>${chosen.template_id} · ${chosen.bet} · ${t(`scope_${chosen.scope}`)}</h4>
      <${Chart} id="returns-chart" time=${false} x=${chosen.series.map((/** @type {any} */ p) => p.rounds)} yFormat=${(/** @type {number} */ v) => `${(v * 100).toFixed(1)} %`}
        series=${[
          { label: t("observed"), values: chosen.series.map((/** @type {any} */ p) => p.observed), color: "#d9a441" },
          { label: t("low"), values: chosen.series.map((/** @type {any} */ p) => p.low), color: "#b3a08a", dash: [4, 4] },
          { label: t("high"), values: chosen.series.map((/** @type {any} */ p) => p.high), color: "#b3a08a", dash: [4, 4] },
          { label: chosen.reference === "simulated" ? t("ref_simulated") : t("exact"), values: chosen.series.map((/** @type {any} */ p) => p.exact), color: "#3fbf7f" },
        ]} />` : null}
  </section>`;
}

/**
 * Which figure a row is compared with: the exact one, or the room's bots simulated at the
 * template's settings (± its 95 % interval) where the exact figure assumes other play
 * (qipai/authority/references.py); the flag is Holm-corrected over the rows shown.
 * @param {{ r: any }} props
 */
export function ReferenceCell({ r }) {
  if (r.reference !== "simulated") return html`<td class="num small reference" data-reference="exact">${t("ref_exact")}</td>`;
  const ready = r.reference_rtp !== null && r.reference_rtp !== undefined;
  return html`<td class="num small reference" data-reference="simulated" title=${r.reference_note || ""}>
    ${ready ? `${t("ref_simulated")} ${pct(r.reference_rtp)} ± ${pct(r.reference_ci95, 2)}` : `${t("ref_simulated")} · ${t("ref_pending")}`}</td>`;
}
