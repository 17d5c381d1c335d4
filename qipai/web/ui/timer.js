// @ts-check
// The countdown ring: counts down locally from the server's time_left (no state per tick in the
// store; the ring redraws itself every animation frame).
import { useEffect, useRef } from "../vendor/hooks.module.js";
import { html } from "./html.js";
import { t } from "../i18n/index.js";

/**
 * @param {{ until: number | null, total: number, label?: string, kind?: string }} props
 *   until: performance.now() deadline in ms; total: the whole countdown in seconds
 */
export function Timer({ until, total, kind }) {
  const text = useRef(/** @type {HTMLSpanElement | null} */ (null));
  const arc = useRef(/** @type {SVGCircleElement | null} */ (null));
  const box = useRef(/** @type {HTMLDivElement | null} */ (null));
  useEffect(() => {
    if (until === null) return undefined;
    let frame = 0;
    let shown = "";
    let dash = "";
    const tick = () => {
      const left = Math.max(0, (until - performance.now()) / 1000);
      // the page is written only when what it shows changes (the number once a second, the
      // ring by a tenth of a percent), not on every animation frame
      const secs = String(Math.ceil(left));
      if (text.current && secs !== shown) {
        shown = secs;
        text.current.textContent = secs;
        if (box.current) box.current.classList.toggle("urgent", left < 5);
      }
      const d = `${((total > 0 ? left / total : 0) * 100.5).toFixed(1)} 100.5`;
      if (arc.current && d !== dash) {
        dash = d;
        arc.current.style.strokeDasharray = d;
      }
      if (left > 0) frame = requestAnimationFrame(tick);
    };
    tick();
    return () => cancelAnimationFrame(frame);
  }, [until, total]);
  if (until === null) return null;
  return html`<div class="timer" ref=${box} data-kind=${kind} role="timer" aria-label=${t("countdown")}>
    <svg viewBox="0 0 36 36" aria-hidden="true"><circle class="bg" cx="18" cy="18" r="16"></circle>
      <circle class="arc" ref=${arc} cx="18" cy="18" r="16"></circle></svg>
    <span ref=${text}></span>
  </div>`;
}

/**
 * Seconds left as text, ticking locally ("12 s"), for the turn line and "next round in"; at zero
 * it says `done` if given (the next round is due, not frozen at "0 s").
 * @param {{ until: number | null, cls?: string, done?: string }} props
 */
export function Seconds({ until, cls, done }) {
  const ref = useRef(/** @type {HTMLSpanElement | null} */ (null));
  const unit = t("seconds");  // in the UI language: a switch rewrites the text at once
  useEffect(() => {
    if (until === null) return undefined;
    let frame = 0;
    let shown = -1;
    const tick = () => {
      const left = Math.max(0, Math.ceil((until - performance.now()) / 1000));
      if (ref.current && left !== shown) {
        shown = left;
        ref.current.textContent = left === 0 && done ? done : `${left} ${unit}`;
        ref.current.classList.toggle("urgent", left < 5);
      }
      if (left > 0) frame = requestAnimationFrame(tick);
    };
    tick();
    return () => cancelAnimationFrame(frame);
  }, [until, done, unit]);
  return html`<span class=${cls || "secs"} ref=${ref}></span>`;
}
