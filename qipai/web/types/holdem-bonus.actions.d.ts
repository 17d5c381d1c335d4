// Generated from docs/schema/holdem-bonus.actions.json by tests/web/tools/types.mjs (npm run types). Do not edit.

export type HoldemBonusActionsJson = Bet | Clear | Done1 | Flop | Fold | Turn | River | Check;
export type Ante = number;
export type Bonus = number;
export type Box = string | null;
export type Done = boolean;
export type Pool = boolean;
export type Type = "bet";
export type Box1 = string | null;
export type Type1 = "clear";
export type Type2 = "done";
export type Amount = number | null;
export type Box2 = string | null;
export type Type3 = "flop";
export type Box3 = string | null;
export type Type4 = "fold";
export type Amount1 = number | null;
export type Box4 = string | null;
export type Type5 = "turn";
export type Amount2 = number | null;
export type Box5 = string | null;
export type Type6 = "river";
export type Box6 = string | null;
export type Type7 = "check";

export interface Bet {
  ante: Ante;
  bonus?: Bonus;
  box?: Box;
  done?: Done;
  pool?: Pool;
  type?: Type;
}
export interface Clear {
  box?: Box1;
  type?: Type1;
}
export interface Done1 {
  type?: Type2;
}
export interface Flop {
  amount?: Amount;
  box?: Box2;
  type?: Type3;
}
export interface Fold {
  box?: Box3;
  type?: Type4;
}
export interface Turn {
  amount?: Amount1;
  box?: Box4;
  type?: Type5;
}
export interface River {
  amount?: Amount2;
  box?: Box5;
  type?: Type6;
}
export interface Check {
  box?: Box6;
  type?: Type7;
}
