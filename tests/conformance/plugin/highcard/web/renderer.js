// High card's table view, served from its folder at /games/highcard/renderer.js: each seat's
// ante and, once shown, its card; my own card; the winner. The room's shared modules are imported
// by their URL (the server serves qipai/web at /).
import { html } from "/ui/html.js";
import { t } from "/i18n/index.js";
import { Card } from "/ui/card.js";
import { generic } from "/games/generic.js";

/** @param {{ st: any }} props */
function Center({ st }) {
  const view = st.round;
  return html`<div class="highcard">
    ${Object.entries(view.antes || {}).map(([seat, ante]) => html`<div key=${seat} data-seat=${seat}>
      ${seat}: ${t("hc_ante")} ${ante} ${view.cards && view.cards[seat] ? html`<${Card} card=${view.cards[seat]} />` : null}
    </div>`)}
    ${view.winner ? html`<p data-winner=${view.winner}>${t("hc_winner")}: ${view.winner}</p>` : null}
  </div>`;
}

/** @param {{ st: any }} props */
function Mine({ st }) {
  const me = st.round.me;
  return me && me.card ? html`<${Card} card=${me.card} />` : null;
}

export const renderer = { ...generic, Center, Mine, Art: () => html`<${Card} card="As" />` };
