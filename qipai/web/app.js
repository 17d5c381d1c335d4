// The card room client: sign-in, lobby, wallet, history, and the table screen over the WebSocket.
// Each game draws its table with a renderer from games.js; this file owns the plumbing.
"use strict";

const S = {
  token: localStorage.getItem("qipai.token"),
  player: localStorage.getItem("qipai.player"),
  ws: null, wsReady: false, tableId: null, state: null, games: {},
  pending: new Map(), timerStart: null, openResults: {}, logLines: [], subscribed: null,
};

// ---------------------------------------------------------------- HTTP
async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (S.token) headers.Authorization = `Bearer ${S.token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    const err = (data && (data.error || data.detail)) || {};
    const raw = typeof err === "string" ? err : err.message || (Array.isArray(err) ? err.map((e) => e.msg).join("; ") : `HTTP ${res.status}`);
    const message = errorText(typeof err === "object" && !Array.isArray(err) ? err.code : null, raw);
    if (res.status === 401 && path !== "/api/login") { signOut(); }
    throw new Error(message);
  }
  return data;
}

// A refusal from the server in the UI language: Chinese text by its stable code (the server's
// English detail stays in the tooltip); in English the server's own message, which is precise.
function errorText(code, message) {
  if (LANG === "en") return message || code || t("err_error");
  const key = `err_${code}`;
  return I18N.zh[key] ? t(key) : t("err_error");
}

function show(view) {
  for (const v of document.querySelectorAll(".view")) v.hidden = v.id !== `view-${view}`;
  const signed = !!S.token;
  for (const id of ["btn-deposit", "btn-history", "btn-logout"]) document.getElementById(id).hidden = !signed;
}

function signOut() {
  S.token = null; S.player = null;
  localStorage.removeItem("qipai.token"); localStorage.removeItem("qipai.player");
  if (S.ws) S.ws.close();
  location.hash = "#/login";
}

async function refreshMe() {
  if (!S.token) return;
  try {
    const me = await api("GET", "/api/me");
    document.getElementById("who").textContent = me.player;
    document.getElementById("wallet").textContent = `${t("wallet")} ${money(me.wallet)}`;
    S.me = me;
  } catch (e) { /* signed out */ }
}

// ---------------------------------------------------------------- login
async function doAuth(kind) {
  const username = document.getElementById("login-user").value.trim();
  const password = document.getElementById("login-pass").value;
  const out = document.getElementById("login-error");
  out.textContent = "";
  try {
    const r = await api("POST", kind === "signup" ? "/api/signup" : "/api/login", { username, password });
    S.token = r.token; S.player = r.player;
    localStorage.setItem("qipai.token", r.token); localStorage.setItem("qipai.player", r.player);
    location.hash = "#/lobby";
  } catch (e) { out.textContent = e.message; }
}

// ---------------------------------------------------------------- lobby
async function showLobby() {
  show("lobby");
  await refreshMe();
  const [games, tables] = await Promise.all([api("GET", "/api/games"), api("GET", "/api/tables")]);
  const grid = document.getElementById("game-list");
  grid.replaceChildren();
  for (const g of games.games) {
    S.games[g.game] = g;
    const art = GAME_ART[g.game] || GAME_ART.default;
    grid.append(el("div", { class: `game-card g-${g.game}`, "data-game": g.game },
      el("div", { class: "game-art" }, art()),
      el("div", { class: "game-name" }, el("b", { text: LANG === "zh" ? g.title.zh : g.title.en }), el("span", { text: LANG === "zh" ? g.title.en : g.title.zh })),
      I18N.zh[`tag_${g.game}`] ? el("div", { class: "game-tag", text: t(`tag_${g.game}`) }) : null,
      el("div", { class: "muted small", text: `${t("seats_n").replace("{n}", g.seats.length)} · ${t("tables_n").replace("{n}", g.tables)}` }),
      el("div", { class: "row" },
        el("button", { class: "btn gold quick", "data-game": g.game, onclick: () => quickStart(g.game), text: t("quick_start") }),
        el("button", { class: "btn ghost", onclick: () => newTable(g.game), text: t("new_table") })),
    ));
  }
  const list = document.getElementById("table-list");
  list.replaceChildren();
  if (!tables.tables.length) list.append(el("p", { class: "muted", text: t("no_tables") }));
  for (const tb of tables.tables) {
    const seats = tb.seats.map((s) => el("span", { class: "seat-dot " + (s.occupied ? (s.bot ? "bot" : "human") : "free"), title: s.name || t("empty") }));
    list.append(el("div", { class: "table-row" },
      el("b", { text: LANG === "zh" ? tb.title.zh : tb.title.en }), el("span", { class: "muted", text: tb.name }),
      el("span", { class: "seat-dots" }, seats),
      badge(tb.playing ? t("playing") : t("waiting"), tb.playing ? "live" : ""),
      el("button", { class: "btn small", onclick: () => { location.hash = `#/table/${tb.id}`; }, text: tb.free ? t("join") : t("watch") })));
  }
}

async function quickStart(game) {
  const g = S.games[game];
  try {
    const wallet = (S.me && S.me.wallet) || 0;
    const buy = Math.min(wallet, (g && g.default_buy_in) || 10000);
    if (buy <= 0) { toast(t("deposit") + "!", true); openDeposit(); return; }
    const r = await api("POST", "/api/automatch", { game, buy_in: buy });
    location.hash = `#/table/${r.table_id}`;
  } catch (e) { toast(e.message, true); }
}

async function newTable(game) {
  try {
    const r = await api("POST", "/api/tables", { game });
    location.hash = `#/table/${r.id}`;
  } catch (e) { toast(e.message, true); }
}

// ---------------------------------------------------------------- wallet
function openDeposit() { document.getElementById("dlg-deposit").showModal(); }

async function doDeposit() {
  const amount = parseInt(document.getElementById("deposit-amount").value, 10);
  try {
    const r = await api("POST", "/api/wallet/deposit", { amount, key: crypto.randomUUID() });
    toast(`${t("wallet")} ${money(r.wallet)}`);
    await refreshMe();
    if (S.tableId) renderTable();
    else if (location.hash.startsWith("#/lobby")) showLobby();
  } catch (e) { toast(e.message, true); }
}

// ---------------------------------------------------------------- history
async function showHistory() {
  show("history");
  const box = document.getElementById("history-list");
  box.replaceChildren(el("p", { class: "muted", text: "…" }));
  const r = await api("GET", "/api/history?limit=20");
  box.replaceChildren();
  if (!r.rounds.length) box.append(el("p", { class: "muted", text: t("none_yet") }));
  for (const item of r.rounds) {
    const me = item.players.find((p) => p.seat === item.seat) || {};
    const title = S.games[item.game] ? (LANG === "zh" ? S.games[item.game].title.zh : S.games[item.game].title.en) : item.game;
    const body = el("div", { class: "history-body" });
    if (item.view) { const r2 = RENDERERS[item.game]; if (r2 && r2.summary) body.append(r2.summary(item.view, item.seat)); }
    box.append(el("div", { class: "history-item" },
      el("div", { class: "row" }, el("b", { text: title }), el("span", { class: "muted", text: (item.closed_at || "").replace("T", " ").slice(0, 19) }),
        badge(t(`round_${item.status}`), { open: "live", voided: "lose" }[item.status] || ""), el("span", { class: "net " + (me.net > 0 ? "pos" : me.net < 0 ? "neg" : ""), text: signed(me.net) }),
        el("span", { class: "muted small", text: `${money(me.start_balance)} → ${money(me.end_balance)}` })),
      body,
      el("div", { class: "mono small" }, `${t("commitment")}: ${item.commitment}`), el("div", { class: "mono small" }, `${t("seed")}: ${item.seed || (item.seed_policy === "operator_only" ? t("seed_hidden") : t("seed_later"))}`)));
  }
}

// ---------------------------------------------------------------- WebSocket
function connect() {
  if (S.ws && (S.ws.readyState === 0 || S.ws.readyState === 1)) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws`);
  S.ws = ws;
  setConn(false);
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: "auth", token: S.token })); // never in the URL (docs/protocol.md)
    S.wsReady = true; setConn(true);
    if (S.tableId) send({ type: "subscribe", table_id: S.tableId });
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    S.wsReady = false; setConn(false);
    if (ev.code === 4401) { signOut(); return; }
    setTimeout(() => { if (S.token) connect(); }, 1000);
  };
}

function setConn(ok) {
  const c = document.getElementById("conn-state");
  c.textContent = ok ? `● ${t("connected")}` : `○ ${t("reconnecting")}`;
  c.className = "conn " + (ok ? "ok" : "bad");
}

function send(msg) { if (S.ws && S.wsReady) S.ws.send(JSON.stringify(msg)); }

// Every action carries a fresh client id; a resend after a reconnect reuses it so the server
// applies it at most once.
function act(action) {
  const client_id = crypto.randomUUID();
  S.pending.set(client_id, action);
  send({ type: "action", table_id: S.tableId, client_id, action });
  document.getElementById("action-error").textContent = "";
}

function onMessage(m) {
  if (m.type === "state" && m.table_id === S.tableId) {
    const prev = S.state;
    S.state = m;
    if (!prev) redrawLog();  // names for the kept log lines, now that the seats are known
    for (const e of m.events || []) pushLog(e);
    if (!prev || !prev.round || !m.round || prev.round.round_id !== m.round.round_id) S.timerStart = null;
    // an error about a move belongs to the moment it was made: gone once the table moves on
    if (!prev || !prev.round || !m.round || prev.round.round_id !== m.round.round_id || prev.round.phase !== m.round.phase) document.getElementById("action-error").textContent = "";
    renderTable();
  } else if (m.type === "ack") {
    S.pending.delete(m.client_id);
  } else if (m.type === "error") {
    if (m.client_id) S.pending.delete(m.client_id);
    const box = document.getElementById("action-error");
    box.textContent = errorText(m.code, m.message);
    box.title = m.message || "";
    clearTimeout(onMessage._err);
    onMessage._err = setTimeout(() => { box.textContent = ""; }, 6000);
  } else if (m.type === "left") {
    toast(`${t("leave")}: +${money(m.cashed_out)}`);
    refreshMe();
  }
}

// The log keeps the events themselves (newest first) and writes them in the current language,
// so switching language rewrites the whole log instead of leaving half of it in the other one.
function pushLog(e) {
  S.logEvents = [e, ...(S.logEvents || [])].slice(0, 40);
  const log = document.getElementById("log");
  log.prepend(el("li", { text: describeEvent(e) }));
  while (log.children.length > 40) log.lastChild.remove();
}

function redrawLog() {
  document.getElementById("log").replaceChildren(...(S.logEvents || []).map((e) => el("li", { text: describeEvent(e) })));
}

function seatName(seat) {
  const st = S.state && S.state.table.seats.find((s) => s.seat === seat);
  if (!st) return seat;
  if (S.state.you.seat === seat) return `${st.name} (${t("you")})`;
  return st.name || seat;
}

// Every event type the games and the table send (qipai/games/*/round.py, qipai/tables/table.py),
// named in both languages: the log never shows a raw English key in the Chinese UI.
const EVENT_TEXT = {
  zh: { bet: "下注", bets: "下注", done: "确认", clear: "撤注", bid: "抢庄", swap: "换牌", deal: "发牌", reveal: "开牌",
        play: "出牌", discard: "垫牌", discard_tiles: "扣下垫牌", trick: "收墩", round_started: "新一局开始", resumed: "牌局已恢复",
        showdown: "摊牌", flop: "翻牌", turn: "轮到出牌", river: "河牌", fold: "弃牌", check: "过牌", banker: "定庄",
        settle: "结算", board: "公共牌", decision: "决策", betting_closed: "停止下注", compare: "比牌", dice: "掷骰",
        ready: "准备好了", tiles: "拿到牌", finished: "本局结束", hole: "拿到底牌", swaps: "换牌完成",
        swap_confirmed: "确认换牌", swapped: "换到新牌", zun: "尊", end: "牌局结束" },
  en: { bet: "bet", bets: "bets placed", done: "done", clear: "bets cleared", bid: "bid", swap: "swap", deal: "deal",
        reveal: "reveal", play: "plays", discard: "discards", discard_tiles: "discards face down", trick: "trick taken",
        round_started: "new round", resumed: "round resumed", showdown: "showdown", flop: "flop", turn: "to play",
        river: "river", fold: "fold", check: "check", banker: "banker chosen", settle: "settled", board: "board cards",
        decision: "decision", betting_closed: "betting closed", compare: "hands compared", dice: "dice thrown",
        ready: "ready", tiles: "tiles dealt", finished: "round over", hole: "hole cards dealt", swaps: "swaps done",
        swap_confirmed: "swap confirmed", swapped: "new cards received", zun: "zun", end: "game over" },
};

function describeEvent(e) {
  const who = e.seat ? seatName(e.seat) + " · " : "";
  const name = (EVENT_TEXT[LANG] && EVENT_TEXT[LANG][e.type]) || t("event_other");
  return `${who}${name}`;
}

// ---------------------------------------------------------------- table screen
async function showTable(tableId) {
  show("table");
  if (S.subscribed && S.subscribed !== tableId) send({ type: "unsubscribe", table_id: S.subscribed });
  if (S.tableId !== tableId) S.logEvents = [];  // same table (a language switch): keep the log
  S.tableId = tableId; S.state = null; S.subscribed = tableId;
  redrawLog();
  document.getElementById("center").replaceChildren(el("p", { class: "muted", text: "…" }));
  await refreshMe();
  if (!Object.keys(S.games).length) { const g = await api("GET", "/api/games"); for (const x of g.games) S.games[x.game] = x; }
  connect();
  if (S.wsReady) send({ type: "subscribe", table_id: tableId });
}

function renderTable() {
  const st = S.state;
  if (!st) return;
  const table = st.table;
  const renderer = RENDERERS[table.game] || RENDERERS.default;
  document.getElementById("table-title").textContent = `${gameTitle(table.title)} — ${table.name}`;
  const round = st.round;
  document.getElementById("round-info").textContent = round
    ? `${t("round")} ${round.number} · ${phaseLabel(round.phase)}`
    : "";
  const seated = !!st.you.seat;
  document.getElementById("btn-sit").hidden = seated || !table.free;
  document.getElementById("btn-leave").hidden = !seated;
  document.getElementById("btn-bots").hidden = !seated || !table.free;
  setConn(S.wsReady);
  const felt = document.getElementById("felt");
  felt.className = `felt felt-${table.game}`;
  document.getElementById("stage").dataset.seats = table.seats.length;
  // seats around the table: each in its own grid cell, so none can cover the felt or another
  const order = rotateSeats(table.seats, st.you.seat);
  const slots = SLOT_PLAN[Math.min(order.length - 1, 4)] || SLOT_PLAN[4];
  const mine = document.getElementById("my-area");
  for (const id of ["seats-top", "seats-left", "seats-right"]) document.getElementById(id).replaceChildren();
  const bottom = document.getElementById("seats-bottom");
  for (const old of bottom.querySelectorAll(".seat")) old.remove();
  order.forEach((s, i) => {
    const box = seatBox(st, s, renderer, i);
    if (i === 0) bottom.insertBefore(box, mine);
    else document.getElementById(`seats-${slots[i - 1]}`).append(box);
  });
  // center, my area, actions
  const center = document.getElementById("center");
  center.replaceChildren(round ? renderer.center(st) : el("div", { class: "waiting-msg", text: waitingText(st) }));
  mine.replaceChildren(...((round && renderer.mine && renderer.mine(st)) ? [renderer.mine(st)] : []));
  const actions = document.getElementById("actions");
  actions.replaceChildren();
  if (round && !round.finished && st.legal.length) actions.append(renderer.actions(st, act));
  else if (!st.you.seat) actions.append(el("span", { class: "muted", text: t("spectating") }));
  // my result: a banner on the felt while the round lies finished, then a note in the corner
  // that stays until the next result, so a result never vanishes before it can be read
  const banner = document.getElementById("banner");
  if (round && round.finished && st.result && st.you.seat && st.result.nets[st.you.seat] !== undefined) {
    const n = st.result.nets[st.you.seat];
    banner.hidden = false;
    banner.className = "banner " + (n > 0 ? "win" : n < 0 ? "lose" : "push");
    banner.textContent = `${n > 0 ? t("win") : n < 0 ? t("lose") : t("tie")} ${signed(n)}`;
    S.last = { number: round.number, net: n, tableId: S.tableId, view: round.view, game: table.game, seat: st.you.seat };
  } else banner.hidden = true;
  const last = document.getElementById("last-result");
  const lr = S.last && S.last.tableId === S.tableId && !(round && round.finished && round.number === S.last.number) ? S.last : null;
  last.hidden = !lr;
  if (lr) last.replaceChildren(el("div", { class: "muted", text: `${t("last_round")} #${lr.number}` }),
    el("b", { class: lr.net > 0 ? "pos" : lr.net < 0 ? "neg" : "", text: `${lr.net > 0 ? t("win") : lr.net < 0 ? t("lose") : t("tie")} ${signed(lr.net)}` }));
  S.nextAt = round && round.finished && st.next_round_in !== null && st.next_round_in !== undefined ? performance.now() + st.next_round_in * 1000 : null;
  if (!round && st.next_round_in !== null && st.next_round_in !== undefined) S.nextAt = performance.now() + st.next_round_in * 1000;
  renderTimer(st);
  renderTurnLine(st);
  renderSide(st, renderer);
}

// Where the seats after mine (clockwise) go, by how many there are: left, top, right.
const SLOT_PLAN = {
  0: [], 1: ["top"], 2: ["left", "right"], 3: ["left", "top", "right"], 4: ["left", "top", "top", "right"],
};

function seatBox(st, s, renderer, pos) {
  const round = st.round;
  const active = !!(round && !round.finished && round.awaiting.includes(s.seat));
  const me = s.seat === st.you.seat;
  const cls = ["seat", `pos-${pos}`, s.occupied ? "" : "free", s.bot ? "bot" : "", active ? "active" : "", me ? "me" : ""];
  return el("div", { class: cls.filter(Boolean).join(" "), "data-seat": s.seat },
    el("div", { class: "avatar", text: s.occupied ? (s.bot ? "AI" : (s.name || "?").slice(0, 1).toUpperCase()) : "+" }),
    el("div", { class: "seat-name", title: s.name || "", text: s.occupied ? (me ? `${s.name} (${t("you")})` : s.name) : t("empty") }),
    el("div", { class: "seat-stack" }, s.occupied ? money(s.stack) : "", active ? el("span", { class: "seat-turn", text: ` · ${t("acting")}` }) : null),
    el("div", { class: "seat-extra" }, renderer.seat ? renderer.seat(st, s.seat) : null));
}

// One line under the felt that always says whose move it is and how long is left.
function renderTurnLine(st) {
  const line = document.getElementById("turn-line");
  const r = st.round;
  line.replaceChildren();
  if (r && !r.finished) {
    if (st.legal.length) line.append(el("span", { class: "mine", text: `${t("your_turn")} · ${phaseLabel(r.phase)}` }));
    else if (r.awaiting.length) line.append(el("span", { class: "muted", text: `${t("waiting_for")} ${r.awaiting.map(seatName).join(LANG === "zh" ? "、" : ", ")}` }));
    else line.append(el("span", { class: "muted", text: phaseLabel(r.phase) }));
    if (r.time_left !== null && r.time_left !== undefined) line.append(el("span", { class: "secs", id: "turn-secs" }));
  } else if (S.nextAt) {
    line.append(el("span", { class: "muted" }, `${t("next_round")}: `, el("span", { class: "secs", id: "next-secs" })));
  } else if (r && r.finished) {
    line.append(el("span", { class: "muted", text: t("round_over") }));
  } else if (st.you.seat) {
    line.append(el("span", { class: "muted", text: t("waiting_players") }));
  }
  tickTexts();
}

function tickTexts() {
  const secs = document.getElementById("turn-secs");
  if (secs && S.timer) {
    const left = Math.max(0, (S.timer.until - performance.now()) / 1000);
    secs.textContent = `${Math.ceil(left)} ${t("seconds")}`;
    secs.classList.toggle("urgent", left < 5);
  }
  const next = document.getElementById("next-secs");
  if (next && S.nextAt) next.textContent = `${Math.max(0, Math.ceil((S.nextAt - performance.now()) / 1000))} ${t("seconds")}`;
}

function waitingText(st) {
  if (st.next_round_in !== null && st.next_round_in !== undefined) return `${Math.ceil(st.next_round_in)} ${t("start_in")}`;
  return st.you.seat ? t("waiting") + "…" : t("sit");
}

function rotateSeats(seats, mine) {
  const i = seats.findIndex((s) => s.seat === mine);
  if (i < 0) return seats;
  return seats.slice(i).concat(seats.slice(0, i));
}

function renderTimer(st) {
  const box = document.getElementById("timer");
  const r = st.round;
  if (!r || r.finished || r.time_left === null) { box.hidden = true; S.timer = null; return; }
  box.hidden = false;
  S.timer = { until: performance.now() + r.time_left * 1000, total: Math.max(r.time_left, S.timerTotal(r)) };
}
S.timerTotal = (r) => {
  const key = `${r.round_id}:${r.phase}:${r.awaiting.join(",")}`;
  if (S._tk !== key) { S._tk = key; S._tt = r.time_left; }
  return S._tt;
};

function tickTimer() {
  const tm = S.timer;
  if (tm) {
    const left = Math.max(0, (tm.until - performance.now()) / 1000);
    document.getElementById("timer-text").textContent = Math.ceil(left);
    const arc = document.getElementById("timer-arc");
    const frac = tm.total > 0 ? left / tm.total : 0;
    arc.style.strokeDasharray = `${(frac * 100.5).toFixed(1)} 100.5`;
    document.getElementById("timer").classList.toggle("urgent", left < 5);
  }
  tickTexts();
  requestAnimationFrame(tickTimer);
}

function renderSide(st, renderer) {
  const bal = document.getElementById("balances");
  bal.replaceChildren(
    el("div", { class: "kv" }, el("span", { text: t("wallet") }), el("b", { text: money(S.me && S.me.wallet) })),
    ...st.table.seats.filter((s) => s.occupied).map((s) => el("div", { class: "kv" + (s.seat === st.you.seat ? " me" : "") }, el("span", { text: s.name }), el("b", { text: money(s.stack) }))),
  );
  const res = document.getElementById("results");
  res.replaceChildren();
  const names = Object.fromEntries(st.table.seats.filter((s) => s.occupied).map((s) => [s.seat, s.seat === st.you.seat ? t("you") : s.name]));
  const list = (st.results || []).slice().reverse().slice(0, 8);
  if (!list.length) res.append(el("p", { class: "muted small", text: t("none_yet") }));
  for (const r of list) {
    const mine = st.you.seat ? r.nets[st.you.seat] : undefined;
    const open = S.openResults[r.number] !== undefined ? S.openResults[r.number] : r === list[0];
    res.append(el("details", { class: "result-row", open: open ? true : null },
      el("summary", { class: "kv", onclick: (e) => { S.openResults[r.number] = !e.currentTarget.parentNode.open; } }, el("span", { text: `${t("round")} ${r.number}` }),
        mine !== undefined ? el("b", { class: mine > 0 ? "pos" : mine < 0 ? "neg" : "", text: signed(mine) }) : el("span", { class: "muted small", text: t("spectating") })),
      el("div", { class: "result-nets" }, Object.entries(r.nets).map(([s, n]) => el("div", { class: "kv small" },
        el("span", { class: "muted", text: names[s] || s }), el("span", { class: n > 0 ? "pos" : n < 0 ? "neg" : "", text: signed(n) }))))));
  }
  if (S.last && S.last.tableId === S.tableId && S.last.view && renderer.summary) {
    res.append(el("div", { class: "last-hand" }, el("div", { class: "muted small", text: `${t("last_round")} #${S.last.number}` }), renderer.summary(S.last.view, S.last.seat)));
  }
  const extra = document.getElementById("extra-panel");
  const content = renderer.side ? renderer.side(st) : null;
  extra.hidden = !content;
  extra.replaceChildren(...(content ? [content] : []));
  const fair = document.getElementById("fairness");
  fair.replaceChildren();
  const f = st.fairness;
  const hidden = f.seed_policy === "operator_only";
  if (f.current) fair.append(el("div", { class: "mono small", title: t("commitment") }, `${t("commitment")}: `, el("span", { class: "commit", text: f.current.commitment })),
    el("div", { class: "mono small" }, `${t("seed")}: `, el("span", { class: "seed", text: f.current.seed || (hidden ? t("seed_hidden") : t("seed_later")) })));
  if (hidden) fair.append(el("div", { class: "small muted seed-policy", text: t("seed_operator_only") }));
  for (const rv of (f.revealed || []).slice().reverse().slice(0, 3)) {
    if (f.current && rv.commitment === f.current.commitment) continue;
    const line = el("div", { class: "mono small revealed" }, `✓ ${rv.commitment.slice(0, 16)}… ← ${rv.seed.slice(0, 16)}… `);
    const check = el("span", { class: "verify" });
    sha256hex(rv.seed).then((h) => { check.textContent = h === rv.commitment ? t("verified") : t("not_verified"); check.className = "verify " + (h === rv.commitment ? "ok" : "bad"); });
    line.append(check);
    fair.append(line);
  }
}

// ---------------------------------------------------------------- table buttons
async function sitDown() {
  const g = S.games[S.state.table.game];
  document.getElementById("buyin-amount").value = Math.min((S.me && S.me.wallet) || 0, (g && g.default_buy_in) || 10000);
  document.getElementById("dlg-buyin").showModal();
}

async function doBuyIn() {
  const amount = parseInt(document.getElementById("buyin-amount").value, 10);
  try { await api("POST", `/api/tables/${S.tableId}/sit`, { buy_in: amount }); await refreshMe(); }
  catch (e) { toast(e.message, true); }
}

// ---------------------------------------------------------------- routing
async function route() {
  const hash = location.hash || "#/lobby";
  if (!S.token) { show("login"); return; }
  try {
    if (hash.startsWith("#/table/")) await showTable(hash.slice(8));
    else if (hash.startsWith("#/history")) { S.tableId = null; await showHistory(); }
    else { S.tableId = null; await showLobby(); }
  } catch (e) { toast(e.message, true); }
}

function init() {
  setLang(LANG);
  document.getElementById("hero-tile").replaceWith(tileEl("6-6"));
  document.getElementById("login-form").addEventListener("submit", (e) => { e.preventDefault(); doAuth("login"); });
  document.getElementById("btn-signup").addEventListener("click", () => doAuth("signup"));
  document.getElementById("btn-logout").addEventListener("click", async () => { try { await api("POST", "/api/logout"); } catch (e) {} signOut(); });
  document.getElementById("btn-lang").addEventListener("click", () => { setLang(LANG === "zh" ? "en" : "zh"); route(); });
  document.getElementById("btn-deposit").addEventListener("click", openDeposit);
  document.getElementById("btn-history").addEventListener("click", () => { location.hash = "#/history"; });
  document.getElementById("btn-history-back").addEventListener("click", () => { location.hash = "#/lobby"; });
  document.getElementById("btn-deposit-go").addEventListener("click", doDeposit);
  for (const b of document.querySelectorAll(".chip-btn")) b.addEventListener("click", () => { document.getElementById("deposit-amount").value = b.dataset.amount; });
  document.getElementById("btn-buyin-go").addEventListener("click", doBuyIn);
  document.getElementById("btn-back").addEventListener("click", () => { location.hash = "#/lobby"; });
  document.getElementById("btn-sit").addEventListener("click", sitDown);
  document.getElementById("btn-leave").addEventListener("click", async () => {
    try { const r = await api("POST", `/api/tables/${S.tableId}/leave`); if (!r.after_round) toast(`+${money(r.cashed_out)}`); await refreshMe(); }
    catch (e) { toast(e.message, true); }
  });
  document.getElementById("btn-bots").addEventListener("click", async () => {
    try { await api("POST", `/api/tables/${S.tableId}/bots`, {}); } catch (e) { toast(e.message, true); }
  });
  window.addEventListener("hashchange", route);
  requestAnimationFrame(tickTimer);
  setInterval(() => { if (S.state && S.tableId) { refreshMe(); } }, 15000);
  if (S.token) connect();
  route();
}

document.addEventListener("DOMContentLoaded", init);
