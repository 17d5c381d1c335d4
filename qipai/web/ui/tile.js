// @ts-check
// A Chinese domino (骨牌) drawn in CSS from its pips ("6-6"), named in the UI language from the
// server's own names ({zh, en} or {name, name_en}); null draws it face down.
import { html, cx } from "./html.js";
import { lang, t } from "../i18n/index.js";
import { pure } from "./memo.js";

/** Pip positions on a 3×3 grid (1..9, row-major) for each count on a tile half. */
const PIPS = /** @type {Record<number, number[]>} */ ({
  0: [], 1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9],
});

/**
 * One half of a tile: only its pips, each placed in its cell of the half's 3×3 grid by its
 * class (p1..p9, style.css), not nine cells with the empty ones hidden — a tile is drawn with a
 * fifth of the elements, and a table of tiles lays out that much faster.
 * @param {{ n: number }} props
 */
function Half({ n }) {
  const red = n === 1 || n === 4;
  return html`<div class="half">${(PIPS[n] || []).map((i) => html`<span key=${i} class=${red ? `dot red p${i}` : `dot p${i}`}></span>`)}</div>`;
}

/**
 * @typedef {{ pips?: string, tile?: string, zh?: string, en?: string, name?: string, name_en?: string } | string} TileLike
 */

/** The tile's name in the UI language ("" if the server gave none). @param {TileLike | null | undefined} tile */
export function tileName(tile) {
  if (!tile || typeof tile === "string") return "";
  const zh = tile.zh || tile.name || "";
  const en = tile.en || tile.name_en || "";
  return lang() === "zh" ? zh || en : en || zh;
}

/** @param {TileLike} tile */
export function tilePips(tile) {
  return typeof tile === "string" ? tile : String(tile.pips || tile.tile || "");
}

/**
 * @param {{ tile?: TileLike | null, size?: string, cls?: string, onClick?: (() => void) | null,
 *           showName?: boolean, disabled?: boolean, id?: number | string }} props
 */
function drawTile({ tile, size, cls, onClick, showName = true, disabled, id }) {
  if (!tile) return html`<div class=${cx("tile", "back", size, cls)} aria-label=${t("tile_down")}></div>`;
  const pips = tilePips(tile);
  const [a, b] = pips.split("-").map(Number);
  const name = tileName(tile);
  const label = name ? `${name} ${pips}` : pips;
  return html`<div class=${cx("tile", "face", size, cls, onClick && "clickable", disabled && "disabled")}
      data-tile=${pips} data-id=${id} title=${label} aria-label=${label} role=${onClick ? "button" : "img"}
      aria-disabled=${disabled ? "true" : undefined} onClick=${onClick || undefined}>
    <${Half} n=${Math.min(a, b)} /><div class="bar"></div><${Half} n=${Math.max(a, b)} />
    ${showName && name ? html`<span class="tile-name">${name}</span>` : null}
  </div>`;
}

/** A tile, redrawn only when one of its props changed. */
export const Tile = pure("Tile", drawTile);

/** @param {{ n: number }} props */
export function Die({ n }) {
  return html`<span class="die" role="img" aria-label=${String(n)}>${(PIPS[n] || []).map((i) =>
    html`<i key=${i} class=${n === 1 || n === 4 ? `red p${i}` : `p${i}`}></i>`)}</span>`;
}
