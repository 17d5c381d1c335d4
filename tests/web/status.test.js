// A table's waiting and suspension reasons in the UI language (views/table.js reasonText): the
// tables layer words its waiting reasons in English, so the client reads them back into parts.
import { afterEach, describe, expect, it } from "vitest";
import { setLang } from "../../qipai/web/i18n/index.js";
import { reasonText } from "../../qipai/web/views/table.js";

describe("waiting reasons", () => {
  afterEach(() => setLang("zh"));
  it("translates 'n of N players' with and without away seats", () => {
    setLang("zh");
    expect(reasonText("2 of 4 players")).toBe("2/4 位玩家");
    expect(reasonText("3 of 4 players (1 away)")).toBe("3/4 位玩家（1 位暂离）");
    setLang("en");
    expect(reasonText("3 of 4 players (1 away)")).toBe("3 of 4 players (1 away)");
  });
  it("translates the structured form {code: 'players', n, of, away} too", () => {
    setLang("zh");
    expect(reasonText({ code: "players", n: 2, of: 4 })).toBe("2/4 位玩家");
    expect(reasonText({ code: "players", n: 3, of: 4, away: 1 })).toBe("3/4 位玩家（1 位暂离）");
    setLang("en");
    expect(reasonText({ code: "players", n: 3, of: 4, away: 1 })).toBe("3 of 4 players (1 away)");
  });
  it("keeps no English in the Chinese text of an away reason", () => {
    setLang("zh");
    expect(reasonText("1 of 2 players (2 away)")).not.toMatch(/[A-Za-z]{3,}/);
  });
});
