// @ts-check
// Which tabs an operator sees: every role reads the room, players, rounds, reports and integrity;
// the desk and the operators' tab only for the roles that may act there (`may`: the role's
// capabilities from GET /api/ops/me, qipai/authority/roles.py). The server refuses the rest anyway.

/** The capabilities, any of which shows a tab (a tab not named here is for every role). */
const NEEDS = /** @type {Record<string, string[]>} */ ({
  cashier: ["cashier", "ledger", "jackpot", "approve"],
  staff: ["admin"],
});

/** @param {{ may?: string[] }} me @param {string[]} tabs */
export function tabsFor(me, tabs) {
  const may = me.may || [];
  return tabs.filter((tab) => !(tab in NEEDS) || NEEDS[tab].some((c) => may.includes(c)));
}
