// The two languages: the same keys, the same placeholders; errors translated by code and field;
// local times carry their zone.
import { describe, expect, it } from "vitest";
import zh from "../../qipai/web/i18n/zh.json" with { type: "json" };
import en from "../../qipai/web/i18n/en.json" with { type: "json" };
import { setLang, t } from "../../qipai/web/i18n/index.js";
import { errorFromBody, errorText } from "../../qipai/web/api/errors.js";
import { localTime, signed } from "../../qipai/web/ui/format.js";

const holes = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("i18n", () => {
  it("has the same keys in Chinese and English", () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });
  it("has the same placeholders in both languages", () => {
    for (const k of Object.keys(zh)) expect(holes(zh[k]), k).toEqual(holes(en[k]));
  });
  it("has no English left in the Chinese texts (names and units aside)", () => {
    const keep = ["SHA-256", "qipai verify"];
    const bad = Object.entries(zh).filter(([, v]) => {
      let x = v.replace(/\{\w+\}/g, " ");
      for (const k of keep) x = x.split(k).join(" ");
      return /[A-Za-z]{3,}/.test(x);
    });
    expect(bad).toEqual([]);
  });
});

describe("errors", () => {
  it("reads every error shape the server sends", () => {
    expect(errorFromBody(400, { error: { code: "insufficient_funds", message: "m" } }).code).toBe("insufficient_funds");
    expect(errorFromBody(400, { detail: { code: "seat_taken", message: "m" } }).code).toBe("seat_taken");
    const v = errorFromBody(422, { detail: [{ loc: ["body", "username"], msg: "too short", type: "x" }] });
    expect([v.code, v.field]).toEqual(["invalid_input", "username"]);
    expect(errorFromBody(422, { error: { code: "invalid_input", message: "m", field: "amount" } }).field).toBe("amount");
  });
  it("translates by code, and by field where the code alone does not say", () => {
    setLang("zh");
    expect(errorText({ code: "insufficient_funds" })).toBe("余额不足");
    expect(errorText({ code: "invalid_input", field: "username" })).toContain("用户名");
    expect(errorText({ code: "invalid_input", field: "body.amount" })).toContain("充值");
    expect(errorText({ code: "no_such_code_anywhere" })).toBe(zh.err_error);
    setLang("en");
    expect(errorText({ code: "insufficient_funds" })).toBe(en.err_insufficient_funds);
  });
});

describe("formats", () => {
  it("writes local times with their zone", () => {
    setLang("en");
    const s = localTime("2026-12-01T10:00:00");
    expect(s).toMatch(/\d\d:\d\d:\d\d/);
    expect(s).toMatch(/UTC|GMT|[A-Z]{2,5}/);
  });
  it("signs amounts", () => {
    expect(signed(1500)).toBe("+1,500");
    expect(signed(-20)).toBe("−20");
    expect(signed(0)).toBe("±0");
    expect(t("points_n", { n: 7 })).toBe("7 points");
  });
});
