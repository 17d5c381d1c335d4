// @ts-check
// The client's one store: a plain object replaced on every change, and the components that read
// it re-render (Preact diffs the DOM; nothing is rebuilt by hand).
import { useEffect, useState } from "./vendor/hooks.module.js";

/**
 * @template T
 * @typedef {{ get(): T, set(patch: Partial<T> | ((s: T) => Partial<T>)): void,
 *             subscribe(fn: (s: T) => void): () => void }} Store
 */

/**
 * @template {object} T
 * @param {T} initial
 * @returns {Store<T>}
 */
export function createStore(initial) {
  let state = initial;
  /** @type {Set<(s: T) => void>} */
  const subs = new Set();
  return {
    get: () => state,
    set(patch) {
      const p = typeof patch === "function" ? patch(state) : patch;
      state = /** @type {T} */ ({ ...(/** @type {object} */ (state)), ...p });
      for (const fn of [...subs]) fn(state);
    },
    subscribe(fn) {
      subs.add(fn);
      return () => subs.delete(fn);
    },
  };
}

/**
 * The store's state inside a component (re-rendered on every change).
 * @template {object} T
 * @param {Store<T>} store
 * @returns {T}
 */
export function useStore(store) {
  const [, bump] = useState(0);
  useEffect(() => store.subscribe(() => bump((n) => n + 1)), [store]);
  return store.get();
}
