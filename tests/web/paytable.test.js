// The return-to-player column (views/paytable.js): a bet without a figure shows "—", never 0 %.
import { describe, expect, it } from "vitest";
import { rtpText } from "../../qipai/web/views/paytable.js";

describe("rtpText", () => {
  it("prints a null or missing return as a dash", () => {
    expect(rtpText({ rtp: null })).toBe("—");
    expect(rtpText({})).toBe("—");
    expect(rtpText({ rtp: "n/a" })).toBe("—");
  });
  it("prints a figure to four places, or the server's own percent text", () => {
    expect(rtpText({ rtp: 0.975 })).toBe("97.5000%");
    expect(rtpText({ rtp: 0 })).toBe("0.0000%");
    expect(rtpText({ rtp: 0.5, rtp_percent: "50.0000" })).toBe("50.0000%");
  });
});
