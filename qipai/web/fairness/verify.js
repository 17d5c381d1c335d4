// @ts-check
/**
 * Recompute a qipai deal in the browser (deal-spec/1), written from docs/fairness.md.
 *
 * Pure module: no DOM, no network. HMAC-SHA256 and SHA-256 come from WebCrypto
 * (`globalThis.crypto.subtle`: every current browser, and Node 20+). The input is the round
 * export `qipai-round/1` that `GET /api/rounds/{id}` returns; `verifyExport(export)` gives the
 * recomputed deal and every check (seed against its commitment, each hand against what the
 * table dealt, Tien Gow's tile openings against the published root).
 *
 *   import { verifyExport } from "./fairness/verify.js";
 *   const { ok, deal, checks } = await verifyExport(await (await fetch(url)).json());
 *
 * Section names in the comments are those of docs/fairness.md.
 */

export const DEAL_SPEC = "deal-spec/1";
export const FORMAT = "qipai-round/1";

/** @typedef {Record<string, any>} Json */
/** @typedef {{check: string, ok: boolean, detail: string, expected?: any, shown?: any}} Check */
/** @typedef {{position: number, tile: string, salt: string}} Opening */
/** @typedef {Uint8Array<ArrayBuffer>} Bytes bytes in an ordinary ArrayBuffer (what WebCrypto takes) */

const encoder = new TextEncoder();

/** @returns {SubtleCrypto} */
function subtle() {
  const crypto = globalThis.crypto;
  if (!crypto || !crypto.subtle) {
    throw new Error("WebCrypto (crypto.subtle) is not available: use https or a current browser");
  }
  return crypto.subtle;
}

/**
 * Bytes from hexadecimal text.
 * @param {string} hex
 * @returns {Bytes}
 */
export function fromHex(hex) {
  if (typeof hex !== "string" || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new Error(`not hexadecimal: ${String(hex).slice(0, 20)}`);
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * Lowercase hexadecimal of bytes.
 * @param {Bytes} bytes
 * @returns {string}
 */
export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * @param {...Bytes} parts
 * @returns {Bytes}
 */
function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * ASCII text to bytes (refuses anything else: labels, seats, client seeds, tiles are ASCII).
 * @param {string} text
 * @returns {Bytes}
 */
function ascii(text) {
  const bytes = encoder.encode(text);
  if (bytes.length !== text.length) throw new Error(`not ASCII: ${text}`);
  return bytes;
}

/** @type {Map<string, Promise<CryptoKey>>} */
const hmacKeys = new Map();

/**
 * HMAC-SHA256(key, message) (RFC 2104) by WebCrypto.
 * @param {Bytes} key
 * @param {Bytes} message
 * @returns {Promise<Bytes>}
 */
export async function hmacSha256(key, message) {
  const id = toHex(key);
  let imported = hmacKeys.get(id);
  if (!imported) {
    imported = subtle().importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    if (hmacKeys.size > 64) hmacKeys.clear();
    hmacKeys.set(id, imported);
  }
  return new Uint8Array(await subtle().sign("HMAC", await imported, message));
}

/**
 * SHA-256 of bytes.
 * @param {Bytes} bytes
 * @returns {Promise<Bytes>}
 */
export async function sha256(bytes) {
  return new Uint8Array(await subtle().digest("SHA-256", bytes));
}

/**
 * §The stream: block i of the stream `label` is HMAC-SHA256(key, label ‖ 0x00 ‖ i as 8 bytes
 * big-endian); the bytes are used once each, in order. §Integers, §Shuffle and §Banker draws
 * are its methods.
 */
export class Stream {
  /**
   * @param {Bytes} key
   * @param {string} label
   */
  constructor(key, label) {
    this.key = key;
    this.prefix = concat(encoder.encode(label), new Uint8Array([0]));
    this.counter = 0;
    /** @type {Bytes} */
    this.pending = new Uint8Array(0);
    this.offset = 0;
  }

  /**
   * The next n bytes of the stream.
   * @param {number} n
   * @returns {Promise<Bytes>}
   */
  async nextBytes(n) {
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      if (this.offset >= this.pending.length) {
        const counter = new Uint8Array(8);
        new DataView(counter.buffer).setBigUint64(0, BigInt(this.counter));
        this.pending = await hmacSha256(this.key, concat(this.prefix, counter));
        this.counter += 1;
        this.offset = 0;
      }
      const take = Math.min(n - filled, this.pending.length - this.offset);
      out.set(this.pending.subarray(this.offset, this.offset + take), filled);
      this.offset += take;
      filled += take;
    }
    return out;
  }

  /**
   * §Integers: uniform in [0, n) by rejection sampling. n = 1 reads nothing; otherwise the
   * fewest whole bytes holding n − 1, big-endian, masked to bit_length(n − 1) bits, retried
   * while ≥ n.
   * @param {number} n a positive safe integer
   * @returns {Promise<number>}
   */
  async below(n) {
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`below needs a positive integer, got ${n}`);
    if (n === 1) return 0;
    const limit = BigInt(n);
    const bits = (limit - 1n).toString(2).length;
    const width = Math.ceil(bits / 8);
    const mask = (1n << BigInt(bits)) - 1n;
    for (;;) {
      const bytes = await this.nextBytes(width);
      let value = 0n;
      for (const b of bytes) value = (value << 8n) | BigInt(b);
      value &= mask;
      if (value < limit) return Number(value);
    }
  }

  /**
   * §Shuffle: Fisher–Yates from the end, j = below(i + 1), in place.
   * @template T
   * @param {T[]} items
   * @returns {Promise<T[]>}
   */
  async shuffle(items) {
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = await this.below(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }

  /**
   * @template T
   * @param {T[]} items
   * @returns {Promise<T>}
   */
  async choice(items) {
    return items[await this.below(items.length)];
  }

  /**
   * §Banker draws: point = below(sum); the first item whose running total exceeds it (all
   * weights zero: a uniform choice).
   * @template T
   * @param {T[]} items
   * @param {number[]} weights
   * @returns {Promise<T>}
   */
  async weighted(items, weights) {
    const total = weights.reduce((a, b) => a + b, 0);
    if (total === 0) return this.choice(items);
    let point = await this.below(total);
    for (let i = 0; i < items.length; i += 1) {
      if (point < weights[i]) return items[i];
      point -= weights[i];
    }
    throw new Error("unreachable");
  }
}

/**
 * §Keys: the server seed itself without client seeds; otherwise HMAC-SHA256(server seed,
 * "deal-spec/1" ‖ 0x00 ‖ (len ‖ seat ‖ len ‖ client seed) per seat in byte order of the ids).
 * @param {Bytes} serverSeed
 * @param {Record<string, string>} clientSeeds
 * @returns {Promise<Bytes>}
 */
export async function unitKey(serverSeed, clientSeeds) {
  const seats = Object.keys(clientSeeds || {});
  if (seats.length === 0) return serverSeed;
  seats.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)); // ASCII: code units = bytes
  /** @type {Bytes[]} */
  const parts = [ascii(DEAL_SPEC), new Uint8Array([0])];
  for (const seat of seats) {
    for (const text of [seat, clientSeeds[seat]]) {
      const raw = ascii(text);
      if (raw.length < 1 || raw.length > 255) throw new Error(`bad length: ${text}`);
      parts.push(new Uint8Array([raw.length]), raw);
    }
  }
  return hmacSha256(serverSeed, concat(...parts));
}

// ----- §Starting orders ---------------------------------------------------------------------
/**
 * 2c 2d 2h 2s 3c … As, `decks` times.
 * @param {number} [decks]
 * @returns {string[]}
 */
export function cardOrder(decks = 1) {
  /** @type {string[]} */
  const one = [];
  for (const rank of "23456789TJQKA") for (const suit of "cdhs") one.push(rank + suit);
  /** @type {string[]} */
  const out = [];
  for (let d = 0; d < decks; d += 1) out.push(...one);
  return out;
}

/** @type {[string, number][]} */
const TILE_KINDS = [
  ["6-6", 2], ["1-1", 2], ["4-4", 2], ["1-3", 2], ["5-5", 2], ["3-3", 2], ["2-2", 2],
  ["5-6", 2], ["4-6", 2], ["1-6", 2], ["1-5", 2], ["3-6", 1], ["4-5", 1], ["2-6", 1],
  ["3-5", 1], ["2-5", 1], ["3-4", 1], ["1-4", 1], ["2-3", 1], ["2-4", 1], ["1-2", 1],
];

/**
 * The 32 tiles, highest first (the two copies of a civil tile together).
 * @returns {string[]}
 */
export function tileOrder() {
  return TILE_KINDS.flatMap(([tile, copies]) => Array(copies).fill(tile));
}

/**
 * §Banker draws from the bids.
 * @param {Stream} stream
 * @param {string[]} seats
 * @param {Record<string, number>} bids
 * @param {Record<string, number>} stacks
 * @returns {Promise<[string, string]>} [banker, how]: "nobody-bid" | "highest-bid" | "tie"
 */
async function bankerFromBids(stream, seats, bids, stacks) {
  const top = Math.max(...seats.map((s) => bids[s]));
  if (top === 0) return [await stream.choice(seats), "nobody-bid"];
  const tied = seats.filter((s) => bids[s] === top);
  if (tied.length === 1) return [tied[0], "highest-bid"];
  return [await stream.weighted(tied, tied.map((s) => stacks[s] || 0)), "tie"];
}

/**
 * A {seat: int|null} input with null counted as 0 (null when the input is absent).
 * @param {Json | null | undefined} values
 * @returns {Record<string, number> | null}
 */
function zeros(values) {
  if (values === null || values === undefined) return null;
  /** @type {Record<string, number>} */
  const out = {};
  for (const [seat, v] of Object.entries(values)) out[seat] = v || 0;
  return out;
}

// ----- §The games ------------------------------------------------------------------------
/**
 * Pok Deng: one round of a shoe.
 * @param {Bytes} key
 * @param {Json} inputs
 * @returns {Promise<Json>}
 */
async function pokdeng(key, inputs) {
  const decks = inputs.decks ?? 8;
  const [lo, hi] = inputs.cut_behind ?? [52, 104];
  const p = inputs.position ?? 0;
  const shoe = await new Stream(key, "shoe").shuffle(cardOrder(decks));
  const behind = lo + (await new Stream(key, "cut").below(hi - lo + 1));
  const cutIndex = shoe.length - behind;
  const spots = ["P1", "P2", "P3", "P4", "P5", "B"];
  /** @type {Record<string, string[]>} */
  const hands = {};
  spots.forEach((spot, i) => {
    hands[spot] = [shoe[p + 1 + i], shoe[p + 7 + i]];
  });
  return {
    game: "pokdeng",
    shoe,
    behind_cut: behind,
    cut_index: cutIndex,
    position: p,
    burn: shoe[p],
    hands,
    last_round: p + 13 > cutIndex,
  };
}

/**
 * Pai Gow: round 1 or 2 of a game.
 * @param {Bytes} key
 * @param {Json} inputs
 * @returns {Promise<Json>}
 */
async function paigow(key, inputs) {
  /** @type {string[]} */
  const seats = inputs.seats;
  const n = inputs.round ?? 1;
  const tiles = await new Stream(key, "tiles").shuffle(tileOrder());
  const mine = tiles.slice(8 * (n - 1), 8 * n);
  /** @type {Json} */
  const deal = {
    game: "paigow", tiles, round: n, round_tiles: mine, banker: null, banker_by: null,
    dice: null, first_seat: null, deal_order: null, hands: null,
  };
  const bids = zeros(inputs.bids);
  if (bids === null) return deal;
  const stacks = inputs.stacks || {};
  const [banker, how] = await bankerFromBids(new Stream(key, `round${n}/banker`), seats, bids, stacks);
  const diceStream = new Stream(key, `round${n}/dice`);
  const dice = [1 + (await diceStream.below(6)), 1 + (await diceStream.below(6))];
  const first = (seats.indexOf(banker) + dice[0] + dice[1] - 1) % 4;
  /** @type {string[]} */
  const order = [];
  for (let pass = 0; pass < 2; pass += 1) {
    for (let k = 0; k < 4; k += 1) order.push(seats[(first - k + 8) % 4]);
  }
  /** @type {Record<string, string[]>} */
  const hands = {};
  for (const s of seats) hands[s] = [];
  order.forEach((seat, i) => hands[seat].push(mine[i]));
  Object.assign(deal, {
    banker, banker_by: how, dice, first_seat: seats[first], deal_order: order, hands,
  });
  return deal;
}

/**
 * Texas Hold'em Bonus: one round.
 * @param {Bytes} key
 * @param {Json} inputs
 * @returns {Promise<Json>}
 */
async function holdem(key, inputs) {
  const deck = await new Stream(key, "deck").shuffle(cardOrder());
  /** @type {Json} */
  const deal = { game: "holdem-bonus", deck, boxes: null, dealer: null, board: null };
  /** @type {string[] | null | undefined} */
  const boxes = inputs.boxes;
  if (boxes === null || boxes === undefined) return deal;
  deal.boxes = {};
  if (boxes.length === 0) return deal;
  const n = boxes.length;
  boxes.forEach((box, i) => {
    deal.boxes[box] = [deck[i], deck[n + 1 + i]];
  });
  deal.dealer = [deck[n], deck[2 * n + 1]];
  deal.board = deck.slice(2 * n + 2, 2 * n + 7);
  return deal;
}

/**
 * Swap Niu Niu: one round.
 * @param {Bytes} key
 * @param {Json} inputs
 * @returns {Promise<Json>}
 */
async function niuniu(key, inputs) {
  /** @type {string[]} */
  const seats = inputs.seats;
  const k = seats.length;
  const deck = await new Stream(key, "deck").shuffle(cardOrder());
  /** @type {Record<string, string[]>} */
  const initial = {};
  seats.forEach((s, i) => {
    initial[s] = [0, 1, 2, 3].map((pass) => deck[pass * k + i]);
  });
  /** @type {Json} */
  const deal = {
    game: "niuniu", deck, initial, received: null, fifth: null, banker: null, banker_by: null,
  };
  const swaps = zeros(inputs.swaps);
  if (swaps !== null) {
    let top = 4 * k;
    deal.received = {};
    for (const s of seats) {
      deal.received[s] = deck.slice(top, top + swaps[s]);
      top += swaps[s];
    }
    deal.fifth = {};
    seats.forEach((s, i) => {
      deal.fifth[s] = deck[top + i];
    });
  }
  const bids = zeros(inputs.bids);
  if (bids !== null) {
    const [banker, how] = await bankerFromBids(new Stream(key, "banker"), seats, bids, inputs.stacks || {});
    deal.banker = banker;
    deal.banker_by = { "nobody-bid": "random", "highest-bid": "bid", tie: "tie" }[how];
  }
  return deal;
}

/**
 * §Tien Gow's tile commitment: leaf_i = SHA-256("tiengow-tile" ‖ 0x00 ‖ i ‖ tile ‖ salt_i).
 * @param {number} position
 * @param {string} tile
 * @param {Bytes} salt
 * @returns {Promise<Bytes>}
 */
export async function tileLeaf(position, tile, salt) {
  return sha256(concat(ascii("tiengow-tile"), new Uint8Array([0, position]), ascii(tile), salt));
}

/**
 * root = SHA-256("tiengow-root" ‖ 0x00 ‖ leaf_0 ‖ … ‖ leaf_31).
 * @param {Bytes[]} leaves
 * @returns {Promise<Bytes>}
 */
export async function tilesRoot(leaves) {
  return sha256(concat(ascii("tiengow-root"), new Uint8Array([0]), ...leaves));
}

/**
 * Tien Gow: one game.
 * @param {Bytes} key
 * @param {Json} inputs
 * @returns {Promise<Json>}
 */
async function tiengow(key, inputs) {
  /** @type {string[]} */
  const seats = inputs.seats;
  let banker = inputs.banker ?? null;
  let how = "previous-game";
  if (banker === null) {
    banker = await new Stream(key, "banker").choice(seats);
    how = "random";
  }
  const tiles = await new Stream(key, "deal").shuffle(tileOrder());
  const start = seats.indexOf(banker);
  const turn = seats.slice(start).concat(seats.slice(0, start));
  /** @type {Record<string, string[]>} */
  const hands = {};
  for (const s of seats) hands[s] = [];
  for (let b = 0; b < 8; b += 1) hands[turn[b % 4]].push(...tiles.slice(4 * b, 4 * b + 4));
  const salts = new Stream(key, "salts");
  /** @type {Bytes[]} */
  const leaves = [];
  for (let i = 0; i < 32; i += 1) leaves.push(await tileLeaf(i, tiles[i], await salts.nextBytes(32)));
  return {
    game: "tiengow", tiles, banker, banker_by: how, hands, tiles_root: toHex(await tilesRoot(leaves)),
  };
}

/** @type {Record<string, (key: Bytes, inputs: Json) => Promise<Json>>} */
export const GAMES = {
  pokdeng, paigow, "holdem-bonus": holdem, niuniu, tiengow,
};

/**
 * The deal of `game` from a unit key and the public inputs (the export's `inputs`).
 * @param {string} game
 * @param {Bytes} key
 * @param {Json} inputs
 * @returns {Promise<Json>}
 */
export async function computeDeal(game, key, inputs) {
  const dealer = GAMES[game];
  if (!dealer) throw new Error(`unknown game ${game}`);
  return dealer(key, inputs);
}

/**
 * @param {any} a
 * @param {any} b
 * @returns {boolean}
 */
function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Check openings against a published root: the leaves hash to the root, each opening to its
 * leaf, and (with `shown`: position → tile as the table showed it) each shown tile is opened as
 * that tile.
 * @param {string} root
 * @param {string[]} leaves
 * @param {Opening[]} openings
 * @param {Record<number, string>} [shown]
 * @returns {Promise<Check[]>}
 */
export async function verifyOpenings(root, leaves, openings, shown) {
  /** @type {Check[]} */
  const checks = [];
  const raw = (leaves || []).map(fromHex);
  const rootOk = raw.length === 32 && toHex(await tilesRoot(raw)) === String(root).toLowerCase();
  checks.push({ check: "tile leaves hash to the root", ok: rootOk, detail: String(root) });
  /** @type {Map<number, string>} */
  const opened = new Map();
  for (const o of openings || []) {
    const inRange = Number.isInteger(o.position) && o.position >= 0 && o.position < 32;
    const ok = inRange && raw.length === 32 && !opened.has(o.position) &&
      toHex(await tileLeaf(o.position, o.tile, fromHex(o.salt))) === toHex(raw[o.position]);
    opened.set(o.position, o.tile);
    checks.push({ check: `tile ${o.position} opens as ${o.tile}`, ok, detail: "" });
  }
  for (const [position, tile] of Object.entries(shown || {})) {
    const got = opened.get(Number(position));
    checks.push({
      check: `tile ${position} shown as ${tile}`, ok: got === tile,
      detail: got === undefined ? "not opened" : `opens as ${got}`, expected: got, shown: tile,
    });
  }
  return checks;
}

/**
 * Compare the recomputed deal with what the table dealt (the export's `dealt`).
 * @param {Json} deal
 * @param {Json} dealt
 * @returns {Check[]}
 */
function compare(deal, dealt) {
  /** @type {Check[]} */
  const checks = [];
  if (deal.game === "niuniu") {
    checks.push({ check: "banker as chosen", ok: dealt.banker === deal.banker, detail: String(deal.banker),
      expected: deal.banker, shown: dealt.banker });
    for (const [seat, first4] of Object.entries(deal.initial)) {
      /** @type {string[]} */
      const hand = (dealt.hands || {})[seat] || [];
      const swapped = hand.slice(0, 4).filter((c, i) => c !== first4[i]);
      const ok = hand.length === 5 && hand[4] === (deal.fifth || {})[seat] &&
        same(swapped, (deal.received || {})[seat]);
      const expected = { first: first4, received: (deal.received || {})[seat], fifth: (deal.fifth || {})[seat] };
      checks.push({ check: `${seat}'s hand as dealt`, ok, detail: hand.join(" "), expected, shown: hand });
    }
    return checks;
  }
  /** @type {Record<string, string[]>} */
  const names = {
    pokdeng: ["hands"], paigow: ["banker", "dice", "first_seat", "deal_order", "hands"],
    "holdem-bonus": ["boxes", "dealer", "board"], tiengow: ["banker", "hands"],
  };
  for (const name of names[deal.game]) {
    if (!(name in dealt)) continue;
    const shown = dealt[name];
    if (shown && typeof shown === "object" && !Array.isArray(shown)) {
      for (const [part, cards] of Object.entries(shown)) {
        const expected = (deal[name] || {})[part];
        checks.push({ check: `${name} ${part} as dealt`, ok: same(cards, expected),
          detail: cards.join(" "), expected, shown: cards });
      }
    } else {
      checks.push({ check: `${name} as dealt`, ok: same(shown, deal[name]), detail: String(shown),
        expected: deal[name], shown });
    }
  }
  return checks;
}

/**
 * Verify a round export: recompute its deal (when the seed is there, or given) and check it.
 * @param {Json} document the export, or an API body carrying it under `fairness`
 * @param {{seed?: string}} [options] a seed revealed later (a Pok Deng shoe that ended)
 * @returns {Promise<{ok: boolean, deal: Json | null, checks: Check[], key: string | null}>}
 */
export async function verifyExport(document, options = {}) {
  let exp = document;
  if (exp && exp.format !== FORMAT && exp.fairness && exp.fairness.format === FORMAT) exp = exp.fairness;
  if (!exp || exp.format !== FORMAT) throw new Error(`not a round export (format ${FORMAT} expected)`);
  if ((exp.deal_spec ?? DEAL_SPEC) !== DEAL_SPEC) throw new Error(`dealt under ${exp.deal_spec}`);
  if (!GAMES[exp.game]) throw new Error(`unknown game ${exp.game}`);
  /** @type {Check[]} */
  const checks = [];
  /** @type {Json | null} */
  let deal = null;
  /** @type {string | null} */
  let keyHex = null;
  const seedHex = options.seed || exp.seed;
  if (seedHex) {
    const seed = fromHex(seedHex);
    const digest = toHex(await sha256(seed));
    checks.push({ check: "seed matches commitment", ok: digest === String(exp.commitment || "").toLowerCase(),
      detail: `sha256(seed) = ${digest}` });
    const key = await unitKey(seed, exp.client_seeds || {});
    keyHex = toHex(key);
    deal = await computeDeal(exp.game, key, exp.inputs || {});
    if (exp.dealt && typeof exp.dealt === "object") checks.push(...compare(deal, exp.dealt));
  }
  const tiles = exp.tiles;
  if (tiles && typeof tiles === "object") {
    checks.push(...(await verifyOpenings(tiles.root, tiles.leaves, tiles.openings || [])));
    if (tiles.published_root !== null && tiles.published_root !== undefined) {
      checks.push({ check: "root is the one published at the start", ok: tiles.published_root === tiles.root,
        detail: String(tiles.published_root) });
    }
    if (deal) checks.push({ check: "root is the deal's", ok: deal.tiles_root === tiles.root, detail: String(tiles.root) });
  }
  if (checks.length === 0) checks.push({ check: "something to check", ok: false, detail: "no seed and no tile openings" });
  return { ok: checks.every((c) => c.ok), deal, checks, key: keyHex };
}
