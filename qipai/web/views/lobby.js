// @ts-check
// The lobby: every template the operator offers is its own entry (Pok Deng's two modes are two
// choices) with its limits, pay table, return, quick start and new table; then every open table
// with its limits, players n/N, its last rounds (Pok Deng: its road) and status, filtered and
// sorted as the player asks; the tables I sit at come first.
import { html, cx } from "../ui/html.js";
import { t, named } from "../i18n/index.js";
import { money } from "../ui/format.js";
import { Card } from "../ui/card.js";
import { Tile } from "../ui/tile.js";
import { tableStatus } from "./table.js";
import { tableName, templateName } from "../games/common.js";
import { roadRows } from "../games/pokdeng.js";
import { useState } from "../vendor/hooks.module.js";
import { termsOf, offerOf } from "./help.js";
import { PayTable, ReturnTable, buyInText } from "./paytable.js";
import { renderer } from "../games/index.js";

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

/** The smallest bet of a table or offer (its pay table's limits, else its base stake), for sorting. @param {any} tb */
export function minBet(tb) {
  const pay = termsOf(tb.facts || tb, null).pay_table;
  if (pay && Array.isArray(pay.limits) && pay.limits.length) return Math.min(...pay.limits.map((/** @type {any} */ l) => Number(l.min)));
  if (pay && pay.base) return Number(pay.base);
  return 0;
}

/** The template a table was opened from (its terms say), or null. @param {any} tb */
const templateOf = (tb) => (tb && tb.terms && tb.terms.template && tb.terms.template.id) || null;

/**
 * The lobby's choices after the player's filter: the operator's templates (each its own entry:
 * Pok Deng's two modes are two), and the open tables sorted as asked.
 * @param {{ offers: any[], tables: any[], mine: Set<string> }} data
 * @param {{ game: string, sort: string, free: boolean }} f
 */
export function choose({ offers, tables, mine }, f) {
  const byGame = (/** @type {any} */ x) => f.game === "all" || x.game === f.game;
  const entries = offers.filter(byGame).sort((a, b) => a.game.localeCompare(b.game) || minBet(a) - minBet(b));
  const key = /** @type {Record<string, (a: any, b: any) => number>} */ ({
    game: (a, b) => a.game.localeCompare(b.game) || minBet(a) - minBet(b),
    limits_low: (a, b) => minBet(a) - minBet(b),
    limits_high: (a, b) => minBet(b) - minBet(a),
    free: (a, b) => (b.free ?? 0) - (a.free ?? 0),
    players: (a, b) => (b.humans ?? 0) - (a.humans ?? 0),
  })[f.sort] || (() => 0);
  const shown = tables.filter(byGame).filter((tb) => !f.free || tb.free > 0 || mine.has(tb.id))
    // the tables I sit at first, then the order asked
    .sort((a, b) => Number(mine.has(b.id)) - Number(mine.has(a.id)) || key(a, b));
  return { entries, tables: shown };
}

/** One offer (a table template): its own lobby entry with its limits, pay table, return and buttons. @param {{ offer: any, g: any, s: any, actions: any, open: number }} props */
function Entry({ offer, g, s, actions, open }) {
  const id = offer.template.id;
  return html`<div class=${`game-card g-${offer.game}`} data-game=${offer.game} data-template=${id}>
    <div class="game-art">${(ART[offer.game] || renderer(offer.game).Art || (() => html`<${Card} />`))()}</div>
    <div class="game-name"><b>${templateName(offer.template)}</b><span>${g && g.title ? named(g.title) : offer.game}</span></div>
    <div class="game-tag">${t(`tag_${offer.game}`)}</div>
    <div class="small limits game-limits">${limitsText(offer)}</div>
    <div class="muted small">${g ? `${t("seats_n", { n: g.seats.length })} · ` : ""}${t("tables_n", { n: open })}</div>
    <details class="offer small" data-template=${id}>
      <summary>${t("pay_table")} · ${t("rtp")}</summary>
      <${PayTable} pay=${offer.pay_table} />
      <h5>${t("rtp")}</h5><${ReturnTable} rtp=${offer.rtp} status=${offer.rtp_status} />
    </details>
    <div class="row">
      <button type="button" class="btn gold quick" data-game=${offer.game} data-template=${id} disabled=${!!s.busy[`quick:${id}`]} onClick=${() => actions.quickStart(offer.game, id)}>${t("quick_start")}</button>
      <button type="button" class="btn ghost new-table" data-game=${offer.game} data-template=${id} disabled=${!!s.busy[`new:${id}`]} onClick=${() => actions.newTable(offer.game, id)}>${t("new_table")}</button>
      <a class="btn ghost small rules-link" href=${`#/rules/${offer.game}`}>${t("rules")}</a>
    </div>
  </div>`;
}

/** A game without an operator's template (a server without the authority): the game itself is the entry. @param {{ g: any, s: any, actions: any }} props */
function GameEntry({ g, s, actions }) {
  return html`<div class=${`game-card g-${g.game}`} data-game=${g.game}>
    <div class="game-art">${(ART[g.game] || renderer(g.game).Art || (() => html`<${Card} />`))()}</div>
    <div class="game-name"><b>${named(g.title)}</b><span>${g.title ? (s.lang === "zh" ? g.title.en : g.title.zh) : ""}</span></div>
    <div class="game-tag">${t(`tag_${g.game}`)}</div>
    <div class="muted small">${t("seats_n", { n: g.seats.length })} · ${t("tables_n", { n: g.tables ?? 0 })}</div>
    <div class="row">
      <button type="button" class="btn gold quick" data-game=${g.game} disabled=${!!s.busy[`quick:${g.game}`]} onClick=${() => actions.quickStart(g.game)}>${t("quick_start")}</button>
      <button type="button" class="btn ghost new-table" data-game=${g.game} disabled=${!!s.busy[`new:${g.game}`]} onClick=${() => actions.newTable(g.game)}>${t("new_table")}</button>
    </div>
  </div>`;
}

/**
 * A table's last rounds on its tile: Pok Deng's road (each player position's result against
 * the banker, the current shoe), else each round's best seat result.
 * @param {{ tb: any }} props
 */
function Recent({ tb }) {
  const r = tb.recent;
  if (!r) return null;
  if (r.road) {
    const rows = roadRows(r.road, 8);
    if (!rows.length) return null;
    return html`<span class="tile-road" aria-label=${t("road")}>${rows.map((row, i) => html`<span key=${i} class="road-col">${Object.entries(row.cells).map(([p, c]) => html`<i key=${p}
      class=${cx("bead", c.result === "win" ? "b-win" : c.result === "lose" ? "b-lose" : c.result === "tie" ? "b-tie" : "b-none", c.ring && "ring", c.pair && "pair")} title=${p}></i>`)}</span>`)}</span>`;
  }
  const results = (r.results || []).slice(-6);
  if (!results.length) return html`<span class="small muted recent">${t("none_yet")}</span>`;
  return html`<span class="small recent" title=${t("last_results")}><span class="muted">${t("last_results")}</span> ${results.map((/** @type {any} */ x) => {
    const best = Math.max(...Object.values(x.nets || {}).map(Number), 0);
    return html`<span key=${x.number} class=${cx("recent-chip", best > 0 && "pos")}>#${x.number} ${best > 0 ? `+${money(best)}` : "0"}</span>`;
  })}</span>`;
}

/** The filter and sort of the lobby. @param {{ games: any[], f: any, set: (p: any) => void }} props */
function FilterBar({ games, f, set }) {
  return html`<div class="lobby-filter row wrap" id="lobby-filter" role="search">
    <label class="small">${t("filter_game")} <select id="filter-game" value=${f.game} onChange=${(/** @type {any} */ e) => set({ game: e.currentTarget.value })}>
      <option value="all">${t("all_games")}</option>
      ${games.map((g) => html`<option key=${g.game} value=${g.game}>${named(g.title)}</option>`)}
    </select></label>
    <label class="small">${t("sort_by")} <select id="sort-tables" value=${f.sort} onChange=${(/** @type {any} */ e) => set({ sort: e.currentTarget.value })}>
      ${["game", "limits_low", "limits_high", "free", "players"].map((k) => html`<option key=${k} value=${k}>${t(`sort_${k}`)}</option>`)}
    </select></label>
    <label class="small check"><input type="checkbox" id="filter-free" checked=${f.free} onChange=${(/** @type {any} */ e) => set({ free: e.currentTarget.checked })} /> ${t("seats_free_only")}</label>
  </div>`;
}

/** @param {{ s: import("../app.js").AppState, actions: any }} props */
export function LobbyView({ s, actions }) {
  const [f, setF] = useState({ game: "all", sort: "game", free: false });
  const set = (/** @type {any} */ p) => setF({ ...f, ...p });
  const games = Object.values(s.games);
  const mine = new Set(((s.me && s.me.tables) || []).map((/** @type {any} */ x) => x.table_id));
  const offers = s.offers || [];
  const { entries, tables } = choose({ offers, tables: s.tables || [], mine }, f);
  const bare = games.filter((g) => !offers.some((o) => o.game === g.game) && (f.game === "all" || f.game === g.game));
  const openOf = (/** @type {string} */ id) => (s.tables || []).filter((tb) => templateOf(tb) === id).length;
  return html`<section class="view" id="view-lobby">
    <div class="lobby-head"><h2>${t("lobby")}</h2><p class="muted">${t("lobby_sub")}</p></div>
    <${FilterBar} games=${games} f=${f} set=${set} />
    <div class="game-grid" id="game-list">
      ${entries.map((o) => html`<${Entry} key=${o.template.id} offer=${o} g=${s.games[o.game]} s=${s} actions=${actions} open=${openOf(o.template.id)} />`)}
      ${bare.map((g) => html`<${GameEntry} key=${g.game} g=${g} s=${s} actions=${actions} />`)}
    </div>
    <h3>${t("open_tables")}</h3>
    <div class="table-list" id="table-list">
      ${tables.length ? null : html`<p class="muted">${t("no_tables")}</p>`}
      ${tables.map((tb) => {
        const status = tableStatus(tb);
        const taken = tb.seats.filter((/** @type {any} */ x) => x.occupied).length;
        const offer = offerOf(s.offers, tb);
        return html`<div key=${tb.id} class=${cx("table-row", mine.has(tb.id) && "mine")} data-table=${tb.id} data-game=${tb.game}>
          <b>${offer ? templateName(offer.template) : named(tb.title)}</b><span class="muted table-name">${tableName(tb)}</span>
          <span class="seat-dots" aria-label=${t("players_n", { n: taken, of: tb.seats.length })}>${tb.seats.map((/** @type {any} */ x) => html`<span key=${x.seat} class=${cx("seat-dot", x.occupied ? (x.bot ? "bot" : "human") : "free")}></span>`)}</span>
          <span class="small players">${t("players_n", { n: taken, of: tb.seats.length })}</span>
          ${limitsText(offer || tb.facts || tb) ? html`<span class="small limits">${limitsText(offer || tb.facts || tb)}</span>` : null}
          <${Recent} tb=${tb} />
          <span class=${cx("badge", status.state === "playing" && "live", status.state)}>${t(`status_table_${status.state}`)}</span>
          ${mine.has(tb.id) ? html`<span class="badge banker">${t("your_table")}</span>` : null}
          ${offer ? html`<details class="table-terms small" data-template=${offer.template.id}><summary>${t("pay_table")}</summary><${PayTable} pay=${offer.pay_table} /><${ReturnTable} rtp=${offer.rtp} status=${offer.rtp_status} /></details>` : null}
          <button type="button" class="btn small" onClick=${() => actions.go(`#/table/${tb.id}`)}>${mine.has(tb.id) ? t("back_to_table") : tb.free ? t("join") : t("watch")}</button>
        </div>`;
      })}
    </div>
  </section>`;
}
