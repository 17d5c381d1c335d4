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

/**
 * A leaf component that redraws only when one of its props changed (shallow, by identity). A
 * function prop (a click handler, new on every drawing of the parent) counts as the same while it
 * stays a function: the drawing gets a stable handler that calls the newest one.
 * @template P
 * @param {string} name
 * @param {(props: P) => any} draw
 * @returns {any}
 */
export function pure(name, draw) {
  class Pure extends Component {
    /** @param {any} next */
    shouldComponentUpdate(next) {
      const prev = /** @type {any} */ (this.props);
      if (lang() !== this.lang) return true;
      for (const k in next) {
        const a = next[k];
        const b = prev[k];
        if (a !== b && !(typeof a === "function" && typeof b === "function")) return true;
      }
      for (const k in prev) if (!(k in next)) return true;
      return false;
    }

    /** @param {any} props */
    render(props) {
      this.lang = lang();
      /** @type {Record<string, (...args: any[]) => any>} */
      const calls = this.calls || (this.calls = {});
      /** @type {any} */
      const p = {};
      for (const k in props) {
        if (typeof props[k] === "function") {
          p[k] = calls[k] || (calls[k] = (/** @type {any[]} */ ...args) => /** @type {any} */ (this.props)[k](...args));
        } else p[k] = props[k];
      }
      draws.set(name, (draws.get(name) || 0) + 1);
      return draw(p);
    }
  }
  /** @type {any} */ (Pure).displayName = name;
  return Pure;
}
