// @ts-check
// The table WebSocket (docs/protocol.md): one connection, reconnected with back-off; the tables
// watched are subscribed again on every (re)connect; every action carries a client_id and stays
// pending until the server answers it (ack or error). After a reconnect each pending action is
// sent once more with the same client_id, so the server applies it at most once (a repeat is
// acknowledged as a duplicate).

/** The protocol version this client speaks (the server's `hello` must say the same). */
export const PROTOCOL = 1;

/** A connection whose server says no `hello` within this many ms is dropped and tried again. */
export const HELLO_TIMEOUT = 5000;

/** Back-off before reconnect attempt `n` (0, 1, …) in ms: 0.5 s doubling to 8 s, ±25 % jitter. */
export function backoff(n, random = Math.random) {
  const base = Math.min(8000, 500 * 2 ** n);
  return Math.round(base * (0.75 + random() / 2));
}

/**
 * @typedef {{ client_id: string, table_id: string, action: Record<string, unknown>, sends: number }} Pending
 * @typedef {"connecting" | "open" | "reconnecting" | "outdated" | "closed"} ConnStatus
 */

export class TableSocket {
  /**
   * @param {{
   *   url: () => string,
   *   token: () => string | null,
   *   onMessage: (m: import("../protocol.js").ServerMessage) => void,
   *   onStatus: (s: ConnStatus) => void,
   *   onPending?: (p: Pending[]) => void,
   *   onAuthFailed?: () => void,
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
    // an open socket that never says hello (a proxy that lost it, a stalled server) is not a
    // connection: drop it and try again, so the overlay never waits for ever
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "auth", token: this.opts.token() }));
      const h = timers.set(() => {
        if (this.ws === ws && !this.ready) ws.close();
      }, HELLO_TIMEOUT);
      this.helloTimer = h;
    };
    ws.onmessage = (ev) => {
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
      if (ev.code === 4401) {
        this.setStatus("closed");
        this.stopped = true;
        if (this.opts.onAuthFailed) this.opts.onAuthFailed();
        return;
      }
      if (this.stopped || this.status === "outdated") return;
      this.setStatus("reconnecting");
      const wait = backoff(this.attempt++);
      this.timer = timers.set(() => {
        this.timer = null;
        if (!this.stopped) this.connect();
      }, wait);
    };
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
      if (this.helloTimer !== null) this.timers().clear(this.helloTimer);
      this.helloTimer = null;
      this.setStatus("open");
      for (const id of this.tables) this.raw({ type: "subscribe", table_id: id });
      for (const p of this.pending.values()) {  // each pending action once more, same client_id
        p.sends += 1;
        this.raw({ type: "action", table_id: p.table_id, client_id: p.client_id, action: p.action });
      }
      this.notifyPending();
    } else if (m && (m.type === "ack" || m.type === "error") && m.client_id) {
      if (this.pending.delete(m.client_id)) this.notifyPending();
    }
    this.opts.onMessage(m);
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
    this.raw({ type: "unsubscribe", table_id: tableId });
  }

  /**
   * Send an action; it stays pending (and is resent after a reconnect) until answered.
   * @param {string} tableId
   * @param {Record<string, unknown>} action
   * @returns {string} its client_id
   */
  act(tableId, action) {
    const client_id = this.opts.newId ? this.opts.newId() : globalThis.crypto.randomUUID();
    this.pending.set(client_id, { client_id, table_id: tableId, action, sends: this.ready ? 1 : 0 });
    this.raw({ type: "action", table_id: tableId, client_id, action });
    this.notifyPending();
    return client_id;
  }

  notifyPending() {
    if (this.opts.onPending) this.opts.onPending([...this.pending.values()]);
  }
}
