// Generated from docs/schema/niuniu.actions.json by tests/web/tools/types.mjs (npm run types). Do not edit.

export type NiuniuActionsJson = Swap | Bid | Bet;
/**
 * @maxItems 4
 */
export type Cards =
  [] | [string] | [string, string] | [string, string, string] | [string, string, string, string];
export type Type = "swap";
export type Multiple = number;
export type Type1 = "bid";
export type Multiple1 = number;
export type Type2 = "bet";

export interface Swap {
  cards?: Cards;
  type?: Type;
}
export interface Bid {
  multiple: Multiple;
  type?: Type1;
}
export interface Bet {
  multiple: Multiple1;
  type?: Type2;
}
