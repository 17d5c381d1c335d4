// The table socket: reconnect with back-off, subscriptions restored, every pending action resent
// exactly once per reconnect with its own client_id, answered actions forgotten, a server of
// another protocol version refused.
import { describe, expect, it } from "vitest";
import { TableSocket, backoff, PROTOCOL } from "../../qipai/web/api/ws.js";

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
}

function make() {
  FakeWS.all = [];
  const timers = [];
  const statuses = [];
  let n = 0;
  const sock = new TableSocket({
    url: () => "ws://x/ws", token: () => "tok", onMessage: () => {}, onStatus: (s) => statuses.push(s),
    WebSocket: /** @type {any} */ (FakeWS), newId: () => `c${++n}`,
    timers: { set: (fn, ms) => { timers.push({ fn, ms }); return timers.length; }, clear: () => {} },
  });
  return { sock, timers, statuses };
}

describe("TableSocket", () => {
  it("resends a pending action once after a reconnect, with the same client_id", () => {
    const { sock, timers, statuses } = make();
    sock.connect();
    FakeWS.all[0].open();
    sock.subscribe("t1");
    const id = sock.act("t1", { type: "bet", spot: "P1", amount: 100 });
    expect(FakeWS.all[0].sent.filter((m) => m.type === "action")).toHaveLength(1);
    FakeWS.all[0].drop();                      // no ack came back
    expect(statuses.at(-1)).toBe("reconnecting");
    expect(timers.map((x) => x.ms > 0)).toEqual([true, true]);  // hello timeout (cleared by hello), back-off
    expect(timers[0].ms).toBe(5000);
    timers[1].fn();                            // back-off elapsed: reconnect
    FakeWS.all[1].open();
    const sent = FakeWS.all[1].sent;
    expect(sent[0]).toEqual({ type: "auth", token: "tok" });  // the first message, every time
    expect(sent[1]).toEqual({ type: "subscribe", table_id: "t1" });
    const resent = sent.filter((m) => m.type === "action");
    expect(resent).toEqual([{ type: "action", table_id: "t1", client_id: id, action: { type: "bet", spot: "P1", amount: 100 } }]);
    expect(sock.pending.get(id).sends).toBe(2);
    FakeWS.all[1].reply({ type: "ack", client_id: id, duplicate: true });
    expect(sock.pending.size).toBe(0);
    FakeWS.all[1].drop();
    timers.at(-1).fn();
    FakeWS.all[2].open();
    expect(FakeWS.all[2].sent.filter((m) => m.type === "action")).toEqual([]);  // answered: never again
  });

  it("drops an open socket that says no hello in time, and tries again", () => {
    const { sock, timers, statuses } = make();
    sock.connect();
    const first = FakeWS.all[0];
    first.readyState = 1;
    first.onopen();                             // open, but the hello is lost
    expect(first.sent).toEqual([{ type: "auth", token: "tok" }]);
    expect(timers).toHaveLength(1);             // the hello timeout
    timers[0].fn();
    expect(first.readyState).toBe(3);           // dropped
    expect(statuses.at(-1)).toBe("reconnecting");
    timers[1].fn();                             // back-off, then a new connection
    FakeWS.all[1].open();
    expect(statuses.at(-1)).toBe("open");
  });

  it("forgets an action the server refused", () => {
    const { sock } = make();
    sock.connect();
    FakeWS.all[0].open();
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
});
