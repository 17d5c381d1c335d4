// @ts-check
// The showdown, staged as a card room does it. When a round I watched ends, its hands are not all
// turned over in one go: the banker's (dealer's) hand first, then each hand against it in seat
// order, and the result after them — the banner, my net and the stacks, then the results panel's
// new row. Each stage is a small change drawn on a frame of its own, so no frame has to create
// the whole showdown at once ("rendering a state takes ≤ 4 ms").
//
// Nothing is held back for long: the whole showdown lasts at most SHOWDOWN_MS (a stage that comes
// late ends it at once, and a hidden page gets no staging), actions are never delayed (the
// table's buttons and the next round do not wait for it), a table drawn for the first time on a
// finished round (a reload, a spectator arriving) shows everything at once, and with
// `prefers-reduced-motion: reduce` everything is shown on the first frame.
import { Component, createContext, h } from "../vendor/preact.module.js";
import { useContext, useRef } from "../vendor/hooks.module.js";

/** The longest a showdown takes, first stage to result (ms): long enough to feel each hand turn
 * (a card room's pace), short enough to end well inside the pause between rounds (5 s by
 * default); a player may skip it (`useSkip`). */
export const SHOWDOWN_MS = 3200;
/** The longest pause between two stages (ms): short showdowns are not stretched. */
export const STEP_MS = 650;

/**
 * When the next stage is drawn: after a timer. The benchmark and the unit tests replace `after`
 * to draw each stage when they choose (and measure each one as a frame of its own). A showdown
 * is not staged with reduced motion (`reduced`) nor in a hidden page (`hidden`: the browser slows
 * its timers to one a second); `now` is the clock a late stage is judged by.
 * @type {{ after: (ms: number, fn: () => void) => () => void, reduced: () => boolean,
 *          hidden: () => boolean, now: () => number }}
 */
export const pace = {
  after(ms, fn) {
    const id = setTimeout(fn, ms);
    return () => clearTimeout(id);
  },
  reduced() {
    return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
  },
  hidden() {
    return typeof document !== "undefined" && document.visibilityState === "hidden";
  },
  now() {
    return performance.now();
  },
};

/**
 * The pause between stages of a showdown of `stages` stages that must end within `total` ms
 * (the table's pause before its next round leaves room for the result to be seen).
 * @param {number} stages @param {number} [total]
 */
export function stepMs(stages, total = SHOWDOWN_MS) {
  return Math.min(STEP_MS, Math.floor(Math.min(SHOWDOWN_MS, total) / Math.max(1, stages)));
}

/**
 * A showdown in progress: `before`, the round's view as it was drawn before it ended (a hand not
 * yet turned is drawn from it); `order`, the hands in the order they are turned; `shown`, how
 * many stages are drawn (hand i is turned once shown > i; the result is on the table once
 * shown > order.length, and in the results panel once shown > order.length + 1).
 * @typedef {{ before: any, order: string[], shown: number }} Stage
 */

/** @type {Stage} */
const ALL = { before: null, order: [], shown: Infinity };
const Ctx = createContext(ALL);
// how far the result is shown (0: not yet; 1: on the table — the banner, my net, the stacks;
// 2: recorded in the results panel too, a stage later): a context of its own, so that the pieces
// that wait only for the result are not redrawn at every hand's stage
const Done = createContext(2);
// ends the showdown now (null when none is on): the player's "show all"
const Skip = createContext(/** @type {(() => void) | null} */ (null));

/** The function that shows the whole showdown at once, or null when none is on. @returns {(() => void) | null} */
export function useSkip() {
  return /** @type {(() => void) | null} */ (useContext(Skip));
}

/**
 * What a piece of the table may show now: whether hand `id` is turned, whether the result is
 * shown (`done`), and the view before the round ended.
 * @returns {{ turned: (id: string) => boolean, done: boolean, before: any }}
 */
export function useShowdown() {
  const s = /** @type {Stage} */ (useContext(Ctx));
  return {
    turned: (id) => {
      const i = s.order.indexOf(id);
      return i < 0 || i < s.shown;
    },
    done: s.shown > s.order.length,  // (useDone() when nothing else is needed)
    before: s.before,
  };
}

/** Whether the showdown's result is shown on the table (true when there is no showdown). @returns {boolean} */
export function useDone() {
  return /** @type {number} */ (useContext(Done)) >= 1;
}

/** Whether the showdown's result is in the results panel too (its last stage). @returns {boolean} */
export function useRecorded() {
  return /** @type {number} */ (useContext(Done)) >= 2;
}

/**
 * A value that the showdown must not give away before its result (a stack after the round's
 * settlement): while the showdown is on, the value drawn before it began; then the current one.
 * @template T @param {T} value @returns {T}
 */
export function useHeld(value) {
  const done = useDone();
  const held = useRef(value);
  if (done) held.current = value;
  return held.current;
}

/**
 * Stages the showdown of round `id` (null: no showdown, everything shown) for its children.
 * The children are one component element, which a stage does not redraw: only the pieces that
 * read `useShowdown()` are.
 * @extends {Component<{ id: string | null, order: string[], before: any, total?: number, children: any }>}
 */
export class Showdown extends Component {
  /** @param {{ id: string | null, order: string[], before: any, children: any }} props */
  constructor(props) {
    super(props);
    // a table first drawn on a finished round shows it whole
    /** @type {Stage & { id: string | null, started: number, total: number }} */
    this.at = { id: props.id, before: null, order: [], shown: Infinity, started: 0, total: 0 };
    /** @type {(() => void) | null} */
    this.cancel = null;
  }

  /** @param {{ id: string | null, order: string[], before: any, total?: number, children: any }} props */
  render({ id, order, before, total, children }) {
    if (id !== this.at.id) {
      this.stop();
      this.at = id === null || pace.reduced() || pace.hidden() ? { id, before: null, order: [], shown: Infinity, started: 0, total: 0 }
        : { id, before, order, shown: 0, started: pace.now(), total: Math.min(SHOWDOWN_MS, total ?? SHOWDOWN_MS) };
    }
    const at = this.at;
    const result = Math.max(0, Math.min(2, at.shown - at.order.length));
    const skip = result < 1 ? this.skip : null;
    return h(Ctx.Provider, { value: at }, h(Done.Provider, { value: result }, h(Skip.Provider, { value: skip }, children)));
  }

  componentDidMount() {
    this.next();
  }

  componentDidUpdate() {
    this.next();
  }

  componentWillUnmount() {
    this.stop();
  }

  /** Arm the next stage, if one is due and none is armed. */
  next() {
    const at = this.at;
    if (this.cancel || at.shown >= at.order.length + 2) return;
    this.cancel = pace.after(stepMs(at.order.length + 2, at.total), () => {
      this.cancel = null;
      if (this.at !== at) return;
      // a stage that comes late (the page was hidden, its timers slowed) ends the showdown at once:
      // nothing is held back much longer than SHOWDOWN_MS
      const late = pace.now() - at.started > at.total + STEP_MS;
      this.at = { ...at, shown: late ? Infinity : at.shown + 1 };  // a new value: the readers are redrawn
      this.setState({});
    });
  }

  stop() {
    if (this.cancel) this.cancel();
    this.cancel = null;
  }

  /** Show everything now (the player skipped the reveal). */
  skip = () => {
    this.stop();
    this.at = { ...this.at, shown: Infinity };
    this.setState({});
  };
}
