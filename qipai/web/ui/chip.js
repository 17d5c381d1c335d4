// @ts-check
import { html, cx } from "./html.js";
import { chipText, money } from "./format.js";
import { pure } from "./memo.js";

/**
 * A chip with its amount (short on the face, exact in the title).
 * @param {{ amount: number, cls?: string, onClick?: () => void, selected?: boolean, disabled?: boolean }} props
 */
function drawChip({ amount, cls, onClick, selected, disabled }) {
  if (onClick) {
    return html`<button type="button" class=${cx("chip", "big", cls, selected && "selected")} data-chip=${amount}
      title=${money(amount)} aria-pressed=${selected ? "true" : "false"} disabled=${disabled} onClick=${onClick}>${chipText(amount)}</button>`;
  }
  return html`<span class=${cx("chip", cls)} title=${money(amount)}>${chipText(amount)}</span>`;
}

/** A chip, redrawn only when one of its props changed. */
export const Chip = pure("Chip", drawChip);
