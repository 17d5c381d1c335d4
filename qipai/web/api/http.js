// @ts-check
// The HTTP API (docs/protocol.md): JSON in, JSON out, every refusal an ApiError.
import { ApiError, errorFromBody } from "./errors.js";

/**
 * @param {{ token(): string | null, onUnauthorized(): void, fetch?: typeof fetch }} opts
 */
export function createHttp(opts) {
  const doFetch = opts.fetch || ((...a) => globalThis.fetch(...a));
  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @returns {Promise<any>}
   */
  async function request(method, path, body) {
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
    let data;
    try {
      data = await res.json();
    } catch {
      data = null;
    }
    if (!res.ok) {
      const err = errorFromBody(res.status, data);
      if (res.status === 401 && !path.startsWith("/api/login") && !path.startsWith("/api/signup")) opts.onUnauthorized();
      throw err;
    }
    return data;
  }
  return {
    /** @param {string} path */
    get: (path) => request("GET", path),
    /** @param {string} path @param {unknown} [body] */
    post: (path, body) => request("POST", path, body ?? {}),
    /** @param {string} path */
    del: (path) => request("DELETE", path),
  };
}

/** @typedef {ReturnType<typeof createHttp>} Http */
