// Generated from docs/schema/pokdeng.actions.json by tests/web/tools/types.mjs (npm run types). Do not edit.

export type PokdengActionsJson = Bet | Bets | Clear | Done1;
export type Amount = number;
export type Spot =
  | "P1"
  | "P2"
  | "P3"
  | "P4"
  | "P5"
  | "B1"
  | "B2"
  | "B3"
  | "B4"
  | "B5"
  | "P1 pair"
  | "P2 pair"
  | "P3 pair"
  | "P4 pair"
  | "P5 pair"
  | "B pair";
export type Type = "bet";
export type Amount1 = number;
export type Spot1 =
  | "P1"
  | "P2"
  | "P3"
  | "P4"
  | "P5"
  | "B1"
  | "B2"
  | "B3"
  | "B4"
  | "B5"
  | "P1 pair"
  | "P2 pair"
  | "P3 pair"
  | "P4 pair"
  | "P5 pair"
  | "B pair";
/**
 * @maxItems 64
 */
export type Bets1 = Chip[];
export type Done = boolean;
export type Type1 = "bets";
export type Spot2 =
  | (
      | "P1"
      | "P2"
      | "P3"
      | "P4"
      | "P5"
      | "B1"
      | "B2"
      | "B3"
      | "B4"
      | "B5"
      | "P1 pair"
      | "P2 pair"
      | "P3 pair"
      | "P4 pair"
      | "P5 pair"
      | "B pair"
    )
  | null;
export type Type2 = "clear";
export type Type3 = "done";

export interface Bet {
  amount: Amount;
  spot: Spot;
  type?: Type;
}
export interface Bets {
  bets: Bets1;
  done?: Done;
  type?: Type1;
}
export interface Chip {
  amount: Amount1;
  spot: Spot1;
}
export interface Clear {
  spot?: Spot2;
  type?: Type2;
}
export interface Done1 {
  type?: Type3;
}
