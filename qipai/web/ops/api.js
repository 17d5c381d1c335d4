// @ts-check
// The operator API (/api/ops/…, docs/protocol.md "Operator API"): JSON in and out with the
// operator's session token, which lives in this tab only (sessionStorage), over the player
// client's fetch wrapper. Every refusal is an ApiError with the server's code; a 401 ends the
// session.
import { createHttp } from "../api/http.js";

const KEY = "qipai.ops.token";

/** @returns {string | null} */
export function token() {
  try {
    return globalThis.sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** @param {string | null} value */
export function setToken(value) {
  try {
    if (value) globalThis.sessionStorage.setItem(KEY, value);
    else globalThis.sessionStorage.removeItem(KEY);
  } catch {
    /* storage refused: the session lasts as long as this page */
  }
}

/** Called when the server ends the session (401). @type {() => void} */
let onUnauthorized = () => {};

/** @param {() => void} fn */
export function whenUnauthorized(fn) {
  onUnauthorized = fn;
}

/** @param {Record<string, string | number | boolean | null | undefined>} params */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

// the player client's own fetch wrapper (qipai/web/api/http.js); only the session differs
export const api = createHttp({
  token,
  onUnauthorized: () => onUnauthorized(),
  signIn: ["/api/ops/login"], // a wrong password or code is not an ended session
});
