// @ts-check
// Components that redraw only when what they show has changed. Every state message is a fresh
// object, so identity says nothing: each memoized component names the data it draws (`keyOf`),
// and the drawing is skipped while that data — and the UI language — are the same as last time.
// Only for components without hooks whose event handlers read nothing but their key's data.
import { Component } from "../vendor/preact.module.js";
import { lang } from "../i18n/index.js";

/** How often each memoized component drew (by name), for the unit tests and the benchmark. */
export const draws = new Map();

/**
 * @template P
 * @param {string} name the component's name (in `draws`)
 * @param {(props: P) => any} draw the component
 * @param {(props: P) => unknown} keyOf what the drawing depends on (JSON-serializable)
 * @returns {any} a component taking the same props
 */
export function memo(name, draw, keyOf) {
  const keyFor = (/** @type {P} */ props) => `${lang()}\u0000${JSON.stringify(keyOf(props))}`;
  class Memo extends Component {
    /** @param {any} next */
    shouldComponentUpdate(next) {
      const key = keyFor(next);
      if (key === this.drawn) return false;
      this.drawn = key;
      this.drawnFor = next;
      return true;
    }

    /** @param {any} props */
    render(props) {
      if (this.drawnFor !== props) {  // the first drawing (or one its own update asked for)
        this.drawn = keyFor(props);
        this.drawnFor = props;
      }
      draws.set(name, (draws.get(name) || 0) + 1);
      return draw(props);
    }
  }
  /** @type {any} */ (Memo).displayName = name;
  return Memo;
}
