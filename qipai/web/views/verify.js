// @ts-check
// "Verify" in the round history: the deal recomputed in this page from the revealed seed and the
// round's public inputs with the fairness module (qipai/web/fairness/verify.js, written from
// docs/fairness.md), compared card by card with what was dealt.
import { useEffect, useState } from "../vendor/hooks.module.js";
import { html, cx } from "../ui/html.js";
import { t } from "../i18n/index.js";
import { sha256hex } from "./fairness.js";

/** @param {{ item: any }} props */
export function VerifyPanel({ item }) {
  const [out, setOut] = useState(/** @type {any} */ (null));
  useEffect(() => {
    let live = true;
    verifyRound(item).then((r) => live && setOut(r), (e) => live && setOut({ error: String(e && e.message ? e.message : e) }));
    return () => { live = false; };
  }, [item.round_id]);
  if (!out) return html`<div class="verify-panel">…</div>`;
  if (out.error) return html`<div class="verify-panel bad" data-verified="error">${t("verify_failed")}: ${out.error}</div>`;
  return html`<div class=${cx("verify-panel", out.ok ? "ok" : "bad")} data-verified=${out.ok ? "ok" : "mismatch"}>
    <div><b>${out.ok ? t("verify_ok") : t("verify_mismatch")}</b> · ${t("commitment")} ${out.commitmentOk ? "✓" : "✗"}</div>
    ${out.items && out.items.length ? html`<table class="verify-table"><thead><tr><th>${t("verify_what")}</th><th>${t("verify_dealt")}</th><th>${t("verify_computed")}</th><th></th></tr></thead>
      <tbody>${out.items.map((/** @type {any} */ x, /** @type {number} */ i) => html`<tr key=${i} class=${x.ok ? "ok" : "bad"} data-match=${x.ok ? "1" : "0"}>
        <td>${x.label}</td><td class="mono">${x.dealt}</td><td class="mono">${x.computed}</td><td>${x.ok ? "✓" : "✗"}</td></tr>`)}</tbody></table>` : null}
  </div>`;
}

/**
 * Recompute the deal of `item` (a history row) and compare it with what its view shows.
 * @param {any} item
 * @returns {Promise<{ ok: boolean, commitmentOk: boolean, items: {label: string, dealt: string, computed: string, ok: boolean}[] }>}
 */
export async function verifyRound(item) {
  const commitmentOk = item.seed ? (await sha256hex(item.seed)) === item.commitment : false;
  let mod;
  try {
    // the fairness module is loaded only when asked for (it is its own pure module)
    const path = "../fairness/verify.js";
    mod = await import(/* @vite-ignore */ path);
  } catch {
    throw new Error(t("verify_unavailable"));
  }
  const dealt = await /** @type {any} */ (mod).verifyRound(item);
  const items = dealt.items || [];
  return { ok: commitmentOk && items.length > 0 && items.every((/** @type {any} */ x) => x.ok), commitmentOk, items };
}
