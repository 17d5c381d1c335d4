// @ts-check
// The operator's offer as players see it before they sit (docs/operators.md): the pay table of every bet,
// the limits, commission, base stake, countdowns, notes, the buy-in range, and the exact return
// of each bet — all as the server gives them (GameSpec.pay_table / rtp through /api/templates);
// nothing is computed here.
import { html } from "../ui/html.js";
import { t, named, lang, has } from "../i18n/index.js";
import { money } from "../ui/format.js";

/** @param {{ pay: any }} props */
export function PayTable({ pay }) {
  if (!pay) return null;
  const bets = Array.isArray(pay.bets) ? pay.bets : [];
  return html`<div class="pay-table" data-pay-table=${pay.game || ""}>
    ${bets.length ? html`<table class="pay-bets"><thead><tr><th>${t("bet")}</th><th>${t("pt_when")}</th><th>${t("pt_pays")}</th></tr></thead>
      <tbody>${bets.flatMap((/** @type {any} */ b) => [
        ...(b.pays || []).map((/** @type {any} */ p, /** @type {number} */ i) => html`<tr key=${`${b.bet}-p${i}`} data-bet=${b.bet}>
          ${i === 0 ? html`<th rowspan=${(b.pays || []).length + (b.loses || []).length}>${named(b.label) || b.bet}${b.hold > 1 ? html`<div class="muted small">${t("pt_hold", { n: b.hold })}</div>` : null}</th>` : null}
          <td>${named(p.when)}</td><td class="odds">${oddsText(p.odds)}</td></tr>`),
        ...(b.loses || []).map((/** @type {any} */ p, /** @type {number} */ i) => html`<tr key=${`${b.bet}-l${i}`} class="loses">
          <td>${named(p.when)}</td><td class="odds">${t("pt_loses", { x: String(p.odds).replace(/x$/, "") })}</td></tr>`),
      ])}</tbody></table>` : null}
    ${Array.isArray(pay.limits) && pay.limits.length ? html`<table class="pay-limits"><thead><tr><th>${t("limits")}</th><th>${t("set_min")}</th><th>${t("set_max")}</th></tr></thead>
      <tbody>${pay.limits.map((/** @type {any} */ l) => html`<tr key=${l.bet} data-limit=${l.bet}><td>${named(l.label) || l.bet}</td><td>${money(l.min)}</td><td>${l.max === null || l.max === undefined ? "–" : money(l.max)}</td></tr>`)}</tbody></table>` : null}
    <dl class="pay-facts">
      ${pay.base !== null && pay.base !== undefined ? html`<dt>${t("set_base")}</dt><dd>${money(pay.base)}</dd>` : null}
      ${pay.commission ? html`<dt>${named(pay.commission.label) || t("commission")}</dt><dd>${(Number(pay.commission.rate) * 100).toFixed(2)}%</dd>` : null}
      ${(pay.countdowns || []).map((/** @type {any} */ c) => html`<dt key=${`c-${c.phase}`}>${t("pt_countdown", { phase: named(c.label) || c.phase })}</dt><dd>${c.seconds} ${t("seconds")}</dd>`)}
      ${pay.min_buy_in !== undefined && pay.min_buy_in !== null ? html`<dt>${t("set_min_buy_in")}</dt><dd>${money(pay.min_buy_in)}</dd>` : null}
    </dl>
    <${Extras} pay=${pay} />
    ${(pay.notes || []).length ? html`<ul class="pay-notes small">${pay.notes.map((/** @type {any} */ n, /** @type {number} */ i) => html`<li key=${i}>${named(n)}</li>`)}</ul>` : null}
  </div>`;
}

const KNOWN = new Set(["game", "mode", "bets", "limits", "commission", "base", "countdowns", "notes", "min_buy_in"]);

/** A scalar of a pay table for people. @param {any} v */
function scalar(v) {
  if (typeof v === "string" && has(`val_${v}`)) return t(`val_${v}`);
  if (typeof v === "number") return Number.isInteger(v) && Math.abs(v) >= 1000 ? money(v) : String(v);
  if (typeof v === "boolean") return v ? t("yes") : t("no");
  if (Array.isArray(v)) return v.map(scalar).join(", ");
  return String(v);
}

/**
 * The game's own parts of its pay table (Tien Gow scoring and 尊钱, Niu Niu hand multipliers,
 * the Hold'em jackpot shares, caps, bid and bet choices): lists of labelled rows become tables,
 * texts become paragraphs, other values a line each.
 * @param {{ pay: any }} props
 */
function Extras({ pay }) {
  const parts = Object.entries(pay).filter(([k, v]) => !KNOWN.has(k) && v !== null && v !== undefined);
  if (!parts.length) return null;
  return html`<div class="pay-extras">${parts.map(([k, v]) => html`<${Extra} key=${k} name=${k} value=${v} />`)}</div>`;
}

/** @param {{ name: string, value: any }} props */
function Extra({ name, value }) {
  const title = has(`set_${name}`) ? t(`set_${name}`) : name.replace(/_/g, " ");
  if (value && typeof value === "object" && !Array.isArray(value) && ("zh" in value || "en" in value)) return html`<p class="small" data-extra=${name}>${named(value)}</p>`;
  if (Array.isArray(value) && value.length && typeof value[0] === "object") {
    const cols = [...new Set(value.flatMap((r) => Object.keys(r).filter((c) => c !== "label" && c !== "type" && c !== "category")))];
    return html`<table class="pay-extra" data-extra=${name}><caption>${title}</caption><tbody>${value.map((r, i) => html`<tr key=${i}>
      <th>${named(r.label) || r.type || r.category || ""}</th>${cols.map((c) => html`<td key=${c}>${r[c] === undefined ? "" : scalar(r[c])}</td>`)}</tr>`)}</tbody></table>`;
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const { label, ...rest } = value;
    return html`<div class="small" data-extra=${name}>${label ? html`<p>${named(label)}</p>` : html`<b>${title}</b>`}
      <table class="pay-extra"><tbody>${Object.entries(rest).map(([k, x]) => html`<tr key=${k}><th>${has(`set_${k}`) ? t(`set_${k}`) : k.replace(/_/g, " ")}</th>
        <td>${Array.isArray(x) && x.length && typeof x[0] === "object" ? x.map((r) => `${named(r.label) || r.category || ""} ${scalar(r.share ?? r.units ?? "")}`).join(" · ") : scalar(x)}</td></tr>`)}</tbody></table></div>`;
  }
  return html`<table class="pay-extra" data-extra=${name}><tbody><tr><th>${title}</th><td>${scalar(value)}</td></tr></tbody></table>`;
}

/** "1:1" / "push" / "11:1" in the UI language. @param {any} odds */
function oddsText(odds) {
  if (odds === "push") return t("pt_push");
  // the worded odds of the games' pay tables (Hold'em Bonus's main bets and jackpot shares),
  // read in the UI language; plain odds ("25:1") are the same in both
  const key = ODDS_WORDS[String(odds)];
  return key ? t(key) : String(odds);
}

const ODDS_WORDS = /** @type {Record<string, string>} */ ({
  "1:1 on every bet": "pt_odds_all_even",
  "ante push; flop, turn, river 1:1": "pt_odds_ante_push",
  share: "pt_odds_share",
});

/** The exact return to player of each bet. @param {{ rtp: any[] | null | undefined, status?: string }} props */
export function ReturnTable({ rtp, status }) {
  if (!rtp || !rtp.length) return status && status !== "ready" ? html`<p class="muted small">${t("rtp_missing")}</p>` : null;
  return html`<table class="rtp-table" data-rtp=""><thead><tr><th>${t("bet")}</th><th>${t("rtp")}</th><th>${t("pt_exact")}</th></tr></thead>
    <tbody>${rtp.map((/** @type {any} */ r, /** @type {number} */ i) => html`<tr key=${i} data-rtp-bet=${r.bet}>
      <td>${named(r.label) || r.bet}${r.strategy ? html` <span class="muted small">(${strategyText(r.strategy)})</span>` : null}</td>
      <td class="rtp-percent">${rtpText(r)}</td>
      <td class="mono small">${r.rtp_exact || ""}</td></tr>`)}</tbody></table>
    ${lang() === "en" && rtp[0] && rtp[0].note ? html`<p class="muted small">${rtp[0].note}</p>` : null}`;
}

/** A bet's return to player as shown: "97.5000%", or "—" when the bet has no figure (`rtp` null: Tien
 * Gow's players play each other; a missing value is never shown as 0 %). @param {{ rtp?: any, rtp_percent?: any }} r */
export function rtpText(r) {
  if (r.rtp_percent) return `${r.rtp_percent}%`;
  if (r.rtp === null || r.rtp === undefined || r.rtp === "" || !Number.isFinite(Number(r.rtp))) return "—";
  return `${(Number(r.rtp) * 100).toFixed(4)}%`;
}

/** A strategy's name ("optimal", "bot: sensible", "no swap") in the UI language; an unknown one as written. @param {string} s */
export function strategyText(s) {
  const key = `strategy_${String(s).toLowerCase().replace(/[^a-z]+/g, "_").replace(/^_|_$/g, "")}`;
  return has(key) ? t(key) : String(s);
}

/** The buy-in range of an offer. @param {any} offer */
export function buyInText(offer) {
  if (!offer || offer.min_buy_in === null || offer.min_buy_in === undefined) return "";
  return t("buy_in_range", { min: money(offer.min_buy_in), max: offer.max_buy_in === null || offer.max_buy_in === undefined ? "∞" : money(offer.max_buy_in) });
}
