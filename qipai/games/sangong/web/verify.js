// @ts-check
// San Gong's deal for the in-page verifier (deal-spec/1, docs/fairness.md "The games"), written
// from the deal's description (fairness.py's docstring), on the page verifier's own stream: one
// shuffle of the 52 cards by `deck`; the banker from the bids by `banker`; one card at a time,
// three passes, clockwise from the seat after the banker.
import { Stream, cardOrder } from "/fairness/verify.js";

/** @typedef {Record<string, any>} Json */

/** What the table showed that the recomputed deal must equal, field by field. */
export const COMPARED = ["banker", "deal_order", "hands"];

/**
 * @param {Json} values {seat: int | null} (null counts as 0)
 * @returns {Record<string, number>}
 */
function zeros(values) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const [seat, v] of Object.entries(values)) out[seat] = v || 0;
  return out;
}

/**
 * The deal of one round from the unit key and the export's inputs.
 * @param {Uint8Array<ArrayBuffer>} key
 * @param {Json} inputs {seats, bids | null, stacks}
 * @returns {Promise<Json>}
 */
export async function deal(key, inputs) {
  /** @type {string[]} */
  const seats = inputs.seats;
  const deck = await new Stream(key, "deck").shuffle(cardOrder());
  /** @type {Json} */
  const out = { game: "sangong", deck, banker: null, banker_by: null, deal_order: null, hands: null };
  if (inputs.bids === null || inputs.bids === undefined) return out;
  const bids = zeros(inputs.bids);
  const stacks = zeros(inputs.stacks || {});
  const stream = new Stream(key, "banker");
  const top = Math.max(...seats.map((s) => bids[s]));
  let banker;
  let how;
  if (top === 0) {
    banker = await stream.choice(seats);
    how = "random";
  } else {
    const tied = seats.filter((s) => bids[s] === top);
    if (tied.length === 1) {
      banker = tied[0];
      how = "bid";
    } else {
      banker = await stream.weighted(tied, tied.map((s) => stacks[s] || 0));
      how = "tie";
    }
  }
  const start = seats.indexOf(banker) + 1;
  const order = [...seats.slice(start), ...seats.slice(0, start)];
  /** @type {Record<string, string[]>} */
  const hands = {};
  order.forEach((s, i) => {
    hands[s] = [0, 1, 2].map((pass) => deck[pass * order.length + i]);
  });
  return { ...out, banker, banker_by: how, deal_order: order, hands };
}
