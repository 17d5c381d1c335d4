// @ts-check
import { html, cx } from "./html.js";
import { chipText, money } from "./format.js";

/**
 * A chip with its amount (short on the face, exact in the title).
 * @param {{ amount: number, cls?: string, onClick?: () => void, selected?: boolean, disabled?: boolean }} props
 */
export function Chip({ amount, cls, onClick, selected, disabled }) {
  if (onClick) {
    return html`<button type="button" class=${cx("chip", "big", cls, selected && "selected")} data-chip=${amount}
      title=${money(amount)} aria-pressed=${selected ? "true" : "false"} disabled=${disabled} onClick=${onClick}>${chipText(amount)}</button>`;
  }
  return html`<span class=${cx("chip", cls)} title=${money(amount)}>${chipText(amount)}</span>`;
}
