// The back office's language (qipai/web/ops/lang.js): the browser's (navigator.languages, in
// its order) until the operator chooses one; the choice, once made, wins.
import { afterEach, describe, expect, it, vi } from "vitest";
import { browserLang, chosenLang, openingLang } from "../../qipai/web/ops/lang.js";

afterEach(() => {
  vi.unstubAllGlobals();
  globalThis.localStorage?.removeItem("qipai.lang");
});

describe("the console's language", () => {
  it("is the first Chinese or English language the browser prefers", () => {
    expect(browserLang(["en-US", "zh-CN"])).toBe("en");
    expect(browserLang(["zh-TW", "en"])).toBe("zh");
    expect(browserLang(["fr-FR", "zh-Hans-CN", "en"])).toBe("zh");
    expect(browserLang(["de", "EN-gb"])).toBe("en");
  });

  it("is English for a browser that prefers neither, Chinese for one that names none", () => {
    expect(browserLang(["fr", "de"])).toBe("en");
    expect(browserLang([])).toBe("zh");
    expect(browserLang(undefined)).toBe("zh");
  });

  it("follows navigator.languages until the operator chooses", () => {
    vi.stubGlobal("navigator", { languages: ["en-US", "en"], language: "en-US" });
    expect(chosenLang()).toBe(null);
    expect(openingLang()).toBe("en");
    globalThis.localStorage.setItem("qipai.lang", "zh");
    expect(openingLang()).toBe("zh");
  });
});
