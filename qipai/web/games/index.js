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

/** @type {Record<string, any>} */
export const RENDERERS = { pokdeng, paigow, niuniu, tiengow, "holdem-bonus": holdem };

/** @param {string} game */
export function renderer(game) {
  return RENDERERS[game] || generic;
}
