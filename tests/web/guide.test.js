// The player's guide as a page of the room: the server's Markdown drawn in the player's language,
// its games linked to the room's own rules pages, and no link that leads out of the room.
import { afterEach, describe, expect, it } from "vitest";
import { html } from "../../qipai/web/ui/html.js";
import { GuideView } from "../../qipai/web/views/guide.js";
import { inline } from "../../qipai/web/views/rules.js";
import { setLang, missing } from "../../qipai/web/i18n/index.js";
import { cleanup, mount } from "./render.js";

afterEach(() => cleanup());

const GUIDE = {
  zh: "# 玩家指南\n\n## 选桌\n\n游戏：\n\n* [博丁（Pok Deng）](#/rules/pokdeng)\n* [三公](#/rules/sangong)\n",
  en: "# The player's guide\n\n## Choosing a table\n\nThe games:\n\n* [Pok Deng 博丁](#/rules/pokdeng)\n* [San Gong](#/rules/sangong)\n",
};
const state = (lang) => ({ lang, route: { name: "guide", arg: null }, guidePage: GUIDE });

describe("the player's guide", () => {
  it("draws the guide in the player's language with its games linked to the rules pages", () => {
    for (const lang of ["zh", "en"]) {
      setLang(lang);
      missing.clear();
      const root = mount(html`<${GuideView} s=${state(lang)} actions=${{ go: () => {} }} />`);
      expect(root.querySelector("#guide-text h2").textContent).toBe(lang === "zh" ? "玩家指南" : "The player's guide");
      const links = [...root.querySelectorAll("#guide-text a")].map((a) => a.getAttribute("href"));
      expect(links).toEqual(["#/rules/pokdeng", "#/rules/sangong"]);
      expect(root.textContent).not.toContain("](");
      expect([...missing]).toEqual([]);
      cleanup();
    }
  });

  it("shows a link that leaves the room as its text only", () => {
    const root = mount(html`<p>${inline("see [the spec](https://example.com/x) or [**rules**](#/rules/paigow)")}</p>`);
    const links = [...root.querySelectorAll("a")];
    expect(links.map((a) => a.getAttribute("href"))).toEqual(["#/rules/paigow"]);
    expect(links[0].querySelector("b").textContent).toBe("rules");
    expect(root.textContent).toBe("see the spec or rules");
  });

  it("waits for the page without drawing raw text", () => {
    const root = mount(html`<${GuideView} s=${{ lang: "en", route: { name: "guide", arg: null }, guidePage: null }} actions=${{ go: () => {} }} />`);
    expect(root.querySelector("#guide-text .loading")).not.toBeNull();
  });
});
