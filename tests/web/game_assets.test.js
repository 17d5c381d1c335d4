// A game's own renderer and strings, loaded from its folder (games/index.js loadGameAssets): the
// client needs no entry for a game it has never heard of.
import { describe, expect, it } from "vitest";
import { loadGameAssets, renderer } from "../../qipai/web/games/index.js";
import { generic } from "../../qipai/web/games/generic.js";
import { TEXT } from "../../qipai/web/i18n/index.js";

describe("loadGameAssets", () => {
  it("registers a folder's renderer and merges its strings, the room's own keys first", async () => {
    expect(renderer("newgame")).toBe(generic);
    const own = { Center: () => null };
    const asked = [];
    await loadGameAssets(
      [{ game: "newgame", renderer: "/games/newgame/renderer.js", strings: "/games/newgame/i18n.json" }],
      async (url) => { asked.push(url); return { renderer: own }; },
      async (url) => { asked.push(url); return { zh: { tag_newgame: "新", bet: "改" }, en: { tag_newgame: "New" } }; },
    );
    expect(renderer("newgame")).toBe(own);
    expect(asked.sort()).toEqual(["/games/newgame/i18n.json", "/games/newgame/renderer.js"]);
    expect(TEXT.zh.tag_newgame).toBe("新");
    expect(TEXT.en.tag_newgame).toBe("New");
    expect(TEXT.zh.bet).not.toBe("改");
  });

  it("keeps a built-in renderer and loads nothing for a game without assets", async () => {
    const before = renderer("pokdeng");
    let loads = 0;
    await loadGameAssets([{ game: "pokdeng", renderer: "/x.js" }, { game: "plain" }], async () => { loads += 1; return {}; });
    expect(renderer("pokdeng")).toBe(before);
    expect(loads).toBe(0);
  });
});
