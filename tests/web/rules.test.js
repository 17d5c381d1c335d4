// A game's rules as a page of the room: the page text (Markdown the server filled with the
// table's settings) drawn as headings, lists, tables and bold, never as raw JSON or raw markup;
// the table's pay table and exact returns under it; the help panel links to it.
import { afterEach, describe, expect, it } from "vitest";
import { html } from "../../qipai/web/ui/html.js";
import { RulesView, markdown } from "../../qipai/web/views/rules.js";
import { setLang, missing } from "../../qipai/web/i18n/index.js";
import { cleanup, mount, texts } from "./render.js";

afterEach(() => cleanup());

const MD_ZH = "# 博丁\n\n## 牌与牌靴\n\n牌靴共 8 副牌。\n每局先烧一张牌。**任何人都不补第三张牌。**\n\n| 大小 | 牌型 |\n|---|---|\n| 9、8 | 9 点或 8 点 |\n\n* **P1 至 P5**：押该闲家位赢庄家。\n  和局退还注码。\n* 对子赔 11 倍。\n\n1. 下注\n2. 发牌\n";
const MD_EN = MD_ZH.replace("# 博丁", "# Pok Deng");
const FACTS = {
  pay_table: { game: "pokdeng", bets: [{ bet: "P1", label: { en: "Player 1", zh: "闲 1" }, pays: [{ when: { en: "wins", zh: "赢" }, odds: "1:1" }], loses: [] }], limits: [] },
  rtp: null, rtp_status: "unavailable", min_buy_in: 200, max_buy_in: 100000,
};
const page = (lang, md) => ({ game: "pokdeng", title: { en: "Pok Deng", zh: "博丁" }, lang, markdown: md, template: { id: "pokdeng-classic", name: "Pok Deng classic 经典博丁", version: 1 }, facts: FACTS });
const state = (lang) => ({ lang, route: { name: "rules", arg: "pokdeng/pokdeng-classic" }, rulesPage: { key: "pokdeng/pokdeng-classic", zh: page("zh", MD_ZH), en: page("en", MD_EN) } });

describe("the rules page", () => {
  it("draws the Markdown as a page: headings, a table, lists, bold, joined lines", () => {
    const root = mount(html`<div>${markdown(MD_ZH)}</div>`);
    expect(root.querySelector("h2").textContent).toBe("博丁");
    expect(root.querySelector("h3").textContent).toBe("牌与牌靴");
    expect(root.querySelectorAll("table td").length).toBe(2);
    expect(root.querySelector("ul").children.length).toBe(2);
    expect(root.querySelector("ul li").textContent).toContain("和局退还注码");
    expect(root.querySelector("ol").children.length).toBe(2);
    expect(root.querySelector("p b").textContent).toBe("任何人都不补第三张牌。");
    expect(root.querySelectorAll("p")[0].textContent).toBe("牌靴共 8 副牌。每局先烧一张牌。任何人都不补第三张牌。");
    expect(root.textContent).not.toContain("**");
    expect(root.textContent).not.toContain("|");
  });

  it("shows the table's pay table and return under the text, in the player's language", () => {
    for (const lang of ["zh", "en"]) {
      setLang(lang);
      missing.clear();
      const root = mount(html`<${RulesView} s=${state(lang)} actions=${{ go: () => {} }} />`);
      expect(root.querySelector("#rules-text h2").textContent).toBe(lang === "zh" ? "博丁" : "Pok Deng");
      expect(root.querySelector("#rules-facts [data-pay-table]")).not.toBeNull();
      expect(root.textContent).not.toContain("{\"");
      expect([...missing]).toEqual([]);
      if (lang === "zh") {
        const latin = texts(root).filter((x) => /[A-Za-z]{3,}/.test(x));
        expect(latin).toEqual([]);
      }
      cleanup();
    }
  });
});
