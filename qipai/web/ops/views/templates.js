// @ts-check
// Templates (docs/operators.md §3): every template's newest version; a new template previewed before
// it is asked for (exact returns of every bet and the game's PAR sheet, POST /api/ops/templates/preview);
// a new version of the settings; retirement. Every change carries a reason and waits for a second
// operator where the room says so (four-eyes).
import { html } from "../../ui/html.js";
import { useEffect, useState } from "../../vendor/hooks.module.js";
import { api, query } from "../api.js";
import { t } from "../i18n.js";
import { amount, askReason, ErrorLine, pct } from "./common.js";

/**
 * The body of a new template from the form's fields; throws naming the field whose JSON is bad.
 * @param {Record<string, string>} f
 */
export function templateBody(f) {
  let settings;
  try {
    settings = f.settings && f.settings.trim() ? JSON.parse(f.settings) : {};
  } catch {
    throw Object.assign(new Error("settings"), { code: "invalid_input", field: "settings" });
  }
  /** @type {Record<string, any>} */
  const body = { game: f.game, name: f.name.trim(), settings, reason: (f.reason || "").trim() };
  if (f.min_buy_in) body.min_buy_in = Number(f.min_buy_in);
  if (f.max_buy_in) body.max_buy_in = Number(f.max_buy_in);
  return body;
}

/**
 * The PAR sheet's bets as rows: return, house edge, hit frequency (the exact fractions' values) and
 * standard deviation per unit staked.
 * @param {any} par @returns {{ bet: string, rtp: number | null, edge: number | null, hit: number | null, sd: number | null }[]}
 */
export function parRows(par) {
  const value = (/** @type {any} */ x) => (x && typeof x === "object" ? x.value : typeof x === "number" ? x : null);
  return (par && Array.isArray(par.bets) ? par.bets : []).map((/** @type {any} */ b) => ({
    bet: String(b.bet), rtp: value(b.rtp), edge: value(b.house_edge), hit: value(b.hit_frequency), sd: typeof b.sd === "number" ? b.sd : null,
  }));
}

/** @param {{ me: any }} props */
export function Templates({ me }) {
  const [rows, setRows] = useState(/** @type {any[]} */ ([]));
  const [preview, setPreview] = useState(/** @type {any} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));
  const [note, setNote] = useState("");
  const may = /** @type {string[]} */ (me.may || []);

  async function load() {
    try {
      setRows((await api.get(`/api/ops/templates${query({})}`)).templates);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => { load(); }, []);

  /** @param {HTMLFormElement} form */
  const fields = (form) => /** @type {Record<string, string>} */ (Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v)])));

  /** @param {Event} e */
  async function onPreview(e) {
    const form = /** @type {HTMLFormElement} */ (/** @type {HTMLElement} */ (e.target).closest("form"));
    try {
      setPreview(await api.post("/api/ops/templates/preview", templateBody(fields(form))));
      setError(null);
    } catch (err) {
      setError(err);
    }
  }

  /** @param {Event} e */
  async function onCreate(e) {
    e.preventDefault();
    const form = /** @type {HTMLFormElement} */ (e.target);
    try {
      const r = await api.post("/api/ops/templates", templateBody(fields(form)));
      setNote(r.status === "awaiting_approval" ? t("desk_waiting_second") : t("desk_done"));
      setError(null);
    } catch (err) {
      setError(err);
    }
    await load();
  }

  /** @param {any} tpl */
  async function newVersion(tpl) {
    const text = globalThis.prompt(t("tpl_settings_json"), JSON.stringify(tpl.config));
    if (text === null) return;
    const reason = askReason(t("tpl_version"));
    if (!reason) return;
    try {
      const r = await api.put(`/api/ops/templates/${encodeURIComponent(tpl.id)}`, { base_version: tpl.version, settings: JSON.parse(text), reason });
      setNote(r.status === "awaiting_approval" ? t("desk_waiting_second") : t("desk_done"));
      setError(null);
    } catch (err) {
      setError(err);
    }
    await load();
  }

  /** @param {any} tpl */
  async function retire(tpl) {
    const reason = askReason(t("tpl_retire"));
    if (!reason) return;
    try {
      const r = await api.post(`/api/ops/templates/${encodeURIComponent(tpl.id)}/retire`, { base_version: tpl.version, reason });
      setNote(r.status === "awaiting_approval" ? t("desk_waiting_second") : t("desk_done"));
      setError(null);
    } catch (err) {
      setError(err);
    }
    await load();
  }

  const writable = may.includes("templates");
  return html`<section class="panel" id="templates">
    <h2>${t("tab_templates")}</h2>
    <${ErrorLine} error=${error} />
    ${note ? html`<p class="muted" id="tpl-note">${note}</p>` : null}
    <table class="grid" id="tpl-list"><thead><tr><th>${t("tpl_name")}</th><th>${t("tpl_game")}</th><th>${t("tpl_version_no")}</th><th>${t("status")}</th><th>${t("tpl_buy_in")}</th><th></th></tr></thead>
      <tbody>${rows.map((tpl) => html`<tr key=${tpl.id} data-id=${tpl.id}>
        <td>${tpl.name}</td><td>${tpl.game}</td><td>${tpl.version}</td><td>${tpl.status}</td><td>${amount(tpl.min_buy_in)} – ${amount(tpl.max_buy_in)}</td>
        <td>${writable && tpl.status === "active" ? html`<div class="row">
          <button type="button" class="btn small" data-act="version" onClick=${() => newVersion(tpl)}>${t("tpl_version")}</button>
          <button type="button" class="btn small" data-act="retire" onClick=${() => retire(tpl)}>${t("tpl_retire")}</button></div>` : null}</td></tr>`)}</tbody></table>
    ${writable ? html`<form class="stack" id="tpl-new" onSubmit=${onCreate}>
      <h3>${t("tpl_new")}</h3>
      <input name="game" placeholder=${t("tpl_game")} required maxlength="32" />
      <input name="name" placeholder=${t("tpl_name")} required maxlength="64" />
      <textarea name="settings" placeholder=${t("tpl_settings_json")} rows="4"></textarea>
      <div class="row"><input name="min_buy_in" type="number" min="1" step="1" placeholder=${t("tpl_min")} />
        <input name="max_buy_in" type="number" min="1" step="1" placeholder=${t("tpl_max")} /></div>
      <input name="reason" placeholder=${t("reason")} required maxlength="500" />
      <div class="row"><button type="button" class="btn small" id="tpl-preview" onClick=${onPreview}>${t("tpl_preview")}</button>
        <button type="submit" class="btn small gold">${t("tpl_create")}</button></div></form>` : null}
    ${preview ? html`<div id="tpl-preview-out"><h3>${t("tpl_preview")}</h3>
      <table class="grid" id="tpl-rtp"><thead><tr><th>${t("tpl_bet")}</th><th>${t("tpl_rtp")}</th></tr></thead>
        <tbody>${(preview.facts.rtp || []).map((/** @type {any} */ b) => html`<tr key=${b.bet} data-bet=${b.bet}><td>${b.label || b.bet}</td><td>${pct(b.rtp)}</td></tr>`)}</tbody></table>
      ${preview.par ? html`<h3>${t("tpl_par")}</h3><table class="grid" id="tpl-par"><thead><tr><th>${t("tpl_bet")}</th><th>${t("tpl_rtp")}</th><th>${t("tpl_edge")}</th><th>${t("tpl_hit")}</th><th>${t("tpl_sd")}</th></tr></thead>
        <tbody>${parRows(preview.par).map((r) => html`<tr key=${r.bet} data-bet=${r.bet}><td>${r.bet}</td><td>${pct(r.rtp)}</td><td>${pct(r.edge)}</td><td>${pct(r.hit, 2)}</td><td>${r.sd === null ? "—" : r.sd.toFixed(3)}</td></tr>`)}</tbody></table>` : html`<p class="muted">${t("tpl_no_par")}</p>`}</div>` : null}
  </section>`;
}
