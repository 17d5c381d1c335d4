// @ts-check
// The client's state and everything that changes it: sign-in, lobby data, wallet, the table
// socket, pending actions, notes. Views read `store` and call these functions; nothing else
// talks to the server.
import { createStore } from "./store.js";
import { createHttp } from "./api/http.js";
import { TableSocket } from "./api/ws.js";
import { ApiError, errorText } from "./api/errors.js";
import { setLang as setI18nLang, t } from "./i18n/index.js";
import { sound } from "./ui/sound.js";
import { reasonText } from "./views/table.js";
import { termsMoved } from "./views/help.js";
import { loadGameAssets } from "./games/index.js";

/**
 * @typedef {import("./api/ws.js").ConnStatus} ConnStatus
 * @typedef {import("./api/ws.js").Pending} Pending
 * @typedef {{ text: string, bad: boolean, id: number, title?: string }} Note
 * @typedef {{
 *   token: string | null, player: string | null, lang: "zh" | "en",
 *   route: { name: string, arg: string | null },
 *   me: any, games: Record<string, any>, tables: any[] | null,
 *   conn: ConnStatus, pending: Pending[],
 *   tableId: string | null, state: import("./protocol.js").StateOf | null, stateAt?: number, log: {type: string, seat: string | null, id: number}[],
 *   actionError: { code: string, message: string, field?: string | null } | null,
 *   leaving: Record<string, boolean>, lastBets: Record<string, {spot: string, amount: number}[]>,
 *   chipStack: {spot: string, amount: number}[], busy: Record<string, boolean>,
 *   note: Note | null, dialog: string | null, help: boolean, muted: boolean, outdated: boolean,
 *   closedBy: import("./api/ws.js").ClosedBy | null,
 *   history: any, tableInfo: Record<string, any>, ui: Record<string, any>, offers: any[] | null,
 *   rulesPage?: { key: string, zh: any, en: any } | null,
 *   guidePage?: { zh: string, en: string } | null,
 *   clientSeed: string,
 * }} AppState
 */

const saved = (key) => {
  try {
    return globalThis.localStorage ? globalThis.localStorage.getItem(key) : null;
  } catch {
    return null;
  }
};
const keep = (key, value) => {
  try {
    if (!globalThis.localStorage) return;
    if (value === null) globalThis.localStorage.removeItem(key);
    else globalThis.localStorage.setItem(key, value);
  } catch {
    /* private mode */
  }
};

/** A random client seed (docs/fairness.md#keys): 16 random bytes as 32 hex digits. */
export function newClientSeed() {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** docs/fairness.md#keys: 1–64 printable ASCII characters without spaces (0x21–0x7E). @param {string} seed */
export function validClientSeed(seed) {
  return /^[\x21-\x7e]{1,64}$/.test(seed);
}

const savedSeed = saved("qipai.client_seed");
const firstSeed = savedSeed && validClientSeed(savedSeed) ? savedSeed : newClientSeed();
keep("qipai.client_seed", firstSeed);

/** @type {import("./store.js").Store<AppState>} */
export const store = createStore(/** @type {AppState} */ ({
  token: saved("qipai.token"),
  player: saved("qipai.player"),
  lang: saved("qipai.lang") === "en" ? "en" : "zh",
  route: { name: "lobby", arg: null },
  me: null,
  games: {},
  tables: null,
  conn: "closed",
  pending: [],
  tableId: null,
  state: null,
  log: [],
  actionError: null,
  leaving: {},
  lastBets: {},
  chipStack: [],
  busy: {},
  note: null,
  dialog: null,
  help: false,
  muted: saved("qipai.muted") === "1",
  outdated: false,
  closedBy: null,
  history: null,
  tableInfo: {},
  ui: {},
  offers: null,
  rulesPage: null,
  guidePage: null,
  clientSeed: firstSeed,
}));

export const http = createHttp({ token: () => store.get().token, onUnauthorized: () => signOut() });

let noteId = 0;
let noteTimer = /** @type {any} */ (null);
/** Show a short note (a refusal in red). @param {string} text @param {boolean} [bad] @param {string} [title] */
export function note(text, bad = false, title) {
  clearTimeout(noteTimer);
  store.set({ note: { text, bad, id: ++noteId, title } });
  noteTimer = setTimeout(() => store.set({ note: null }), 4000);
}

/** A refusal as a note, translated by its code. @param {unknown} e */
export function noteError(e) {
  if (e instanceof ApiError) note(errorText(e), true, e.message);
  else note(t("err_error"), true, String(e));
}

/**
 * Run `fn` unless the same `key` is already running: a double click does one thing.
 * @template T @param {string} key @param {() => Promise<T>} fn @returns {Promise<T | undefined>}
 */
export async function once(key, fn) {
  if (store.get().busy[key]) return undefined;
  store.set((s) => ({ busy: { ...s.busy, [key]: true } }));
  try {
    return await fn();
  } finally {
    store.set((s) => {
      const busy = { ...s.busy };
      delete busy[key];
      return { busy };
    });
  }
}

// ------------------------------------------------------------------ language, sound
/** @param {"zh" | "en"} lang */
export function setLang(lang) {
  setI18nLang(lang);
  store.set({ lang, note: null });
}

export function toggleMute() {
  const muted = !store.get().muted;
  keep("qipai.muted", muted ? "1" : "0");
  sound.muted = muted;
  store.set({ muted });
}

// ------------------------------------------------------------------ session
/** @param {"login" | "signup"} kind @param {string} username @param {string} password */
export async function signIn(kind, username, password) {
  const r = await http.post(kind === "signup" ? "/api/signup" : "/api/login", { username, password });
  keep("qipai.token", r.token);
  keep("qipai.player", r.player);
  store.set({ token: r.token, player: r.player });
  socket.connect();
  go("#/lobby");
}

export function signOut() {
  keep("qipai.token", null);
  keep("qipai.player", null);
  socket.close();
  store.set({ token: null, player: null, me: null, state: null, tableId: null });
  go("#/login");
}

export async function logout() {
  try {
    await http.post("/api/logout");
  } catch {
    /* the session may be gone already */
  }
  signOut();
}

export async function refreshMe() {
  if (!store.get().token) return;
  try {
    store.set({ me: await http.get("/api/me") });
  } catch {
    /* signed out (401 handled) or offline: the next refresh tries again */
  }
}

export async function loadGames() {
  const g = await http.get("/api/games");
  /** @type {Record<string, any>} */
  const games = {};
  for (const x of g.games) games[x.game] = x;
  try {
    await loadGameAssets(g.games);
  } catch (err) {
    console.error("a game's renderer or strings did not load", err); // drawn by the generic renderer
  }
  store.set({ games });
  return games;
}

// ------------------------------------------------------------------ routing
/** @param {string} hash */
export function go(hash) {
  if (globalThis.location && globalThis.location.hash !== hash) globalThis.location.hash = hash;
  else route();
}

export async function route() {
  const hash = (globalThis.location && globalThis.location.hash) || "#/lobby";
  const s = store.get();
  const [, name = "lobby", arg = null] = hash.match(/^#\/([a-z]+)(?:\/(.+))?/) || [];
  if (name === "rules" && arg) {  // the rules pages are public: readable before signing in
    if (s.tableId) leaveTableScreen();
    store.set({ route: { name, arg } });
    await loadRules(arg).catch(noteError);
    return;
  }
  if (name === "guide") {  // the player's guide is public too
    if (s.tableId) leaveTableScreen();
    store.set({ route: { name, arg: null } });
    await loadGuide().catch(noteError);
    return;
  }
  if (!s.token) {
    store.set({ route: { name: "login", arg: null } });
    return;
  }
  if (name !== "table" && s.tableId) leaveTableScreen();
  store.set({ route: { name, arg } });
  try {
    if (name === "table" && arg) await openTable(arg);
    else if (name === "history") await loadHistory(null);
    else await loadLobby();
  } catch (e) {
    noteError(e);
  }
}

export async function loadLobby() {
  const games = loadGames();
  const [, , tables] = await Promise.all([refreshMe(), games, http.get("/api/tables"), loadOffers(games)]);
  store.set({ tables: tables.tables });
}

/**
 * A game's rules page in both languages (a language switch needs no new request), with the
 * template's settings filled in and its facts: `arg` is "game" or "game/template".
 * @param {string} arg
 */
export async function loadRules(arg) {
  const [game, template] = arg.split("/");
  const q = template ? `&template=${encodeURIComponent(template)}` : "";
  const base = `/api/rules/${encodeURIComponent(game)}`;
  const [zh, en] = await Promise.all([http.get(`${base}?lang=zh${q}`), http.get(`${base}?lang=en${q}`)]);
  store.set({ rulesPage: { key: arg, zh, en } });
}

/** The player's guide in both languages (a language switch needs no new request). */
export async function loadGuide() {
  if (store.get().guidePage) return;
  const [zh, en] = await Promise.all([http.get("/api/guide?lang=zh"), http.get("/api/guide?lang=en")]);
  store.set({ guidePage: { zh: zh.markdown, en: en.markdown } });
}

/** The operator's offer (table templates with pay tables, limits, buy-in ranges and returns). */
export async function loadOffers(gamesReady = Promise.resolve(/** @type {any} */ (null))) {
  /** @type {any[]} */
  let offers;
  try {
    offers = (await http.get("/api/templates")).templates || [];
  } catch {
    offers = [];  // a server without templates: the lobby shows the games alone
  }
  // An entry's text names its game by keys a game folder may ship (tag_<game>): the offers are
  // shown only once those strings are merged, never drawn first with the keys missing.
  await gamesReady.catch(() => null);
  store.set({ offers });
}

// ------------------------------------------------------------------ lobby actions
/**
 * A seat at the liveliest table of `template` (each of the operator's templates is its own
 * lobby entry: Pok Deng's two modes are two choices), else of the game's first template.
 * @param {string} game @param {string} [template]
 */
export function quickStart(game, template) {
  return once(`quick:${template || game}`, async () => {
    const s = store.get();
    const g = s.games[game];
    const wallet = (s.me && s.me.wallet) || 0;
    const offer = template ? (s.offers || []).find((o) => o.template && o.template.id === template) : null;
    let want = (g && (g.default_buy_in || g.min_buy_in)) || 10000;
    // within the template's buy-in range (the operator's, shown on its lobby entry)
    if (offer && offer.min_buy_in) want = Math.max(want, offer.min_buy_in);
    if (offer && offer.max_buy_in) want = Math.min(want, offer.max_buy_in);
    const buy = Math.min(wallet, want);
    if (buy <= 0) {
      note(t("need_deposit"), true);
      store.set({ dialog: "deposit" });
      return;
    }
    try {
      const r = await http.post("/api/automatch", { ...(template ? { template } : { game }), buy_in: buy, client_seed: store.get().clientSeed });
      go(`#/table/${r.table_id}`);
    } catch (e) {
      noteError(e);
    }
  });
}

/** A new table of `template` (else of the game's first template). @param {string} game @param {string} [template] */
export function newTable(game, template) {
  return once(`new:${template || game}`, async () => {
    try {
      const r = await http.post("/api/tables", template ? { template } : { game });
      go(`#/table/${r.id}`);
    } catch (e) {
      noteError(e);
    }
  });
}

/** @param {number} amount */
export function deposit(amount) {
  return once("deposit", async () => {
    const r = await http.post("/api/wallet/deposit", { amount, key: globalThis.crypto.randomUUID() });
    store.set((s) => ({ me: { ...(s.me || {}), wallet: r.wallet }, dialog: null }));
    note(`${t("wallet")} ${Number(r.wallet).toLocaleString("en-US")}`);
    refreshMe();
  });
}

// ------------------------------------------------------------------ the table
/** @param {string} tableId */
async function openTable(tableId) {
  const s = store.get();
  if (s.tableId !== tableId) {
    if (s.tableId) socket.unsubscribe(s.tableId);
    store.set({ tableId, state: null, log: [], actionError: null, chipStack: [] });
  }
  socket.connect();
  socket.subscribe(tableId);
  const games = Object.keys(s.games).length ? undefined : loadGames();
  await Promise.all([refreshMe(), games, loadTableInfo(tableId), s.offers ? null : loadOffers(games)]);
}

/** The table's public facts and terms (pay table, limits, return) for the help panel. @param {string} tableId */
export async function loadTableInfo(tableId) {
  try {
    const info = await http.get(`/api/tables/${tableId}`);
    store.set((s) => ({ tableInfo: { ...s.tableInfo, [tableId]: info } }));
  } catch {
    /* the help panel says what it could not load */
  }
}

function leaveTableScreen() {
  const s = store.get();
  if (s.tableId) socket.unsubscribe(s.tableId);
  store.set({ tableId: null, state: null, log: [], actionError: null, help: false });
}

/**
 * Send a table action (the socket keeps it pending until answered). Refused while one is pending
 * (a double click sends one action) or while the connection is down (the overlay says so).
 * @param {Record<string, unknown>} action
 */
export function act(action) {
  const s = store.get();
  if (!s.tableId || s.conn !== "open" || s.pending.length) return null;
  store.set({ actionError: null });
  if (action.type === "bet" || action.type === "bets") sound.play("chip");
  return socket.act(s.tableId, action);
}

/** Pok Deng chips placed this round, newest last (for "undo last chip"). @param {string} spot @param {number} amount */
export function pushChip(spot, amount) {
  store.set((s) => ({ chipStack: [...s.chipStack, { spot, amount }] }));
}

export function sitDialog() {
  store.set({ dialog: "buyin" });
}

/** @param {number} amount */
export function sit(amount) {
  const s = store.get();
  const id = s.tableId;
  if (!id) return undefined;
  return once("sit", async () => {
    try {
      // a table with client seeds off refuses a seed (docs/fairness.md): none is sent to it
      const f = s.state && s.state.fairness;
      const seedless = !!f && f.client_seeds_enabled === false;
      await http.post(`/api/tables/${id}/sit`, seedless ? { buy_in: amount } : { buy_in: amount, client_seed: store.get().clientSeed });
      store.set({ dialog: null });
      refreshMe();
    } catch (e) {
      noteError(e);
    }
  });
}

/**
 * Change my client seed (kept in this browser; sent with every sit-down). Seated at the open
 * table, the table takes it for its next deal unit (the running one keeps its own). A seed the
 * player typed is kept from then on; a random one (`auto`) is renewed with each commitment.
 * @param {string} seed @param {boolean} [auto]
 */
export function setClientSeed(seed, auto = false) {
  if (!validClientSeed(seed)) {
    note(t("client_seed_bad"), true);
    return undefined;
  }
  keep("qipai.client_seed", seed);
  keep("qipai.client_seed_typed", auto ? null : "1");
  store.set({ clientSeed: seed });
  const s = store.get();
  const id = s.tableId;
  const seated = s.state && s.state.you && s.state.you.seat;
  if (!id || !seated) return undefined;
  return once("client_seed", async () => {
    try {
      await http.post(`/api/tables/${id}/client_seed`, { client_seed: seed });
      if (!auto) note(t("client_seed_saved"));
    } catch (e) {
      noteError(e);
    }
  });
}

export function standUp() {
  const id = store.get().tableId;
  if (!id) return undefined;
  return once("leave", async () => {
    try {
      const r = await http.post(`/api/tables/${id}/leave`);
      if (r.after_round) {
        store.set((s) => ({ leaving: { ...s.leaving, [id]: true } }));
        note(t("leave_after_round"));
      } else {
        note(t("left_table", { amount: Number(r.cashed_out).toLocaleString("en-US") }));
        socket.subscribe(id);  // a fresh state: the seat is gone (the table sends none by itself)
      }
      refreshMe();
    } catch (e) {
      noteError(e);
    }
  });
}

/** Back from away: listening to the table again brings my seat back from the next round. */
export function imBack() {
  const id = store.get().tableId;
  if (!id) return;
  socket.subscribe(id);
  note(t("welcome_back"));
}

export function fillBots() {
  const id = store.get().tableId;
  if (!id) return undefined;
  return once("bots", async () => {
    try {
      await http.post(`/api/tables/${id}/bots`, {});
    } catch (e) {
      noteError(e);
    }
  });
}

// ------------------------------------------------------------------ history
export const HISTORY_PAGE = 10;

/** @param {string | null} before */
export async function loadHistory(before) {
  const s = store.get();
  if (!Object.keys(s.games).length) await loadGames();
  const prev = before && s.history ? s.history.rounds : [];
  const page = prev.length + HISTORY_PAGE;
  const q = before ? `?limit=${HISTORY_PAGE}&before=${encodeURIComponent(before)}` : `?limit=${HISTORY_PAGE}`;
  let r = await http.get(`/api/history${q}`);
  // a server without cursors answers the first page again: ask for a longer list instead
  if (before && r.rounds.length && prev.some((x) => x.round_id === r.rounds[0].round_id)) {
    r = await http.get(`/api/history?limit=${Math.min(50, page)}`);
    store.set({ history: { rounds: r.rounds, more: r.rounds.length === page && page < 50 } });
    return;
  }
  const rounds = [...prev, ...r.rounds];
  store.set({ history: { rounds, more: r.next !== undefined ? !!r.next : r.rounds.length === HISTORY_PAGE, next: r.next } });
}

// ------------------------------------------------------------------ socket messages
let logId = 0;

/** @param {import("./protocol.js").ServerMessage} m */
function onMessage(m) {
  const s = store.get();
  if (m.type === "hello") {
    if (m.protocol !== undefined && socket.status === "outdated") store.set({ outdated: true });
  } else if (m.type === "state") {
    const tableId = m.table_id || (m.table && m.table.id);
    if (tableId !== s.tableId) return;
    // the schema's state carries any game's view; the round's view is the game's own schema
    onState(/** @type {import("./protocol.js").StateOf} */ (/** @type {unknown} */ (m)));
  } else if (m.type === "error") {
    if (m.table_id && m.table_id !== s.tableId) return;
    store.set({ actionError: { code: m.code, message: m.message, field: m.field } });
    sound.play("error");
  } else if (m.type === "away") {
    // my seat sat out in silence (docs/rules/common.md#away-seats): say so, and how to come back
    const mine = s.state && s.state.you && s.state.you.seat;
    if ((m.table_id || m.table) === s.tableId && mine && m.seat === mine) note(t("you_are_away"), true);
  } else if (m.type === "left") {
    const id = m.table_id || m.table || "";
    store.set((st) => {
      const leaving = { ...st.leaving };
      delete leaving[id];
      return { leaving };
    });
    const why = m.reason ? ` (${reasonText(m.reason)})` : "";
    note(t("left_table", { amount: Number(m.cashed_out).toLocaleString("en-US") }) + why, !!m.reason);
    refreshMe();
    if (id && id === s.tableId) socket.subscribe(id);
  }
}

/** @param {import("./protocol.js").StateOf} m */
function onState(m) {
  const s = store.get();
  const prev = s.state;
  const events = (m.events || []).map((/** @type {any} */ e) => ({ ...e, id: ++logId }));
  const newRound = !prev || !prev.round || !m.round || prev.round.round_id !== m.round.round_id;
  const moved = newRound || !prev || !prev.round || !m.round || prev.round.phase !== m.round.phase;
  /** @type {Partial<AppState>} */
  // when it arrived: the countdowns run from here, so redrawing the same state restarts nothing
  const patch = { state: m, stateAt: performance.now(), log: [...events.reverse(), ...s.log].slice(0, 40) };
  if (moved) patch.actionError = null;  // an error belongs to the moment its move was made
  // the operator moved the table to a newer version of its template (docs/operators.md "Tables
  // on older versions"): say so, and read the new version's pay table and returns
  const version = termsMoved(prev, m);
  if (version !== null) {
    note(t("terms_changed", { version }));
    loadTableInfo(m.table.id);
  }
  if (newRound) {
    patch.chipStack = [];
    // what was picked belongs to its round; the chosen chip and ante stay until changed
    patch.ui = { chip: s.ui.chip, ante: s.ui.ante, bonus: s.ui.bonus, pool: s.ui.pool };
  }
  // the bets of my last finished Pok Deng round, for "re-bet"
  const v = m.round && m.round.view;
  if (m.round && m.round.finished && v && v.game === "pokdeng" && v.me && v.me.bets && Object.keys(v.me.bets).length) {
    patch.lastBets = { ...s.lastBets, [m.table.id]: Object.entries(v.me.bets).map(([spot, amount]) => ({ spot, amount: Number(amount) })) };
  }
  store.set(patch);
  // sounds: a new shoe, the deal, my turn, my result
  if (newRound && v && v.game === "pokdeng" && v.shoe && v.shoe.new_shoe) sound.play("shoe");
  if (m.round && !m.round.finished && m.legal && m.legal.length && (!prev || !prev.legal || !prev.legal.length)) sound.play("turn");
  if (m.round && m.round.finished && m.result && m.you && m.you.seat && (!prev || !prev.round || !prev.round.finished || newRound)) {
    // (my result's sound plays with the banner, once the showdown has turned the hands: views/table.js)
    refreshMe();
  } else if (events.some((/** @type {any} */ e) => e.type === "deal" || e.type === "tiles" || e.type === "hole")) sound.play("deal");
  renewClientSeed(m, prev);
}

/**
 * docs/fairness.md#seed-grinding: a client seed protects only if it was chosen after the
 * commitment it plays against was shown. So, seated, when the table announces the next unit's
 * commitment, a fresh random client seed is drawn and given to the table (it enters that next
 * unit) — unless the player typed their own.
 * @param {any} m @param {any} prev
 */
function renewClientSeed(m, prev) {
  const f = m.fairness || {};
  if (!f.client_seeds_enabled || !f.next_commitment || !m.you || !m.you.seat) return;
  if (prev && prev.fairness && prev.fairness.next_commitment === f.next_commitment && prev.you && prev.you.seat) return;
  if (saved("qipai.client_seed_typed") === "1") return;
  setClientSeed(newClientSeed(), true);
}

export const socket = new TableSocket({
  url: () => `${globalThis.location.protocol === "https:" ? "wss" : "ws"}://${globalThis.location.host}/ws`,
  token: () => store.get().token,
  onMessage,
  onStatus: (conn) => store.set((s) => ({ conn, outdated: conn === "outdated", closedBy: conn === "open" ? null : s.closedBy })),
  onClosedBy: (closedBy) => store.set({ closedBy }),
  onPending: (pending) => store.set({ pending }),
  onNotTaken: notTaken,
  onAuthFailed: () => signOut(),
});

/**
 * An action the table refused as stale (docs/protocol.md, "State versions"): it was not taken
 * and never will be. Said at once, and kept in the table's log.
 * @param {import("./api/ws.js").Pending} p @param {import("./api/ws.js").NotTaken} why
 */
function notTaken(p, why) {
  const bet = /bet/.test(String(p.action.type));
  const type = why === "round_moved" ? (bet ? "not_placed_round" : "not_taken_round") : "not_taken_state";
  note(t(`ev_${type}`), true);
  store.set((s) => ({ log: [{ type, seat: null, id: ++logId }, ...s.log].slice(0, 40) }));
}
