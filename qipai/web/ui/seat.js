// @ts-check
import { html, cx } from "./html.js";
import { t } from "../i18n/index.js";
import { money } from "./format.js";
import { displayName } from "../games/common.js";
import { memo } from "./memo.js";
import { useHeld } from "./showdown.js";

/** The seat's own part (who, stack, whose turn): redrawn only when one of them changed. */
const SeatCore = memo(
  "SeatCore",
  (/** @type {{ seat: any, active: boolean, me: boolean, leaving: boolean }} */ { seat: s, active, me, leaving }) => {
    const name = displayName(s);
    const stack = useHeld(s.stack);  // the stack after the round comes with the showdown's result
    return html`<div class="avatar" aria-hidden="true">${s.occupied ? (s.bot ? t("bot_avatar") : (s.name || "?").slice(0, 1).toUpperCase()) : "+"}</div>
    <div class="seat-name" title=${name}>${me ? `${name} (${t("you")})` : name}</div>
    <div class="seat-stack">${s.occupied ? money(stack) : ""}${active ? html`<span class="seat-turn"> · ${t("acting")}</span>` : null}
      ${s.away ? html`<span class="badge away" data-away="">${t("away")}</span>` : null}
      ${leaving ? html`<span class="badge leaving">${t("leaving")}</span>` : null}</div>`;
  },
  (p) => [p.seat, p.active, p.me, p.leaving],
);

/**
 * One seat: avatar, name (a bot's in the UI language), stack, and whose turn it is; the game's
 * own details under it. Away seats say so.
 * @param {{ st: any, seat: any, extra?: any, leaving?: boolean }} props
 */
export function SeatBox({ st, seat: s, extra, leaving }) {
  const round = st.round;
  const active = !!(round && !round.finished && (round.awaiting || []).includes(s.seat));
  const me = !!(st.you && s.seat === st.you.seat);
  return html`<div class=${cx("seat", !s.occupied && "free", s.bot && "bot", active && "active", me && "me", s.away && "away")} data-seat=${s.seat}>
    <${SeatCore} seat=${s} active=${active} me=${me} leaving=${!!leaving} />
    ${extra ? html`<div class="seat-extra">${extra}</div>` : null}
  </div>`;
}
