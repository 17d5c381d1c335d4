// @ts-check
// The lobby: each game with a quick start, then every table with its limits, buy-in range,
// players n/N and status; the tables I sit at come first.
import { html, cx } from "../ui/html.js";
import { t, named } from "../i18n/index.js";
import { money } from "../ui/format.js";
import { Card } from "../ui/card.js";
import { Tile } from "../ui/tile.js";
import { tableStatus } from "./table.js";
import { tableName, templateName } from "../games/common.js";
import { termsOf, offerOf } from "./help.js";
import { PayTable, ReturnTable, buyInText } from "./paytable.js";

const ART = /** @type {Record<string, () => any>} */ ({
  pokdeng: () => html`<div class="art-cards"><${Card} code="9h" /><${Card} code="Ks" /></div>`,
  paigow: () => html`<div class="art-tiles"><${Tile} tile="6-6" /><${Tile} tile="1-2" /></div>`,
  "holdem-bonus": () => html`<div class="art-cards"><${Card} code="As" /><${Card} code="Ad" /></div>`,
  niuniu: () => html`<div class="art-cards"><${Card} code="Qc" /><${Card} code="Jh" /><${Card} code="Ts" /></div>`,
  tiengow: () => html`<div class="art-tiles"><${Tile} tile="4-5" /><${Tile} tile="3-6" /></div>`,
});

/** A table's or offer's limits in one line: the bet range (or base stake) and the buy-in range. @param {any} tb */
export function limitsText(tb) {
  const terms = termsOf(tb, null);
  const parts = [];
  const pay = terms.pay_table;
  const lim = pay && Array.isArray(pay.limits) && pay.limits.length ? pay.limits : null;
  if (lim) parts.push(t("bet_range", { min: money(Math.min(...lim.map((/** @type {any} */ l) => l.min))), max: money(Math.max(...lim.map((/** @type {any} */ l) => l.max ?? l.min))) }));
  else if (pay && pay.base) parts.push(t("base_is", { base: money(pay.base) }));
  const buy = buyInText(terms.min_buy_in !== null ? terms : tb);
  if (buy) parts.push(buy);
  return parts.join(" · ");
}

/** One offer (a table template) of a game: its limits in a line, and its pay table and return. @param {{ offer: any }} props */
function Offer({ offer }) {
  return html`<details class="offer small" data-template=${offer.template.id}>
    <summary><b>${templateName(offer.template)}</b> <span class="muted">${limitsText(offer)}</span></summary>
    <${PayTable} pay=${offer.pay_table} />
    <h5>${t("rtp")}</h5><${ReturnTable} rtp=${offer.rtp} status=${offer.rtp_status} />
  </details>`;
}

/** @param {{ s: import("../app.js").AppState, actions: any }} props */
export function LobbyView({ s, actions }) {
  const games = Object.values(s.games);
  const mine = new Set(((s.me && s.me.tables) || []).map((/** @type {any} */ x) => x.table_id));
  const tables = [...(s.tables || [])].sort((a, b) => Number(mine.has(b.id)) - Number(mine.has(a.id)));
  return html`<section class="view" id="view-lobby">
    <div class="lobby-head"><h2>${t("lobby")}</h2><p class="muted">${t("lobby_sub")}</p></div>
    <div class="game-grid" id="game-list">${games.map((g) => html`<div key=${g.game} class=${`game-card g-${g.game}`} data-game=${g.game}>
      <div class="game-art">${(ART[g.game] || (() => html`<${Card} />`))()}</div>
      <div class="game-name"><b>${named(g.title)}</b><span>${g.title ? (s.lang === "zh" ? g.title.en : g.title.zh) : ""}</span></div>
      <div class="game-tag">${t(`tag_${g.game}`)}</div>
      <div class="muted small">${t("seats_n", { n: g.seats.length })} · ${t("tables_n", { n: g.tables ?? 0 })}</div>
      ${(s.offers || []).filter((o) => o.game === g.game).map((o) => html`<${Offer} key=${o.template.id} offer=${o} />`)}
      <div class="row">
        <button type="button" class="btn gold quick" data-game=${g.game} disabled=${!!s.busy[`quick:${g.game}`]} onClick=${() => actions.quickStart(g.game)}>${t("quick_start")}</button>
        <button type="button" class="btn ghost new-table" data-game=${g.game} disabled=${!!s.busy[`new:${g.game}`]} onClick=${() => actions.newTable(g.game)}>${t("new_table")}</button>
      </div>
    </div>`)}</div>
    <h3>${t("open_tables")}</h3>
    <div class="table-list" id="table-list">
      ${tables.length ? null : html`<p class="muted">${t("no_tables")}</p>`}
      ${tables.map((tb) => {
        const status = tableStatus(tb);
        const taken = tb.seats.filter((/** @type {any} */ x) => x.occupied).length;
        const offer = offerOf(s.offers, tb);
        return html`<div key=${tb.id} class=${cx("table-row", mine.has(tb.id) && "mine")} data-table=${tb.id}>
          <b>${named(tb.title)}</b><span class="muted table-name">${tableName(tb)}</span>
          <span class="seat-dots" aria-label=${t("players_n", { n: taken, of: tb.seats.length })}>${tb.seats.map((/** @type {any} */ x) => html`<span key=${x.seat} class=${cx("seat-dot", x.occupied ? (x.bot ? "bot" : "human") : "free")}></span>`)}</span>
          <span class="small players">${t("players_n", { n: taken, of: tb.seats.length })}</span>
          ${limitsText(offer || tb) ? html`<span class="small limits">${limitsText(offer || tb)}</span>` : null}
          <span class=${cx("badge", status.state === "playing" && "live", status.state)}>${t(`status_table_${status.state}`)}</span>
          ${mine.has(tb.id) ? html`<span class="badge banker">${t("your_table")}</span>` : null}
          ${offer ? html`<details class="table-terms small" data-template=${offer.template.id}><summary>${t("pay_table")}</summary><${PayTable} pay=${offer.pay_table} /><${ReturnTable} rtp=${offer.rtp} status=${offer.rtp_status} /></details>` : null}
          <button type="button" class="btn small" onClick=${() => actions.go(`#/table/${tb.id}`)}>${mine.has(tb.id) ? t("back_to_table") : tb.free ? t("join") : t("watch")}</button>
        </div>`;
      })}
    </div>
  </section>`;
}
