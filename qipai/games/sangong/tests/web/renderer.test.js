// The San Gong renderer (web/renderer.js) drawn with the client's own Preact from views the
// real engine produced (test_renderer.py writes them and names the file in SANGONG_VIEWS).
import { readFileSync } from "node:fs";
import process from "node:process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { html } from "../../../../web/ui/html.js";
import { setLang, TEXT } from "../../../../web/i18n/index.js";
import renderers, { renderer, sangong } from "../../web/renderer.js";
import strings from "../../web/i18n.json";
import { cleanup, mount, texts } from "../../../../../tests/web/render.js";

const VIEWS = JSON.parse(readFileSync(process.env.SANGONG_VIEWS, "utf8"));
const noop = () => {};

/** The table state a renderer is given: the round's view and the seat's legal actions. */
function state(view, legal = []) {
  return { round: { view, finished: view.phase === "finished" }, legal, you: { seat: view.me ? view.me.id : null }, seats: {} };
}

beforeEach(() => {
  // the client merges the game's strings (web/i18n.json) into its own
  Object.assign(TEXT.zh, strings.zh);
  Object.assign(TEXT.en, strings.en);
  setLang("en");
});
afterEach(cleanup);

describe("San Gong renderer", () => {
  it("shows my three cards and nobody else's before the show", () => {
    const v = VIEWS.show_A;
    const root = mount(html`<div>${html`<${sangong.Mine} st=${state(v)} />`}${html`<${sangong.Center} st=${state(v)} />`}</div>`);
    const mine = [...root.querySelectorAll(".my-hand [data-card], .my-hand .card")];
    expect(mine.length).toBeGreaterThanOrEqual(3);
    const text = texts(root).join(" ");
    expect(text).toContain(v.me.hand.en);
    for (const s of v.seats.filter((x) => x.id !== "A")) {
      expect(root.querySelector(`[data-seat="${s.id}"] .hand-name`)).toBeNull();
    }
    expect(text).toContain("on time-out: cards shown");
  });

  it("offers the show, the bids and the bets as buttons", () => {
    const acts = [];
    const ctx = { act: (a) => acts.push(a), busy: false, ui: {}, setUi: noop };
    let root = mount(html`<${sangong.Actions} st=${state(VIEWS.show_A, [{ type: "show" }])} ctx=${ctx} />`);
    root.querySelector('[data-action="show"]').click();
    expect(acts).toEqual([{ type: "show" }]);
    cleanup();
    root = mount(html`<${sangong.Actions} st=${state(VIEWS.bid_A, [{ type: "bid", choices: [0, 1, 2] }])} ctx=${ctx} />`);
    expect([...root.querySelectorAll('[data-action="bid"]')].map((b) => b.dataset.value)).toEqual(["0", "1", "2"]);
    root.querySelector('[data-action="bid"][data-value="2"]').click();
    expect(acts[1]).toEqual({ type: "bid", multiple: 2 });
  });

  it("before the deal says the cards come after the bets", () => {
    const root = mount(html`<${sangong.Mine} st=${state(VIEWS.bid_A)} />`);
    expect(texts(root).join(" ")).toContain("cards come after the bets");
  });

  it("summarises a finished round: every hand, what it pays and every net", () => {
    const v = VIEWS.finished_A;
    const root = mount(html`<${sangong.Summary} view=${v} seat="A" />`);
    const text = texts(root).join(" ");
    for (const s of v.seats) {
      expect(root.querySelector(`[data-seat="${s.id}"]`)).not.toBeNull();
      expect(text).toContain(`${s.hand.en} ×${s.hand.multiplier}`);
    }
    expect(root.querySelectorAll(".net").length).toBe(v.seats.length);
    expect(sangong.revealOrder(v)[0]).toBe(v.banker);
  });

  it("recalls a finished round step by step, in Chinese too", () => {
    setLang("zh");
    const steps = sangong.recall(VIEWS.finished_A, "A");
    expect(steps.map((s) => s.title)).toEqual([TEXT.zh.step_banker, "下注", TEXT.zh.step_your_hand, TEXT.zh.step_result]);
    const root = mount(html`<div>${steps.map((s) => s.body)}</div>`);
    expect(texts(root).join(" ")).toContain(VIEWS.finished_A.me.hand.zh);
  });

  it("draws the lobby art, under the names the client loads a folder's renderer by", () => {
    expect(renderer).toBe(sangong);
    expect(renderers).toBe(sangong);
    const root = mount(renderer.Art());
    expect(root.querySelectorAll(".card, [data-card]").length).toBeGreaterThan(0);
  });
});
