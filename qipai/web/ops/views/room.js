// @ts-check
// The live room: every table with its game, template, state (suspended: with the reason),
// seats and stacks, round number and running round, owner and host; suspend, resume, close.
import { html, cx } from "../../ui/html.js";
import { useEffect, useState } from "../../vendor/hooks.module.js";
import { named } from "../../i18n/index.js";
import { api } from "../api.js";
import { t } from "../i18n.js";
import { amount, askReason, ErrorLine } from "./common.js";

/** @param {{ me: any, openRound: (id: string) => void }} props */
export function Room({ me, openRound }) {
  const [tables, setTables] = useState(/** @type {any[] | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));

  async function load() {
    try {
      setTables((await api.get("/api/ops/tables")).tables);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => {
    load();
    const timer = setInterval(load, 5000);
    return () => clearInterval(timer);
  }, []);

  /** @param {string} id @param {"suspend" | "resume" | "close"} verb */
  async function change(id, verb) {
    const reason = askReason(t(`verb_${verb}`));
    if (!reason) return;
    try {
      await api.post(`/api/ops/tables/${encodeURIComponent(id)}/${verb}`, { reason });
      await load();
    } catch (err) {
      setError(err);
    }
  }

  return html`<section class="view" id="ops-room">
    <div class="row"><h2>${t("tab_room")}</h2><span class="spacer"></span>
      <button type="button" class="btn small ghost" onClick=${load}>${t("refresh")}</button></div>
    <${ErrorLine} error=${error} />
    ${tables === null ? html`<p class="muted">…</p>` : !tables.length ? html`<p class="muted">${t("no_tables")}</p>` : html`
    <table class="grid" id="room-tables">
      <thead><tr><th>${t("table")}</th><th>${t("game")}</th><th>${t("template")}</th><th>${t("state")}</th>
        <th>${t("round_no")}</th><th>${t("seats")}</th><th>${t("owner")}</th><th>${t("host")}</th><th></th></tr></thead>
      <tbody>${tables.map((tb) => {
        const tpl = tb.terms && tb.terms.template;
        return html`<tr key=${tb.id} data-table=${tb.id} data-status=${tb.status}>
          <td><b>${tb.name}</b><div class="mono small">${tb.id}</div></td>
          <td>${named(tb.title) || tb.game}</td>
          <td>${tpl ? html`${tpl.id} <span class="muted">v${tpl.version}</span>` : "—"}</td>
          <td><span class=${cx("badge", tb.status)}>${t(`status_${tb.status}`)}</span>${tb.status_reason ? html`<div class="small muted status-reason">${tb.status_reason}</div>` : null}</td>
          <td>${tb.number}${tb.round_id ? html` <a href="#" class="small" onClick=${(/** @type {Event} */ e) => { e.preventDefault(); openRound(tb.round_id); }}>${t("open_round")}</a>` : null}</td>
          <td><ul class="seats">${tb.seats.map((/** @type {any} */ s) => html`<li key=${s.seat}>${s.seat}: ${s.occupied ? html`${s.bot ? t("bot") : s.name} <span class="muted">${amount(s.stack)}</span>` : html`<span class="muted">${t("empty_seat")}</span>`}</li>`)}</ul></td>
          <td>${tb.owner || "—"}${tb.private ? html` <span class="badge">${t("private")}</span>` : null}</td>
          <td class="mono small">${tb.host || t("this_host")}</td>
          <td>${me.can_write ? html`<div class="row">
            ${tb.status === "suspended" ? html`<button type="button" class="btn small" data-verb="resume" onClick=${() => change(tb.id, "resume")}>${t("verb_resume")}</button>`
              : html`<button type="button" class="btn small" data-verb="suspend" onClick=${() => change(tb.id, "suspend")}>${t("verb_suspend")}</button>`}
            <button type="button" class="btn small ghost" data-verb="close" onClick=${() => change(tb.id, "close")}>${t("verb_close")}</button></div>` : null}</td>
        </tr>`;
      })}</tbody>
    </table>`}
  </section>`;
}
