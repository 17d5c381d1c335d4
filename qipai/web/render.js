// Small DOM helpers and the drawing of cards, tiles and chips (pure CSS, no images).
"use strict";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "style") node.setAttribute("style", v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function money(n) {
  if (n === null || n === undefined) return "–";
  return Number(n).toLocaleString("en-US");
}

function signed(n) {
  if (n === null || n === undefined) return "–";
  return (n > 0 ? "+" : n < 0 ? "−" : "±") + money(Math.abs(n));
}

const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RANKS = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };

// A playing card from "As", "Td", "7h"; null draws a face-down card.
function cardEl(code, extra) {
  if (!code) return el("div", { class: "card back " + (extra || ""), "aria-label": "face-down card" });
  const rank = code.slice(0, -1);
  const suit = code.slice(-1).toLowerCase();
  const shown = RANKS[rank] || rank;
  const red = suit === "h" || suit === "d";
  return el(
    "div",
    { class: `card face ${red ? "red" : "black"} ${extra || ""}`, "data-card": code, "aria-label": code },
    el("span", { class: "corner tl" }, el("b", { text: shown }), el("i", { text: SUITS[suit] || "?" })),
    el("span", { class: "pip", text: SUITS[suit] || "?" }),
    el("span", { class: "corner br" }, el("b", { text: shown }), el("i", { text: SUITS[suit] || "?" })),
  );
}

function cardRow(codes, count, extra) {
  const row = el("div", { class: "card-row" });
  if (codes && codes.length) codes.forEach((c) => row.append(cardEl(c, extra)));
  else for (let i = 0; i < (count || 0); i++) row.append(cardEl(null, extra));
  return row;
}

// Pip positions on a 3×3 grid (1..9, row-major) for each count on a tile half.
const PIPS = { 0: [], 1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };

function tileHalf(n) {
  const half = el("div", { class: "half" });
  for (let i = 1; i <= 9; i++) {
    const on = PIPS[n] && PIPS[n].includes(i);
    const red = n === 1 || n === 4 || (n === 6 && i <= 3 && false);
    half.append(el("span", { class: on ? (red ? "dot red" : "dot") : "dot off" }));
  }
  return half;
}

// A Chinese domino from {"pips": "6-6", "zh": "天"} or "6-6"; null draws a face-down tile.
function tileEl(tile, extra) {
  if (!tile) return el("div", { class: "tile back " + (extra || ""), "aria-label": "face-down tile" });
  const pips = typeof tile === "string" ? tile : tile.pips || tile.tile;
  const name = typeof tile === "string" ? "" : tile.zh || tile.name || "";
  const [a, b] = String(pips).split("-").map(Number);
  return el(
    "div",
    // the face keeps the tile's Chinese name (it is the tile's name); English goes in the tooltip
    { class: "tile face " + (extra || ""), "data-tile": pips, title: `${(LANG === "en" && tile && (tile.en || tile.name_en)) || name} ${pips}` },
    tileHalf(Math.min(a, b)),
    el("div", { class: "bar" }),
    tileHalf(Math.max(a, b)),
    name ? el("span", { class: "tile-name", text: name }) : null,
  );
}

// A chip's face has room for about four characters: 2,500 is written 2.5K (the exact amount is
// in the title and in the totals beside it).
function chipText(n) {
  if (n >= 1e6 && n % 1e4 === 0) return `${n / 1e6}M`;
  if (n >= 1000 && n % 100 === 0) return `${n / 1000}K`;
  return money(n);
}

// A die face drawn with the same 3×3 pip grid as the tiles (no dice glyphs: fonts lack them).
function dieEl(n) {
  const face = el("span", { class: "die", "aria-label": String(n) });
  for (let i = 1; i <= 9; i++) face.append(el("i", { class: PIPS[n] && PIPS[n].includes(i) ? (n === 1 || n === 4 ? "red" : "") : "off" }));
  return face;
}

function chipEl(amount, cls) {
  return el("span", { class: "chip " + (cls || ""), title: money(amount), text: chipText(amount) });
}

function badge(text, cls) {
  return el("span", { class: "badge " + (cls || ""), text });
}

function toast(text, bad) {
  const box = document.getElementById("toast");
  box.textContent = text;
  box.className = "toast" + (bad ? " bad" : "");
  box.hidden = false;
  clearTimeout(toast._t);
  toast._t = setTimeout(() => { box.hidden = true; }, 3500);
}

async function sha256hex(hex) {
  const bytes = new Uint8Array(hex.match(/../g).map((h) => parseInt(h, 16)));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest)).map((b) => b.toString(16).padStart(2, "0")).join("");
}
