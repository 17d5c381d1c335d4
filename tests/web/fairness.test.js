// The fairness panel tells a player whose client seed is not in the running deal unit (they sat
// down or changed it mid-unit) that it enters from the next unit, and which commitment it meets
// (docs/fairness.md, "Which commitment a seed meets").
import { afterEach, describe, expect, it } from "vitest";
import { h } from "../../qipai/web/vendor/preact.module.js";
import { setLang } from "../../qipai/web/i18n/index.js";
import { FairnessPanel, seedWaits } from "../../qipai/web/views/fairness.js";
import { cleanup, mount } from "./render.js";

const NEXT = "ab".repeat(32);
function state({ mine = "S2", seeds = { S1: "one" }, ended = false, enabled = true } = {}) {
  return {
    you: { player: "bob", seat: mine, in_round: false },
    fairness: {
      seed_policy: "after_deal", deal_spec: "deal-spec/1", current: { commitment: "cd".repeat(32), seed: ended ? "00" : null },
      next_commitment: NEXT, client_seeds: seeds, client_seeds_enabled: enabled,
      revealed: ended ? [{ commitment: "cd".repeat(32), seed: "00", rounds: [], ended: true, client_seeds: seeds }] : [],
    },
  };
}

describe("a client seed that waits for the next deal unit", () => {
  afterEach(() => { cleanup(); setLang("zh"); });
  it("is told, with the commitment it will meet, in both languages", () => {
    for (const [lang, words] of [["en", "next deal unit"], ["zh", "下一个发牌单元"]]) {
      setLang(lang);
      const root = mount(h(FairnessPanel, { st: state(), clientSeed: "two" }));
      const note = root.querySelector("#seed-waits");
      expect(note).not.toBeNull();
      expect(note.textContent).toContain(words);
      expect(note.textContent).toContain(NEXT.slice(0, 16));
      cleanup();
    }
  });
  it("is not told when the seed is in the running unit, the unit ended, or seeds are off", () => {
    expect(seedWaits(state({ mine: "S1" }), "one")).toBe(false);
    expect(seedWaits(state({ mine: "S1" }), "changed")).toBe(true);
    expect(seedWaits(state({ ended: true }), "two")).toBe(false);
    expect(seedWaits(state({ enabled: false }), "two")).toBe(false);
    expect(seedWaits({ ...state(), you: { player: "w", seat: null, in_round: false } }, "two")).toBe(false);
  });

describe("the room's word on my client seed (you.client_seed)", () => {
  afterEach(() => { cleanup(); setLang("zh"); });
  const AFTER = "ef".repeat(32);
  it("names the unit a seed skips on a table opened for me, and the unit it enters", () => {
    for (const [lang, words] of [["en", "skips"], ["zh", "不进入"]]) {
      setLang(lang);
      const st = { ...state(), you: { player: "bob", seat: "S2", in_round: false,
        client_seed: { client_seed: "two", in_unit: false, commitment: null, after_commitment: AFTER } } };
      const root = mount(h(FairnessPanel, { st, clientSeed: "two" }));
      const note = root.querySelector("#seed-waits");
      expect(note && note.textContent).toContain(words);
      expect(note.textContent).toContain(AFTER.slice(0, 16));
      cleanup();
    }
    const told = { client_seed: "one", in_unit: true, commitment: "cd".repeat(32), after_commitment: null };
    const root = mount(h(FairnessPanel, { st: { ...state({ mine: "S1" }), you: { player: "a", seat: "S1", in_round: true, client_seed: told } }, clientSeed: "one" }));
    expect(root.querySelector("#seed-waits")).toBeNull();  // in the running unit: nothing to tell
  });
});
});
