// Generated from docs/schema/sangong.view.json by tests/web/tools/types.mjs (npm run types). Do not edit.

/**
 * seats whose action the phase still waits for
 */
export type Awaiting = string[];
export type Banker = string | null;
export type BankerBy = ("bid" | "tie" | "random") | null;
export type BankerMultiple = number | null;
export type Base = number;
export type Commission = string;
export type CommissionTotal = number | null;
/**
 * the current phase's countdown; null: none
 */
export type CountdownS = number | null;
export type DealOrder = string[] | null;
export type Game = "sangong";
export type Cards = string[];
export type Cards1 = string[];
export type Courts = number;
export type En = string;
export type Multiplier = number;
export type Points = number;
export type TopCard = string;
export type Type = string;
export type Zh = string;
export type Id = string;
export type Stack = number;
export type Phase = "bid" | "bet" | "show" | "finished";
export type Rounding = number | null;
export type Bet = number | null;
export type Bid = number | null;
export type CardCount = number;
export type Cards2 = string[] | null;
export type Id1 = string;
export type IsBanker = boolean;
export type Multiplier1 = number;
export type Raw = number;
export type Stake = number;
export type Winner = string;
export type Commission1 = number;
export type Gross = number;
export type Net = number;
export type Raw1 = number;
export type Rounding1 = number;
export type ValidBet = number;
export type Shown = boolean;
export type Stack1 = number;
export type Seats = SeatInfo[];
export type Silence = {
  [k: string]: string;
} | null;

export interface SangongView {
  awaiting: Awaiting;
  banker: Banker;
  banker_by: BankerBy;
  banker_multiple: BankerMultiple;
  base: Base;
  commission: Commission;
  commission_total: CommissionTotal;
  countdown_s: CountdownS;
  deal_order: DealOrder;
  game: Game;
  me: Me | null;
  multipliers: Multipliers;
  phase: Phase;
  rounding: Rounding;
  seats: Seats;
  silence: Silence;
}
/**
 * This interface was referenced by `SangongView`'s JSON-Schema
 * via the `definition` "Me".
 */
export interface Me {
  cards: Cards;
  hand: HandInfo | null;
  id: Id;
  stack: Stack;
}
/**
 * This interface was referenced by `SangongView`'s JSON-Schema
 * via the `definition` "HandInfo".
 */
export interface HandInfo {
  cards: Cards1;
  courts: Courts;
  en: En;
  multiplier: Multiplier;
  points: Points;
  top_card: TopCard;
  type: Type;
  zh: Zh;
}
export interface Multipliers {
  [k: string]: number;
}
/**
 * This interface was referenced by `SangongView`'s JSON-Schema
 * via the `definition` "SeatInfo".
 */
export interface SeatInfo {
  bet: Bet;
  bid: Bid;
  card_count: CardCount;
  cards: Cards2;
  hand: HandInfo | null;
  id: Id1;
  is_banker: IsBanker;
  pairing: Pairing | null;
  settlement: SeatMoney | null;
  shown: Shown;
  stack: Stack1;
}
/**
 * This interface was referenced by `SangongView`'s JSON-Schema
 * via the `definition` "Pairing".
 */
export interface Pairing {
  multiplier: Multiplier1;
  raw: Raw;
  stake: Stake;
  winner: Winner;
}
/**
 * This interface was referenced by `SangongView`'s JSON-Schema
 * via the `definition` "SeatMoney".
 */
export interface SeatMoney {
  commission: Commission1;
  gross: Gross;
  net: Net;
  raw: Raw1;
  rounding: Rounding1;
  valid_bet: ValidBet;
}
