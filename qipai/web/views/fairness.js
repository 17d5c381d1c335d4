// @ts-check
// The fairness panel: the running deal unit's commitment, the seeds revealed so far, each checked
// in the page (SHA-256 of the seed equals the commitment published before the deal).
import { useEffect, useState } from "../vendor/hooks.module.js";
import { html } from "../ui/html.js";
import { t } from "../i18n/index.js";

/** SHA-256 of a hex string's bytes, as hex. @param {string} hex */
export async function sha256hex(hex) {
  const bytes = new Uint8Array((hex.match(/../g) || []).map((h) => parseInt(h, 16)));
  const digest = await globalThis.crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest)).map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {{ seed: string, commitment: string }} props */
export function SeedCheck({ seed, commitment }) {
  const [ok, setOk] = useState(/** @type {boolean | null} */ (null));
  useEffect(() => {
    let live = true;
    sha256hex(seed).then((h) => live && setOk(h === commitment), () => live && setOk(false));
    return () => { live = false; };
  }, [seed, commitment]);
  if (ok === null) return html`<span class="verify">…</span>`;
  return html`<span class=${ok ? "verify ok" : "verify bad"}>${ok ? t("verified") : t("not_verified")}</span>`;
}

/**
 * Whether my client seed is not (yet) in the running deal unit, and so enters the next one
 * (docs/fairness.md, "Which commitment a seed meets"): I sat down or changed it mid-unit.
 * @param {any} st @param {string | undefined} clientSeed
 */
export function seedWaits(st, clientSeed) {
  const f = (st && st.fairness) || {};
  const seat = st && st.you && st.you.seat;
  const cur = f.current;
  if (!seat || !clientSeed || f.client_seeds_enabled === false || !cur || !f.next_commitment) return false;
  const ended = (f.revealed || []).some((/** @type {any} */ rv) => rv.commitment === cur.commitment && rv.ended);
  return !ended && (f.client_seeds || {})[seat] !== clientSeed;
}

/**
 * Which commitment my seed meets, as the room tells it (`you.client_seed`, docs/fairness.md,
 * "Which commitment a seed meets") when it is the seed shown here; else as the page reckons it.
 * @param {any} st @param {string | undefined} clientSeed
 */
function seedNote(st, clientSeed) {
  const f = (st && st.fairness) || {};
  const told = st && st.you && st.you.client_seed;
  if (told && told.client_seed === clientSeed && f.client_seeds_enabled !== false) {
    if (told.in_unit) return null;
    const key = told.after_commitment ? "client_seed_after_unit" : "client_seed_next_unit";
    const commitment = String(told.after_commitment || told.commitment || "").slice(0, 16);
    return html`<div class="small seed-waits" id="seed-waits">${t(key, { commitment })}</div>`;
  }
  if (!seedWaits(st, clientSeed)) return null;
  return html`<div class="small seed-waits" id="seed-waits">${t("client_seed_next_unit", { commitment: String(f.next_commitment).slice(0, 16) })}</div>`;
}

/**
 * My client seed (docs/fairness.md#keys): shown, changeable (typed or a new random one); the
 * running deal's client seeds as the table recorded them; when mine is not in the running unit,
 * which commitment it will meet and when.
 * @param {{ f: any, st?: any, clientSeed?: string, actions?: any }} props
 */
function ClientSeed({ f, st, clientSeed, actions }) {
  const [text, setText] = useState(clientSeed || "");
  useEffect(() => setText(clientSeed || ""), [clientSeed]);
  if (f.client_seeds_enabled === false) return html`<div class="small muted client-seeds-off">${t("client_seeds_off")}</div>`;
  const unit = Object.entries(f.client_seeds || {});
  return html`<div class="client-seed small">
    ${clientSeed !== undefined ? html`<form class="client-seed-form" onSubmit=${(/** @type {Event} */ e) => { e.preventDefault(); actions && actions.setClientSeed && actions.setClientSeed(text.trim()); }}>
      <label>${t("client_seed")}: <input class="mono small" id="client-seed" maxlength="64" value=${text}
        onInput=${(/** @type {any} */ e) => setText(e.currentTarget.value)} /></label>
      <button type="submit" class="btn small ghost" id="client-seed-set">${t("client_seed_set")}</button>
      <button type="button" class="btn small ghost" id="client-seed-new" onClick=${() => actions && actions.newClientSeed && actions.newClientSeed()}>${t("client_seed_new")}</button>
    </form>` : null}
    ${seedNote(st, clientSeed)}
    ${unit.length ? html`<div class="mono small unit-client-seeds">${t("unit_client_seeds")}: ${unit.map(([seat, seed]) => html`<span key=${seat} data-seat=${seat}>${seat}=${seed} </span>`)}</div>` : null}
  </div>`;
}

/** @param {{ st: any, clientSeed?: string, actions?: any }} props */
export function FairnessPanel({ st, clientSeed, actions }) {
  const f = st.fairness || {};
  const hidden = f.seed_policy === "operator_only";
  const cur = f.current;
  return html`<div class="fairness" id="fairness">
    <${ClientSeed} f=${f} st=${st} clientSeed=${clientSeed} actions=${actions} />
    ${cur ? html`<div class="mono small" title=${t("commitment")}>${t("commitment")}: <span class="commit">${cur.commitment}</span></div>
      <div class="mono small">${t("seed")}: <span class="seed">${cur.seed || (hidden ? t("seed_hidden") : t("seed_later"))}</span></div>` : null}
    ${hidden ? html`<div class="small muted seed-policy">${t("seed_operator_only")}</div>` : null}
    ${(f.revealed || []).slice().reverse().slice(0, 3).filter((/** @type {any} */ rv) => !cur || rv.commitment !== cur.commitment)
      .map((/** @type {any} */ rv) => html`<div key=${rv.commitment} class="mono small revealed">✓ ${rv.commitment.slice(0, 16)}… ← ${rv.seed.slice(0, 16)}…
        <${SeedCheck} seed=${rv.seed} commitment=${rv.commitment} /></div>`)}
  </div>`;
}
