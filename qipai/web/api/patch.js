// @ts-check
// State deltas (docs/protocol.md, "Deltas"): the server's RFC 6902 patches, of which it uses only
// `add`, `remove` and `replace`, with RFC 6901 paths; the same rules as qipai/tables/deltas.py.
// A patch is applied copy-on-write: the objects on each changed path are new, every other part
// is shared with the state it came from (so a view that compares by identity redraws only what
// changed), and the old state is left as it was.

/** @typedef {{ op: "add" | "remove" | "replace", path: string, value?: unknown }} PatchOp */

export class PatchError extends Error {}

/** @param {string} token */
function unescape(token) {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/**
 * `doc` with `ops` applied (a new document; `doc` is not changed). Throws PatchError when a
 * patch does not fit the document (the caller then asks for the whole state again).
 * @template T
 * @param {T} doc
 * @param {PatchOp[]} ops
 * @returns {T}
 */
export function applyPatch(doc, ops) {
  /** @type {any} */
  let out = doc;
  for (const op of ops) {
    if (op.path === "") {
      if (op.op !== "replace" || !op.value || typeof op.value !== "object") throw new PatchError("bad whole-document patch");
      out = op.value;
      continue;
    }
    if (!op.path.startsWith("/")) throw new PatchError(`path ${op.path} does not start with /`);
    out = put(out, op.path.slice(1).split("/").map(unescape), op);
  }
  return out;
}

/**
 * @param {any} node
 * @param {string[]} tokens
 * @param {PatchOp} op
 * @returns {any}
 */
function put(node, tokens, op) {
  const [key, ...rest] = tokens;
  if (node === null || typeof node !== "object") throw new PatchError(`${op.path}: goes through a value that holds nothing`);
  const isList = Array.isArray(node);
  const has = isList ? /^\d+$/.test(key) && Number(key) < node.length : Object.prototype.hasOwnProperty.call(node, key);
  const copy = isList ? node.slice() : { ...node };
  const at = isList ? Number(key) : key;
  if (rest.length) {
    if (!has) throw new PatchError(`${op.path}: no ${key}`);
    copy[at] = put(node[at], rest, op);
    return copy;
  }
  if (op.op === "remove" || op.op === "replace") {
    if (!has) throw new PatchError(`${op.path}: no ${key}`);
  } else if (op.op !== "add") {
    throw new PatchError(`${op.path}: ${op.op} is not used`);
  }
  if (op.op === "add" && isList) {  // inserted before item `key` (or at the end)
    if (!/^\d+$/.test(key) || Number(key) > node.length) throw new PatchError(`${op.path}: no place ${key}`);
    copy.splice(Number(key), 0, op.value);
  } else if (op.op === "remove") {
    if (isList) copy.splice(at, 1);
    else delete copy[at];
  } else {
    copy[at] = op.value;
  }
  return copy;
}
