// @ts-check
// The cashier's desk (docs/operators.md §5): the queue of deposit and withdrawal requests with their
// payment method, reference and large-amount flag, approved or rejected with a reason; four-eyes
// requests of other operators to approve or reject; adjustments, reversals and jackpot funding.
import { html } from "../../ui/html.js";
import { useEffect, useState } from "../../vendor/hooks.module.js";
import { api, query } from "../api.js";
import { t } from "../i18n.js";
import { amount, askReason, ErrorLine, when } from "./common.js";

/** The capability each four-eyes kind needs of its approver (qipai/authority/roles.py FOUR_EYES). */
const KIND_NEEDS = /** @type {Record<string, string>} */ ({ adjustment: "ledger", withdrawal: "cashier", template: "templates" });

/**
 * Whether this operator may decide an approval request: never their own, and only with the
 * kind's capability (the server refuses the rest: `own_request`, `role_forbidden`).
 * @param {{ operator: string, may?: string[] }} me @param {{ requested_by: string, kind: string, status: string }} req
 */
export function canDecide(me, req) {
  const may = me.may || [];
  return req.status === "pending" && req.requested_by !== me.operator && may.includes("approve") && may.includes(KIND_NEEDS[req.kind] || "");
}

/** Pending requests first (oldest first: the queue's order), then the decided ones newest first. @param {any[]} rows */
export function queueOrder(rows) {
  const pending = rows.filter((r) => r.status === "pending").sort((a, b) => a.id - b.id);
  const rest = rows.filter((r) => r.status !== "pending").sort((a, b) => b.id - a.id);
  return [...pending, ...rest];
}

/** @param {{ me: any }} props */
export function Desk({ me }) {
  const [requests, setRequests] = useState(/** @type {any[]} */ ([]));
  const [approvals, setApprovals] = useState(/** @type {any[]} */ ([]));
  const [error, setError] = useState(/** @type {any} */ (null));
  const [note, setNote] = useState("");
  const may = /** @type {string[]} */ (me.may || []);

  async function load() {
    try {
      const [r, a] = await Promise.all([
        api.get(`/api/ops/money/requests${query({ limit: 100 })}`),
        api.get(`/api/ops/approvals${query({ limit: 100 })}`),
      ]);
      setRequests(queueOrder(r.requests.filter((/** @type {any} */ x) => x.kind !== "demo")));
      setApprovals(queueOrder(a.approvals));
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => { load(); }, []);

  /** @param {string} path @param {any} body @param {string} done */
  async function act(path, body, done) {
    try {
      const r = await api.post(path, body);
      setNote(r && (r.awaiting_approval || r.status === "awaiting_approval") ? t("desk_waiting_second") : done);
      setError(null);
    } catch (err) {
      setError(err);
    }
    await load();
  }

  /** @param {any} req @param {boolean} approve */
  function decide(req, approve) {
    const reason = askReason(t(approve ? "verb_approve" : "verb_reject"));
    if (reason) act(`/api/ops/money/requests/${req.id}/${approve ? "approve" : "reject"}`, { reason }, t("desk_done"));
  }

  /** @param {any} req @param {boolean} approve */
  function decideApproval(req, approve) {
    const reason = askReason(t(approve ? "verb_approve" : "verb_reject"));
    if (reason) act(`/api/ops/approvals/${req.id}/${approve ? "approve" : "reject"}`, { reason }, t("desk_done"));
  }

  /** @param {Event} e @param {string} path @param {(f: FormData) => any} body */
  function submit(e, path, body) {
    e.preventDefault();
    const form = /** @type {HTMLFormElement} */ (e.target);
    act(path, body(new FormData(form)), t("desk_done"));
    form.reset();
  }
  const num = (/** @type {FormData} */ f, /** @type {string} */ k) => Number(f.get(k));
  const str = (/** @type {FormData} */ f, /** @type {string} */ k) => String(f.get(k) || "").trim();

  return html`<section class="panel" id="desk">
    <h2>${t("tab_cashier")}</h2>
    <${ErrorLine} error=${error} />
    ${note ? html`<p class="muted" id="desk-note">${note}</p>` : null}
    <h3>${t("desk_requests")}</h3>
    <table class="grid" id="desk-requests"><thead><tr><th>#</th><th>${t("player")}</th><th>${t("desk_kind")}</th><th>${t("amount")}</th>
      <th>${t("desk_method")}</th><th>${t("desk_reference")}</th><th>${t("status")}</th><th>${t("desk_at")}</th><th></th></tr></thead>
      <tbody>${requests.map((r) => html`<tr key=${r.id} data-id=${r.id} class=${r.large ? "large" : ""}>
        <td>${r.id}</td><td>${r.player}</td><td>${t(`desk_kind_${r.kind}`)}</td>
        <td>${amount(r.amount)}${r.large ? html` <span class="badge warn" data-flag="large">${t("desk_large")}</span>` : null}</td>
        <td>${r.method || "—"}</td><td>${r.reference || "—"}</td><td>${t(`desk_status_${r.status}`)}</td><td>${when(new Date(r.created_at * 1000).toISOString())}</td>
        <td>${r.status === "pending" && may.includes("cashier") ? html`<div class="row">
          <button type="button" class="btn small gold" data-act="approve" onClick=${() => decide(r, true)}>${t("verb_approve")}</button>
          <button type="button" class="btn small" data-act="reject" onClick=${() => decide(r, false)}>${t("verb_reject")}</button></div>` : null}</td></tr>`)}</tbody></table>
    <h3>${t("desk_approvals")}</h3>
    <table class="grid" id="desk-approvals"><thead><tr><th>#</th><th>${t("desk_kind")}</th><th>${t("desk_target")}</th><th>${t("reason")}</th>
      <th>${t("desk_asked_by")}</th><th>${t("status")}</th><th></th></tr></thead>
      <tbody>${approvals.map((a) => html`<tr key=${a.id} data-id=${a.id}>
        <td>${a.id}</td><td>${t(`desk_kind_${a.kind}`)}</td><td>${a.target}</td><td>${a.reason}</td><td>${a.requested_by}</td>
        <td>${t(`desk_status_${a.status}`)}${a.decided_by ? ` · ${a.decided_by}` : ""}</td>
        <td>${canDecide(me, a) ? html`<div class="row">
          <button type="button" class="btn small gold" data-act="approve" onClick=${() => decideApproval(a, true)}>${t("verb_approve")}</button>
          <button type="button" class="btn small" data-act="reject" onClick=${() => decideApproval(a, false)}>${t("verb_reject")}</button></div>` : null}</td></tr>`)}</tbody></table>
    ${may.includes("ledger") ? html`<h3>${t("desk_corrections")}</h3>
    <form class="row" id="desk-adjust" onSubmit=${(/** @type {Event} */ e) => submit(e, "/api/ops/ledger/adjustments", (f) => ({ player: str(f, "player"), amount: num(f, "amount"), reason: str(f, "reason") }))}>
      <input name="player" placeholder=${t("player")} required maxlength="64" />
      <input name="amount" type="number" step="1" required placeholder=${t("desk_signed_amount")} />
      <input name="reason" placeholder=${t("reason")} required maxlength="500" />
      <button type="submit" class="btn small">${t("desk_adjust")}</button></form>
    <form class="row" id="desk-reverse" onSubmit=${(/** @type {Event} */ e) => submit(e, "/api/ops/ledger/reversals", (f) => ({ tx_id: num(f, "tx_id"), reason: str(f, "reason") }))}>
      <input name="tx_id" type="number" min="1" step="1" required placeholder=${t("desk_tx")} />
      <input name="reason" placeholder=${t("reason")} required maxlength="500" />
      <button type="submit" class="btn small">${t("desk_reverse")}</button></form>` : null}
    ${may.includes("jackpot") ? html`<form class="row" id="desk-fund" onSubmit=${(/** @type {Event} */ e) => submit(e, `/api/ops/jackpots/${encodeURIComponent(str(new FormData(/** @type {HTMLFormElement} */ (e.target)), "pool"))}/fund`, (f) => ({ amount: num(f, "amount"), reason: str(f, "reason") }))}>
      <input name="pool" placeholder=${t("desk_pool")} required maxlength="64" />
      <input name="amount" type="number" min="1" step="1" required placeholder=${t("amount")} />
      <input name="reason" placeholder=${t("reason")} required maxlength="500" />
      <button type="submit" class="btn small">${t("desk_fund")}</button></form>` : null}
  </section>`;
}
