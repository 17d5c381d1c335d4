// @ts-check
// Tien Gow 打天九 (docs/rules/tiengow.md#kinds-of-play): four players, eight tiles each, tricks of the nine kinds of
// play, 栋 and the scoring. Play runs counter-clockwise E→S→W→N and is drawn so: the seat that
// plays after you sits to your right (docs/rules/tiengow.md, the deal). The view is round.py's `view(seat)`.
import { html, cx } from "../ui/html.js";
import { t, lang, has } from "../i18n/index.js";
import { money } from "../ui/format.js";
import { Tile } from "../ui/tile.js";
import { Badge, Net, legal, seatName } from "./common.js";
import { useDone } from "../ui/showdown.js";

/**
 * @typedef {import("../protocol.js").TienGowView} TienGowViewG the view as docs/schema/tiengow.view.json types it
 * @typedef {import("../protocol.js").LiveState<TienGowViewG>} Live a state with a round of this game
 */

// The hand is shown sorted as a player holds it, in the order the server gives each tile
// (`order`: civil high to low, then military; docs/rules/tiengow.md), tiles of one name side by
// side. The client ranks no tile itself.

/** @typedef {import("../types/tiengow.view").TileInfo} TileInfo a tile as docs/schema/tiengow.view.json types it */

/** The viewer's own tiles (`me.hand`; older views had a top-level `hand`). @param {any} v @returns {any[] | null} */
function myHand(v) {
  return v.me ? v.me.hand : v.hand || null;
}

/** My hand, sorted. @param {TileInfo[]} hand */
export function sortHand(hand) {
  return [...hand].sort((a, b) => a.order - b.order || a.id - b.id);
}

/** The name of a play (天九, civil pair …) in the UI language. @param {any} play */
function playName(play) {
  if (!play) return "";
  const kind = has(`tg_kind_${play.kind}`) ? t(`tg_kind_${play.kind}`) : play.kind;
  const [name, k] = lang() === "zh" ? [play.zh || play.name || "", play.kind_zh || kind] : [play.en || play.name_en || play.name || "", kind];
  return name === k || !name ? k : `${name} · ${k}`;
}

/** @param {number[]} a @param {number[]} b */
const sameSet = (a, b) => a.length === b.length && [...a].sort((x, y) => x - y).every((x, i) => x === [...b].sort((p, q) => p - q)[i]);

/**
 * What my selection can do now, from the legal actions only: {play: bool, discard: bool, why}.
 * @param {any} st @param {number[]} picked
 */
export function selectionStatus(st, picked) {
  const play = legal(st, "play");
  const discard = legal(st, "discard");
  const plays = play ? play.plays || [] : [];
  const canPlay = plays.some((/** @type {number[]} */ p) => sameSet(p, picked));
  const size = discard ? discard.count : null;
  const canDiscard = !!discard && picked.length === size
    && (!discard.choices || discard.choices.some((/** @type {number[]} */ c) => sameSet(c, picked)) || discard.choices.length === 0);
  let why = null;
  if (picked.length && !canPlay && !canDiscard) {
    if (size && picked.length !== size) why = t("tg_why_size", { n: size });
    else if (play && play.lead) why = t("tg_why_lead");
    else if (play) why = t("tg_why_beat");
    else why = t("tg_why_discard", { n: size || 0 });
  }
  return { canPlay, canDiscard, why };
}

/** @param {{ st: any, seat: string }} props */
function SeatExtra({ st, seat }) {
  const done = useDone();  // the nets come with the result, after the last trick (ui/showdown.js)
  const v = st.round && st.round.view;
  if (!v || !v.hand_counts) return null;
  return html`<div class="seat-info">
    ${v.banker === seat ? html`<${Badge} text=${`${t("banker")} · ${t("streak")} ${v.banker_streak}`} cls="banker" />` : null}
    <${Badge} text=${`${v.dong[seat] || 0} ${t("dong")}`} cls="dong" />
    <span class="tile-backs" aria-label=${t("tiles_in_hand", { n: v.hand_counts[seat] || 0 })}>${Array.from({ length: v.hand_counts[seat] || 0 }, (_, i) => html`<i key=${i} class="tb"></i>`)}</span>
    ${done && v.result ? html`<${Net} n=${v.result.net[seat]} />` : null}
  </div>`;
}

/** @param {{ trick: any, st: any, cls?: string }} props */
function Trick({ trick, st, cls }) {
  return html`<div class=${cx("tg-trick", cls)} data-trick=${trick.number}>${(trick.entries || []).map((/** @type {any} */ e) => html`<div key=${e.seat}
      class=${cx("tg-play", trick.best === e.seat && "best", e.action)} data-seat=${e.seat}>
    <div class="label">${seatName(st, e.seat)}</div>
    <div class="tile-row">${e.action === "discard"
      ? e.tiles ? e.tiles.map((/** @type {any} */ x) => html`<${Tile} key=${x.id} tile=${x} size="small" cls="facedown-own" />`)
        : Array.from({ length: e.count }, (_, i) => html`<${Tile} key=${i} size="small" />`)
      : e.tiles.map((/** @type {any} */ x) => html`<${Tile} key=${x.id} tile=${x} size="small" cls="deal" />`)}</div>
    ${e.play ? html`<div class="hand-name">${playName(e.play)}</div>` : html`<div class="muted small">${t("discard")}</div>`}
  </div>`)}</div>`;
}

/** @param {{ st: Live }} props */
function Center({ st }) {
  // the trick on the table keeps its place (and its elements, keyed by its number) when its last
  // play completes it: only the new play and the winner's line are drawn
  const v = st.round.view;
  const done = useDone();
  const lastDone = v.tricks && v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
  const showing = v.trick && v.trick.entries && v.trick.entries.length ? v.trick : null;
  const trick = showing || lastDone;
  return html`<div class="tg-table">
    <div class="pg-meta">
      <${Badge} text=${`${t("banker")}: ${seatName(st, v.banker)} · ${t("streak")} ${v.banker_streak} · ×${v.multiplier}`} cls="banker" />
      ${v.trick ? html`<${Badge} text=${`${t("trick")} ${v.trick.number}${v.last_trick ? ` · ${t("last_trick")}` : ""}`} />` : null}
      ${v.turn ? html`<${Badge} text=${`${t("waiting_for")} ${seatName(st, v.turn)}`} cls="live" />` : null}
    </div>
    ${trick ? html`<div class="tg-last">
      ${showing ? null : html`<div class="muted small">${t("tg_trick_won", { n: trick.number, seat: seatName(st, trick.winner), dong: trick.dong ?? "" })}</div>`}
      <${Trick} key=${trick.number} trick=${trick} st=${st} cls=${showing ? undefined : "done"} /></div>` : html`<div class="tg-trick"></div>`}
    ${v.zun && v.zun.length ? html`<div class="small">${v.zun.map((/** @type {any} */ z, /** @type {number} */ i) => html`<${Badge} key=${i} text=${`${lang() === "zh" ? z.zh || z.name || t("zun") : z.en || z.name_en || t("tg_kind_supreme")} ${seatName(st, z.seat)} +${z.units}`} cls="zun" />`)}</div>` : null}
    ${done && v.result ? html`<${Breakdown} v=${v} st=${st} />` : null}
  </div>`;
}

const REASON = /** @type {Record<string, string>} */ ({ empty: "tg_reason_empty", short: "tg_reason_short", ru: "tg_reason_ru", zun: "tg_reason_zun" });

/** @param {{ v: any, st: any }} props */
function Breakdown({ v, st }) {
  const r = v.result;
  return html`<div class="tg-result">
    <h4>${t("breakdown")} — ${t("last_trick_by")} ${seatName(st, r.winner)}</h4>
    <table class="breakdown"><thead><tr><th></th><th>${t("dong")}</th><th>${t("net")}</th></tr></thead>
      <tbody>${v.seats.map((/** @type {string} */ s) => html`<tr key=${s}><td>${seatName(st, s)}</td><td>${(r.dong || v.dong)[s]}</td><td><${Net} n=${r.net[s]} /></td></tr>`)}</tbody></table>
    ${Array.isArray(r.breakdown) && r.breakdown.length ? html`<ul class="breakdown-list small">${r.breakdown.map((/** @type {any} */ b, /** @type {number} */ i) => html`<li key=${i}>
      ${seatName(st, b.from)} → ${seatName(st, b.to)}: <b>${money(b.amount)}</b>
      <span class="muted"> (${b.base_units ?? b.units} ${t("units")}${b.multiplier > 1 ? ` ×${b.multiplier}` : ""}${REASON[b.reason] ? ` · ${t(REASON[b.reason])}` : ""})</span></li>`)}</ul>` : null}
  </div>`;
}

/** @param {{ st: Live, ctx: import("./common.js").Ctx }} props */
function Mine({ st, ctx }) {
  const v = st.round.view;
  const hand = myHand(v);
  const me = v.me ? v.me.id : null;
  if (!hand || !me) return null;
  const myTurn = (st.legal || []).length > 0;
  const ids = new Set(hand.map((/** @type {any} */ x) => x.id));
  /** @type {number[]} */
  const picked = (ctx.ui.picked || []).filter((/** @type {number} */ id) => ids.has(id));
  const play = legal(st, "play");
  const playable = new Set(play ? (play.plays || []).flat() : []);
  const discardOnly = myTurn && !play;
  const toggle = (/** @type {number} */ id) => ctx.setUi({ picked: picked.includes(id) ? picked.filter((x) => x !== id) : [...picked, id] });
  return html`<div class="my-hand tg-mine">
    <div class="tile-row mine">${sortHand(hand).map((x) => html`<${Tile} key=${x.id} id=${x.id} tile=${x}
      cls=${cx(picked.includes(x.id) && "selected", myTurn && !discardOnly && (playable.has(x.id) ? "playable" : "unplayable"))}
      onClick=${myTurn ? () => toggle(x.id) : null} />`)}</div>
    <div class="small muted">${t("tg_mine", { d: v.dong[me] || 0, k: v.tricks ? v.tricks.length : 0 })}</div>
  </div>`;
}

/** @param {{ st: Live, ctx: import("./common.js").Ctx }} props */
function Actions({ st, ctx }) {
  const v = st.round.view;
  const ids = new Set((myHand(v) || []).map((/** @type {any} */ x) => x.id));
  /** @type {number[]} */
  const picked = (ctx.ui.picked || []).filter((/** @type {number} */ id) => ids.has(id));
  const size = v.trick && v.trick.size;
  const status = selectionStatus(st, picked);
  const send = (/** @type {string} */ type) => {
    ctx.setUi({ picked: [] });
    ctx.act({ type, tiles: picked });
  };
  return html`<div class="action-bar" data-size=${size || 1}>
    <span class="muted small">${size ? `${picked.length}/${size} ${t("selected")}` : `${picked.length} ${t("selected")}`}</span>
    ${legal(st, "play") ? html`<button type="button" class="btn action gold" data-action="play" disabled=${ctx.busy || !status.canPlay} onClick=${() => send("play")}>${t("play")}</button>` : null}
    ${legal(st, "discard") ? html`<button type="button" class="btn action ghost" data-action="discard" disabled=${ctx.busy || !status.canDiscard} onClick=${() => send("discard")}>${t("discard")}</button>` : null}
    ${status.why ? html`<span class="why small" role="status" data-why="">${status.why}</span>` : null}
  </div>`;
}

/** @param {{ view: any, seat?: string | null, st?: any }} props */
function Summary({ view: v, seat, st }) {
  if (!v.result) return html`<span></span>`;
  const name = (/** @type {string} */ s) => (st ? seatName(st, s) : s === seat ? `${s} (${t("you")})` : s);
  const mine = (v.tricks || []).flatMap((/** @type {any} */ tr) => tr.entries.filter((/** @type {any} */ e) => e.seat === seat && e.tiles).flatMap((/** @type {any} */ e) => e.tiles));
  return html`<div class="summary small">
    <div>${t("last_trick_by")} ${name(v.result.winner)} · ${v.seats.map((/** @type {string} */ s) => `${name(s)} ${(v.result.dong || v.dong)[s]} ${t("dong")}`).join(" · ")}</div>
    ${mine.length ? html`<div class="hand-line mine">${t("your_tiles")}: <span class="tile-row tiny">${mine.map((/** @type {any} */ x) => html`<${Tile} key=${x.id} tile=${x} size="tiny" />`)}</span></div>` : null}
    <div>${v.seats.map((/** @type {string} */ s) => html`<span key=${s} class="hand-line">${name(s)} <${Net} n=${v.result.net[s]} /> </span>`)}</div>
  </div>`;
}

export const tiengow = { Center, Mine, Actions, SeatExtra, Summary, counterclockwise: true };
