// @ts-check
// The HTTP API (docs/protocol.md): JSON in, JSON out, every refusal an ApiError.
import { ApiError, errorFromBody } from "./errors.js";

/**
 * `signIn`: the paths whose 401 is a refused sign-in, not an ended session (no
 * `onUnauthorized`); the player's by default, the back office passes its own.
 * @param {{ token(): string | null, onUnauthorized(): void, fetch?: typeof fetch, signIn?: string[] }} opts
 */
export function createHttp(opts) {
  const doFetch = opts.fetch || ((...a) => globalThis.fetch(...a));
  const signIn = opts.signIn || ["/api/login", "/api/signup"];
  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @param {boolean} [raw] a file: the reply as a Blob
   * @returns {Promise<any>}
   */
  async function request(method, path, body, raw = false) {
    /** @type {Record<string, string>} */
    const headers = { "Content-Type": "application/json" };
    const token = opts.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    let res;
    try {
      res = await doFetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch {
      throw new ApiError("network", "the server cannot be reached");
    }
    if (res.ok && raw) return res.blob();
    let data;
    try {
      data = await res.json();
    } catch {
      data = null;
    }
    if (!res.ok) {
      const err = errorFromBody(res.status, data);
      if (res.status === 401 && !signIn.some((p) => path.startsWith(p))) opts.onUnauthorized();
      throw err;
    }
    return data;
  }
  return {
    /** @param {string} path */
    get: (path) => request("GET", path),
    /** @param {string} path @param {unknown} [body] */
    post: (path, body) => request("POST", path, body ?? {}),
    /** @param {string} path @param {unknown} body */
    put: (path, body) => request("PUT", path, body),
    /** @param {string} path */
    del: (path) => request("DELETE", path),
    /** A file (CSV) as a Blob. @param {string} path */
    blob: (path) => request("GET", path, undefined, true),
  };
}

/** @typedef {ReturnType<typeof createHttp>} Http */
