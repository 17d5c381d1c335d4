// Generated from docs/schema/sangong.actions.json by tests/web/tools/types.mjs (npm run types). Do not edit.

export type SangongActionsJson = Bid | Bet | Show;
export type Multiple = number;
export type Type = "bid";
export type Multiple1 = number;
export type Type1 = "bet";
export type Type2 = "show";

export interface Bid {
  multiple: Multiple;
  type?: Type;
}
export interface Bet {
  multiple: Multiple1;
  type?: Type1;
}
export interface Show {
  type?: Type2;
}
