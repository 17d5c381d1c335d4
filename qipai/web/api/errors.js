// @ts-check
// One error shape for everything the server refuses, over HTTP or the WebSocket
// (docs/protocol.md): {code, message, field?}. The UI shows it translated by its code (and the
// field, where the code alone does not say what was wrong); the server's English message is kept
// for the tooltip.
import { has, t } from "../i18n/index.js";

export class ApiError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {{field?: string | null, status?: number, clientId?: string | null}} [more]
   */
  constructor(code, message, more = {}) {
    super(message);
    this.code = code;
    this.field = more.field ?? null;
    this.status = more.status ?? 0;
    this.clientId = more.clientId ?? null;
  }
}

/**
 * An ApiError from an HTTP error response body in any of the shapes the server has used:
 * {"error": {code, message, field?}}, FastAPI's {"detail": {code, message}} and its validation
 * list {"detail": [{loc, msg, type}]}.
 * @param {number} status
 * @param {any} body
 */
export function errorFromBody(status, body) {
  const err = body && (body.error ?? body.detail);
  if (Array.isArray(err)) {
    const first = err[0] || {};
    const loc = Array.isArray(first.loc) ? first.loc.filter((x) => x !== "body") : [];
    return new ApiError("invalid_input", String(first.msg || "invalid input"), {
      field: loc.length ? String(loc[loc.length - 1]) : null, status,
    });
  }
  if (err && typeof err === "object") {
    return new ApiError(String(err.code || "error"), String(err.message || ""), { field: err.field ?? null, status });
  }
  if (typeof err === "string") return new ApiError(status === 401 ? "auth_required" : "error", err, { status });
  return new ApiError(status === 401 ? "auth_required" : "error", `HTTP ${status}`, { status });
}

/**
 * The player-facing text of an error: by code and field ("err_invalid_input.username"), then by
 * code ("err_insufficient_funds"), else a generic sentence. Never the server's English in the
 * Chinese UI.
 * @param {{code?: string | null, field?: string | null}} err
 */
export function errorText(err) {
  const code = err.code || "error";
  const leaf = err.field ? String(err.field).split(".").pop() : null;
  if (leaf && has(`err_${code}.${leaf}`)) return t(`err_${code}.${leaf}`);
  if (has(`err_${code}`)) return t(`err_${code}`);
  return t("err_error");
}
