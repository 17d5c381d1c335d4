// The staged showdown (qipai/web/ui/showdown.js): when a round I watched ends, its hands are
// turned one at a time (banker or dealer first) and the result comes after them (on the table,
// then in the results panel), each stage a
// small change on a frame of its own. It must end with everything the finished state holds, keep
// the seats' and hands' elements (updated in place, not rebuilt), last no longer than
// SHOWDOWN_MS, and show everything at once for a player who asks for reduced motion.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import { options } from "../../qipai/web/vendor/preact.module.js";
import { html } from "../../qipai/web/ui/html.js";
import { TableView } from "../../qipai/web/views/table.js";
import { setLang } from "../../qipai/web/i18n/index.js";
import { renderer } from "../../qipai/web/games/index.js";
import { pace, stepMs, SHOWDOWN_MS } from "../../qipai/web/ui/showdown.js";
import { sound } from "../../qipai/web/ui/sound.js";
import { cleanup, mount } from "./render.js";

const dir = inject("goldenDir");
const GOLDEN = Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith(".json"))
  .map((f) => [f.replace(/\.json$/, ""), JSON.parse(readFileSync(join(dir, f), "utf8"))]));

const noop = () => {};
const ACTIONS = { act: noop, setUi: noop, note: noop, pushChip: noop, standUp: noop, sitDialog: noop, fillBots: noop, back: noop, toggleHelp: noop, imBack: noop };

function appState(message) {
  return {
    token: "t", player: message.you.player, lang: "zh", route: { name: "table", arg: message.table.id },
    me: { player: message.you.player, wallet: 990000, tables: [] }, games: {}, tables: [], conn: "open", pending: [],
    tableId: message.table.id, state: message, log: [], actionError: null, leaving: {}, lastBets: {}, chipStack: [],
    busy: {}, note: null, dialog: null, help: false, muted: true, outdated: false, history: null, tableInfo: {}, ui: {},
  };
}

/** The player's states of a game: the last one before the round ended, and the finished one. */
function ending(game, spectator = false) {
  const moments = GOLDEN[game].filter((x) => x.moment.startsWith("spectator-") === spectator);
  const i = moments.findIndex((x) => x.message.round && x.message.round.finished && x.message.result);
  const last = moments.slice(0, i).reverse().find((x) => x.message.round && !x.message.round.finished
    && x.message.round.number === moments[i].message.round.number);
  return { last: last.message, done: moments[i].message };
}

/** What a drawn table shows: cards and tiles on the felt and in the dock, the banner, the results panel. */
function shown(root) {
  const pieces = [...root.querySelectorAll("#felt [data-card], #dock [data-card], #felt .tile.face, #dock .tile.face")]
    .map((e) => e.dataset.card || e.dataset.tile || e.dataset.id).sort();
  return {
    pieces, banner: root.querySelector("#banner") && root.querySelector("#banner").textContent,
    felt: root.querySelector("#felt").textContent, dock: root.querySelector("#dock").textContent,
    results: root.querySelector("#results").textContent, stage: root.querySelector(".stage").textContent,
  };
}

let queue = [];
const saved = { after: pace.after, reduced: pace.reduced, hidden: pace.hidden, now: pace.now, debounce: options.debounceRendering };
beforeEach(() => {
  queue = [];
  pace.after = (ms, fn) => { queue.push({ ms, fn }); return () => { queue = queue.filter((x) => x.fn !== fn); }; };
  pace.reduced = () => false;
  pace.hidden = () => false;
  options.debounceRendering = (run) => run();  // a stage's redraw happens when the stage fires
  setLang("zh");
});
afterEach(() => {
  cleanup();
  Object.assign(pace, { after: saved.after, reduced: saved.reduced, hidden: saved.hidden, now: saved.now });
  options.debounceRendering = saved.debounce;
});

describe.each(["pokdeng", "niuniu", "paigow", "holdem-bonus", "tiengow"])("%s", (game) => {
  it.each([false, true])("turns the hands one at a time and ends with the whole finished state (spectator: %s)", (spectator) => {
    const { last, done } = ending(game, spectator);
    // what the finished state shows when drawn at once (a table first drawn on it)
    const whole = shown(mount(html`<${TableView} s=${appState(done)} actions=${ACTIONS} />`));
    cleanup();
    const root = mount(html`<${TableView} s=${appState(last)} actions=${ACTIONS} />`);
    const seats = [...root.querySelectorAll(".seat")];
    sound.played.length = 0;
    const results = () => sound.played.filter((x) => ["win", "lose", "push"].includes(x));
    const money = () => [...root.querySelectorAll("#balances b, .seat-stack")].map((e) => (e.textContent.match(/[-\d,]+/) || [""])[0]);
    const stacks = money();
    mount(html`<${TableView} s=${appState(done)} actions=${ACTIONS} />`, root);
    // the stacks after the settlement do not give the result away before the hands
    expect(money()).toEqual(stacks);
    const order = renderer(game).revealOrder ? renderer(game).revealOrder(done.round.view) : [];
    // the first frame: no result yet, not every hand turned
    expect(root.querySelector("#banner")).toBeNull();
    const first = shown(root);
    expect(first.results).not.toBe(whole.results);
    if (order.length) expect(first.pieces.length).toBeLessThan(whole.pieces.length);
    // then one stage per hand and one for the result, each after a short pause
    const seen = [first];
    let total = 0;
    while (queue.length) {
      // my result's sound comes with the banner, never before the hands are turned
      expect(results().length).toBe(seen.at(-1).banner ? 1 : 0);
      const { ms, fn } = queue.shift();
      total += ms;
      fn();
      seen.push(shown(root));
    }
    expect(results().length).toBe(whole.banner ? 1 : 0);
    // the first frame, one per hand, the result on the table, then in the results panel
    expect(seen.length).toBe(order.length + 3);
    expect(seen.at(-2).banner).toBe(whole.banner);
    expect(seen.at(-2).results).not.toBe(whole.results);
    expect(total).toBeLessThanOrEqual(SHOWDOWN_MS);
    for (let k = 1; k < seen.length; k++) expect(seen[k].pieces.length).toBeGreaterThanOrEqual(seen[k - 1].pieces.length);
    // the end is exactly the whole finished state
    expect(seen.at(-1)).toEqual(whole);
    // the seats were updated in place, never rebuilt
    expect([...root.querySelectorAll(".seat")]).toEqual(seats);
  });

  it("shows everything on the first frame for a player who asks for reduced motion", () => {
    pace.reduced = () => true;
    const { last, done } = ending(game);
    const whole = shown(mount(html`<${TableView} s=${appState(done)} actions=${ACTIONS} />`));
    cleanup();
    const root = mount(html`<${TableView} s=${appState(last)} actions=${ACTIONS} />`);
    mount(html`<${TableView} s=${appState(done)} actions=${ACTIONS} />`, root);
    expect(queue).toEqual([]);
    expect(shown(root)).toEqual(whole);
  });
});

describe("the showdown's pace", () => {
  it("reads prefers-reduced-motion from the page", () => {
    const real = globalThis.matchMedia;
    try {
      globalThis.matchMedia = (q) => ({ matches: q === "(prefers-reduced-motion: reduce)" });
      expect(saved.reduced()).toBe(true);
      globalThis.matchMedia = () => ({ matches: false });
      expect(saved.reduced()).toBe(false);
    } finally {
      globalThis.matchMedia = real;
    }
  });
  it("never lasts longer than SHOWDOWN_MS, however many hands", () => {
    for (let n = 1; n <= 9; n++) expect(stepMs(n) * n).toBeLessThanOrEqual(SHOWDOWN_MS);
  });
  it("is not staged in a hidden page, and a late stage (a page hidden meanwhile: slowed timers) ends it at once", () => {
    const { last, done } = ending("pokdeng");
    const whole = shown(mount(html`<${TableView} s=${appState(done)} actions=${ACTIONS} />`));
    cleanup();
    pace.hidden = () => true;
    let root = mount(html`<${TableView} s=${appState(last)} actions=${ACTIONS} />`);
    mount(html`<${TableView} s=${appState(done)} actions=${ACTIONS} />`, root);
    expect(queue).toEqual([]);
    expect(shown(root)).toEqual(whole);
    cleanup();
    pace.hidden = () => false;
    let now = 1000;
    pace.now = () => now;
    root = mount(html`<${TableView} s=${appState(last)} actions=${ACTIONS} />`);
    mount(html`<${TableView} s=${appState(done)} actions=${ACTIONS} />`, root);
    queue.shift().fn();  // the first hand, in time
    expect(root.querySelector("#banner")).toBeNull();
    now += 5000;  // the next stage five seconds late
    queue.shift().fn();
    expect(queue).toEqual([]);
    expect(shown(root)).toEqual(whole);
  });
  it("reads the page's visibility", () => {
    expect(saved.hidden()).toBe(document.visibilityState === "hidden");
  });
  it("a new round during a showdown ends it: the new round is drawn whole, no stage is left armed", () => {
    const { last, done } = ending("pokdeng");
    const next = GOLDEN.pokdeng.find((x) => x.moment === "between").message;
    const root = mount(html`<${TableView} s=${appState(last)} actions=${ACTIONS} />`);
    mount(html`<${TableView} s=${appState(done)} actions=${ACTIONS} />`, root);
    expect(queue.length).toBe(1);
    mount(html`<${TableView} s=${appState(next)} actions=${ACTIONS} />`, root);
    expect(queue).toEqual([]);
  });
});

describe("suspense", () => {
  /** The showdown's length (ms) when the next round starts `pause` seconds after the result. */
  const length = (pause) => {
    const { last, done } = ending("pokdeng");
    const root = mount(html`<${TableView} s=${appState(last)} actions=${ACTIONS} />`);
    mount(html`<${TableView} s=${appState({ ...done, next_round_in: pause })} actions=${ACTIONS} />`, root);
    let total = 0;
    while (queue.length) {
      const { ms, fn } = queue.shift();
      total += ms;
      fn();
    }
    cleanup();
    return total;
  };
  it("turns a Pok Deng table's six hands over more than a second and a half, not in a blink", () => {
    const total = length(5);  // the room's default pause between rounds
    expect(total).toBeGreaterThanOrEqual(1500);
    expect(total).toBeLessThanOrEqual(SHOWDOWN_MS);
  });
  it("ends well before the next round starts, however short the pause", () => {
    for (const pause of [0.5, 1.5, 3]) expect(length(pause)).toBeLessThanOrEqual(pause * 600);
  });
  it.each(["pokdeng", "niuniu", "holdem-bonus"])("%s: the player may skip the reveal and see everything at once", (game) => {
    const { last, done } = ending(game);
    const whole = shown(mount(html`<${TableView} s=${appState(done)} actions=${ACTIONS} />`));
    cleanup();
    const root = mount(html`<${TableView} s=${appState(last)} actions=${ACTIONS} />`);
    mount(html`<${TableView} s=${appState(done)} actions=${ACTIONS} />`, root);
    const skip = root.querySelector("#btn-skip-reveal");
    expect(skip).not.toBeNull();
    skip.click();
    expect(queue).toEqual([]);
    expect(root.querySelector("#btn-skip-reveal")).toBeNull();
    expect(shown(root)).toEqual(whole);
  });
});
