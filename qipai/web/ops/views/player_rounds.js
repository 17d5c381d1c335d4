// @ts-check
// A player's last N rounds with the terms each was played under (template and version, config
// hash, settings and pay table) and their own stake and net, exported as CSV or JSON: what a
// regulator asks for (GET /api/ops/players/{player}/rounds, docs/operators.md#rounds).
import { html } from "../../ui/html.js";
import { useEffect, useState } from "../../vendor/hooks.module.js";
import { api, query } from "../api.js";
import { t } from "../i18n.js";
import { amount, ErrorLine, roundRef, Signed, when } from "./common.js";
import { downloadCsv, downloadJson } from "./export.js";

const MAX_LAST = 1000;

/** @param {{ player: string, openRound: (id: string) => void }} props */
export function PlayerRounds({ player, openRound }) {
  const [last, setLast] = useState(10);
  const [found, setFound] = useState(/** @type {any} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));
  const path = `/api/ops/players/${encodeURIComponent(player)}/rounds`;

  async function load() {
    try {
      setFound(await api.get(`${path}${query({ last })}`));
      setError(null);
    } catch (err) {
      setError(err);
    }
  }
  useEffect(() => { setFound(null); load(); }, [player]);

  async function csv() {
    try {
      await downloadCsv(`${path}${query({ last, format: "csv" })}`, `${player}-last-${last}-rounds.csv`);
    } catch (err) {
      setError(err);
    }
  }

  return html`<div id="player-last-rounds">
    <div class="row small"><h4>${t("last_n_rounds")}</h4>
      <input type="number" id="player-last-n" min="1" max=${MAX_LAST} step="1" size="5" value=${last}
        onChange=${(/** @type {any} */ e) => setLast(Math.max(1, Math.min(MAX_LAST, Math.floor(Number(e.target.value) || 10))))} />
      <button type="button" class="btn small" id="player-last-load" onClick=${load}>${t("refresh")}</button>
      <button type="button" class="btn small ghost" id="player-last-csv" onClick=${csv}>CSV</button>
      <button type="button" class="btn small ghost" id="player-last-json" disabled=${!found} onClick=${() => downloadJson(found, `${player}-last-${last}-rounds.json`)}>JSON</button></div>
    <${ErrorLine} error=${error} />
    ${found ? html`<table class="grid" id="player-last-table"><thead><tr><th>${t("round")}</th><th>${t("game")}</th><th>${t("template")}</th><th>${t("state")}</th><th>${t("opened")}</th><th>${t("col_stake")}</th><th>${t("col_net")}</th></tr></thead>
      <tbody>${found.rounds.map((/** @type {any} */ r) => html`<tr key=${r.id}>
        <td><a href="#" class="mono" data-round=${r.id} title=${r.id} onClick=${(/** @type {Event} */ e) => { e.preventDefault(); openRound(r.id); }}>${roundRef(r.id)}</a></td>
        <td>${r.game}</td><td class="small" title=${r.config_hash || ""}>${r.template_id ? `${r.template_id} v${r.template_version}` : "—"}</td>
        <td>${t(`round_${r.status}`)}</td><td>${when(r.opened_at)}</td>
        <td class="num">${amount(r.stake)}</td><td class="num"><${Signed} n=${r.net} /></td></tr>`)}</tbody></table>` : null}
  </div>`;
}
