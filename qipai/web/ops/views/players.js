// @ts-check
// Players: search; wallet and table balances; lock and unlock; limits; the rounds they played;
// the entries of any of their accounts with the running balance.
import { html } from "../../ui/html.js";
import { useState } from "../../vendor/hooks.module.js";
import { api, query } from "../api.js";
import { t } from "../i18n.js";
import { amount, askReason, ErrorLine, roundRef, Signed, when } from "./common.js";
import { PlayerRounds } from "./player_rounds.js";

const LIMITS = ["max_open_tables", "max_connections", "max_watched", "demo_daily_limit"];

/** @param {{ me: any, openRound: (id: string) => void }} props */
export function Players({ me, openRound }) {
  const [found, setFound] = useState(/** @type {any[] | null} */ (null));
  const [player, setPlayer] = useState(/** @type {any} */ (null));
  const [book, setBook] = useState(/** @type {any} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));

  /** @param {Event} e */
  async function search(e) {
    e.preventDefault();
    const q = String(new FormData(/** @type {HTMLFormElement} */ (e.target)).get("q") || "");
    try {
      setFound((await api.get(`/api/ops/players${query({ q })}`)).players);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }

  /** @param {string} name @param {string | null} [account] */
  async function open(name, account = null) {
    try {
      const [detail, entries] = await Promise.all([
        api.get(`/api/ops/players/${encodeURIComponent(name)}`),
        api.get(`/api/ops/players/${encodeURIComponent(name)}/entries${query({ account })}`),
      ]);
      setPlayer(detail);
      setBook(entries);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }

  /** The next page of the open account's entries (the API's cursor), after the shown ones. */
  async function more() {
    if (!book || !book.next || !player) return;
    try {
      const page = await api.get(`/api/ops/players/${encodeURIComponent(player.player)}/entries${query({ account: book.account, before: book.next })}`);
      setBook({ ...page, entries: [...book.entries, ...page.entries] });
      setError(null);
    } catch (err) {
      setError(err);
    }
  }

  /** @param {boolean} lock */
  async function setLock(lock) {
    const reason = askReason(t(lock ? "verb_lock" : "verb_unlock"));
    if (!reason || !player) return;
    try {
      await api.post(`/api/ops/players/${encodeURIComponent(player.player)}/${lock ? "lock" : "unlock"}`, { reason });
      await open(player.player, book && book.account);
    } catch (err) {
      setError(err);
    }
  }

  /** @param {Event} e */
  async function saveLimits(e) {
    e.preventDefault();
    if (!player) return;
    const data = new FormData(/** @type {HTMLFormElement} */ (e.target));
    const reason = String(data.get("reason") || "").trim();
    if (!reason) return;
    /** @type {Record<string, unknown>} */
    const body = { reason };
    for (const k of LIMITS) {
      const v = String(data.get(k) || "").trim();
      body[k] = v === "" ? null : Number(v);
    }
    try {
      await api.put(`/api/ops/players/${encodeURIComponent(player.player)}/limits`, body);
      await open(player.player, book && book.account);
    } catch (err) {
      setError(err);
    }
  }

  return html`<section class="view" id="ops-players">
    <h2>${t("tab_players")}</h2>
    <form class="row" onSubmit=${search}>
      <input name="q" id="player-q" placeholder=${t("search_name")} maxlength="32" />
      <button type="submit" class="btn small" id="player-search">${t("search")}</button>
    </form>
    <${ErrorLine} error=${error} />
    ${found ? html`<table class="grid" id="player-list"><thead><tr><th>${t("player")}</th><th>${t("wallet")}</th><th>${t("state")}</th></tr></thead>
      <tbody>${found.map((p) => html`<tr key=${p.player}><td><a href="#" data-player=${p.player} onClick=${(/** @type {Event} */ e) => { e.preventDefault(); open(p.player); }}>${p.player}</a></td>
        <td>${amount(p.wallet)}</td><td>${p.locked ? html`<span class="badge suspended">${t("locked")}</span>` : t("active")}</td></tr>`)}</tbody></table>` : null}
    ${player ? html`<div class="panel" id="player-detail" data-player=${player.player}>
      <div class="row"><h3>${player.player}</h3>
        ${player.locked ? html`<span class="badge suspended">${t("locked")}</span> <span class="muted">${player.lock_reason || ""}</span>` : null}
        <span class="spacer"></span>
        ${me.can_write ? html`<button type="button" class="btn small" id="btn-lock" onClick=${() => setLock(!player.locked)}>${t(player.locked ? "verb_unlock" : "verb_lock")}</button>` : null}</div>
      <h4>${t("accounts")}</h4>
      <table class="grid" id="player-accounts"><tbody>${Object.entries(player.balances || {}).map(([name, bal]) => html`<tr key=${name}>
        <td><a href="#" class="mono" onClick=${(/** @type {Event} */ e) => { e.preventDefault(); open(player.player, name); }}>${name}</a></td><td class="num">${amount(Number(bal))}</td></tr>`)}</tbody></table>
      <h4>${t("limits")}</h4>
      <form class="row small" id="player-limits" onSubmit=${saveLimits}>
        ${LIMITS.map((k) => html`<label key=${k}>${t(`limit_${k}`)} <input name=${k} type="number" min="0" step="1" size="8" disabled=${!me.can_write}
          placeholder=${t("room_default")} value=${(player.limits || {})[k] ?? ""} /></label>`)}
        ${me.can_write ? html`<input name="reason" placeholder=${t("reason")} maxlength="500" required /><button type="submit" class="btn small">${t("save")}</button>` : null}
      </form>
      ${book ? html`<h4>${t("entries_of", { account: book.account })}: ${amount(book.balance)}</h4>
      <table class="grid" id="player-entries"><thead><tr><th>${t("time")}</th><th>tx</th><th>${t("kind")}</th><th>${t("amount")}</th><th>${t("balance_after")}</th><th>${t("round")}</th></tr></thead>
        <tbody>${book.entries.map((/** @type {any} */ en) => html`<tr key=${en.entry_id ?? en.tx_id}><td>${when(en.at)}</td><td>${en.tx_id}</td><td>${en.kind}</td>
          <td class="num"><${Signed} n=${en.amount} /></td><td class="num">${amount(en.balance_after)}</td>
          <td>${en.round_id ? html`<a href="#" class="mono small" title=${en.round_id} onClick=${(/** @type {Event} */ e) => { e.preventDefault(); openRound(en.round_id); }}>${roundRef(en.round_id)}</a>` : ""}</td></tr>`)}</tbody></table>
      ${book.next ? html`<button type="button" class="btn small" id="player-entries-more" onClick=${more}>${t("more_entries")}</button>` : null}` : null}
      <h4>${t("last_rounds")}</h4>
      <ul class="plain" id="player-rounds">${(player.rounds || []).map((/** @type {any} */ r) => html`<li key=${r.round_id}>
        <a href="#" class="mono" data-round=${r.round_id} title=${r.round_id} onClick=${(/** @type {Event} */ e) => { e.preventDefault(); openRound(r.round_id); }}>${roundRef(r.round_id)}</a>
        ${r.game} <${Signed} n=${r.net} /></li>`)}</ul>
      <${PlayerRounds} player=${player.player} openRound=${openRound} key=${player.player} />
    </div>` : null}
  </section>`;
}
