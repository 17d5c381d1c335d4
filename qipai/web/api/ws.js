// @ts-check
// The table WebSocket (docs/protocol.md): one connection, reconnected with back-off; the tables
// watched are subscribed again on every (re)connect; every action carries a client_id and the
// version of the state it was built from (docs/protocol.md, "State versions"), and stays pending
// until the server answers it (ack or error). After a reconnect each pending action is sent once
// more, same client_id and same version, before the tables are subscribed again: the server
// answers it as a duplicate (it was taken, in the state it was built for) or refuses it as
// `stale_action` (it was not, and never will be) — it is never applied to a later round.
//
// Deltas (docs/protocol.md, "Deltas"): the client signs in taking deltas, keeps each watched
// table's last whole state and its `seq`, and makes the next state from a `delta` whose `base` is
// that seq (api/patch.js); the rest of the app only ever sees whole states. A delta that does not
// start from the state held (or does not fit it) is dropped and the table subscribed again, which
// brings its whole state.
//
// Heartbeat (docs/protocol.md, "Heartbeat"): the client pings every PING_EVERY ms and counts a
// connection that has said nothing for STALL_AFTER ms as lost: it says "reconnecting" at once
// and connects again. Its status is "open" only once every watched table's state is fresh.

import { PatchError, applyPatch } from "./patch.js";

/** The protocol version this client speaks (the server's `hello` must say the same). */
export const PROTOCOL = 1;

/** A connection whose server says no `hello` within this many ms is dropped and tried again. */
export const HELLO_TIMEOUT = 5000;

/** The client's heartbeat: a ping this often (ms); the server answers every ping. */
export const PING_EVERY = 1000;

/** A connection silent this long (ms) is lost: under the 3 s a stalled page may look live. */
export const STALL_AFTER = 2500;

/** Close code of a locked account's sockets: the server ended its sessions (docs/operators.md). */
export const CLOSE_LOCKED = 4403;

/** Close code of a socket the server heard nothing from for too long (docs/protocol.md, "Heartbeat"). */
export const CLOSE_SILENT = 4410;

/** Back-off before reconnect attempt `n` (0, 1, …) in ms: 0.5 s doubling to 8 s, ±25 % jitter. */
export function backoff(n, random = Math.random) {
  const base = Math.min(8000, 500 * 2 ** n);
  return Math.round(base * (0.75 + random() / 2));
}

/**
 * @typedef {{ client_id: string, table_id: string, action: Record<string, unknown>, sends: number,
 *             version: string, round_id: string | null, phase: string | null }} Pending
 * @typedef {"connecting" | "open" | "reconnecting" | "outdated" | "closed"} ConnStatus
 * @typedef {"round_moved" | "state_changed"} NotTaken why an action was not taken
 * @typedef {"account_locked" | "silent"} ClosedBy why the server closed the connection
 */

export class TableSocket {
  /**
   * @param {{
   *   url: () => string,
   *   token: () => string | null,
   *   onMessage: (m: import("../protocol.js").ServerMessage) => void,
   *   onStatus: (s: ConnStatus) => void,
   *   onPending?: (p: Pending[]) => void,
   *   onNotTaken?: (p: Pending, why: NotTaken) => void,
   *   onAuthFailed?: () => void,
   *   onClosedBy?: (why: ClosedBy) => void,
   *   WebSocket?: typeof WebSocket,
   *   newId?: () => string,
   *   timers?: { set: (fn: () => void, ms: number) => any, clear: (h: any) => void },
   * }} opts
   */
  constructor(opts) {
    this.opts = opts;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {ConnStatus} */
    this.status = "closed";
    this.attempt = 0;
    this.ready = false;
    /** @type {Set<string>} */
    this.tables = new Set();
    /** @type {Map<string, Pending>} */
    this.pending = new Map();
    /** Actions of a round that has moved on, still unanswered: their answer says whether they
     * were taken (in their round) or not. @type {Map<string, Pending>} */
    this.asked = new Map();
    /** Each watched table's last state: its version, round and phase. @type {Map<string, { version: string, round_id: string | null, phase: string | null }>} */
    this.seen = new Map();
    /** Each watched table's last whole state, which the next delta applies to. @type {Map<string, any>} */
    this.states = new Map();
    /** The watched tables whose state has not come since the last hello. @type {Set<string>} */
    this.stale = new Set();
    this.heardAt = 0;
    this.pingedAt = 0;
    /** @type {any} */
    this.beat = null;
    this.timer = null;
    this.helloTimer = null;
    this.stopped = true;
  }

  /** Open the connection (no-op if one is open or opening). */
  connect() {
    this.stopped = false;
    if (this.ws && (this.ws.readyState === 0 || this.ws.readyState === 1)) return;
    const Impl = this.opts.WebSocket || globalThis.WebSocket;
    // authenticated by its first message (docs/protocol.md), never by the address
    const ws = new Impl(this.opts.url());
    this.ws = ws;
    this.ready = false;
    this.setStatus(this.attempt === 0 && this.status !== "reconnecting" ? "connecting" : "reconnecting");
    const timers = this.timers();
    // a socket that does not open and say hello in time (a proxy that lost it, a stalled
    // network or server) is not a connection: give it up and try again, so the overlay never
    // waits for ever
    if (this.helloTimer !== null) timers.clear(this.helloTimer);
    this.helloTimer = timers.set(() => {
      this.helloTimer = null;
      if (this.ws === ws && !this.ready) this.giveUp();
    }, HELLO_TIMEOUT);
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "auth", token: this.opts.token(), heartbeat: true, deltas: true }));
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;  // a connection given up as stalled says nothing any more
      this.heardAt = Date.now();
      let m;
      try {
        m = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      this.receive(m);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.ready = false;
      this.stopBeat();
      if (ev.code === 4401) {
        this.setStatus("closed");
        this.stopped = true;
        if (this.opts.onAuthFailed) this.opts.onAuthFailed();
        return;
      }
      if (ev.code === CLOSE_LOCKED) {
        // the account is locked: its sessions are over, so connecting again cannot help
        this.stopped = true;
        if (this.opts.onClosedBy) this.opts.onClosedBy("account_locked");
        this.setStatus("closed");
        return;
      }
      if (ev.code === CLOSE_SILENT && this.opts.onClosedBy) this.opts.onClosedBy("silent");
      if (this.stopped || this.status === "outdated") return;
      this.retry();
    };
  }

  /** Connect again after the back-off. */
  retry() {
    this.setStatus("reconnecting");
    const wait = backoff(this.attempt++);
    this.timer = this.timers().set(() => {
      this.timer = null;
      if (!this.stopped) this.connect();
    }, wait);
  }

  /** Ping every PING_EVERY ms; a connection silent for STALL_AFTER ms is given up at once (its
   * close handshake could wait for the stalled network) and a new one is made. */
  startBeat() {
    this.stopBeat();
    const timers = this.timers();
    const tick = () => {
      this.beat = timers.set(tick, PING_EVERY / 2);
      if (!this.ws || !this.ready) return;
      if (Date.now() - this.heardAt > STALL_AFTER) {
        this.stopBeat();
        this.giveUp();
        return;
      }
      if (Date.now() - this.pingedAt >= PING_EVERY) {
        this.pingedAt = Date.now();
        this.raw({ type: "ping" });
      }
    };
    this.pingedAt = 0;
    this.beat = timers.set(tick, PING_EVERY / 2);
  }

  stopBeat() {
    if (this.beat !== null) this.timers().clear(this.beat);
    this.beat = null;
  }

  /** The connection went silent: say so, forget it, connect again. */
  giveUp() {
    const ws = this.ws;
    this.ws = null;
    this.ready = false;
    if (ws) {
      try {
        ws.close();
      } catch {
        /* already closing */
      }
    }
    if (!this.stopped) this.retry();
  }

  /** setTimeout/clearTimeout, or the test's own timers. */
  timers() {
    return this.opts.timers || { set: (/** @type {() => void} */ fn, /** @type {number} */ ms) => setTimeout(fn, ms), clear: (/** @type {any} */ h) => clearTimeout(h) };
  }

  /** Close for good (sign-out). */
  close() {
    this.stopped = true;
    if (this.timer !== null) this.timers().clear(this.timer);
    this.timer = null;
    const ws = this.ws;
    this.ws = null;
    this.ready = false;
    this.pending.clear();
    this.asked.clear();
    this.stopBeat();
    this.notifyPending();
    if (ws) ws.close();
    this.setStatus("closed");
  }

  /** @param {ConnStatus} s */
  setStatus(s) {
    if (this.status === s) return;
    this.status = s;
    this.opts.onStatus(s);
  }

  /** @param {import("../types/messages.server").MessagesServerJson} m a message as docs/schema/messages.server.json types it */
  receive(m) {
    if (m && m.type === "hello") {
      if (m.protocol !== PROTOCOL) {
        this.setStatus("outdated");
        this.stopped = true;
        if (this.ws) this.ws.close();
        this.opts.onMessage(m);
        return;
      }
      this.ready = true;
      this.attempt = 0;
      this.heardAt = Date.now();
      if (this.helloTimer !== null) this.timers().clear(this.helloTimer);
      this.helloTimer = null;
      this.startBeat();
      // each unanswered action once more (same client_id, same version) BEFORE the tables'
      // states: its answer (duplicate, or stale) comes first and says whether it was taken
      for (const p of [...this.pending.values(), ...this.asked.values()]) {
        p.sends += 1;
        this.raw(frame(p));
      }
      this.stale = new Set(this.tables);
      this.states.clear();  // a new connection starts every table from a whole state
      for (const id of this.tables) this.raw({ type: "subscribe", table_id: id });
      if (!this.stale.size) this.setStatus("open");
      this.notifyPending();
    } else if (m && m.type === "delta") {
      const made = this.patched(m);
      if (!made) return;
      m = made;
      this.fresh(made);
    } else if (m && m.type === "state") {
      this.states.set(m.table_id, m);
      this.fresh(m);
    } else if (m && (m.type === "ack" || m.type === "error") && m.client_id) {
      this.answered(m);
    }
    this.opts.onMessage(m);
  }

  /** The whole state a delta makes from the table's state held, or null: it does not start from
   * that state, or does not fit it — the table is subscribed again for its whole state.
   * @param {import("../types/messages.server").Delta} m
   * @returns {import("../types/messages.server").State | null} */
  patched(m) {
    const held = this.states.get(m.table_id);
    if (!this.tables.has(m.table_id)) return null;  // unsubscribed meanwhile
    if (held && held.seq === m.base) {
      try {
        const made = { ...applyPatch(held, /** @type {import("./patch.js").PatchOp[]} */ (m.patch)), seq: m.seq };
        this.states.set(m.table_id, made);
        return made;
      } catch (e) {
        if (!(e instanceof PatchError)) throw e;
      }
    }
    this.states.delete(m.table_id);
    this.raw({ type: "subscribe", table_id: m.table_id });
    return null;
  }

  /** A table's state came: its version is the one actions are built from now; an action of an
   * earlier round still unanswered no longer blocks the player (its answer will tell).
   * @param {import("../types/messages.server").State} m */
  fresh(m) {
    const round_id = m.round ? m.round.round_id : null;
    this.seen.set(m.table_id, { version: m.version, round_id, phase: m.round ? m.round.phase : null });
    let changed = false;
    for (const p of [...this.pending.values()]) {
      if (p.table_id === m.table_id && round_id !== null && p.round_id !== round_id) {
        this.pending.delete(p.client_id);
        this.asked.set(p.client_id, p);
        changed = true;
      }
    }
    if (this.stale.delete(m.table_id) && !this.stale.size && this.ready) this.setStatus("open");
    if (changed) this.notifyPending();
  }

  /** The server's answer to an action: taken (ack, or a duplicate: taken before) or refused.
   * @param {{ type: string, client_id?: string | null, code?: string, round_id?: string | null, phase?: string | null }} m */
  answered(m) {
    const id = String(m.client_id);
    const p = this.pending.get(id) || this.asked.get(id);
    if (!p) return;
    this.pending.delete(id);
    this.asked.delete(id);
    if (m.type === "error" && m.code === "stale_action" && this.opts.onNotTaken) {
      // another round, or another phase of it (the betting closed): the moment has passed
      const moved = (m.round_id || null) !== p.round_id || (m.phase || null) !== p.phase;
      this.opts.onNotTaken(p, moved ? "round_moved" : "state_changed");
    }
    this.notifyPending();
  }

  /** @param {Record<string, unknown>} msg */
  raw(msg) {
    if (this.ws && this.ready) this.ws.send(JSON.stringify(msg));
  }

  /** @param {string} tableId */
  subscribe(tableId) {
    this.tables.add(tableId);
    this.raw({ type: "subscribe", table_id: tableId });
  }

  /** @param {string} tableId */
  unsubscribe(tableId) {
    if (!this.tables.delete(tableId)) return;
    this.states.delete(tableId);
    this.raw({ type: "unsubscribe", table_id: tableId });
  }

  /**
   * Send an action, built from the table's last state (its version goes with it); it stays
   * pending (and is resent after a reconnect) until answered. Null before any state came.
   * @param {string} tableId
   * @param {Record<string, unknown>} action
   * @returns {string | null} its client_id
   */
  act(tableId, action) {
    const seen = this.seen.get(tableId);
    if (!seen) return null;
    const client_id = this.opts.newId ? this.opts.newId() : globalThis.crypto.randomUUID();
    /** @type {Pending} */
    const p = { client_id, table_id: tableId, action, sends: this.ready ? 1 : 0, version: seen.version, round_id: seen.round_id, phase: seen.phase };
    this.pending.set(client_id, p);
    this.raw(frame(p));
    this.notifyPending();
    return client_id;
  }

  notifyPending() {
    if (this.opts.onPending) this.opts.onPending([...this.pending.values()]);
  }
}

/** The action frame of a pending action. @param {Pending} p */
function frame(p) {
  return { type: "action", table_id: p.table_id, client_id: p.client_id, version: p.version, action: p.action };
}
