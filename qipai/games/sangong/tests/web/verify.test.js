// The in-page verifier's San Gong deal (web/verify.js) equals fairness.py's over the cases
// test_renderer.py writes (SANGONG_DEALS: key, inputs, the expected deal).
import { readFileSync } from "node:fs";
import process from "node:process";
import { describe, expect, it } from "vitest";
import { fromHex } from "../../../../web/fairness/verify.js";
import { COMPARED, deal } from "../../web/verify.js";

const CASES = JSON.parse(readFileSync(process.env.SANGONG_DEALS, "utf8"));

describe("San Gong deal in the page", () => {
  it("has cases with every way to choose the banker", () => {
    expect(new Set(CASES.map((c) => c.expected.banker_by))).toEqual(new Set([null, "bid", "tie", "random"]));
    expect(COMPARED).toEqual(["banker", "deal_order", "hands"]);
  });
  it("recomputes every deal exactly", async () => {
    for (const c of CASES) {
      expect(await deal(fromHex(c.key), c.inputs)).toEqual(c.expected);
    }
  });
});
