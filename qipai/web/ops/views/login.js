// @ts-check
// Sign-in for operators and auditors: name, password and the authenticator's code; the first
// sign-in (one-time password) changes the password and enrols TOTP before anything else.
import { html } from "../../ui/html.js";
import { useState } from "../../vendor/hooks.module.js";
import { api, setToken } from "../api.js";
import { t } from "../i18n.js";
import { ErrorLine } from "./common.js";

/** @param {{ onSignedIn: (me: any) => void }} props */
export function Login({ onSignedIn }) {
  const [error, setError] = useState(/** @type {any} */ (null));
  const [setup, setSetup] = useState(/** @type {any} */ (null));
  const [enrolment, setEnrolment] = useState(/** @type {any} */ (null));
  const [busy, setBusy] = useState(false);

  /** @param {Event} e */
  async function signIn(e) {
    e.preventDefault();
    const form = /** @type {HTMLFormElement} */ (e.target);
    const data = new FormData(form);
    setBusy(true);
    setError(null);
    try {
      const body = { name: String(data.get("name") || ""), password: String(data.get("password") || "") };
      const code = String(data.get("totp") || "").trim();
      const reply = await api.post("/api/ops/login", code ? { ...body, totp: code } : body);
      setToken(reply.token);
      if (reply.stage === "full") onSignedIn(await api.get("/api/ops/me"));
      else setSetup({ ...reply, password: body.password });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  /** @param {Event} e */
  async function finishSetup(e) {
    e.preventDefault();
    const data = new FormData(/** @type {HTMLFormElement} */ (e.target));
    setBusy(true);
    setError(null);
    try {
      if (!enrolment) {
        await api.post("/api/ops/password", { old_password: setup.password, new_password: String(data.get("new_password") || "") });
        setEnrolment(await api.post("/api/ops/totp/enrol"));
      } else {
        const done = await api.post("/api/ops/totp/confirm", { code: String(data.get("code") || "").trim() });
        if (done.stage === "full") onSignedIn(await api.get("/api/ops/me"));
      }
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  if (setup) {
    return html`<section class="panel ops-login" id="ops-setup">
      <h2>${t("setup_title")}</h2>
      <form onSubmit=${finishSetup}>
        ${!enrolment ? html`<label>${t("new_password")} <input name="new_password" type="password" minlength="12" required autocomplete="new-password" /></label>`
          : html`<p>${t("enrol_hint")}</p>
            <div class="qr" dangerouslySetInnerHTML=${{ __html: enrolment.qr_svg || "" }}></div>
            <p class="mono small" id="totp-secret">${enrolment.secret}</p>
            <label>${t("totp_code")} <input name="code" inputmode="numeric" autocomplete="one-time-code" required /></label>`}
        <button type="submit" class="btn gold" disabled=${busy}>${t("continue")}</button>
      </form>
      <${ErrorLine} error=${error} />
    </section>`;
  }
  return html`<section class="panel ops-login" id="ops-login">
    <h2>${t("sign_in_title")}</h2>
    <p class="muted">${t("sign_in_hint")}</p>
    <form onSubmit=${signIn}>
      <label>${t("operator_name")} <input name="name" id="ops-name" required autocomplete="username" /></label>
      <label>${t("password")} <input name="password" id="ops-password" type="password" required autocomplete="current-password" /></label>
      <label>${t("totp_code")} <input name="totp" id="ops-totp" inputmode="numeric" autocomplete="one-time-code" /></label>
      <button type="submit" class="btn gold" id="ops-sign-in" disabled=${busy}>${t("sign_in")}</button>
    </form>
    <${ErrorLine} error=${error} />
  </section>`;
}
