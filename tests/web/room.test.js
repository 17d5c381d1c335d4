// The player's room, second pass: side bets opt-in on a fresh table, what silence will do said
// before the countdown ends, table and template names in the UI language, a round I sat out not
// called "spectating". Drawn from the golden views (real state messages of the real engine).
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import { html } from "../../qipai/web/ui/html.js";
import { TableView } from "../../qipai/web/views/table.js";
import { setLang, missing } from "../../qipai/web/i18n/index.js";
import { silenceText, tableName, templateName } from "../../qipai/web/games/common.js";
import { cleanup, mount } from "./render.js";

const dir = inject("goldenDir");
const GOLDEN = Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith(".json"))
  .map((f) => [f.replace(/\.json$/, ""), JSON.parse(readFileSync(join(dir, f), "utf8"))]));

const noop = () => {};
const ACTIONS = { act: noop, setUi: noop, note: noop, pushChip: noop, standUp: noop, sitDialog: noop, fillBots: noop, back: noop, toggleHelp: noop, imBack: noop };

function appState(message, patch = {}) {
  return {
    token: "t", player: message.you.player, lang: "zh", route: { name: "table", arg: message.table.id },
    me: { player: message.you.player, wallet: 990000, tables: [] }, games: {}, tables: [], conn: "open", pending: [],
    tableId: message.table.id, state: message, log: [], actionError: null, leaving: {},
    lastBets: {}, chipStack: [], busy: {}, note: null, dialog: null, help: false, muted: true, outdated: false,
    history: null, tableInfo: {}, ui: {}, ...patch,
  };
}

const moment = (game, name) => (GOLDEN[game] || []).find((x) => x.moment === name || x.moment.startsWith(name));

afterEach(() => cleanup());

describe("side bets are opt-in", () => {
  it("leaves Hold'em Bonus's jackpot and bonus unticked on a fresh table, and a bet sends neither", () => {
    const m = moment("holdem-bonus", "betting-act").message;
    expect(m.legal.find((a) => a.type === "bet").pool).toBeGreaterThan(0);
    for (const lang of ["zh", "en"]) {
      setLang(lang);
      // a fresh table: the client's per-table choices are empty until the player makes one
      let ui = {};
      const sent = [];
      const actions = { ...ACTIONS, setUi: (p) => { ui = { ...ui, ...p }; }, act: (a) => sent.push(a) };
      let root = mount(html`<${TableView} s=${appState(m, { lang })} actions=${actions} />`);
      expect(root.querySelector("#he-pool")).not.toBeNull();
      expect(root.querySelector("#he-pool").checked).toBe(false);
      expect(root.querySelector("#he-bonus").checked).toBe(false);
      cleanup();
      // the defaults the renderer chose when it drew the fresh table, then a bet with them
      expect(ui.pool).not.toBe(true);
      root = mount(html`<${TableView} s=${appState(m, { lang, ui })} actions=${actions} />`);
      expect(root.querySelector("#he-pool").checked).toBe(false);
      root.querySelector("[data-action=bet]").click();
      expect(sent.length).toBe(1);
      expect(sent[0].pool).toBe(false);
      expect(sent[0].bonus).toBe(0);
      cleanup();
    }
  });
});

describe("what silence will do", () => {
  // [moment prefix, zh, en] per game: the rules' silence defaults (docs/rules/common.md#silence-defaults)
  const WANT = {
    pokdeng: [["betting-act", "不再下注", "no more bets"]],
    paigow: [["bid-act", "不抢庄", "no bid"], ["bet-act", "下注 1 倍", "bet 1×"], ["reveal-act", "亮牌", "shown"]],
    niuniu: [["swap-act", "不换牌", "no swap"], ["bid-act", "不抢庄", "no bid"], ["bet-act", "下注 1 倍", "bet 1×"]],
    "holdem-bonus": [["betting-act", "不参与", "sit this round out"], ["flop-act", "弃牌", "fold"], ["turn-act", "过牌", "check"], ["river-act", "过牌", "check"]],
    tiengow: [["play-act-discard", "垫掉", "discarded"], ["play-act-play-lead", "最小的单张", "lowest single"]],
  };
  for (const game of Object.keys(GOLDEN)) {
    for (const { moment: name, message } of GOLDEN[game].filter((x) => x.moment.includes("-act"))) {
      it(`is said beside the countdown: ${game} ${name}`, () => {
        for (const lang of ["zh", "en"]) {
          setLang(lang);
          missing.clear();
          const root = mount(html`<${TableView} s=${appState(message, { lang })} actions=${ACTIONS} />`);
          const note = root.querySelector("#turn-line #silence-note");
          expect(note, `${game} ${name} ${lang}`).not.toBeNull();
          expect(note.textContent).toContain(silenceText(message));
          const want = (WANT[game] || []).find(([k]) => name.startsWith(k));
          expect(want, `${game} ${name}: no expectation`).toBeTruthy();
          expect(note.textContent).toContain(want[lang === "zh" ? 1 : 2]);
          expect([...missing]).toEqual([]);
          cleanup();
        }
      });
    }
  }
  it("is not said when I have nothing to do", () => {
    for (const game of Object.keys(GOLDEN)) {
      for (const { message } of GOLDEN[game].filter((x) => x.moment.includes("-wait") || x.moment === "finished")) {
        expect(silenceText(message)).toBe("");
      }
    }
  });
  it("tells an away player how long until the seat is stood up", () => {
    const m = structuredClone(moment("pokdeng", "finished").message);
    m.table.seats.find((x) => x.seat === m.you.seat).away = true;
    m.table.terms.away_grace_s = 45;
    for (const lang of ["zh", "en"]) {
      setLang(lang);
      const root = mount(html`<${TableView} s=${appState(m, { lang })} actions=${ACTIONS} />`);
      expect(root.querySelector("#away-note").textContent).toContain("45");
      cleanup();
    }
  });
});

describe("names in the UI language", () => {
  it("reads a room-made table name with the game's title in Chinese", () => {
    const table = { game: "pokdeng", name: "Pok Deng 9fb2", title: { en: "Pok Deng", zh: "博丁" } };
    setLang("zh");
    expect(tableName(table)).toBe("博丁 9fb2");
    setLang("en");
    expect(tableName(table)).toBe("Pok Deng 9fb2");
    // an operator's own name is theirs
    expect(tableName({ ...table, name: "VIP room" })).toBe("VIP room");
  });
  it("names the shipped templates in each language, an operator's own as written", () => {
    setLang("zh");
    expect(templateName({ id: "pokdeng-classic", name: "Pok Deng classic 经典博丁" })).toBe("经典博丁");
    expect(templateName({ id: "pokdeng-banker-player", name: "x" })).toBe("庄闲博丁");
    expect(templateName({ id: "my-own", name: "High limit" })).toBe("High limit");
    expect([...missing].filter((k) => k.includes("tpl_"))).toEqual([]);
  });
  it("shows the table bar's name in Chinese in the Chinese UI", () => {
    const m = structuredClone(moment("pokdeng", "finished").message);
    m.table.name = `${m.table.title.en} 9fb2`;
    setLang("zh");
    const root = mount(html`<${TableView} s=${appState(m)} actions=${ACTIONS} />`);
    expect(root.querySelector(".table-title").textContent).not.toMatch(/[A-Za-z]{3,}/);
  });
});

describe("a round I sat out", () => {
  it("is labelled sat out, not spectating, while I sit at the table", () => {
    const m = structuredClone(moment("pokdeng", "finished").message);
    // an earlier round without my seat in it
    m.results = [{ number: 1, nets: { S2: 100 } }, ...(m.results || [])];
    for (const [lang, word, not] of [["zh", "未参与", "观战中"], ["en", "sat out", "spectating"]]) {
      setLang(lang);
      const root = mount(html`<${TableView} s=${appState(m, { lang })} actions=${ACTIONS} />`);
      const text = root.querySelector("#results").textContent;
      expect(text).toContain(word);
      expect(text).not.toContain(not);
      cleanup();
    }
  });
});

describe("the help panel's full rules", () => {
  it("opens the rules page of the table's own template in the room, not raw JSON", () => {
    const m = structuredClone(moment("pokdeng", "finished").message);
    const offers = [{ template: { id: "pokdeng-classic", name: "Pok Deng classic 经典博丁", version: 1 }, game: "pokdeng", config_hash: m.table.terms.config_hash, pay_table: null, rtp: null }];
    for (const lang of ["zh", "en"]) {
      setLang(lang);
      const root = mount(html`<${TableView} s=${appState(m, { lang, help: true, offers })} actions=${ACTIONS} />`);
      const link = root.querySelector("#help #help-rules-page");
      expect(link).not.toBeNull();
      expect(link.getAttribute("href")).toBe("#/rules/pokdeng/pokdeng-classic");
      expect(root.querySelector("#help").textContent).not.toContain("Pok Deng classic 经典博丁");
      cleanup();
    }
  });
});

describe("Pok Deng spot names", () => {
  it("reads pair and banker spots in the UI language", async () => {
    const { spotName } = await import("../../qipai/web/games/pokdeng.js");
    setLang("zh");
    expect(spotName("P2 pair")).toBe("P2 对子");
    expect(spotName("B pair")).toBe("庄对");
    expect(spotName("B3")).toBe("B3");
    setLang("en");
    expect(spotName("B pair")).toBe("Banker pair");
  });
  it("recalls my bets by those names, not the raw spot codes", async () => {
    const { recallSteps } = await import("../../qipai/web/games/recall.js");
    setLang("zh");
    const steps = recallSteps("pokdeng", { me: { bets: { "P2 pair": 100, P1: 200 } }, cards: null }, "S1");
    const root = mount(html`<div>${steps[0].body}</div>`);
    expect(root.textContent).toContain("P2 对子");
    expect(root.textContent).not.toMatch(/pair/);
  });
});

describe("a connection the server closed says why", () => {
  it("4403: the account is locked (no reconnecting); 4410: a silent socket, reconnecting — in zh and en", () => {
    const m = moment("holdem-bonus", "betting-act").message;
    missing.clear();
    for (const [lang, locked, silent] of [["zh", "锁定", "关闭连接"], ["en", "locked", "closed the connection"]]) {
      setLang(lang);
      let root = mount(html`<${TableView} s=${appState(m, { lang, conn: "closed", closedBy: "account_locked" })} actions=${ACTIONS} />`);
      let overlay = root.querySelector("#conn-overlay");
      expect(overlay.getAttribute("data-conn")).toBe("account_locked");
      expect(overlay.textContent).toContain(locked);
      expect(overlay.querySelector(".spinner")).toBeNull();  // nothing is being tried again
      cleanup();
      root = mount(html`<${TableView} s=${appState(m, { lang, conn: "reconnecting", closedBy: "silent" })} actions=${ACTIONS} />`);
      overlay = root.querySelector("#conn-overlay");
      expect(overlay.querySelector("#conn-why").textContent).toContain(silent);
      expect(overlay.querySelector(".spinner")).not.toBeNull();
      cleanup();
    }
    expect([...missing]).toEqual([]);
  });
});
