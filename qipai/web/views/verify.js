// @ts-check
// "Verify" in the round history: the round's export (`GET /api/rounds/{id}`, format
// qipai-round/1) is checked in this page by the fairness module (qipai/web/fairness/verify.js,
// written from docs/fairness.md): the seed against its commitment, the deal recomputed from the
// seed and the public inputs, and each hand compared with what was dealt; Tien Gow: every tile I
// saw against the root published at the start.
import { useEffect, useState } from "../vendor/hooks.module.js";
import { html, cx } from "../ui/html.js";
import { t } from "../i18n/index.js";

/** @param {{ item: any, http: any }} props */
export function VerifyPanel({ item, http }) {
  const [out, setOut] = useState(/** @type {any} */ (null));
  useEffect(() => {
    let live = true;
    verifyRound(item, http).then((r) => live && setOut(r), (e) => live && setOut({ error: String(e && e.message ? e.message : e) }));
    return () => { live = false; };
  }, [item.round_id]);
  if (!out) return html`<div class="verify-panel" data-verified="pending">…</div>`;
  if (out.error) return html`<div class="verify-panel bad" data-verified="error"><b>${t("verify_failed")}</b>: ${out.error}</div>`;
  return html`<div class=${cx("verify-panel", out.ok ? "ok" : "bad")} data-verified=${out.ok ? "ok" : "mismatch"}>
    <div><b>${out.ok ? t("verify_ok") : t("verify_mismatch")}</b></div>
    <table class="verify-table"><thead><tr><th>${t("verify_what")}</th><th>${t("verify_dealt")}</th><th>${t("verify_computed")}</th><th></th></tr></thead>
      <tbody>${out.checks.map((/** @type {any} */ c, /** @type {number} */ i) => html`<tr key=${i} class=${c.ok ? "ok" : "bad"} data-match=${c.ok ? "1" : "0"}>
        <td>${checkLabel(c.check)}</td><td class="mono small">${show(c.shown ?? c.detail)}</td><td class="mono small">${show(c.expected ?? "")}</td><td>${c.ok ? "✓" : "✗"}</td></tr>`)}</tbody></table>
  </div>`;
}

/** A check's name in the UI language ("hands P1 as dealt" → "P1 的牌与发出的一致"). @param {string} check */
function checkLabel(check) {
  const asDealt = /^(.*) as dealt$/.exec(check);
  if (asDealt) return t("verify_as_dealt", { what: asDealt[1].replace(/^(hands|boxes) /, "") });
  if (check === "seed matches commitment") return t("verify_seed");
  if (/root/.test(check)) return t("verify_root");
  if (/^tile|position/.test(check)) return t("verify_tile", { what: check.replace(/^tile /, "") });
  return check;
}

/** @param {any} v */
function show(v) {
  if (v === null || v === undefined) return "";
  if (Array.isArray(v)) return v.join(" ");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/**
 * Fetch the round's export and check it with the fairness module.
 * @param {any} item a history row @param {any} http
 * @returns {Promise<{ ok: boolean, checks: any[] }>}
 */
export async function verifyRound(item, http) {
  const body = await http.get(`/api/rounds/${encodeURIComponent(item.round_id)}`);
  if (!body || (body.format !== "qipai-round/1" && !(body.fairness && body.fairness.format))) throw new Error(t("verify_no_export"));
  const { verifyExport } = await import("../fairness/verify.js");
  const r = await verifyExport(body);
  return { ok: r.ok, checks: r.checks };
}
