// @ts-check
// A line chart drawn by uPlot (vendored: qipai/web/vendor/uPlot.esm.js), redrawn when its data
// change. `x` are the x values (seconds for a time axis), each series its y values (null: gap).
import { html } from "../../ui/html.js";
import { useEffect, useRef } from "../../vendor/hooks.module.js";
import uPlot from "../../vendor/uPlot.esm.js";

/** @typedef {{ label: string, values: (number | null)[], color: string, dash?: number[] }} Series */

/** @param {{ id: string, x: number[], series: Series[], time?: boolean, height?: number, yFormat?: (v: number) => string }} props */
export function Chart({ id, x, series, time = true, height = 220, yFormat }) {
  const box = useRef(/** @type {HTMLDivElement | null} */ (null));
  useEffect(() => {
    const el = box.current;
    if (!el || !x.length) return undefined;
    const width = Math.max(320, Math.min(1100, el.clientWidth || 800));
    /** @type {any} */
    const opts = {
      width,
      height,
      // one point alone: a window around it (uPlot would otherwise stretch the axis for years)
      scales: { x: x.length === 1 ? { time, range: () => [x[0] - (time ? 86400 : 1), x[0] + (time ? 86400 : 1)] } : { time } },
      axes: [
        { stroke: "#b3a08a", grid: { stroke: "#3b2e24" } },
        { stroke: "#b3a08a", grid: { stroke: "#3b2e24" }, size: 70, values: yFormat ? (/** @type {any} */ _u, /** @type {number[]} */ ticks) => ticks.map(yFormat) : undefined },
      ],
      series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, dash: s.dash, spanGaps: true, points: { show: true, size: 6 } }))],
    };
    const plot = new uPlot(opts, /** @type {any} */ ([x, ...series.map((s) => s.values)]), el);
    return () => plot.destroy();
  }, [JSON.stringify([x, series.map((s) => [s.label, s.values])])]);
  return html`<div class="chart" id=${id} ref=${box} data-points=${x.length}></div>`;
}
