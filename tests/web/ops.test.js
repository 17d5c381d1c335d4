// The back office (qipai/web/ops): its texts in both languages, every key it asks for present,
// and the round inspector's replay drawn by the player's own renderers from the state it builds
// (`stateFor`) for the golden views of every game, each seat's hand included.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import zh from "../../qipai/web/ops/i18n/zh.json" with { type: "json" };
import en from "../../qipai/web/ops/i18n/en.json" with { type: "json" };
import { html } from "../../qipai/web/ui/html.js";
import { renderer } from "../../qipai/web/games/index.js";
import { stateFor } from "../../qipai/web/ops/views/rounds.js";
import { roundRef } from "../../qipai/web/ops/views/common.js";
import { missing as roomMissing, setLang } from "../../qipai/web/i18n/index.js";
import { cleanup, mount } from "./render.js";
import { api, setToken, whenUnauthorized } from "../../qipai/web/ops/api.js";

const holes = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const OPS = "qipai/web/ops";

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name))
    : e.name.endsWith(".js") ? [readFileSync(join(dir, e.name), "utf8")] : []));
}

describe("round references", () => {
  it("shows a round by the random end of its id, not the time it starts with", () => {
    // two version-7 ids opened in the same millisecond: the same first 12 digits
    const a = "019ae0c4a1b27c3d8e9fa0b1c2d3e4f5";
    const b = "019ae0c4a1b27a11b22c33d44e55f667";
    expect(roundRef(a)).toBe("…a0b1c2d3e4f5");
    expect(roundRef(a)).not.toBe(roundRef(b));
    expect(roundRef("r-17")).toBe("r-17"); // a short id chosen by a caller is shown whole
  });
});

describe("console texts", () => {
  it("has the same keys and placeholders in Chinese and English", () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    for (const k of Object.keys(zh)) expect(holes(zh[k]), k).toEqual(holes(en[k]));
  });
  it("has every literal key the console asks for", () => {
    const asked = new Set(sources(OPS).flatMap((src) => [...src.matchAll(/\bt\("([a-z0-9_]+)"/g)].map((m) => m[1])));
    expect(asked.size).toBeGreaterThan(50);
    expect([...asked].filter((k) => !(k in en))).toEqual([]);
  });
  it("keeps English out of the Chinese texts (GGR, MAC and z aside)", () => {
    const bad = Object.entries(zh).filter(([, v]) => /[A-Za-z]{3,}/.test(v.replace(/\{\w+\}/g, " ").replace(/GGR|MAC/g, " ")));
    expect(bad).toEqual([]);
  });
});

describe("console api", () => {
  afterEach(() => { vi.unstubAllGlobals(); setToken(null); whenUnauthorized(() => {}); });
  it("is the player's fetch wrapper with the operator's session", async () => {
    const calls = [];
    const reply = (status, body) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
    vi.stubGlobal("fetch", async (path, init) => {
      calls.push({ path, method: init.method, auth: init.headers.Authorization, body: init.body });
      if (path === "/api/ops/login") return reply(401, { error: { code: "bad_credentials", message: "no" } });
      if (path.endsWith("format=csv")) return new Response("a,b\n1,2\n", { status: 200 });
      if (path === "/api/ops/players/x/limits") return reply(200, { ok: true });
      return reply(401, { error: { code: "auth_required", message: "expired" } });
    });
    let ended = 0;
    whenUnauthorized(() => { ended += 1; });
    setToken("tok");
    await expect(api.post("/api/ops/login", { name: "o" })).rejects.toMatchObject({ code: "bad_credentials", status: 401 });
    expect(ended).toBe(0);  // a refused sign-in is not an ended session
    expect(await api.put("/api/ops/players/x/limits", { max_bet: 5 })).toEqual({ ok: true });
    const file = await api.blob("/api/ops/reports/house?format=csv");
    expect(await file.text()).toBe("a,b\n1,2\n");
    await expect(api.get("/api/ops/tables")).rejects.toMatchObject({ code: "auth_required" });
    expect(ended).toBe(1);
    expect(calls.map((c) => [c.method, c.auth])).toEqual([["POST", "Bearer tok"], ["PUT", "Bearer tok"], ["GET", "Bearer tok"], ["GET", "Bearer tok"]]);
    expect(calls[1].body).toBe(JSON.stringify({ max_bet: 5 }));
  });
  it("has no fetch wrapper of its own", () => {
    const src = readFileSync(join(OPS, "api.js"), "utf8");
    expect(src).toContain('from "../api/http.js"');
    expect(src).not.toMatch(/\bfetch\(/);
  });
});

const dir = inject("goldenDir");
const GOLDEN = Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith(".json"))
  .map((f) => [f.replace(/\.json$/, ""), JSON.parse(readFileSync(join(dir, f), "utf8"))]));
const NOOP = { act: () => {}, busy: true, ui: {}, setUi: () => {}, note: () => {}, pushChip: () => {}, chipStack: [], lastBets: null };

afterEach(() => cleanup());

describe.each(Object.keys(GOLDEN))("replay of %s", (game) => {
  it("draws each seat's view with the table's renderer", () => {
    setLang("zh");
    const moments = GOLDEN[game].map((g) => g.message).filter((m) => m.round && m.round.view && m.you && m.you.seat && m.round.finished);
    expect(moments.length).toBeGreaterThan(0);
    const m = moments[moments.length - 1];
    const seat = m.you.seat;
    const replay = {
      table_id: m.table.id, game,
      seats: m.table.seats.filter((s) => s.occupied).map((s) => ({ seat: s.seat, user_id: s.bot ? `bot.t.${s.seat}` : s.name, stack: s.stack || 0 })),
    };
    const step = { index: 1, phase: m.round.phase, finished: !!m.round.finished, awaiting: m.round.awaiting || [], spectator: m.round.view, views: { [seat]: m.round.view } };
    const st = stateFor(replay, step, seat);
    expect(st.round.view).toBe(m.round.view);
    expect(st.you).toEqual({ seat, in_round: true });
    expect(st.table.seats.find((s) => s.seat === seat).occupied).toBe(true);
    const R = renderer(game);
    const root = mount(html`<div><${R.Center} st=${st} ctx=${NOOP} />${R.Mine ? html`<${R.Mine} st=${st} ctx=${NOOP} />` : null}</div>`);
    expect(root.querySelectorAll("[data-card], .card, .tile").length).toBeGreaterThan(0);
    expect(root.querySelectorAll("button:not([disabled]).action").length).toBe(0);  // nothing to act on in a replay
    expect([...roomMissing]).toEqual([]);
  });
});
