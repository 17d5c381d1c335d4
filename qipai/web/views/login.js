// @ts-check
import { useState } from "../vendor/hooks.module.js";
import { html } from "../ui/html.js";
import { t } from "../i18n/index.js";
import { Tile } from "../ui/tile.js";
import { ApiError, errorText } from "../api/errors.js";

/** What is wrong with the form before it is sent (the server checks again). @param {string} user @param {string} pass */
export function loginProblem(user, pass) {
  if (!/^[A-Za-z0-9_]{3,24}$/.test(user)) return { code: "invalid_input", field: "username" };
  if (pass.length < 8) return { code: "invalid_input", field: "password" };
  return null;
}

/** @param {{ actions: any }} props */
export function LoginView({ actions }) {
  const [error, setError] = useState(/** @type {any} */ (null));
  const [busy, setBusy] = useState(false);
  /** @param {"login" | "signup"} kind @param {HTMLFormElement} form */
  const submit = async (kind, form) => {
    const user = /** @type {HTMLInputElement} */ (form.elements.namedItem("username")).value.trim();
    const pass = /** @type {HTMLInputElement} */ (form.elements.namedItem("password")).value;
    const problem = kind === "signup" ? loginProblem(user, pass) : !user || !pass ? { code: "invalid_input", field: user ? "password" : "username" } : null;
    if (problem) {
      setError(problem);
      return;
    }
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await actions.signIn(kind, user, pass);
    } catch (e) {
      setError(e instanceof ApiError ? e : { code: "error" });
    } finally {
      setBusy(false);
    }
  };
  return html`<section class="view" id="view-login">
    <div class="login-card">
      <div class="login-hero">
        <div class="hero-cards"><span class="card-mini red c-a">A<br />♥</span><span class="card-mini c-k">K<br />♠</span><${Tile} tile="6-6" showName=${false} /></div>
        <h1>${t("welcome")}</h1><p>${t("welcome_sub")}</p>
      </div>
      <form id="login-form" class="login-form" novalidate autocomplete="on"
          onSubmit=${(/** @type {Event} */ e) => { e.preventDefault(); submit("login", /** @type {HTMLFormElement} */ (e.currentTarget)); }}>
        <label><span>${t("username")}</span><input id="login-user" name="username" maxlength="24" autocomplete="username" /></label>
        <label><span>${t("password")}</span><input id="login-pass" name="password" type="password" autocomplete="current-password" /></label>
        <div class="row">
          <button id="btn-login" type="submit" class="btn gold" disabled=${busy}>${t("login")}</button>
          <button id="btn-signup" type="button" class="btn" disabled=${busy}
            onClick=${(/** @type {any} */ e) => submit("signup", e.currentTarget.form)}>${t("signup")}</button>
        </div>
        <p class="muted small">${t("signup_rules")}</p>
        <p id="login-error" class="error-text" role="alert" title=${error && error.message ? error.message : ""}>${error ? errorText(error) : ""}</p>
      </form>
    </div>
  </section>`;
}
