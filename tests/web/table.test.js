// The table screen drawn from golden views: real `state` messages of every game from the real
// engine (tests/web/golden.py), in both languages. Each moment must draw without an error, show
// my own cards and tiles, offer a button for every legal action, put my hand and my actions in
// the dock, show my result with its amount, leave no English word in the Chinese UI, and ask for
// no i18n key that either language lacks.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import { html } from "../../qipai/web/ui/html.js";
import { TableView, placeSeats, reasonText } from "../../qipai/web/views/table.js";
import { setLang, missing } from "../../qipai/web/i18n/index.js";
import { sortHand, selectionStatus } from "../../qipai/web/games/tiengow.js";
import { draws } from "../../qipai/web/ui/memo.js";
import { cleanup, mount, texts } from "./render.js";

const dir = inject("goldenDir");
const GOLDEN = Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith(".json"))
  .map((f) => [f.replace(/\.json$/, ""), JSON.parse(readFileSync(join(dir, f), "utf8"))]));

const noop = () => {};
const ACTIONS = { act: noop, setUi: noop, note: noop, pushChip: noop, standUp: noop, sitDialog: noop, fillBots: noop, back: noop, toggleHelp: noop };

function appState(message, patch = {}) {
  return {
    token: "t", player: message.you.player, lang: "zh", route: { name: "table", arg: message.table.id },
    me: { player: message.you.player, wallet: 990000, tables: [] }, games: {}, tables: [], conn: "open", pending: [],
    tableId: message.table.id, state: message, log: [{ type: "deal", seat: null, id: 1 }], actionError: null, leaving: {},
    lastBets: {}, chipStack: [], busy: {}, note: null, dialog: null, help: false, muted: true, outdated: false,
    history: null, tableInfo: {}, ui: {}, ...patch,
  };
}

/** Every card code and tile id my own seat holds in this message's view. */
function myPieces(game, m) {
  const v = m.round && m.round.view;
  if (!v || !m.you.seat || !m.you.in_round) return { cards: [], tiles: [] };
  if (game === "niuniu") return { cards: v.me ? v.me.cards : [], tiles: [] };
  if (game === "tiengow") return { cards: [], tiles: ((v.me && v.me.hand) || v.hand || []).map((x) => String(x.id)) };
  if (game === "paigow") {
    const s = v.seats.find((x) => x.id === (v.me ? v.me.id : v.you));
    return { cards: [], tiles: s && s.tiles ? s.tiles.map((x) => x.pips) : [] };
  }
  if (game === "holdem-bonus") {
    const mine = new Set(v.me ? [...(v.me.boxes || []), v.me.id] : []);
    return { cards: (v.boxes || []).filter((b) => mine.has(b.box) && b.cards).flatMap((b) => b.cards), tiles: [] };
  }
  return { cards: [], tiles: [] };
}

/** Text that may stay in Latin letters in the Chinese UI: names, ids, hex. */
function englishLeft(root, m) {
  // the table's short id stays as it is in a room-made name read in Chinese ("博丁 9fb2")
  const keep = [m.table.name, m.table.title.en, m.you.player, "SHA-256", "qipai verify", m.table.id.slice(0, 4)].filter(Boolean).sort((a, b) => b.length - a.length);
  return texts(root).filter((s) => {
    // hex first: a kept short id must not cut a commitment into words
    let x = s.replace(/[0-9a-f]{12,}/g, " ");
    for (const k of keep) x = x.split(k).join(" ");
    return /[A-Za-z]{3,}/.test(x);
  });
}

afterEach(() => cleanup());

describe.each(Object.keys(GOLDEN))("%s", (game) => {
  const moments = GOLDEN[game];
  it("has golden moments to draw", () => {
    expect(moments.length).toBeGreaterThan(3);
    expect(moments.some((x) => x.moment.includes("-act"))).toBe(true);
    expect(moments.some((x) => x.moment === "finished")).toBe(true);
  });
  describe.each(["zh", "en"])("%s", (lang) => {
    it.each(moments.map((x) => [x.moment, x.message]))("draws %s", (moment, m) => {
      setLang(lang);
      missing.clear();
      const root = mount(html`<${TableView} s=${appState(m, { lang })} actions=${ACTIONS} />`);
      expect(root.querySelector("#view-table")).not.toBeNull();
      expect([...missing]).toEqual([]);
      const dock = root.querySelector("#dock");
      const seated = !!m.you.seat;
      // my own cards/tiles are on the page, inside my hand in the dock
      const { cards, tiles } = myPieces(game, m);
      for (const c of cards) expect(dock.querySelector(`.my-hand [data-card="${c}"]`), `my card ${c}`).not.toBeNull();
      if (game === "tiengow") for (const id of tiles) expect(dock.querySelector(`.my-hand [data-id="${id}"]`), `my tile ${id}`).not.toBeNull();
      else for (const p of tiles) expect(dock.querySelector(`.my-hand [data-tile="${p}"]`), `my tile ${p}`).not.toBeNull();
      if (seated && m.round) expect(dock.querySelector(".my-hand")).not.toBeNull();
      // every legal action has a control in the action bar
      if (m.round && !m.round.finished && m.legal.length) {
        const bar = dock.querySelector("#actions .action-bar");
        expect(bar).not.toBeNull();
        expect(bar.querySelectorAll("button").length).toBeGreaterThan(0);
      }
      if (!seated) expect(dock.textContent).toContain(lang === "zh" ? "观战中" : "spectating");
      // my result is on the felt with its amount
      if (moment === "finished" && seated && m.result.nets[m.you.seat] !== undefined) {
        const net = m.result.nets[m.you.seat];
        const banner = root.querySelector("#banner");
        expect(banner).not.toBeNull();
        const amount = Math.abs(net).toLocaleString("en-US");
        expect(banner.textContent).toContain(amount);
      }
      if (lang === "zh") expect(englishLeft(root, m)).toEqual([]);
      else expect(englishLeft(root, m).length).toBeGreaterThan(0);
    });
  });
});

describe("seat placement", () => {
  const seats = ["E", "S", "W", "N"].map((s) => ({ seat: s }));
  it("draws Tien Gow counter-clockwise: the next to play sits on my right", () => {
    const { me, around } = placeSeats(seats, "E", true);
    expect(me.seat).toBe("E");
    expect(Object.fromEntries(around.map((a) => [a.slot, a.seat.seat]))).toEqual({ right: "S", top: "W", left: "N" });
  });
  it("draws a clockwise game with the next seat on my left", () => {
    const { around } = placeSeats(seats, "S", false);
    expect(around.map((a) => [a.slot, a.seat.seat])).toEqual([["left", "W"], ["top", "N"], ["right", "E"]]);
  });
});

describe("Tien Gow hand", () => {
  const act = (GOLDEN.tiengow || []).find((x) => x.moment.endsWith("-lead"));
  it("is sorted civil then military, high to low, with the legal plays marked", () => {
    const hand = sortHand(act.message.round.view.me.hand);
    const civil = hand.filter((x) => x.civil);
    expect(hand.slice(0, civil.length)).toEqual(civil);
    // in the server's order (the client ranks no tile): 天 before 地, military after civil
    expect(hand.every((x, i) => typeof x.order === "number" && (i === 0 || hand[i - 1].order <= x.order))).toBe(true);
    const shuffled = [...hand].reverse();
    expect(sortHand(shuffled).map((x) => x.id)).toEqual(hand.map((x) => x.id));
    setLang("zh");
    const root = mount(html`<${TableView} s=${appState(act.message)} actions=${ACTIONS} />`);
    const shown = [...root.querySelectorAll(".my-hand .tile")].map((e) => Number(e.dataset.id));
    expect(shown).toEqual(hand.map((x) => x.id));
    const playable = new Set(act.message.legal.find((a) => a.type === "play").plays.flat());
    for (const e of root.querySelectorAll(".my-hand .tile")) {
      expect(e.classList.contains("playable")).toBe(playable.has(Number(e.dataset.id)));
    }
  });
  it("says why a selection cannot be played", () => {
    const plays = act.message.legal.find((a) => a.type === "play").plays;
    const ok = selectionStatus(act.message, plays[0]);
    expect(ok.canPlay).toBe(true);
    const ids = act.message.round.view.me.hand.map((x) => x.id);
    // every selection of one to three tiles that is not a legal play gets a reason
    const subsets = [];
    for (let i = 0; i < ids.length; i++) {
      subsets.push([ids[i]]);
      for (let j = i + 1; j < ids.length; j++) {
        subsets.push([ids[i], ids[j]]);
        for (let k = j + 1; k < ids.length; k++) subsets.push([ids[i], ids[j], ids[k]]);
      }
    }
    const key = (p) => [...p].sort((a, b) => a - b).join(",");
    const legalSets = new Set(plays.map(key));
    for (const sub of subsets) {
      const status = selectionStatus(act.message, sub);
      expect(status.canPlay).toBe(legalSets.has(key(sub)));
      if (!status.canPlay) expect(status.why, key(sub)).toBeTruthy();
    }
  });
});

describe("away and waiting", () => {
  const finished = (GOLDEN.pokdeng || []).find((x) => x.moment === "finished");
  it("reads the tables layer's waiting reasons in the UI language, away seats included", () => {
    setLang("zh");
    expect(reasonText("2 of 4 players (1 away)")).toBe("2/4 位玩家（1 位暂离）");
    expect(reasonText("1 of 2 players")).toBe("1/2 位玩家");
    setLang("en");
    expect(reasonText("2 of 4 players (1 away)")).toBe("2 of 4 players (1 away)");
    expect(missing.size).toBe(0);
  });
  it("tells me when my seat is away, with a way back", () => {
    const m = structuredClone(finished.message);
    const mine = m.table.seats.find((x) => x.seat === m.you.seat);
    mine.away = true;
    let back = 0;
    for (const lang of ["zh", "en"]) {
      setLang(lang);
      const root = mount(html`<${TableView} s=${appState(m, { lang })} actions=${{ ...ACTIONS, imBack: () => { back += 1; } }} />`);
      const note = root.querySelector("#away-note");
      expect(note).not.toBeNull();
      expect(note.textContent).toContain(lang === "zh" ? "暂离" : "away");
      root.querySelector("#btn-im-back").click();
      cleanup();
    }
    expect(back).toBe(2);
    mine.away = false;
    const root = mount(html`<${TableView} s=${appState(m)} actions=${ACTIONS} />`);
    expect(root.querySelector("#away-note")).toBeNull();
  });
});

describe("redrawing only what changed", () => {
  it("skips the side panels and seats whose data did not change, and redraws them on a language switch", () => {
    const moments = GOLDEN.niuniu || [];
    const a = moments.find((x) => x.message.round && !x.message.round.finished && x.message.you.seat);
    setLang("zh");
    const root = mount(html`<${TableView} s=${appState(a.message)} actions=${ACTIONS} />`);
    const before = root.querySelector("#balances").textContent;
    // the same state again, as a fresh object (every message is): the panels are not redrawn
    draws.clear();
    const again = JSON.parse(JSON.stringify(a.message));
    mount(html`<${TableView} s=${appState(again)} actions=${ACTIONS} />`, root);
    expect(Object.fromEntries(draws)).toEqual({});
    // a stack changes: the balances show it
    const changed = JSON.parse(JSON.stringify(a.message));
    const seat = changed.table.seats.find((x) => x.occupied && x.seat !== changed.you.seat);
    seat.stack += 12345;
    mount(html`<${TableView} s=${appState(changed)} actions=${ACTIONS} />`, root);
    expect(Object.fromEntries(draws)).toEqual({ Balances: 1, SeatCore: 1 });
    expect(root.querySelector("#balances").textContent).not.toBe(before);
    expect(root.querySelector(`.stage .seat[data-seat="${seat.seat}"]`).textContent).toContain((seat.stack).toLocaleString("en-US"));
    setLang("en");
    mount(html`<${TableView} s=${appState(changed, { lang: "en" })} actions=${ACTIONS} />`, root);
    expect(root.querySelector("#balances").closest(".panel").querySelector("h4").textContent).toBe("Balances");
    expect(draws.get("Fairness")).toBe(1);
  });
});

describe("countdowns", () => {
  it("run from when the state arrived: redrawing the same state (a note, a pending action) touches no timer", async () => {
    const act = (GOLDEN.pokdeng || []).find((x) => x.moment.startsWith("betting-act"));
    setLang("zh");
    // half a second into the countdown: the shown second changes no sooner than 0.5 s from now
    const at = performance.now() - 500;
    const root = mount(html`<${TableView} s=${appState(act.message, { stateAt: at })} actions=${ACTIONS} />`);
    await new Promise((r) => setTimeout(r, 60));
    const timer = root.querySelector(".timer");
    expect(timer).not.toBeNull();
    const seen = [];
    const mo = new MutationObserver((records) => seen.push(...records));
    mo.observe(timer, { subtree: true, childList: true, attributes: true, characterData: true });
    mount(html`<${TableView} s=${appState(act.message, { stateAt: at, busy: { bots: true } })} actions=${ACTIONS} />`, root);
    await new Promise((r) => setTimeout(r, 60));
    mo.disconnect();
    // neither restarted (its number written again) nor rewritten on every animation frame
    expect(seen.filter((r) => r.type === "childList").length).toBe(0);
  });
});

describe("leaf components and the reveal", () => {
  it("a card redraws only when its props change, and a click calls the newest handler", async () => {
    const { Card } = await import("../../qipai/web/ui/card.js");
    const calls = [];
    const root = mount(html`<${Card} code="As" onClick=${() => calls.push("first")} />`);
    draws.clear();
    mount(html`<${Card} code="As" onClick=${() => calls.push("second")} />`, root);
    expect(draws.get("Card")).toBeUndefined();
    root.querySelector(".card").click();
    expect(calls).toEqual(["second"]);
    mount(html`<${Card} code="Kh" onClick=${() => calls.push("third")} />`, root);
    expect(draws.get("Card")).toBe(1);
    expect(root.querySelector(".card").getAttribute("data-card")).toBe("Kh");
    mount(html`<${Card} code="Kh" onClick=${null} />`, root);
    expect(root.querySelector(".card").classList.contains("clickable")).toBe(false);
  });

  it("reveals Pok Deng and Niu Niu hands by a squeeze, my own Niu Niu hand by the deal", () => {
    setLang("zh");
    for (const game of ["pokdeng", "niuniu"]) {
      const done = (GOLDEN[game] || []).find((x) => x.message.round && x.message.round.finished && x.message.you.seat);
      expect(done, game).toBeTruthy();
      const root = mount(html`<${TableView} s=${appState(done.message)} actions=${ACTIONS} />`);
      const squeezed = root.querySelectorAll("#felt .card.face.deal.squeeze");
      expect(squeezed.length, game).toBeGreaterThan(0);
      if (game === "niuniu") expect(root.querySelectorAll("#dock .card.squeeze").length).toBe(0);
    }
  });
});

describe("a finished round is drawn once", () => {
  it.each(Object.keys(GOLDEN))("%s: the felt shows the hands, the results panel only what the felt does not", (game) => {
    setLang("zh");
    for (const x of GOLDEN[game].filter((y) => y.message.round && y.message.round.finished && y.message.result)) {
      const root = mount(html`<${TableView} s=${appState(x.message)} actions=${ACTIONS} />`);
      const results = root.querySelector("#results");
      // no card or tile of the round a second time beside the table (history and recall keep the summary)
      expect(results.querySelectorAll("[data-card], .tile").length, x.moment).toBe(0);
      expect(root.querySelectorAll("#felt [data-card], #felt .tile, #dock [data-card], #dock .tile").length, x.moment).toBeGreaterThan(0);
      // the per-bet breakdown the felt does not show stays in the results panel
      if (game === "pokdeng" && x.message.round.view.payouts.bets.length) expect(results.querySelectorAll(".bet-table tr[data-bet]").length).toBe(x.message.round.view.payouts.bets.length);
      cleanup();
    }
  });
});

describe("Tien Gow trick in place", () => {
  it("keeps a trick's plays (their elements) when its last play completes it", () => {
    // a trick in play, then the same trick completed by the last seat's play (the state that
    // follows it in a game; the golden views keep one moment of each kind, so it is built here)
    const open = (GOLDEN.tiengow || []).find((x) => x.message.you.seat && x.message.round && x.message.round.view.trick
      && (x.message.round.view.trick.entries || []).length);
    expect(open).toBeTruthy();
    const v = open.message.round.view;
    const played = v.trick.entries;
    const last = v.seats.find((seat) => !played.some((e) => e.seat === seat));
    const after = structuredClone(open.message);
    const done = { ...structuredClone(v.trick), winner: played[0].seat, dong: 1,
      entries: [...structuredClone(played), { seat: last, action: "discard", count: played[0].tiles ? played[0].tiles.length : 1 }] };
    after.round.view.tricks = [...(v.tricks || []), done];
    after.round.view.trick = { number: v.trick.number + 1, leader: played[0].seat, size: null, kind: null, best: null, entries: [] };
    after.legal = [];
    setLang("zh");
    const root = mount(html`<${TableView} s=${appState(open.message)} actions=${ACTIONS} />`);
    const plays = [...root.querySelectorAll("#felt .tg-play")];
    expect(plays.length).toBe(played.length);
    mount(html`<${TableView} s=${appState(after)} actions=${ACTIONS} />`, root);
    // the completed trick is shown with its winner, drawn on the same elements plus its last play
    expect(root.querySelector("#felt .tg-trick.done")).not.toBeNull();
    expect(root.querySelectorAll("#felt .tg-play").length).toBe(played.length + 1);
    for (const e of plays) expect(root.querySelector(`#felt .tg-play[data-seat="${e.dataset.seat}"]`)).toBe(e);
  });
});
