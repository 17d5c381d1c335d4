// The table socket: reconnect with back-off, every pending action resent exactly once per
// reconnect with its own client_id and the version of the state it was built from (before the
// tables are subscribed again), answered actions forgotten, an action of a round that moved on
// no longer blocking the player and reported when refused as stale, the heartbeat giving up a
// silent connection, a server of another protocol version refused.
import { afterEach, describe, expect, it, vi } from "vitest";
import { TableSocket, backoff, PROTOCOL, HELLO_TIMEOUT, STALL_AFTER, CLOSE_LOCKED, CLOSE_SILENT } from "../../qipai/web/api/ws.js";
import zh from "../../qipai/web/i18n/zh.json" with { type: "json" };
import en from "../../qipai/web/i18n/en.json" with { type: "json" };

class FakeWS {
  static all = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeWS.all.push(this);
  }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.readyState = 3; this.onclose && this.onclose({ code: 1000 }); }
  open(protocol = PROTOCOL) { this.readyState = 1; this.onopen(); this.onmessage({ data: JSON.stringify({ type: "hello", player: "me", protocol }) }); }
  drop() { this.readyState = 3; this.onclose({ code: 1006 }); }
  reply(m) { this.onmessage({ data: JSON.stringify(m) }); }
  state(round_id, version, phase = "betting") { this.reply({ type: "state", table_id: "t1", version, round: { round_id, phase } }); }
}

function make() {
  FakeWS.all = [];
  const timers = [];
  const statuses = [];
  const notTaken = [];
  let n = 0;
  const sock = new TableSocket({
    url: () => "ws://x/ws", token: () => "tok", onMessage: () => {}, onStatus: (s) => statuses.push(s),
    onNotTaken: (p, why) => notTaken.push([p.client_id, why]),
    WebSocket: /** @type {any} */ (FakeWS), newId: () => `c${++n}`,
    timers: { set: (fn, ms) => { timers.push({ fn, ms }); return timers.length; }, clear: () => {} },
  });
  return { sock, timers, statuses, notTaken };
}

afterEach(() => vi.restoreAllMocks());

describe("TableSocket", () => {
  it("resends a pending action once after a reconnect, same client_id and version, before subscribing", () => {
    const { sock, timers, statuses } = make();
    sock.connect();
    FakeWS.all[0].open();
    sock.subscribe("t1");
    FakeWS.all[0].state("r1", "r1.aaaa");
    expect(statuses.at(-1)).toBe("open");
    const id = sock.act("t1", { type: "bet", spot: "P1", amount: 100 });
    expect(FakeWS.all[0].sent.filter((m) => m.type === "action")).toEqual([
      { type: "action", table_id: "t1", client_id: id, version: "r1.aaaa", action: { type: "bet", spot: "P1", amount: 100 } },
    ]);
    FakeWS.all[0].drop();                      // no ack came back
    expect(statuses.at(-1)).toBe("reconnecting");
    expect(timers[0].ms).toBe(HELLO_TIMEOUT);  // set when connecting
    timers.at(-1).fn();                        // back-off elapsed: reconnect
    FakeWS.all[1].open();
    const sent = FakeWS.all[1].sent;
    expect(sent[0]).toEqual({ type: "auth", token: "tok", heartbeat: true, deltas: true });  // the first message, every time
    expect(sent[1]).toEqual({ type: "action", table_id: "t1", client_id: id, version: "r1.aaaa", action: { type: "bet", spot: "P1", amount: 100 } });
    expect(sent[2]).toEqual({ type: "subscribe", table_id: "t1" });
    expect(sent).toHaveLength(3);
    expect(statuses.at(-1)).toBe("reconnecting");  // not "open" until the table's state is fresh
    expect(sock.pending.get(id).sends).toBe(2);
    FakeWS.all[1].reply({ type: "ack", client_id: id, duplicate: true });
    expect(sock.pending.size).toBe(0);
    FakeWS.all[1].state("r1", "r1.bbbb");
    expect(statuses.at(-1)).toBe("open");
    FakeWS.all[1].drop();
    timers.at(-1).fn();
    FakeWS.all[2].open();
    expect(FakeWS.all[2].sent.filter((m) => m.type === "action")).toEqual([]);  // answered: never again
  });

  it("builds no action before the table's state came", () => {
    const { sock } = make();
    sock.connect();
    FakeWS.all[0].open();
    sock.subscribe("t1");
    expect(sock.act("t1", { type: "done" })).toBeNull();
    expect(FakeWS.all[0].sent.filter((m) => m.type === "action")).toEqual([]);
  });

  it("an action of a round that moved on stops blocking the player and is reported when stale", () => {
    const { sock, notTaken } = make();
    sock.connect();
    FakeWS.all[0].open();
    sock.subscribe("t1");
    FakeWS.all[0].state("r1", "r1.aaaa");
    const id = sock.act("t1", { type: "bet", amount: 5 });
    FakeWS.all[0].state("r2", "r2.cccc");      // the next round, and still no answer
    expect(sock.pending.size).toBe(0);         // the player may act in round 2
    expect(notTaken).toEqual([]);              // not yet known whether it was taken
    FakeWS.all[0].reply({ type: "error", code: "stale_action", message: "x", client_id: id, round_id: "r2", version: "r2.cccc" });
    expect(notTaken).toEqual([[id, "round_moved"]]);
    expect(sock.asked.size).toBe(0);
  });

  it("an action taken in its round is not reported, even if its answer comes late", () => {
    const { sock, notTaken } = make();
    sock.connect();
    FakeWS.all[0].open();
    sock.subscribe("t1");
    FakeWS.all[0].state("r1", "r1.aaaa");
    const id = sock.act("t1", { type: "bet", amount: 5 });
    FakeWS.all[0].state("r2", "r2.cccc");
    FakeWS.all[0].reply({ type: "ack", client_id: id, duplicate: true });
    expect(notTaken).toEqual([]);
    expect(sock.asked.size).toBe(0);
  });

  it("a stale refusal in the same round says the choices changed", () => {
    const { sock, notTaken } = make();
    sock.connect();
    FakeWS.all[0].open();
    sock.subscribe("t1");
    FakeWS.all[0].state("r1", "r1.aaaa");
    const id = sock.act("t1", { type: "stand" });
    FakeWS.all[0].reply({ type: "error", code: "stale_action", message: "x", client_id: id, round_id: "r1", phase: "betting", version: "r1.dddd" });
    expect(notTaken).toEqual([[id, "state_changed"]]);
  });

  it("a stale refusal in a later phase of the same round says the round moved on", () => {
    const { sock, notTaken } = make();
    sock.connect();
    FakeWS.all[0].open();
    sock.subscribe("t1");
    FakeWS.all[0].state("r1", "r1.aaaa", "betting");
    const id = sock.act("t1", { type: "bet", amount: 5 });
    FakeWS.all[0].reply({ type: "error", code: "stale_action", message: "x", client_id: id, round_id: "r1", phase: "draw", version: "r1.eeee" });
    expect(notTaken).toEqual([[id, "round_moved"]]);
  });

  it("pings, and gives up a connection that says nothing for too long", () => {
    let now = 1_000_000;
    vi.spyOn(Date, "now").mockImplementation(() => now);
    const { sock, timers, statuses } = make();
    sock.connect();
    FakeWS.all[0].open();
    const beat = () => timers.filter((x) => x.ms < HELLO_TIMEOUT && x.ms === 500).at(-1).fn();
    now += 1000;
    beat();
    expect(FakeWS.all[0].sent.filter((m) => m.type === "ping")).toHaveLength(1);
    FakeWS.all[0].reply({ type: "pong", client_id: null });
    now += STALL_AFTER;                        // heard just now: not yet
    beat();
    expect(statuses.at(-1)).toBe("open");
    now += 1;                                  // silent for longer than STALL_AFTER
    beat();
    expect(statuses.at(-1)).toBe("reconnecting");
    expect(FakeWS.all[0].readyState).toBe(3);  // given up
    timers.at(-1).fn();                        // back-off: a new connection
    expect(FakeWS.all).toHaveLength(2);
  });

  it("drops a socket that says no hello in time, and tries again", () => {
    const { sock, timers, statuses } = make();
    sock.connect();
    const first = FakeWS.all[0];
    first.readyState = 1;
    first.onopen();                             // open, but the hello is lost
    expect(first.sent).toEqual([{ type: "auth", token: "tok", heartbeat: true, deltas: true }]);
    expect(timers).toHaveLength(1);             // the hello timeout
    timers[0].fn();
    expect(first.readyState).toBe(3);           // dropped
    expect(statuses.at(-1)).toBe("reconnecting");
    timers.at(-1).fn();                         // back-off, then a new connection
    FakeWS.all[1].open();
    expect(statuses.at(-1)).toBe("open");
  });

  it("forgets an action the server refused", () => {
    const { sock } = make();
    sock.connect();
    FakeWS.all[0].open();
    sock.subscribe("t1");
    FakeWS.all[0].state("r1", "r1.aaaa");
    const id = sock.act("t1", { type: "done" });
    FakeWS.all[0].reply({ type: "error", code: "wrong_phase", message: "x", client_id: id });
    expect(sock.pending.size).toBe(0);
  });

  it("refuses a server of another protocol version and stops reconnecting", () => {
    const { sock, timers, statuses } = make();
    sock.connect();
    FakeWS.all[0].open(PROTOCOL + 1);
    expect(statuses.at(-1)).toBe("outdated");
    expect(timers).toHaveLength(1);  // the hello timeout only: no reconnect
  });

  it("backs off exponentially with jitter, capped", () => {
    expect(backoff(0, () => 0.5)).toBe(500);
    expect(backoff(3, () => 0.5)).toBe(4000);
    expect(backoff(20, () => 0.5)).toBe(8000);
    expect(backoff(1, () => 0)).toBe(750);
    expect(backoff(1, () => 1)).toBe(1250);
  });

  it("says why the server closed it: 4403 a locked account (no reconnecting), 4410 a silent socket (reconnects)", () => {
    const { sock, timers, statuses } = make();
    const why = [];
    sock.opts.onClosedBy = (w) => why.push(w);
    sock.connect();
    FakeWS.all[0].open();
    FakeWS.all[0].readyState = 3;
    FakeWS.all[0].onclose({ code: CLOSE_SILENT });
    expect(why).toEqual(["silent"]);
    expect(statuses.at(-1)).toBe("reconnecting");
    timers.at(-1).fn();
    expect(FakeWS.all).toHaveLength(2);          // connected again
    FakeWS.all[1].open();
    FakeWS.all[1].readyState = 3;
    FakeWS.all[1].onclose({ code: CLOSE_LOCKED });
    expect(why).toEqual(["silent", "account_locked"]);
    expect(statuses.at(-1)).toBe("closed");
    expect(sock.stopped).toBe(true);             // a locked account's sessions are over
    expect([CLOSE_LOCKED, CLOSE_SILENT]).toEqual([4403, 4410]);  // qipai/server/sockets.py
    // each has its own clear message in both languages (views/table.js, the overlay)
    for (const key of ["conn_account_locked", "conn_account_locked_note", "conn_silent"]) {
      expect(typeof zh[key] === "string" && /[\u4e00-\u9fff]/.test(zh[key])).toBe(true);
      expect(typeof en[key] === "string" && en[key].length > 10).toBe(true);
      expect(zh[key]).not.toBe(en[key]);
    }
  });
});
