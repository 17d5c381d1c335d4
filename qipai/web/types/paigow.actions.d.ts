// Generated from docs/schema/paigow.actions.json by tests/web/tools/types.mjs (npm run types). Do not edit.

export type PaigowActionsJson = Bid | Bet | Reveal;
export type Multiple = number;
export type Type = "bid";
export type Multiple1 = number;
export type Type1 = "bet";
export type Type2 = "reveal";

export interface Bid {
  multiple: Multiple;
  type?: Type;
}
export interface Bet {
  multiple: Multiple1;
  type?: Type1;
}
export interface Reveal {
  type?: Type2;
}
