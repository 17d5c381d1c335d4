// @ts-check
// Any other game (the test games): its phase, its legal actions as buttons.
import { html } from "../ui/html.js";
import { t, has } from "../i18n/index.js";
import { Badge, ChoiceButtons, phaseLabel } from "./common.js";

/** @param {{ st: any }} props */
function Center({ st }) {
  return html`<div class="generic"><${Badge} text=${phaseLabel(st.round.phase)} /></div>`;
}

/** @param {{ st: any, ctx: import("./common.js").Ctx }} props */
function Actions({ st, ctx }) {
  return html`<div class="action-bar">${(st.legal || []).map((/** @type {any} */ spec) => spec.choices
    ? html`<${ChoiceButtons} key=${spec.type} spec=${spec} field=${spec.field || "multiple"} label=${has(spec.type) ? t(spec.type) : spec.type} ctx=${ctx} />`
    : html`<button type="button" key=${spec.type} class="btn action" data-action=${spec.type} disabled=${ctx.busy}
        onClick=${() => ctx.act({ type: spec.type, ...(spec.min !== undefined ? { amount: spec.min } : {}) })}>${has(spec.type) ? t(spec.type) : spec.type}</button>`)}</div>`;
}

export const generic = { Center, Actions };
