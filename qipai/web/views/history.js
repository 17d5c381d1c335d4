// @ts-check
// My rounds, newest first, in pages: each with its local time (and zone), my net and stack, the
// round as I saw it at its end (my own cards, every bet's result), its fairness data, a
// step-by-step recall of the last 10, and "verify", which recomputes the deal in the page.
import { useState } from "../vendor/hooks.module.js";
import { html, cx } from "../ui/html.js";
import { t, named } from "../i18n/index.js";
import { localTime, money, signed } from "../ui/format.js";
import { renderer } from "../games/index.js";
import { recallSteps } from "../games/recall.js";
import { Net } from "../games/common.js";
import { VerifyPanel } from "./verify.js";
import { http } from "../app.js";

export const RECALL_ROUNDS = 10;

/** @param {{ s: import("../app.js").AppState, actions: any }} props */
export function HistoryView({ s, actions }) {
  const h = s.history;
  return html`<section class="view" id="view-history">
    <div class="lobby-head"><h2>${t("history")}</h2>
      <button type="button" class="btn small ghost" id="btn-history-back" onClick=${() => actions.go("#/lobby")}>${t("back_lobby")}</button>
      <span class="muted small">${t("times_local", { zone: Intl.DateTimeFormat().resolvedOptions().timeZone || "" })}</span></div>
    <div class="history-list" id="history-list">
      ${!h ? html`<p class="muted">…</p>` : h.rounds.length ? null : html`<p class="muted">${t("none_yet")}</p>`}
      ${h ? h.rounds.map((/** @type {any} */ item, /** @type {number} */ i) => html`<${HistoryItem} key=${item.round_id} item=${item} s=${s} recall=${i < RECALL_ROUNDS} />`) : null}
    </div>
    ${h && h.more ? html`<div class="row"><button type="button" class="btn" id="history-more" disabled=${!!s.busy.history}
      onClick=${() => actions.moreHistory()}>${t("more_rounds")}</button></div>` : null}
  </section>`;
}

/** @param {{ item: any, s: any, recall: boolean }} props */
function HistoryItem({ item, s, recall }) {
  const [open, setOpen] = useState(/** @type {null | "recall" | "verify"} */ (null));
  const me = item.players.find((/** @type {any} */ p) => p.seat === item.seat) || {};
  const game = s.games[item.game];
  const R = renderer(item.game);
  const canVerify = item.seed && item.seed_policy !== "operator_only";
  return html`<article class="history-item" data-round=${item.round_id} data-game=${item.game}>
    <div class="row">
      <b>${game ? named(game.title) : item.game}</b>
      <time class="muted" datetime=${item.closed_at || item.opened_at}>${localTime(item.closed_at || item.opened_at)}</time>
      <span class=${cx("badge", { open: "live", voided: "lose" }[/** @type {"open"} */ (item.status)] || "")}>${t(`round_${item.status}`)}</span>
      <${Net} n=${me.net} />
      <span class="muted small">${money(me.start_balance)} → ${money(me.end_balance)}</span>
    </div>
    ${item.view && R.Summary ? html`<div class="history-body"><${R.Summary} view=${item.view} seat=${item.seat} /></div>` : null}
    <div class="mono small">${t("commitment")}: ${item.commitment}</div>
    <div class="mono small">${t("seed")}: ${item.seed || (item.seed_policy === "operator_only" ? t("seed_hidden") : t("seed_later"))}</div>
    <div class="row">
      ${recall && item.view ? html`<button type="button" class="btn small ghost" data-recall=${item.round_id} aria-expanded=${open === "recall" ? "true" : "false"}
        onClick=${() => setOpen(open === "recall" ? null : "recall")}>${t("recall")}</button>` : null}
      ${canVerify || item.game === "tiengow" ? html`<button type="button" class="btn small ghost" data-verify=${item.round_id} aria-expanded=${open === "verify" ? "true" : "false"}
        onClick=${() => setOpen(open === "verify" ? null : "verify")}>${t("verify")}</button>` : null}
    </div>
    ${open === "recall" ? html`<${Recall} item=${item} />` : null}
    ${open === "verify" ? html`<${VerifyPanel} item=${item} http=${http} />` : null}
  </article>`;
}

/** The round step by step, as I saw it. @param {{ item: any }} props */
function Recall({ item }) {
  const steps = recallSteps(item.game, item.view, item.seat);
  const [i, setI] = useState(0);
  const step = steps[Math.min(i, steps.length - 1)];
  return html`<div class="recall" data-recall-step=${i}>
    <div class="row"><button type="button" class="btn small" data-step="prev" disabled=${i === 0} onClick=${() => setI(i - 1)}>${t("step_prev")}</button>
      <span class="small">${t("step_n", { n: i + 1, of: steps.length })} · <b>${step.title}</b></span>
      <button type="button" class="btn small" data-step="next" disabled=${i >= steps.length - 1} onClick=${() => setI(i + 1)}>${t("step_next")}</button></div>
    <div class="recall-body">${step.body}</div>
    <div class="small muted">${localTime(item.opened_at)} → ${localTime(item.closed_at)} · ${signed((item.players.find((/** @type {any} */ p) => p.seat === item.seat) || {}).net)}</div>
  </div>`;
}
