// @ts-check
// The protocol's types as the client uses them, built from the ones generated from the JSON
// Schemas (types/*.d.ts, `npm run types` from docs/schema): a state message whose round carries
// a given game's view, the views and actions of every game. The store, the socket and the game
// renderers name these in their JSDoc, so `tsc --checkJs` checks the views against the schema.
// (Types only: this module exports nothing at run time.)

/**
 * @typedef {import("./types/messages.server").MessagesServerJson} ServerMessage
 * @typedef {import("./types/messages.server").State} WireState the state message as the schema gives it (any game's view)
 * @typedef {import("./types/messages.server").RoundState} WireRound
 * @typedef {import("./types/messages.client").MessagesClientJson} ClientMessage
 *
 * @typedef {import("./types/pokdeng.view").PokDengView} PokDengView
 * @typedef {import("./types/paigow.view").PaigowView} PaigowView
 * @typedef {import("./types/niuniu.view").NiuniuView} NiuniuView
 * @typedef {import("./types/tiengow.view").TienGowView} TienGowView
 * @typedef {import("./types/holdem-bonus.view").HoldemBonusView} HoldemBonusView
 * @typedef {PokDengView | PaigowView | NiuniuView | TienGowView | HoldemBonusView} GameView
 *
 * @typedef {import("./types/pokdeng.actions").PokdengActionsJson} PokDengAction
 * @typedef {import("./types/paigow.actions").PaigowActionsJson} PaigowAction
 * @typedef {import("./types/niuniu.actions").NiuniuActionsJson} NiuniuAction
 * @typedef {import("./types/tiengow.actions").TiengowActionsJson} TienGowAction
 * @typedef {import("./types/holdem-bonus.actions").HoldemBonusActionsJson} HoldemBonusAction
 * @typedef {PokDengAction | PaigowAction | NiuniuAction | TienGowAction | HoldemBonusAction} GameAction
 */

/**
 * A finished round's money per seat (the schema leaves the result open).
 * @typedef {{ number: number, nets: Record<string, number>, [k: string]: unknown }} RoundResult
 */

/**
 * A round whose view is of the game `V`.
 * @template V
 * @typedef {Omit<WireRound, "view"> & { view: V }} RoundOf
 */

/**
 * A state message whose round (if any) carries a view of the game `V`. The table's public facts
 * are read by the table view (seats, title, status) and stay loosely typed as in the schema.
 * @template [V=GameView]
 * @typedef {Omit<WireState, "round" | "table" | "legal" | "result" | "results">
 *   & { round: RoundOf<V> | null, table: any, legal: any[], result: RoundResult | null, results: RoundResult[] }} StateOf
 */

/**
 * The state a game renderer's Center / Mine / Actions draw: one with a running (or just
 * finished) round of game `V`.
 * @template V
 * @typedef {StateOf<V> & { round: RoundOf<V> }} LiveState
 */

export {};
