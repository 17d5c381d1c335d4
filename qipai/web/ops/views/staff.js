// @ts-check
// Operators (a supervisor's tab, docs/operators.md §2): every operator with role, MFA and state;
// add one (the one-time password is shown once), disable or enable, reset MFA, lift a lock-out.
import { html } from "../../ui/html.js";
import { useEffect, useState } from "../../vendor/hooks.module.js";
import { api } from "../api.js";
import { t } from "../i18n.js";
import { askReason, ErrorLine } from "./common.js";

/** @param {{ me: any }} props */
export function Staff({ me }) {
  const [rows, setRows] = useState(/** @type {any[]} */ ([]));
  const [roles, setRoles] = useState(/** @type {string[]} */ ([]));
  const [secret, setSecret] = useState(/** @type {{ name: string, password: string } | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));

  async function load() {
    try {
      const found = await api.get("/api/ops/operators");
      setRows(found.operators);
      setRoles(found.roles);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => { load(); }, []);

  /** @param {Event} e */
  async function add(e) {
    e.preventDefault();
    const form = /** @type {HTMLFormElement} */ (e.target);
    const f = new FormData(form);
    try {
      const made = await api.post("/api/ops/operators", { name: String(f.get("name") || ""), role: String(f.get("role") || ""), reason: String(f.get("reason") || "").trim() });
      setSecret({ name: made.name, password: made.one_time_password });
      form.reset();
      setError(null);
    } catch (err) {
      setError(err);
    }
    await load();
  }

  /** @param {string} name @param {string} verb */
  async function act(name, verb) {
    const reason = askReason(t(`staff_${verb}`));
    if (!reason) return;
    try {
      const r = await api.post(`/api/ops/operators/${encodeURIComponent(name)}/${verb}`, { reason });
      if (r.one_time_password) setSecret({ name, password: r.one_time_password });
      setError(null);
    } catch (err) {
      setError(err);
    }
    await load();
  }

  return html`<section class="panel" id="staff">
    <h2>${t("tab_staff")}</h2>
    <${ErrorLine} error=${error} />
    ${secret ? html`<p class="badge" id="staff-secret">${t("staff_once", { name: secret.name })} <code>${secret.password}</code></p>` : null}
    <table class="grid" id="staff-list"><thead><tr><th>${t("staff_name")}</th><th>${t("staff_role")}</th><th>${t("staff_mfa")}</th><th>${t("staff_state")}</th><th></th></tr></thead>
      <tbody>${rows.map((o) => html`<tr key=${o.name} data-name=${o.name}>
        <td>${o.name}</td><td>${t(`role_${o.role}`)}</td><td>${o.totp_enabled ? "✓" : "—"}</td>
        <td>${o.disabled ? t("staff_disabled") : o.locked ? t("staff_locked") : t("staff_active")}</td>
        <td>${o.name === me.operator ? null : html`<div class="row">
          <button type="button" class="btn small" data-act=${o.disabled ? "enable" : "disable"} onClick=${() => act(o.name, o.disabled ? "enable" : "disable")}>${t(o.disabled ? "staff_enable" : "staff_disable")}</button>
          <button type="button" class="btn small" data-act="reset" onClick=${() => act(o.name, "reset")}>${t("staff_reset")}</button>
          ${o.locked ? html`<button type="button" class="btn small" data-act="unlock" onClick=${() => act(o.name, "unlock")}>${t("staff_unlock")}</button>` : null}</div>`}</td></tr>`)}</tbody></table>
    <form class="row" id="staff-add" onSubmit=${add}>
      <input name="name" placeholder=${t("staff_name")} required pattern="[a-z][a-z0-9_.\\-]{1,31}" maxlength="32" />
      <select name="role">${roles.map((r) => html`<option key=${r} value=${r}>${t(`role_${r}`)}</option>`)}</select>
      <input name="reason" placeholder=${t("reason")} required maxlength="500" />
      <button type="submit" class="btn small gold">${t("staff_add")}</button></form>
  </section>`;
}
