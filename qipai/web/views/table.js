// @ts-check
// The table screen: seats around the felt, the game's own drawing in the middle, my hand and my
// actions together in the dock (so neither can cover the other), the side panels, and an
// overlay that blocks input while the connection is down.
import { useEffect, useLayoutEffect, useRef } from "../vendor/hooks.module.js";
import { html, cx } from "../ui/html.js";
import { t, named, has } from "../i18n/index.js";
import { money, signed, list } from "../ui/format.js";
import { Timer, Seconds } from "../ui/timer.js";
import { SeatBox } from "../ui/seat.js";
import { renderer } from "../games/index.js";
import { Net, phaseLabel, seatName, displayName, silenceText, tableName } from "../games/common.js";
import { errorText } from "../api/errors.js";
import { FairnessPanel } from "./fairness.js";
import { HelpPanel, offerOf } from "./help.js";
import { memo } from "../ui/memo.js";
import { Showdown, useDone, useHeld, useRecorded, useSkip } from "../ui/showdown.js";
import { sound } from "../ui/sound.js";

/** Where the other seats go (after mine, in the table's seat order), by how many there are. */
const SLOTS = /** @type {Record<number, string[]>} */ ({
  0: [], 1: ["top"], 2: ["left", "right"], 3: ["left", "top", "right"], 4: ["left", "top", "top", "right"],
  5: ["left", "top", "top", "top", "right"], 6: ["left", "left", "top", "top", "right", "right"],
});

/**
 * The seats in drawing order: mine first (at the bottom, in the dock), then the others in slot
 * order. The seat list is the game's play order; a clockwise game draws the next seat on my
 * left, a counter-clockwise one (Tien Gow) on my right.
 * @param {any[]} seats @param {string | null} mine @param {boolean} ccw
 * @returns {{ me: any, around: { seat: any, slot: string }[] }}
 */
export function placeSeats(seats, mine, ccw) {
  const i = seats.findIndex((s) => s.seat === mine);
  const order = i < 0 ? seats : [...seats.slice(i), ...seats.slice(0, i)];
  const [me, ...others] = order;
  const slots = SLOTS[others.length] || SLOTS[6];
  const drawn = ccw ? [...others].reverse() : others;
  // counter-clockwise: the last seat of play order sits left of me, the next one right
  return { me, around: drawn.map((seat, k) => ({ seat, slot: ccw ? slots[k] : slots[k] })) };
}

/** The table's status as the server gives it (D's statuses), or from the older `playing` flag. @param {any} table */
export function tableStatus(table) {
  const s = table.status;
  if (s && typeof s === "object") return { state: String(s.state || s.status || "playing"), reason: s.reason || null };
  if (typeof s === "string") return { state: s, reason: table.status_reason || null };
  return { state: table.playing ? "playing" : "waiting", reason: null };
}

/**
 * A status reason in the UI language. The tables layer words its waiting reasons in English
 * ("2 of 4 players", "a player at the table": qipai/tables/table.py `wait_reason`), so those two
 * are read back into their parts; a structured reason ({code, …}) is translated by its code; any
 * other text (an operator's own words) is shown as written.
 * @param {any} reason
 */
export function reasonText(reason) {
  if (!reason) return "";
  if (typeof reason === "object") {
    // {code: "players", n, of, away?}: the away count has its own sentence
    if (reason.code === "players" && reason.away) return t("reason_players_away", reason);
    if (reason.code && has(`reason_${reason.code}`)) return t(`reason_${reason.code}`, reason);
    return named(reason) || reason.message || "";
  }
  const players = /^(\d+) of (\d+) players?(?: \((\d+) away\))?$/.exec(reason);
  if (players && players[3]) return t("reason_players_away", { n: players[1], of: players[2], away: players[3] });
  if (players) return t("reason_players", { n: players[1], of: players[2] });
  if (reason === "a player at the table") return t("reason_need_human");
  const low = /below the table's minimum of (\d+)/.exec(reason);
  if (low) return t("reason_below_minimum", { min: Number(low[1]).toLocaleString("en-US") });
  return reason;
}

/** @param {{ state: string, reason: any }} status */
export function statusText(status) {
  const base = has(`status_table_${status.state}`) ? t(`status_table_${status.state}`) : status.state;
  return status.reason ? `${base}: ${reasonText(status.reason)}` : base;
}

/**
 * @param {{ s: import("../app.js").AppState, actions: any }} props
 *   actions: act, setUi, note, pushChip, standUp, sitDialog, fillBots, back, toggleHelp, imBack
 */
export function TableView({ s, actions }) {
  // the showdown of a round I saw in play is staged (ui/showdown.js): its hands are turned in
  // the game's order, drawn until then as they were in the round's last state before its end
  const seen = useRef(/** @type {any} */ (null));
  const st = s.state;
  const round = st && st.round;
  let id = null;
  let before = null;
  let order = /** @type {string[]} */ ([]);
  if (st && round && !round.finished) seen.current = st;
  else if (st && round && st.result && seen.current && seen.current.table.id === st.table.id && seen.current.round.number === round.number) {
    const R = renderer(st.table.game);
    id = `${st.table.id}#${round.number}`;
    before = seen.current.round.view;
    order = R.revealOrder ? R.revealOrder(round.view) : [];
  }
  // the reveal ends well before the next round starts (the table never waits for it): at most
  // 60 % of the pause between rounds, so the result stays in view for the rest
  const total = st && st.next_round_in !== null && st.next_round_in !== undefined ? Math.max(0, st.next_round_in * 600) : undefined;
  return html`<${Showdown} id=${id} order=${order} before=${before} total=${total}><${TableBody} s=${s} actions=${actions} /></${Showdown}>`;
}

/** @param {{ s: import("../app.js").AppState, actions: any }} props */
function TableBody({ s, actions }) {
  const st = s.state;
  const R = st ? renderer(st.table.game) : null;
  const busy = s.pending.length > 0 || s.conn !== "open";
  const ctx = st ? {
    act: actions.act, busy, ui: s.ui || {}, setUi: actions.setUi, note: actions.note, pushChip: actions.pushChip,
    chipStack: s.chipStack, lastBets: (s.lastBets && s.lastBets[st.table.id]) || null,
  } : null;
  useEffect(() => {
    if (st && R && R.afterState && ctx) R.afterState(st, ctx);
  });
  if (!st || !R || !ctx) {
    return html`<section class="view table-view" id="view-table"><div class="table-bar">
      <button type="button" class="btn small ghost" onClick=${actions.back}>${t("back_lobby")}</button></div>
      <p class="muted loading">…</p>${s.conn !== "open" ? html`<${Overlay} s=${s} />` : null}</section>`;
  }
  const table = st.table;
  const round = st.round;
  const you = st.you || {};
  const seated = !!you.seat;
  const status = tableStatus(table);
  const { me, around } = placeSeats(table.seats, you.seat, !!R.counterclockwise);
  const info = s.tableInfo[table.id] || null;
  const leaving = !!s.leaving[table.id];
  const myNet = round && round.finished && st.result && you.seat ? st.result.nets[you.seat] : undefined;
  const slot = (/** @type {string} */ name) => around.filter((a) => a.slot === name).map((a) => html`<${SeatBox} key=${a.seat.seat}
    st=${st} seat=${a.seat} extra=${R.SeatExtra ? html`<${R.SeatExtra} st=${st} seat=${a.seat.seat} />` : null} />`);
  const at = s.stateAt || performance.now();  // when this state arrived
  const until = round && !round.finished && round.time_left !== null && round.time_left !== undefined ? at + round.time_left * 1000 : null;
  const total = round && round.view ? Number(round.view.countdown_s || round.time_left || 0) : 0;
  const nextAt = st.next_round_in !== null && st.next_round_in !== undefined && (!round || round.finished) ? at + st.next_round_in * 1000 : null;
  return html`<section class=${cx("view", "table-view", `game-${table.game}`)} id="view-table" data-status=${status.state} aria-busy=${s.conn !== "open" ? "true" : "false"}>
    <div class="table-bar">
      <button type="button" class="btn small ghost" id="btn-back" onClick=${actions.back}>${t("back_lobby")}</button>
      <span class="table-title">${tableName(table).startsWith(named(table.title)) ? tableName(table) : `${named(table.title)} — ${tableName(table)}`}</span>
      ${round ? html`<span class="muted round-info">${t("round")} ${round.number} · ${phaseLabel(round.phase)}</span>` : null}
      <span class=${cx("badge", "table-status", status.state)} data-table-status=${status.state}>${statusText(status)}</span>
      <span class="spacer"></span>
      <span id="conn-state" class=${cx("conn", s.conn === "open" ? "ok" : "bad")} title=${s.conn === "open" ? t("connected") : t("reconnecting")} aria-hidden="true">●</span>
      <button type="button" class="btn small ghost" id="btn-help" aria-expanded=${s.help ? "true" : "false"} onClick=${actions.toggleHelp}>${t("help")}</button>
      ${seated && table.free ? html`<button type="button" class="btn small" id="btn-bots" disabled=${!!s.busy.bots} onClick=${actions.fillBots}>${t("fill_bots")}</button>` : null}
      ${!seated && table.free ? html`<button type="button" class="btn small gold" id="btn-sit" onClick=${actions.sitDialog}>${t("sit")}</button>` : null}
      ${seated ? html`<button type="button" class="btn small ghost" id="btn-leave" disabled=${!!s.busy.leave || leaving} onClick=${actions.standUp}>${leaving ? t("leaving") : t("leave")}</button>` : null}
    </div>
    <div class="table-layout">
      <div class="table-main">
        <div class="stage" id="stage" data-seats=${table.seats.length}>
          <${LastResult} s=${s} st=${st} />
          <div class="seat-slot slot-top">${slot("top")}</div>
          <div class="timer-slot"><${Timer} until=${until} total=${total} /></div>
          <div class="seat-slot slot-left">${slot("left")}</div>
          <div class=${cx("felt", `felt-${table.game}`)} id="felt">
            <div class="felt-head">${myNet !== undefined ? html`<${Banner} net=${myNet} />` : null}<${SkipReveal} /></div>
            <div class="center" id="center">${round ? html`<${R.Center} st=${st} ctx=${ctx} />` : html`<div class="waiting-msg">${waitingText(st, status)}</div>`}</div>
          </div>
          <div class="seat-slot slot-right">${slot("right")}</div>
        </div>
        <div class="dock" id="dock">
          <div class="dock-mine">
            ${me ? html`<${SeatBox} st=${st} seat=${me} leaving=${leaving && me.seat === you.seat} extra=${R.SeatExtra ? html`<${R.SeatExtra} st=${st} seat=${me.seat} />` : null} />` : null}
            ${round && seated && R.Mine ? html`<${R.Mine} st=${st} ctx=${ctx} />` : null}
          </div>
          ${me && me.seat === you.seat && me.away ? html`<div class="away-note" id="away-note" role="status">${t("you_are_away_s", { s: Math.round(Number((table.terms && table.terms.away_grace_s) ?? 60)) })}
            <button type="button" class="btn small gold" id="btn-im-back" onClick=${actions.imBack}>${t("im_back")}</button></div>` : null}
          <${TurnLine} st=${st} until=${until} nextAt=${nextAt} status=${status} pending=${s.pending.length} />
          <div class="actions" id="actions">
            ${round && !round.finished && (st.legal || []).length ? html`<${R.Actions} st=${st} ctx=${ctx} />`
              : !seated ? html`<span class="muted">${t("spectating")}</span>` : null}
          </div>
          <p class="error-text" id="action-error" role="alert" title=${s.actionError ? s.actionError.message : ""}>${s.actionError ? errorText(s.actionError) : ""}</p>
        </div>
      </div>
      <aside class="table-side">
        <${Balances} wallet=${s.me ? s.me.wallet : null} seats=${table.seats} mine=${you.seat || null} />
        ${R.Side && round ? html`<div class="panel" id="extra-panel"><${R.Side} st=${st} /></div>` : null}
        <${Results} st=${st} R=${R} />
        <${Fairness} st=${st} clientSeed=${s.clientSeed} actions=${actions} />
        <${Log} st=${st} log=${s.log} />
      </aside>
    </div>
    ${s.help ? html`<${HelpPanel} st=${st} info=${info} offer=${offerOf(s.offers, table, info)} game=${s.games[table.game]} onClose=${actions.toggleHelp} />` : null}
    ${s.conn !== "open" ? html`<${Overlay} s=${s} />` : null}
  </section>`;
}

/** While the hands are being turned: a button that shows them all at once. */
function SkipReveal() {
  const skip = useSkip();
  return skip ? html`<button type="button" class="btn small ghost skip-reveal" id="btn-skip-reveal" onClick=${skip}>${t("skip_reveal")}</button>` : null;
}

/** My result on the felt, once the showdown has turned every hand. @param {{ net: number }} props */
function Banner({ net }) {
  if (!useDone()) return null;
  return html`<${Shown} net=${net} />`;
}

/** The banner itself: its sound plays when it appears (not before the hands are turned). @param {{ net: number }} props */
function Shown({ net }) {
  useLayoutEffect(() => sound.play(net > 0 ? "win" : net < 0 ? "lose" : "push"), []);
  return html`<div class=${cx("banner", net > 0 ? "win" : net < 0 ? "lose" : "push")} id="banner" role="status" data-net=${net}>
    ${net > 0 ? t("win") : net < 0 ? t("lose") : t("tie")} ${signed(net)}</div>`;
}

/** @param {any} st @param {{state: string, reason: any}} status */
function waitingText(st, status) {
  if (status.state === "suspended" || status.state === "closed") return statusText(status);
  if (st.next_round_in !== null && st.next_round_in !== undefined) return t("round_soon");
  if (status.reason) return statusText(status);
  return st.you && st.you.seat ? t("waiting_players") : t("sit_to_play");
}

/** @param {{ st: any, until: number | null, nextAt: number | null, status: any, pending: number }} props */
function TurnLine({ st, until, nextAt, status, pending }) {
  const r = st.round;
  let body;
  if (r && !r.finished) {
    if ((st.legal || []).length) {
      // what silence will do, said before the countdown ends (docs/rules/common.md#silence-defaults)
      const silent = silenceText(st);
      body = html`<span class="mine">${t("your_turn")} · ${phaseLabel(r.phase)}</span>${silent ? html` <span class="silence small" id="silence-note">${t("if_silent", { what: silent })}</span>` : null}`;
    }
    else if ((r.awaiting || []).length) body = html`<span class="muted">${t("waiting_for")} ${list(r.awaiting.map((/** @type {string} */ a) => seatName(st, a)))}</span>`;
    else body = html`<span class="muted">${phaseLabel(r.phase)}</span>`;
  } else if (nextAt !== null && st.you && st.you.seat && status.state !== "suspended") {
    body = html`<span class="muted">${t("next_round")}: <${Seconds} until=${nextAt} done=${t("next_round_due")} /></span>`;
  } else if (r && r.finished) body = html`<span class="muted">${t("round_over")}</span>`;
  else if (st.you && st.you.seat) body = html`<span class="muted">${status.reason ? statusText(status) : t("waiting_players")}</span>`;
  return html`<div class="turn-line" id="turn-line" aria-live="polite">${body}
    ${r && !r.finished && until !== null ? html`<${Seconds} until=${until} />` : null}
    ${pending ? html`<span class="sending small" data-pending=${pending}>${t("sending")}</span>` : null}</div>`;
}

/** @param {{ s: any, st: any }} props */
function LastResult({ s, st }) {
  const results = st.results || [];
  const seat = st.you && st.you.seat;
  if (!seat) return html`<div class="last-result" hidden></div>`;
  const last = [...results].reverse().find((r) => r.nets && r.nets[seat] !== undefined);
  const showing = st.round && st.round.finished && st.result && last && st.result.number === last.number;
  if (!last || showing) return html`<div class="last-result" hidden></div>`;
  void s;
  const n = last.nets[seat];
  return html`<div class="last-result" id="last-result"><div class="muted">${t("last_round")} #${last.number}</div>
    <b class=${n > 0 ? "pos" : n < 0 ? "neg" : ""}>${n > 0 ? t("win") : n < 0 ? t("lose") : t("tie")} ${signed(n)}</b></div>`;
}

/** The names at the table (what a seat name is drawn from), for the memo keys. @param {any} st */
const namesKey = (st) => st.table.seats.map((/** @type {any} */ x) => [x.seat, x.occupied, x.name, x.bot]);

/** My wallet and every stack at the table. */
const Balances = memo(
  "Balances",
  (/** @type {{ wallet: any, seats: any[], mine: string | null }} */ { wallet, seats, mine }) => {
    // the stacks after the round's settlement come with the showdown's result (ui/showdown.js)
    const stacks = useHeld(Object.fromEntries(seats.map((x) => [x.seat, x.stack])));
    return html`<div class="panel"><h4>${t("balances")}</h4><div id="balances">
    <div class="kv wallet-line"><span>${t("wallet")}</span><b data-wallet=${wallet ?? ""}>${money(wallet)}</b></div>
    ${seats.filter((x) => x.occupied).map((/** @type {any} */ x) => html`<div key=${x.seat} class=${cx("kv", x.seat === mine && "me")} data-seat=${x.seat}>
      <span class="name">${displayName(x)}</span><b>${money(x.seat in stacks ? stacks[x.seat] : x.stack)}</b></div>`)}
  </div></div>`;
  },
  (p) => [p.wallet, p.seats, p.mine],
);

/** The event log. */
const Log = memo(
  "Log",
  (/** @type {{ st: any, log: any[] }} */ { st, log }) => html`<div class="panel"><h4>${t("log")}</h4><ol class="log" id="log">${log.map((e) => html`<li key=${e.id}>${describeEvent(st, e)}</li>`)}</ol></div>`,
  (p) => [p.log.map((e) => e.id), namesKey(p.st), p.st.you && p.st.you.seat],
);

/** The fairness panel, redrawn when the commitments, the seeds or my client seed change. */
const Fairness = memo(
  "Fairness",
  (/** @type {{ st: any, clientSeed: string, actions: any }} */ { st, clientSeed, actions }) => html`<div class="panel"><h4>${t("fairness")}</h4><${FairnessPanel} st=${st} clientSeed=${clientSeed} actions=${actions} /></div>`,
  (p) => [p.st.fairness || null, p.clientSeed],
);

/** The last rounds' results, and what of the finished round the felt does not show (R.Details). */
const Results = memo("Results", ResultsPanel, (/** @type {{ st: any, R: any }} */ p) => [
  p.st.table.game, p.st.results || [], namesKey(p.st), p.st.you && p.st.you.seat,
  p.st.round && p.st.round.finished ? p.st.round.view : null,
]);

/** @param {{ st: any, R: any }} props */
function ResultsPanel({ st, R }) {
  // the round being shown down joins the list after its result is on the table
  const done = useRecorded();
  const held = !done && st.result ? st.result.number : null;
  const list = [...(st.results || [])].filter((r) => r.number !== held).reverse().slice(0, 8);
  const names = (/** @type {string} */ seat) => seatName(st, seat);
  const seat = st.you && st.you.seat;
  return html`<div class="panel"><h4>${t("results")}</h4><div class="results" id="results">
    ${list.length ? null : html`<p class="muted small">${t("none_yet")}</p>`}
    ${list.map((r, i) => html`<details key=${r.number} class="result-row" open=${i === 0}>
      <summary class="kv"><span>${t("round")} ${r.number}</span>${seat && r.nets[seat] !== undefined ? html`<${Net} n=${r.nets[seat]} />` : html`<span class="muted small">${seat ? t("sat_out") : t("spectating")}</span>`}</summary>
      <div class="result-nets">${Object.entries(r.nets).map(([k, n]) => html`<div key=${k} class="kv small"><span class="muted">${names(k)}</span><${Net} n=${n} /></div>`)}</div>
    </details>`)}
    ${done && st.round && st.round.finished && R.Details ? html`<div class="last-hand"><${R.Details} view=${st.round.view} seat=${seat} st=${st} /></div>` : null}
  </div></div>`;
}

/** @param {any} st @param {{type: string, seat: string | null}} e */
function describeEvent(st, e) {
  const who = e.seat ? `${seatName(st, e.seat)} · ` : "";
  return `${who}${has(`ev_${e.type}`) ? t(`ev_${e.type}`) : t("event_other")}`;
}

/** Covers the table while the connection is down: nothing can be clicked, and it says so. @param {{ s: any }} props */
function Overlay({ s }) {
  if (s.outdated) {
    return html`<div class="overlay" id="conn-overlay" role="alertdialog" aria-modal="true" data-conn="outdated">
      <div class="overlay-box"><b>${t("outdated")}</b><button type="button" class="btn gold" onClick=${() => globalThis.location.reload()}>${t("reload")}</button></div></div>`;
  }
  if (s.closedBy === "account_locked") {
    // close code 4403: the operator locked the account and ended its sessions — no reconnecting
    return html`<div class="overlay" id="conn-overlay" role="alertdialog" aria-modal="true" data-conn="account_locked">
      <div class="overlay-box"><b>${t("conn_account_locked")}</b><span class="small muted">${t("conn_account_locked_note")}</span></div></div>`;
  }
  // close code 4410: the server heard nothing from this page for too long and closed it
  const pending = s.pending.length ? t("pending_resend", { n: s.pending.length }) : null;
  const why = s.closedBy === "silent" ? t("conn_silent") : pending ? null : t("reconnect_note");
  return html`<div class="overlay" id="conn-overlay" role="alertdialog" aria-modal="true" data-conn=${s.conn}>
    <div class="overlay-box"><span class="spinner" aria-hidden="true"></span><b>${t("reconnecting")}</b>
      ${why ? html`<span class="small muted" id="conn-why">${why}</span>` : null}
      ${pending ? html`<span class="small muted">${pending}</span>` : null}</div></div>`;
}
