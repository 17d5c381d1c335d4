// @ts-check
// A finished round told step by step from the view I had at its end (my own cards included):
// what was dealt, what was played, how it settled. Built from the view alone, so it shows
// nothing the view did not.
import { html } from "../ui/html.js";
import { t, named } from "../i18n/index.js";
import { money } from "../ui/format.js";
import { CardRow } from "../ui/card.js";
import { Tile } from "../ui/tile.js";
import { renderer } from "./index.js";
import { handLabel, spotName } from "./pokdeng.js";
import { category } from "./holdem.js";
import { Net } from "./common.js";

/** @typedef {{ title: string, body: any }} Step */

/** @param {string} game @param {any} v @param {string | null} seat @returns {Step[]} */
export function recallSteps(game, v, seat) {
  const R = renderer(game);
  const end = { title: t("step_result"), body: R.Summary ? html`<${R.Summary} view=${v} seat=${seat} />` : null };
  if (!v) return [end];
  if (game === "pokdeng") {
    const bets = Object.entries((v.me && v.me.bets) || {});
    return [
      { title: t("step_bets"), body: bets.length ? bets.map(([spot, a]) => html`<span key=${spot} class="my-bet">${spotName(spot)} ${money(Number(a))} </span>`) : t("no_bets") },
      { title: t("step_deal"), body: v.cards ? html`<div class="row wrap">${Object.entries(v.cards).map(([k, cs]) => html`<span key=${k} class="hand-line">${k === "B" ? t("dealer") : k}: <${CardRow} codes=${cs} size="tiny" /> <i class="muted">${handLabel(v.hands && v.hands[k])}</i></span>`)}</div>` : null },
      end,
    ];
  }
  if (game === "holdem-bonus") {
    const mine = (v.boxes || []).filter((/** @type {any} */ b) => v.me && (v.me.boxes || []).includes(b.box));
    const board = v.board || [];
    const hole = html`${mine.map((/** @type {any} */ b) => html`<span key=${b.box} class="hand-line mine">${t("your_box", { box: b.box })}: <${CardRow} codes=${b.cards} size="tiny" /></span>`)}`;
    return [
      { title: t("phase_preflop"), body: hole },
      { title: t("phase_flop"), body: html`${hole} <span class="hand-line">${t("board")}: <${CardRow} codes=${board.slice(0, 3)} size="tiny" /></span>` },
      { title: t("phase_turn"), body: html`${hole} <span class="hand-line">${t("board")}: <${CardRow} codes=${board.slice(0, 4)} size="tiny" /></span>` },
      { title: t("phase_river"), body: html`${hole} <span class="hand-line">${t("board")}: <${CardRow} codes=${board} size="tiny" /></span>` },
      { title: t("step_showdown"), body: html`<span class="hand-line">${t("dealer")}: <${CardRow} codes=${v.dealer && v.dealer.cards} size="tiny" /> ${v.dealer && v.dealer.hand ? category(v.dealer.hand.category) : ""}</span>
        ${mine.map((/** @type {any} */ b) => html`<span key=${b.box} class="hand-line">${b.box}: ${b.hand ? category(b.hand.category) : ""} ${b.outcome ? t(b.outcome) : ""} <${Net} n=${b.nets ? Object.values(b.nets).reduce((x, y) => Number(x) + Number(y), 0) : null} /></span>`)}` },
      end,
    ];
  }
  if (game === "tiengow") {
    const tricks = v.tricks || [];
    return [
      ...tricks.map((/** @type {any} */ tr) => ({
        title: t("tg_trick_won", { n: tr.number, seat: tr.winner, dong: tr.dong }),
        body: html`<div class="row wrap">${tr.entries.map((/** @type {any} */ e) => html`<span key=${e.seat} class=${e.seat === seat ? "hand-line mine" : "hand-line"}>${e.seat}${e.seat === seat ? ` (${t("you")})` : ""}:
          ${e.tiles ? html`<span class="tile-row tiny">${e.tiles.map((/** @type {any} */ x) => html`<${Tile} key=${x.id} tile=${x} size="tiny" />`)}</span>` : t("discard_n", { n: e.count })}
          ${e.play ? html`<i class="muted">${named({ zh: e.play.zh || e.play.name, en: e.play.en || e.play.name_en })}</i>` : null}</span>`)}</div>`,
      })),
      end,
    ];
  }
  if (game === "paigow" || game === "niuniu") {
    const me = (v.seats || []).find((/** @type {any} */ s) => s.id === seat);
    const cards = game === "paigow" ? (me && me.tiles ? html`<span class="tile-row tiny">${me.tiles.map((/** @type {any} */ x, /** @type {number} */ i) => html`<${Tile} key=${i} tile=${x} size="tiny" />`)}</span>` : null)
      : html`<${CardRow} codes=${(me && me.cards) || (v.me && v.me.cards)} size="tiny" />`;
    return [
      { title: t("step_banker"), body: html`${t("banker")}: ${v.banker || "–"} ×${v.banker_multiple || 1}${v.dice ? ` · ${t("dice")} ${v.dice.join(" + ")}` : ""}` },
      { title: t("step_your_hand"), body: html`<span class="hand-line mine">${cards} ${me && me.hand ? named(me.hand) : ""}</span>` },
      end,
    ];
  }
  return [end];
}
