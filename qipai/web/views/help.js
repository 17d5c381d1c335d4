// @ts-check
// The help panel of a table: the game's rules in short, and everything the operator set that
// touches the player's money — the pay table, the limits, the commission, the buy-in range and
// the exact return of each bet — exactly as the server gives them (nothing computed here).
import { useEffect, useRef } from "../vendor/hooks.module.js";
import { html } from "../ui/html.js";
import { t, has, named } from "../i18n/index.js";
import { money } from "../ui/format.js";
import { PayTable, ReturnTable } from "./paytable.js";
import { templateName } from "../games/common.js";

/** A setting's label: translated when the key is known, else the key with spaces. @param {string} key */
export function settingLabel(key) {
  return has(`set_${key}`) ? t(`set_${key}`) : key.replace(/_/g, " ");
}

/** A setting's value for people: numbers as money, fractions as they are, lists joined. @param {string} key @param {any} v @returns {any} */
export function settingValue(key, v) {
  if (v === null || v === undefined) return "–";
  if (typeof v === "boolean") return v ? t("yes") : t("no");
  if (typeof v === "number") return /(_s|seconds|decks|multiple|choices|odds|pays|units)$/.test(key) || key === "decks" ? String(v) : money(v);
  if (Array.isArray(v)) return v.map((x) => settingValue(key, x)).join(", ");
  if (typeof v === "object") {
    if ("zh" in v || "en" in v) return named(v);
    return html`<${KeyTable} data=${v} />`;
  }
  return has(`val_${v}`) ? t(`val_${v}`) : String(v);
}

/** @param {{ data: Record<string, any> }} props */
export function KeyTable({ data }) {
  return html`<table class="kv-table"><tbody>${Object.entries(data).map(([k, v]) => html`<tr key=${k} data-key=${k}>
    <th>${settingLabel(k)}</th><td>${settingValue(k, v)}</td></tr>`)}</tbody></table>`;
}

/**
 * The terms of a table from whichever reply carries them: `/api/tables/{id}` (`terms` or the
 * fields at the top), the state message's table, else the round's own view of its settings.
 * @param {any} info @param {any} st
 */
export function termsOf(info, st) {
  const src = (info && (info.terms || info)) || {};
  const table = (st && st.table && (st.table.terms || st.table)) || {};
  const pick = (/** @type {string} */ k) => src[k] ?? table[k] ?? null;
  return {
    pay_table: pick("pay_table"), rtp: pick("rtp"), min_buy_in: pick("min_buy_in"), max_buy_in: pick("max_buy_in"),
    limits: pick("limits"), rules: pick("rules"),
  };
}

/**
 * The settings a round's own view carries (shown while the server sends no pay table): Pai Gow
 * and Tien Gow `config`, Hold'em `limits` and bonus pays, Pok Deng each spot's limits and hold,
 * Niu Niu base and commission.
 * @param {any} v
 */
export function viewTerms(v) {
  if (v.config) return v.config;
  if (v.limits) return { ...v.limits, ...(v.bonus_pays ? { bonus_pays: v.bonus_pays } : {}) };
  if (v.spots) return Object.fromEntries(Object.entries(v.spots).map(([k, x]) => [k, `${money(/** @type {any} */ (x).min)}–${money(/** @type {any} */ (x).max)} · ${t("set_hold")} ×${/** @type {any} */ (x).hold}`]));
  if (v.base !== undefined) return { base: v.base, commission: v.commission };
  return null;
}

/** @param {{ st: any, info: any, game: any, offer: any, onClose: () => void }} props */
export function HelpPanel({ st, info, game, offer, onClose }) {
  const ref = useRef(/** @type {HTMLDialogElement | null} */ (null));
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open && d.showModal) d.showModal();
  }, []);
  const g = st.table.game;
  const terms = termsOf(offer || info, st);
  const view = st.round && st.round.view;
  const viewSettings = view ? viewTerms(view) : null;
  return html`<dialog class="dialog help" id="help" ref=${ref} onClose=${onClose} onCancel=${onClose} aria-labelledby="help-title">
    <div class="help-head"><h3 id="help-title">${named(st.table.title)} · ${t("help")}</h3>
      <button type="button" class="btn small ghost" id="help-close" onClick=${onClose}>${t("close")}</button></div>
    <section class="help-rules"><h4>${t("rules")}</h4>
      <p>${has(`rules_${g}`) ? t(`rules_${g}`) : t("rules_generic")}</p>
      <p><a class="btn small ghost rules-link" id="help-rules-page" href=${`#/rules/${g}${offer ? `/${offer.template.id}` : ""}`} target="_blank" rel="noopener">${t("rules_page")}</a></p></section>
    <section class="help-pay"><h4>${t("pay_table")}</h4>
      ${terms.pay_table ? html`<${PayTable} pay=${terms.pay_table} />` : viewSettings ? html`<${KeyTable} data=${viewSettings} />` : html`<p class="muted">${t("pay_table_missing")}</p>`}</section>
    <section class="help-limits"><h4>${t("limits")}</h4>
      ${terms.limits ? html`<${KeyTable} data=${terms.limits} />` : null}
      <${KeyTable} data=${{
        min_buy_in: terms.min_buy_in ?? (game && game.min_buy_in) ?? null,
        max_buy_in: terms.max_buy_in ?? (game && game.max_buy_in) ?? null,
      }} /></section>
    <section class="help-rtp"><h4>${t("rtp")}</h4>
      ${terms.rtp ? html`<${ReturnTable} rtp=${terms.rtp} />` : html`<p class="muted">${t("rtp_missing")}</p>`}
      ${offer ? html`<p class="muted small">${t("offer_is", { name: templateName(offer.template), version: offer.template.version })}</p>` : null}</section>
  </dialog>`;
}

/**
 * The terms a table plays, as the server gives them: the table's own template version's facts
 * (`facts` of `/api/tables` and `/api/tables/{id}`: the version the table was opened on or moved
 * to, docs/operators.md "Tables on older versions"), never the template's newest offer unless it
 * is that same version. Facts of another version than the table's terms name (a reply read
 * before the table moved) are not used. A table opened on no template is matched by its
 * settings' hash.
 * @param {any[] | null} offers @param {any} table @param {any} [info] the table's `/api/tables/{id}` reply
 */
export function offerOf(offers, table, info) {
  if (!table) return null;
  const terms = table.terms || {};
  const tpl = terms.template || null;
  const same = (/** @type {any} */ f) => f && f.template && tpl && f.template.id === tpl.id && f.template.version === tpl.version;
  for (const facts of [table.facts, info && info.facts]) if (same(facts)) return facts;
  if (!offers) return null;
  if (tpl) return offers.find(same) || null;
  const hash = terms.config_hash || table.config_hash;
  return offers.find((o) => hash && o.config_hash === hash) || null;
}

/**
 * The version a table moved to between two of its states (null: none moved): the state whose
 * terms name a newer version of the same template than the state before.
 * @param {any} prev @param {any} next
 * @returns {number | null}
 */
export function termsMoved(prev, next) {
  const a = prev && prev.table, b = next && next.table;
  if (!a || !b || a.id !== b.id) return null;
  const was = a.terms && a.terms.template, now = b.terms && b.terms.template;
  if (!was || !now || was.id !== now.id || now.version === was.version) return null;
  return now.version;
}
