// Generated from docs/schema/holdem-bonus.view.json by tests/web/tools/types.mjs (npm run types). Do not edit.

/**
 * seats whose action the phase still waits for
 */
export type Awaiting = string[];
export type Board = string[];
export type BonusTable = "source" | "with-small-pairs";
export type Awaiting1 = ("flop" | "turn" | "river") | null;
export type Ante = number;
export type Bonus = number;
export type Flop = number;
export type Pool = number;
export type River = number;
export type Turn = number;
export type BonusLine = string | null;
export type Box = string;
export type Cards = string[] | null;
export type Dealt = boolean;
export type BestFive = string[];
export type Category = string;
export type Name = string;
export type Strength = number;
export type Nets = {
  [k: string]: number;
} | null;
export type Outcome = ("win" | "lose" | "tie" | "fold") | null;
export type Player = string | null;
export type Seated = string | null;
export type Status = "open" | "bet" | "waiting" | "folded" | "checked" | "in";
export type Boxes = BoxInfo[];
/**
 * the current phase's countdown; null: none
 */
export type CountdownS = number | null;
export type Cards1 = string[] | null;
export type Dealt1 = boolean;
export type Game = "holdem-bonus";
export type AnteMax = number;
export type AnteMin = number;
export type PoolStake = number;
export type Available = number;
export type Boxes1 = string[];
export type Committed = number;
export type Done = boolean;
export type Id = string;
export type Net = number | null;
export type Stack = number;
export type Phase = "betting" | "flop" | "turn" | "river" | "finished";
export type Balance = number;
export type Seed = number;
export type Stake = number;
export type Result = {
  [k: string]: unknown;
} | null;

export interface HoldemBonusView {
  awaiting: Awaiting;
  board: Board;
  bonus_pays: BonusPays;
  bonus_table: BonusTable;
  boxes: Boxes;
  countdown_s: CountdownS;
  dealer: DealerInfo;
  game: Game;
  limits: Limits;
  me: Me | null;
  phase: Phase;
  pool: PoolInfo;
  result: Result;
}
export interface BonusPays {
  [k: string]: number;
}
/**
 * This interface was referenced by `HoldemBonusView`'s JSON-Schema
 * via the `definition` "BoxInfo".
 */
export interface BoxInfo {
  awaiting: Awaiting1;
  bets: BoxBets;
  bonus_line: BonusLine;
  box: Box;
  cards: Cards;
  dealt: Dealt;
  hand: PokerHand | null;
  nets: Nets;
  outcome: Outcome;
  player: Player;
  pool_hand: PokerHand | null;
  seated: Seated;
  status: Status;
}
/**
 * This interface was referenced by `HoldemBonusView`'s JSON-Schema
 * via the `definition` "BoxBets".
 */
export interface BoxBets {
  ante: Ante;
  bonus: Bonus;
  flop: Flop;
  pool: Pool;
  river: River;
  turn: Turn;
}
/**
 * This interface was referenced by `HoldemBonusView`'s JSON-Schema
 * via the `definition` "PokerHand".
 */
export interface PokerHand {
  best_five: BestFive;
  category: Category;
  name: Name;
  strength: Strength;
}
/**
 * This interface was referenced by `HoldemBonusView`'s JSON-Schema
 * via the `definition` "DealerInfo".
 */
export interface DealerInfo {
  cards: Cards1;
  dealt: Dealt1;
  hand: PokerHand | null;
}
/**
 * This interface was referenced by `HoldemBonusView`'s JSON-Schema
 * via the `definition` "Limits".
 */
export interface Limits {
  ante_max: AnteMax;
  ante_min: AnteMin;
  pool_stake: PoolStake;
}
/**
 * This interface was referenced by `HoldemBonusView`'s JSON-Schema
 * via the `definition` "Me".
 */
export interface Me {
  available: Available;
  boxes: Boxes1;
  committed: Committed;
  done: Done;
  id: Id;
  net: Net;
  stack: Stack;
}
/**
 * This interface was referenced by `HoldemBonusView`'s JSON-Schema
 * via the `definition` "PoolInfo".
 */
export interface PoolInfo {
  balance: Balance;
  percent: Percent;
  seed: Seed;
  stake: Stake;
}
export interface Percent {
  [k: string]: string;
}
