// @ts-check
// node --test tests/fairness/verify_js.test.mjs — the browser's verifier against the test
// vectors of docs/fairness.md and, when QIPAI_EXPORTS_DIR is set, against round exports of
// random deal units written there by tests/fairness/test_verify_js.py (with the deal the
// engine dealt).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

import {
  Stream, unitKey, fromHex, toHex, computeDeal, verifyExport, verifyOpenings, cardOrder, tileOrder,
} from "../../qipai/web/fairness/verify.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const doc = readFileSync(join(root, "docs", "fairness.md"), "utf8");
const vectors = [...doc.matchAll(/```json\n([\s\S]*?)\n```/g)]
  .map((m) => JSON.parse(m[1]))
  .filter((v) => v && typeof v === "object" && "vector" in v);
/** @param {string} name */
const vector = (name) => {
  const found = vectors.find((v) => v.vector === name);
  assert.ok(found, `vector ${name} is in docs/fairness.md`);
  return found;
};

test("starting orders", () => {
  assert.deepEqual(cardOrder().slice(0, 5), ["2c", "2d", "2h", "2s", "3c"]);
  assert.equal(cardOrder(8).length, 416);
  assert.equal(tileOrder().join(" "),
    "6-6 6-6 1-1 1-1 4-4 4-4 1-3 1-3 5-5 5-5 3-3 3-3 2-2 2-2 5-6 5-6 4-6 4-6 1-6 1-6 " +
    "1-5 1-5 3-6 4-5 2-6 3-5 2-5 3-4 1-4 2-3 2-4 1-2");
});

test("stream vectors", async () => {
  for (const name of ["stream", "stream-nested"]) {
    const v = vector(name);
    const bytes = await new Stream(fromHex(v.key), v.label).nextBytes(v.bytes.length / 2);
    assert.equal(toHex(bytes), v.bytes);
    // reading in odd pieces gives the same bytes
    const s = new Stream(fromHex(v.key), v.label);
    const parts = [await s.nextBytes(5), await s.nextBytes(31), await s.nextBytes(v.bytes.length / 2 - 36)];
    assert.equal(parts.map(toHex).join(""), v.bytes);
  }
});

test("integer and shuffle vectors", async () => {
  const b = vector("below");
  const s = new Stream(fromHex(b.key), b.label);
  const got = [];
  for (const n of b.bounds) got.push(await s.below(n));
  assert.deepEqual(got, b.values);
  const sh = vector("shuffle");
  const items = [...Array(sh.n).keys()];
  await new Stream(fromHex(sh.key), sh.label).shuffle(items);
  assert.deepEqual(items, sh.result);
});

test("key vectors", async () => {
  for (const name of ["unit-key", "unit-key-off"]) {
    const v = vector(name);
    assert.equal(toHex(await unitKey(fromHex(v.seed), v.client_seeds)), v.key);
  }
});

test("every game's vectors", async () => {
  const games = vectors.filter((v) => "game" in v);
  assert.deepEqual(new Set(games.map((v) => v.game)),
    new Set(["pokdeng", "paigow", "holdem-bonus", "niuniu", "tiengow"]));
  for (const v of games) {
    const key = await unitKey(fromHex(v.seed), v.client_seeds);
    assert.equal(toHex(key), v.key, v.vector);
    assert.deepEqual(await computeDeal(v.game, key, v.inputs), v.deal, v.vector);
  }
});

test("Tien Gow tile vector", async () => {
  const v = vectors.find((x) => String(x.vector).startsWith("tiengow-tiles"));
  assert.ok(v);
  const checks = await verifyOpenings(v.root, v.leaves, v.openings,
    Object.fromEntries(v.openings.map((/** @type {any} */ o) => [o.position, o.tile])));
  assert.ok(checks.every((c) => c.ok), JSON.stringify(checks.filter((c) => !c.ok)));
  const lie = v.openings.map((/** @type {any} */ o, /** @type {number} */ i) => (i === 0 ? { ...o, tile: o.tile === "6-6" ? "1-1" : "6-6" } : o));
  assert.ok(!(await verifyOpenings(v.root, v.leaves, lie)).every((c) => c.ok));
  const swapped = [v.leaves[1], v.leaves[0], ...v.leaves.slice(2)];
  assert.ok(!(await verifyOpenings(v.root, swapped, v.openings)).every((c) => c.ok));
});

const dir = process.env.QIPAI_EXPORTS_DIR;
test("round exports of random deal units", { skip: !dir && "QIPAI_EXPORTS_DIR not set" }, async () => {
  const files = readdirSync(String(dir)).filter((f) => f.endsWith(".json"));
  assert.ok(files.length > 0);
  for (const file of files) {
    const { export: exp, deal } = JSON.parse(readFileSync(join(String(dir), file), "utf8"));
    const result = await verifyExport(exp);
    assert.ok(result.ok, `${file}: ${JSON.stringify(result.checks.filter((c) => !c.ok))}`);
    if (deal) assert.deepEqual(result.deal, deal, file);
    if (exp.dealt && exp.seed) {
      // a table that showed a different first card fails
      const bad = structuredClone(exp);
      const hands = bad.dealt.hands || bad.dealt.boxes;
      if (hands) {
        const seat = Object.keys(hands)[0];
        const [first, ...rest] = hands[seat];
        const other = first.includes("-") ? (first === "6-6" ? "1-1" : "6-6") : (first === "As" ? "Ks" : "As");
        hands[seat] = [other, ...rest];
        assert.ok(!(await verifyExport(bad)).ok, `${file}: a changed card must fail`);
      }
    }
  }
});

test("bad input is refused", async () => {
  await assert.rejects(verifyExport({ format: "nope" }), /not a round export/);
  await assert.rejects(verifyExport({ format: "qipai-round/1", game: "chess" }), /unknown game/);
  const wrong = vectors.find((v) => v.game === "pokdeng");
  const exp = { format: "qipai-round/1", game: "pokdeng", seed: wrong.seed, commitment: "00",
    client_seeds: wrong.client_seeds, inputs: wrong.inputs, dealt: null };
  const result = await verifyExport(exp);
  assert.equal(result.ok, false);
  assert.equal(result.checks[0].check, "seed matches commitment");
});
