// @ts-check
// The operator API (/api/ops/…, docs/protocol.md "Operator API"): JSON in and out with the
// operator's session token, which lives in this tab only (sessionStorage). Every refusal is an
// ApiError with the server's code; a 401 ends the session.
import { ApiError, errorFromBody } from "../api/errors.js";

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

/**
 * @param {string} method @param {string} path @param {unknown} [body] @param {boolean} [raw]
 * @returns {Promise<any>}
 */
async function request(method, path, body, raw = false) {
  /** @type {Record<string, string>} */
  const headers = { "Content-Type": "application/json" };
  const tok = token();
  if (tok) headers.Authorization = `Bearer ${tok}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError("network", "the server cannot be reached");
  }
  if (res.ok && raw) return res.blob();
  /** @type {any} */
  let data;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    if (res.status === 401 && path !== "/api/ops/login") onUnauthorized();
    throw errorFromBody(res.status, data);
  }
  return data;
}

/** @param {Record<string, string | number | boolean | null | undefined>} params */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

export const api = {
  /** @param {string} path */
  get: (path) => request("GET", path),
  /** @param {string} path @param {unknown} [body] */
  post: (path, body) => request("POST", path, body ?? {}),
  /** @param {string} path @param {unknown} body */
  put: (path, body) => request("PUT", path, body),
  /** A file (CSV) as a Blob. @param {string} path */
  blob: (path) => request("GET", path, undefined, true),
};
