// The lobby to choose from: every template the operator offers is its own entry (Pok Deng's two
// modes are two choices, each with its own quick start), filtered and sorted by game, limits and
// seats free; each table tile shows its limits, players and its last rounds (Pok Deng: its road).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import { html } from "../../qipai/web/ui/html.js";
import { LobbyView, choose, minBet } from "../../qipai/web/views/lobby.js";
import { PayTable } from "../../qipai/web/views/paytable.js";
import { setLang, missing } from "../../qipai/web/i18n/index.js";
import { cleanup, mount, texts } from "./render.js";

const pay = (min, max) => ({ game: "x", bets: [], limits: [{ bet: "player", label: { en: "Player", zh: "闲" }, min, max }] });
const offer = (id, game, name, min) => ({
  template: { id, name, version: 1 }, game, pay_table: pay(min, min * 100), rtp: null, rtp_status: "unavailable",
  min_buy_in: min * 2, max_buy_in: min * 1000,
});
const OFFERS = [
  offer("pokdeng-classic", "pokdeng", "Pok Deng classic 经典博丁", 100),
  offer("pokdeng-banker-player", "pokdeng", "Pok Deng banker-player 庄闲博丁", 100),
  offer("paigow", "paigow", "Pai Gow 抢庄牌九", 100),
  offer("pokdeng-high", "pokdeng", "High limit", 1000),
];
const GAMES = {
  pokdeng: { game: "pokdeng", title: { en: "Pok Deng", zh: "博丁" }, seats: ["S1", "S2", "S3", "S4", "S5"], tables: 2 },
  paigow: { game: "paigow", title: { en: "Pai Gow", zh: "牌九" }, seats: ["S1", "S2", "S3", "S4"], tables: 1 },
};
const seats = (n, taken) => Array.from({ length: n }, (_, i) => ({ seat: `S${i + 1}`, occupied: i < taken, bot: i > 0 ? "sensible" : null }));
const table = (id, game, template, min, taken, recent) => ({
  id, game, name: `${GAMES[game].title.en} ${id.slice(0, 4)}`, title: GAMES[game].title, seats: seats(GAMES[game].seats.length, taken),
  free: GAMES[game].seats.length - taken, humans: 1, status: "playing", terms: { template: { id: template, version: 1 } }, recent,
  facts: { pay_table: pay(min, min * 100), min_buy_in: min * 2, max_buy_in: min * 1000 },
});
const TABLES = [
  table("9fb2e1", "pokdeng", "pokdeng-high", 1000, 3, { results: [], road: "W,L,T,Wr,Lp,-;L,L,W,T,W,p" }),
  table("3c4d55", "pokdeng", "pokdeng-classic", 100, 5, { results: [], road: null }),
  table("7e8f90", "paigow", "paigow", 100, 1, { results: [{ number: 7, nets: { S1: 300, S2: -300 } }], road: null }),
];
const state = (lang) => ({ lang, games: GAMES, offers: OFFERS, tables: TABLES, me: { tables: [] }, busy: {} });

afterEach(() => cleanup());

describe("the lobby's entries", () => {
  it("makes every template its own entry with its own quick start and new table", () => {
    const calls = [];
    const actions = { quickStart: (g, id) => calls.push(["quick", g, id]), newTable: (g, id) => calls.push(["new", g, id]), go: () => {} };
    setLang("en");
    const root = mount(html`<${LobbyView} s=${state("en")} actions=${actions} />`);
    const cards = [...root.querySelectorAll(".game-card")];
    expect(cards.map((c) => c.dataset.template).sort()).toEqual(OFFERS.map((o) => o.template.id).sort());
    root.querySelector(".quick[data-template=pokdeng-classic]").click();
    root.querySelector(".quick[data-template=pokdeng-banker-player]").click();
    root.querySelector(".new-table[data-template=pokdeng-classic]").click();
    expect(calls).toEqual([["quick", "pokdeng", "pokdeng-classic"], ["quick", "pokdeng", "pokdeng-banker-player"], ["new", "pokdeng", "pokdeng-classic"]]);
    // the two modes read differently
    const name = (id) => root.querySelector(`.game-card[data-template=${id}] .game-name b`).textContent;
    expect(name("pokdeng-classic")).not.toBe(name("pokdeng-banker-player"));
  });

  it("names the shipped entries and the room's tables in Chinese in the Chinese UI", () => {
    setLang("zh");
    missing.clear();
    const root = mount(html`<${LobbyView} s=${state("zh")} actions=${{ go: () => {} }} />`);
    const keep = ["High limit"]; // an operator's own name is shown as written
    const latin = texts(root).filter((x) => /[A-Za-z]{3,}/.test(keep.reduce((a, k) => a.split(k).join(" "), x)));
    expect(latin).toEqual([]);
    expect([...missing]).toEqual([]);
  });
});

describe("filter and sort", () => {
  const mine = new Set();
  it("filters entries and tables by game", () => {
    const { entries, tables } = choose({ offers: OFFERS, tables: TABLES, mine }, { game: "paigow", sort: "game", free: false });
    expect(entries.map((o) => o.template.id)).toEqual(["paigow"]);
    expect(tables.map((x) => x.id)).toEqual(["7e8f90"]);
  });
  it("sorts tables by limits either way and by seats free, and keeps only tables with a free seat", () => {
    const ids = (f) => choose({ offers: OFFERS, tables: TABLES, mine }, { game: "all", free: false, ...f }).tables.map((x) => x.id);
    expect(ids({ sort: "limits_high" })[0]).toBe("9fb2e1");
    expect(ids({ sort: "limits_low" }).at(-1)).toBe("9fb2e1");
    expect(ids({ sort: "free" })[0]).toBe("7e8f90");
    expect(ids({ sort: "game", free: true })).not.toContain("3c4d55");
    expect(minBet(TABLES[0])).toBe(1000);
  });
  it("filters what is drawn when the player picks a game", async () => {
    setLang("en");
    const root = mount(html`<${LobbyView} s=${state("en")} actions=${{ go: () => {} }} />`);
    const select = root.querySelector("#filter-game");
    select.value = "paigow";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    await new Promise((r) => setTimeout(r, 20));
    expect([...root.querySelectorAll(".game-card")].map((c) => c.dataset.game)).toEqual(["paigow"]);
    expect([...root.querySelectorAll(".table-row")].map((c) => c.dataset.table)).toEqual(["7e8f90"]);
  });
});

describe("table tiles", () => {
  it("show Pok Deng's road and other games' last results", () => {
    setLang("en");
    const root = mount(html`<${LobbyView} s=${state("en")} actions=${{ go: () => {} }} />`);
    const road = root.querySelector(".table-row[data-table=9fb2e1] .tile-road");
    expect(road).not.toBeNull();
    expect(road.querySelectorAll(".road-col").length).toBe(2);
    expect(road.querySelectorAll(".bead.b-win").length).toBe(4);
    const last = root.querySelector(".table-row[data-table=7e8f90] .recent");
    expect(last.textContent).toContain("#7");
    expect(last.textContent).toContain("+300");
    expect(root.querySelector(".table-row[data-table=7e8f90] .players").textContent).toContain("1/4");
    expect(root.querySelector(".table-row[data-table=7e8f90] .limits").textContent).toContain("100");
  });
});

describe("pay tables in Chinese", () => {
  // card ranks (AA, AK, KK …) and positions (P1, B2) are printed as on the cards and the felt
  const allowed = /\b(?:[AKQJ]{1,2}|[PB][1-5])\b/g;
  const offers = JSON.parse(readFileSync(join(inject("goldenDir"), "offers.data"), "utf8"));
  it.each(offers.map((o) => [o.template.id, o]))("leave no English word in %s's pay table", (_, o) => {
    setLang("zh");
    missing.clear();
    const root = mount(html`<${PayTable} pay=${o.pay_table} />`);
    const latin = texts(root).filter((x) => /[A-Za-z]{2,}/.test(x.replace(allowed, " ")));
    expect(latin).toEqual([]);
    expect([...missing]).toEqual([]);
  });
});
