// @ts-check
// A playing card drawn in CSS from its code ("As", "Td", "7h"); null draws it face down.
import { html, cx } from "./html.js";
import { t } from "../i18n/index.js";
import { pure } from "./memo.js";

const SUITS = /** @type {Record<string, string>} */ ({ c: "♣", d: "♦", h: "♥", s: "♠" });
const RANKS = /** @type {Record<string, string>} */ ({ T: "10" });

/** The card's name for screen readers and tooltips, in the UI language. @param {string} code */
export function cardName(code) {
  const rank = code.slice(0, -1);
  const suit = code.slice(-1).toLowerCase();
  return t("card_name", { rank: t(`rank_${rank}`), suit: t(`suit_${suit}`) });
}

/**
 * @param {{ code?: string | null, size?: string, cls?: string, onClick?: (() => void) | null,
 *           delay?: number, title?: string }} props
 */
function drawCard({ code, size, cls, onClick, delay, title }) {
  const style = delay ? `--deal-delay: ${delay}ms` : undefined;
  if (!code) {
    return html`<div class=${cx("card", "back", size, cls)} style=${style} aria-label=${t("card_down")}></div>`;
  }
  const rank = code.slice(0, -1);
  const suit = code.slice(-1).toLowerCase();
  const shown = RANKS[rank] || rank;
  const red = suit === "h" || suit === "d";
  const name = cardName(code);
  const pip = SUITS[suit] || "?";
  // three elements: the two corners (the rank, the suit under it drawn by CSS from data-s) and
  // the pip as the card's own text — a table draws dozens of cards, and each element costs style
  // and layout on every state that deals or reveals them
  return html`<div class=${cx("card", "face", red ? "red" : "black", size, cls, onClick && "clickable")}
      data-card=${code} role=${onClick ? "button" : "img"} aria-label=${name} title=${title || name}
      style=${style} onClick=${onClick || undefined}><span class="corner tl" data-s=${pip}>${shown}</span>${pip}<span class="corner br" data-s=${pip}>${shown}</span></div>`;
}

/** A card, redrawn only when one of its props changed (a table draws dozens on every state). */
export const Card = pure("Card", drawCard);

/**
 * A row of cards; without codes, `count` face-down cards. `squeeze`: the faces are revealed by
 * a squeeze (peeled open from the near edge) rather than a flip.
 * @param {{ codes?: (string | null)[] | null, count?: number, size?: string, cls?: string, deal?: boolean, squeeze?: boolean }} props
 */
export function CardRow({ codes, count, size, cls, deal, squeeze }) {
  const list = codes && codes.length ? codes : Array.from({ length: count || 0 }, () => null);
  return html`<div class=${cx("card-row", cls)}>
    ${list.map((c, i) => html`<${Card} key=${i} code=${c} size=${size} cls=${deal ? (squeeze ? "deal squeeze" : "deal") : ""} delay=${deal ? i * (squeeze ? 160 : 90) : 0} />`)}
  </div>`;
}
