// State deltas in the browser (docs/protocol.md, "Deltas"): an RFC 6902 patch of the server's
// kind applied copy-on-write, and the socket making whole states from deltas — and subscribing
// again for the whole state when a delta does not start from the state it holds.
import { describe, expect, it } from "vitest";
import { PatchError, applyPatch } from "../../qipai/web/api/patch.js";
import { TableSocket, PROTOCOL } from "../../qipai/web/api/ws.js";

describe("applyPatch", () => {
  it("adds, removes and replaces along RFC 6901 paths, leaving the old document as it was", () => {
    const old = { a: { "x/y": 1, "t~": [1, { k: 2 }] }, b: null, keep: { deep: [1] } };
    const before = JSON.stringify(old);
    const made = applyPatch(old, [
      { op: "replace", path: "/a/x~1y", value: 5 },
      { op: "replace", path: "/a/t~0/1/k", value: null },
      { op: "add", path: "/c", value: [true] },
      { op: "remove", path: "/b" },
    ]);
    expect(made).toEqual({ a: { "x/y": 5, "t~": [1, { k: null }] }, c: [true], keep: { deep: [1] } });
    expect(JSON.stringify(old)).toBe(before);
    expect(made.keep).toBe(old.keep);  // what did not change is shared
  });

  it("inserts into a list and removes from it by index (the newest result in front)", () => {
    const old = { results: [{ n: 3 }, { n: 2 }, { n: 1 }] };
    const made = applyPatch(old, [
      { op: "remove", path: "/results/2" },
      { op: "add", path: "/results/0", value: { n: 4 } },
    ]);
    expect(made.results).toEqual([{ n: 4 }, { n: 3 }, { n: 2 }]);
    expect(made.results[1]).toBe(old.results[0]);
    expect(() => applyPatch(old, [{ op: "add", path: "/results/9", value: 1 }])).toThrow(PatchError);
  });

  it("refuses a patch that does not fit", () => {
    expect(() => applyPatch({ a: 1 }, [{ op: "replace", path: "/b", value: 1 }])).toThrow(PatchError);
    expect(() => applyPatch({ a: [1] }, [{ op: "remove", path: "/a/3" }])).toThrow(PatchError);
    expect(() => applyPatch({ a: 1 }, [{ op: "replace", path: "/a/b", value: 1 }])).toThrow(PatchError);
  });
});

class FakeWS {
  static all = [];
  constructor() { this.readyState = 0; this.sent = []; FakeWS.all.push(this); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.readyState = 3; }
  reply(m) { this.onmessage({ data: JSON.stringify(m) }); }
}

function connected() {
  FakeWS.all = [];
  const got = [];
  const sock = new TableSocket({
    url: () => "ws://x/ws", token: () => "tok", onMessage: (m) => got.push(m), onStatus: () => {},
    WebSocket: /** @type {any} */ (FakeWS), newId: () => "c1",
    timers: { set: () => 0, clear: () => {} },
  });
  sock.connect();
  const ws = FakeWS.all[0];
  ws.readyState = 1;
  ws.onopen();
  ws.reply({ type: "hello", player: "me", protocol: PROTOCOL });
  sock.subscribe("t1");
  return { sock, ws, got };
}

const whole = { type: "state", table_id: "t1", seq: 7, version: "r1.aaaa", round: { round_id: "r1", phase: "betting", time_left: 9 }, legal: [{ type: "bet" }] };

describe("TableSocket with deltas", () => {
  it("signs in taking deltas and makes the next whole state from one", () => {
    const { sock, ws, got } = connected();
    expect(ws.sent[0]).toEqual({ type: "auth", token: "tok", heartbeat: true, deltas: true });
    ws.reply(whole);
    ws.reply({ type: "delta", table_id: "t1", base: 7, seq: 9, patch: [
      { op: "replace", path: "/version", value: "r1.bbbb" },
      { op: "replace", path: "/round/time_left", value: 8 },
      { op: "replace", path: "/legal", value: [] },
    ] });
    const made = got.at(-1);
    expect(made).toEqual({ ...whole, seq: 9, version: "r1.bbbb", round: { ...whole.round, time_left: 8 }, legal: [] });
    expect(got.filter((m) => m.type === "delta")).toEqual([]);  // the app sees whole states only
    expect(sock.act("t1", { type: "bet" })).toBe("c1");
    expect(ws.sent.at(-1).version).toBe("r1.bbbb");  // actions are built from the state made
  });

  it("subscribes again when a delta does not start from the state held, and drops it", () => {
    const { ws, got } = connected();
    ws.reply(whole);
    const before = got.length;
    ws.reply({ type: "delta", table_id: "t1", base: 8, seq: 9, patch: [{ op: "replace", path: "/version", value: "r1.zzzz" }] });
    expect(got.length).toBe(before);
    expect(ws.sent.at(-1)).toEqual({ type: "subscribe", table_id: "t1" });
    // and one that does not fit the state held
    ws.reply(whole);
    ws.sent.length = 0;
    ws.reply({ type: "delta", table_id: "t1", base: 7, seq: 9, patch: [{ op: "replace", path: "/nothing/here", value: 1 }] });
    expect(ws.sent).toEqual([{ type: "subscribe", table_id: "t1" }]);
    expect(got.at(-1)).toEqual(whole);
  });
});
