// @ts-check
// htm bound to Preact's h: components are written as tagged templates, no build step.
import { h } from "../vendor/preact.module.js";
import htm from "../vendor/htm.module.js";

export const html = htm.bind(h);

/** Class names joined, falsy ones left out. @param {...(string | false | null | undefined)} names */
export function cx(...names) {
  return names.filter(Boolean).join(" ");
}
