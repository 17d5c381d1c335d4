// My history (views/history.js): rounds in pages, each with my own cards, local times with their
// zone, and a step-by-step recall of the last 10 rounds; from the real engine's finished views.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import { html } from "../../qipai/web/ui/html.js";
import { HistoryView, RECALL_ROUNDS } from "../../qipai/web/views/history.js";
import { setLang, missing } from "../../qipai/web/i18n/index.js";
import { cleanup, mount } from "./render.js";

const dir = inject("goldenDir");
const GOLDEN = Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith(".json"))
  .map((f) => [f.replace(/\.json$/, ""), JSON.parse(readFileSync(join(dir, f), "utf8"))]));
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

/** What my own cards look like in a history row, per game. */
const MINE = {
  pokdeng: ".bet-table tr[data-bet]", paigow: ".hand-line.mine .tile", niuniu: ".hand-line.mine [data-card]",
  tiengow: ".hand-line.mine .tile", "holdem-bonus": ".hand-line.mine [data-card]",
};

/** A history row as /api/history gives it, from my finished view of `game`. */
function item(game, i) {
  const m = GOLDEN[game].find((x) => x.moment === "finished" && x.message.you.seat).message;
  return {
    round_id: `${game}-${i}`, game, seat: m.you.seat, status: "settled", view: m.round.view,
    players: [{ seat: m.you.seat, net: 150, start_balance: 10000, end_balance: 10150 }],
    commitment: "ab".repeat(32), seed: null, seed_policy: game === "tiengow" ? "operator_only" : "after_unit",
    opened_at: "2026-12-01T14:00:00Z", closed_at: "2026-12-01T14:01:30+00:00",
  };
}

const actions = { go: () => {}, moreHistory: () => {} };
const state = (rounds, more) => ({ history: { rounds, more }, games: {}, busy: {}, lang: "zh" });

afterEach(() => cleanup());

describe("history", () => {
  it("pages: recall on the last 10 rounds, a button for earlier ones", () => {
    setLang("en");
    const rounds = Array.from({ length: 12 }, (_, i) => item("pokdeng", i));
    const root = mount(html`<${HistoryView} s=${state(rounds, true)} actions=${actions} />`);
    expect(root.querySelectorAll(".history-item").length).toBe(12);
    expect(root.querySelectorAll("[data-recall]").length).toBe(RECALL_ROUNDS);
    expect(root.querySelector("#history-more")).not.toBeNull();
    cleanup();
    const last = mount(html`<${HistoryView} s=${state(rounds.slice(0, 3), false)} actions=${actions} />`);
    expect(last.querySelector("#history-more")).toBeNull();
  });
  it("shows times in local time with the zone", () => {
    setLang("en");
    const root = mount(html`<${HistoryView} s=${state([item("niuniu", 0)], false)} actions=${actions} />`);
    const shown = root.querySelector(".history-item time").textContent;
    expect(shown).toMatch(/\d\d:\d\d:\d\d/);
    expect(shown).toMatch(/UTC|GMT|[A-Z]{2,5}|[+-]\d/);
  });
  for (const game of Object.keys(MINE)) {
    it(`${game}: my own cards, and the round step by step in both languages`, async () => {
      if (!GOLDEN[game]) return;
      for (const lang of ["zh", "en"]) {
        setLang(lang);
        missing.clear();
        const root = mount(html`<${HistoryView} s=${{ ...state([item(game, 0)], false), lang }} actions=${actions} />`);
        expect(root.querySelectorAll(`.history-item ${MINE[game]}`).length).toBeGreaterThan(0);
        root.querySelector("[data-recall]").click();
        await tick();
        const recall = root.querySelector(".recall");
        expect(recall).not.toBeNull();
        const titles = [];
        for (let n = 0; n < 30; n++) {
          titles.push(recall.querySelector("b").textContent);
          const next = recall.querySelector("[data-step=next]");
          if (next.disabled) break;
          next.click();
          await tick();
        }
        expect(titles.length).toBeGreaterThan(1);
        expect(titles.every(Boolean)).toBe(true);
        expect([...missing]).toEqual([]);
        cleanup();
      }
    });
  }
});
