// @ts-check
// One renderer per game (games/<game>.js). A renderer may define Center, Mine (my own hand: it
// lies in the dock beside the actions, so the two never cover each other), Actions, SeatExtra,
// Side, Summary (the round at its end, for history and recall), Details (what of a finished round
// the felt does not show, for the live table's results panel: the felt already shows every hand,
// so the round is never drawn twice), afterState, counterclockwise.
import { pokdeng } from "./pokdeng.js";
import { paigow } from "./paigow.js";
import { niuniu } from "./niuniu.js";
import { tiengow } from "./tiengow.js";
import { holdem } from "./holdem.js";
import { generic } from "./generic.js";
import { addStrings } from "../i18n/index.js";

/** @type {Record<string, any>} */
export const RENDERERS = { pokdeng, paigow, niuniu, tiengow, "holdem-bonus": holdem };

/** @param {string} game */
export function renderer(game) {
  return RENDERERS[game] || generic;
}

/**
 * Load the renderers and strings that games ship in their own folders (`/api/games` gives their
 * URLs: `renderer`, `strings`; the server serves them from qipai/games/<package>/web/), so a game
 * added in one folder is drawn by its own renderer without an entry above. A game's module
 * exports its renderer as `renderer` (or as its default export).
 * @param {Array<{ game: string, renderer?: string | null, strings?: string | null }>} games
 * @param {(url: string) => Promise<any>} [load] how a module is imported (tests pass their own)
 * @param {(url: string) => Promise<any>} [fetchJson] how the strings are read
 */
export async function loadGameAssets(games, load = (url) => import(url), fetchJson = fetchStrings) {
  await Promise.all(games.map(async (g) => {
    if (g.strings) addStrings(await fetchJson(g.strings));
    if (g.renderer && !RENDERERS[g.game]) {
      const module = await load(g.renderer);
      RENDERERS[g.game] = module.renderer || module.default;
    }
  }));
}

/** @param {string} url */
async function fetchStrings(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}
