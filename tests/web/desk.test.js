// The back office's desk, templates and operators tabs (qipai/web/ops/views/desk.js, templates.js,
// staff.js, tabs.js): who sees which tab, who may decide a four-eyes request (never its asker), the
// cashier's queue with method, reference and the large flag, the template body and the PAR rows.
import { afterEach, describe, expect, it, vi } from "vitest";
import { html } from "../../qipai/web/ui/html.js";
import { canDecide, Desk, queueOrder } from "../../qipai/web/ops/views/desk.js";
import { parRows, templateBody } from "../../qipai/web/ops/views/templates.js";
import { tabsFor } from "../../qipai/web/ops/tabs.js";
import { setToken } from "../../qipai/web/ops/api.js";
import { cleanup, mount } from "./render.js";

const ALL = ["room", "players", "cashier", "templates", "staff"];
const reply = (body) => new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
const settle = () => new Promise((r) => setTimeout(r, 0));

describe("tabs by role", () => {
  it("shows the desk to money roles and the operators' tab to a supervisor only", () => {
    expect(tabsFor({ may: ["self", "read", "floor"] }, ALL)).toEqual(["room", "players", "templates"]);
    expect(tabsFor({ may: ["self", "read", "cashier", "ledger", "approve"] }, ALL)).toEqual(["room", "players", "cashier", "templates"]);
    expect(tabsFor({ may: ["read", "admin", "cashier"] }, ALL)).toEqual(ALL);
    expect(tabsFor({}, ALL)).toEqual(["room", "players", "templates"]);
  });
});

describe("four-eyes in the console", () => {
  const fay = { operator: "fay", may: ["read", "ledger", "approve", "templates"] };
  it("never offers the asker their own request", () => {
    expect(canDecide(fay, { requested_by: "fay", kind: "adjustment", status: "pending" })).toBe(false);
    expect(canDecide(fay, { requested_by: "carl", kind: "adjustment", status: "pending" })).toBe(true);
  });
  it("offers a request only to a role holding its kind's capability, and only while it waits", () => {
    expect(canDecide(fay, { requested_by: "carl", kind: "withdrawal", status: "pending" })).toBe(false);
    expect(canDecide(fay, { requested_by: "carl", kind: "template", status: "approved" })).toBe(false);
    expect(canDecide({ operator: "flo", may: ["read", "floor"] }, { requested_by: "carl", kind: "adjustment", status: "pending" })).toBe(false);
  });
  it("queues the waiting requests oldest first, then the decided ones newest first", () => {
    const rows = [{ id: 1, status: "approved" }, { id: 4, status: "pending" }, { id: 2, status: "pending" }, { id: 3, status: "rejected" }];
    expect(queueOrder(rows).map((r) => r.id)).toEqual([2, 4, 3, 1]);
  });
});

describe("the cashier's queue", () => {
  afterEach(() => { cleanup(); vi.unstubAllGlobals(); setToken(null); });
  it("shows method, reference and the large flag, and no decision for one's own four-eyes request", async () => {
    vi.stubGlobal("fetch", async (path) => {
      if (path.startsWith("/api/ops/money/requests")) {
        return reply({ requests: [
          { id: 7, player: "alice", kind: "withdrawal", amount: 2_000_000, status: "pending", method: "bank", reference: "IBAN-7", large: true, created_at: 1_800_000_000 },
          { id: 8, player: "bob", kind: "deposit", amount: 500, status: "pending", method: "card", reference: "tx-8", large: false, created_at: 1_800_000_100 },
          { id: 9, player: "bob", kind: "demo", amount: 5, status: "approved", method: "", reference: "", large: false, created_at: 1_800_000_200 },
        ] });
      }
      return reply({ approvals: [
        { id: 3, kind: "adjustment", target: "bob", reason: "fault", requested_by: "carl", status: "pending" },
        { id: 4, kind: "adjustment", target: "eve", reason: "fault", requested_by: "sue", status: "pending" },
      ] });
    });
    setToken("tok");
    const root = mount(html`<${Desk} me=${{ operator: "carl", may: ["read", "cashier", "ledger", "approve"] }} />`);
    await settle(); await settle();
    const rows = [...root.querySelectorAll("#desk-requests tbody tr")];
    expect(rows.map((r) => r.getAttribute("data-id"))).toEqual(["7", "8"]);  // demo deposits are no request
    expect(rows[0].textContent).toContain("IBAN-7");
    expect(rows[0].querySelector("[data-flag=large]")).not.toBeNull();
    expect(rows[1].querySelector("[data-flag=large]")).toBeNull();
    expect(rows[0].querySelector("[data-act=approve]")).not.toBeNull();
    const asks = [...root.querySelectorAll("#desk-approvals tbody tr")];
    expect(asks.find((r) => r.getAttribute("data-id") === "3").querySelector("[data-act=approve]")).toBeNull();
    expect(asks.find((r) => r.getAttribute("data-id") === "4").querySelector("[data-act=approve]")).not.toBeNull();
  });
});

describe("templates", () => {
  it("builds the body from the form and names bad settings JSON", () => {
    expect(templateBody({ game: "pokdeng", name: " Night ", settings: '{"decks": 6}', min_buy_in: "5000", max_buy_in: "", reason: " late " }))
      .toEqual({ game: "pokdeng", name: "Night", settings: { decks: 6 }, min_buy_in: 5000, reason: "late" });
    expect(() => templateBody({ game: "pokdeng", name: "x", settings: "{decks", reason: "r" })).toThrow(expect.objectContaining({ field: "settings" }));
  });
  it("reads the PAR sheet's exact values", () => {
    const par = { bets: [{ bet: "Pn", rtp: { value: 0.975 }, house_edge: { value: 0.025 }, hit_frequency: { value: 0.458 }, sd: 1.423 }] };
    expect(parRows(par)).toEqual([{ bet: "Pn", rtp: 0.975, edge: 0.025, hit: 0.458, sd: 1.423 }]);
    expect(parRows(null)).toEqual([]);
  });
});
