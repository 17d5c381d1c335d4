// The client's handling of the table socket's messages (app.js): a new Pok Deng shoe is heard,
// my seat marked away is said with a note. Real messages: the golden views of the real engine.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { store, socket } from "../../qipai/web/app.js";
import { sound } from "../../qipai/web/ui/sound.js";
import { setLang } from "../../qipai/web/i18n/index.js";

const dir = inject("goldenDir");
const pokdeng = JSON.parse(readFileSync(join(dir, "pokdeng.json"), "utf8"));

/** A state message for the table on screen, as the socket hands it on. @param {any} m */
function deliver(m) {
  store.set({ tableId: m.table.id });
  socket.receive(m);
}

describe("state messages", () => {
  const betting = pokdeng.find((x) => x.moment.startsWith("betting-act")).message;
  it("plays the new-shoe sound when a round of a fresh shoe starts, once", () => {
    store.set({ state: null });
    const fresh = structuredClone(betting);
    fresh.round.view.shoe = { ...fresh.round.view.shoe, new_shoe: true };
    sound.played.length = 0;
    deliver(fresh);
    expect(sound.played.filter((x) => x === "shoe")).toEqual(["shoe"]);
    deliver(structuredClone(fresh));  // the same round again: no second sound
    expect(sound.played.filter((x) => x === "shoe")).toEqual(["shoe"]);
    const old = structuredClone(betting);
    old.round.view.shoe = { ...old.round.view.shoe, new_shoe: false };
    old.round.round_id = "another";
    deliver(old);
    expect(sound.played.filter((x) => x === "shoe")).toEqual(["shoe"]);
  });
  it("says so when my own seat is marked away, and nothing for another seat", () => {
    setLang("en");
    store.set({ state: null, note: null });
    deliver(structuredClone(betting));
    const mine = betting.you.seat;
    const other = betting.table.seats.find((x) => x.seat !== mine).seat;
    socket.receive({ type: "away", table: betting.table.id, seat: other });
    expect(store.get().note).toBeNull();
    socket.receive({ type: "away", table: betting.table.id, seat: mine });
    expect(store.get().note.bad).toBe(true);
    expect(store.get().note.text).toContain("away");
  });
});
