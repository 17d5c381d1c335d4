// @ts-nocheck
// Terms per table (docs/operators.md "Tables on older versions"): a table on an older version
// of its template shows players that version's pay table and exact returns (its own `facts`
// from the server), never the newest offer of the same template; a table that moved is told.
import { afterEach, describe, expect, it } from "vitest";
import { html } from "../../qipai/web/ui/html.js";
import { LobbyView } from "../../qipai/web/views/lobby.js";
import { offerOf, termsMoved } from "../../qipai/web/views/help.js";
import { setLang } from "../../qipai/web/i18n/index.js";
import { cleanup, mount } from "./render.js";

const pay = (commission) => ({ game: "paigow", bets: [], limits: [{ bet: "player", label: { en: "Player", zh: "闲" }, min: 100, max: 10000 }], commission });
const facts = (version, rtp, commission) => ({
  template: { id: "paigow", name: "Pai Gow", version, status: "active" }, game: "paigow",
  pay_table: pay(commission), rtp: [{ bet: "player", label: { en: "Player", zh: "闲" }, rtp, rtp_exact: null, strategy: null, note: "" }],
  rtp_status: "ready", min_buy_in: 200, max_buy_in: 100000, config_hash: `hash-v${version}`,
});
const V1 = facts(1, 0.97125, "0.05");
const V2 = facts(2, 0.99125, "0.03"); // the newest version: better for players
const GAMES = { paigow: { game: "paigow", title: { en: "Pai Gow", zh: "牌九" }, seats: ["S1", "S2", "S3", "S4"], tables: 1 } };
const TABLE = {
  id: "t-old", game: "paigow", name: "Pai Gow t-old", title: GAMES.paigow.title, free: 3, humans: 1, status: "playing",
  seats: [{ seat: "S1", occupied: true, bot: null }, { seat: "S2", occupied: false }, { seat: "S3", occupied: false }, { seat: "S4", occupied: false }],
  terms: { template: { id: "paigow", version: 1 }, config_hash: "hash-v1" }, facts: V1, recent: { results: [], road: null },
};

afterEach(() => cleanup());

describe("a table on an older version of its template", () => {
  it("shows its own version's pay table and returns in the lobby, not the newest offer's", () => {
    setLang("en");
    const s = { lang: "en", games: GAMES, offers: [V2], tables: [TABLE], me: { tables: [] }, busy: {} };
    const root = mount(html`<${LobbyView} s=${s} actions=${{ go: () => {} }} />`);
    const row = root.querySelector(".table-row[data-table=t-old]");
    const rtp = row.querySelector(".rtp-percent").textContent;
    expect(rtp).toBe("97.1250%");
  });

  it("takes the table's own facts, then its reply's, and never another version's", () => {
    expect(offerOf([V2], TABLE)).toBe(V1);
    const state = { id: "t-old", terms: TABLE.terms }; // a state message's table: no facts
    expect(offerOf([V2], state, { facts: V1 })).toBe(V1);
    expect(offerOf([V2], state)).toBe(null); // the newest offer is not this table's version
    // moved to version 2: a reply read before the move is not used
    const moved = { id: "t-old", terms: { template: { id: "paigow", version: 2 } } };
    expect(offerOf([V2], moved, { facts: V1 })).toBe(V2);
  });

  it("tells when a table moved to a newer version", () => {
    const at = (version) => ({ table: { id: "t-old", terms: { template: { id: "paigow", version } } } });
    expect(termsMoved(at(1), at(2))).toBe(2);
    expect(termsMoved(at(2), at(2))).toBe(null);
    expect(termsMoved(null, at(2))).toBe(null);
    expect(termsMoved({ table: { id: "other", terms: at(1).table.terms } }, at(2))).toBe(null);
  });
});

describe("the console's tables per template version", () => {
  it("lists a table behind the newest version and moves it at the boundary with a reason", async () => {
    const { vi } = await import("vitest");
    const { api } = await import("../../qipai/web/ops/api.js");
    const { Versions } = await import("../../qipai/web/ops/views/versions.js");
    const { setLang: setOpsLang } = await import("../../qipai/web/ops/i18n.js");
    setOpsLang("en");
    let pending = null;
    const listing = () => ({
      templates: [{
        template_id: "paigow", name: "Pai Gow", game: "paigow", status: "active", newest_version: 2,
        versions: [
          { version: 2, behind: false, tables: [{ table_id: "t-new", name: "new", template_version: 2, pending_version: null, status: "playing", people: 1 }] },
          { version: 1, behind: true, tables: [{ table_id: "t-old", name: "old", template_version: 1, pending_version: pending, status: "playing", people: 2 }] },
        ],
      }],
    });
    const get = vi.spyOn(api, "get").mockImplementation(async () => listing());
    const post = vi.spyOn(api, "post").mockImplementation(async (_url, body) => {
      pending = body.choice === "at_boundary" ? 2 : null;
      return {};
    });
    globalThis.prompt = () => "new pricing";
    const root = mount(html`<${Versions} me=${{ can_write: true }} />`);
    await vi.waitFor(() => expect(root.querySelector("tr[data-table=t-old]")).toBeTruthy());
    const old = root.querySelector("tr[data-table=t-old]");
    expect(old.dataset.behind).toBe("true");
    expect(root.querySelector("tr[data-table=t-new]").dataset.behind).toBe("false");
    expect(root.querySelector("tr[data-table=t-new] button")).toBe(null); // nothing to move
    old.querySelector("button[data-choice=at_boundary]").click();
    await vi.waitFor(() => expect(root.querySelector("tr[data-table=t-old]").dataset.pending).toBe("2"));
    expect(post).toHaveBeenCalledWith("/api/ops/tables/t-old/terms", { choice: "at_boundary", reason: "new pricing" });
    get.mockRestore();
    post.mockRestore();
  });
});
