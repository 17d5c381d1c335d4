// Generated from docs/schema/niuniu.view.json by tests/web/tools/types.mjs (npm run types). Do not edit.

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
export type Game = "niuniu";
export type Cards = string[];
export type Discarded = string[] | null;
export type Hint = {
  [k: string]: unknown;
} | null;
export type Id = string;
export type Marked = string[] | null;
export type Received = string[] | null;
export type Stack = number;
export type Phase = "swap" | "bid" | "bet" | "finished";
export type Rounding = number | null;
export type Bet = number | null;
export type Bid = number | null;
export type CardCount = number;
export type Cards1 = string[] | null;
export type BullCards = string[] | null;
export type Cards2 = string[];
export type En = string;
export type Multiplier = number;
export type PointCards = string[] | null;
export type TopCard = string;
export type Type = string;
export type Zh = string;
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
export type Stack1 = number;
export type SwapConfirmed = boolean;
export type Swapped = number | null;
export type Seats = SeatInfo[];

export interface NiuniuView {
  awaiting: Awaiting;
  banker: Banker;
  banker_by: BankerBy;
  banker_multiple: BankerMultiple;
  base: Base;
  commission: Commission;
  commission_total: CommissionTotal;
  countdown_s: CountdownS;
  game: Game;
  me: Me | null;
  phase: Phase;
  rounding: Rounding;
  seats: Seats;
}
/**
 * This interface was referenced by `NiuniuView`'s JSON-Schema
 * via the `definition` "Me".
 */
export interface Me {
  cards: Cards;
  discarded: Discarded;
  hint: Hint;
  id: Id;
  marked: Marked;
  received: Received;
  stack: Stack;
}
/**
 * This interface was referenced by `NiuniuView`'s JSON-Schema
 * via the `definition` "SeatInfo".
 */
export interface SeatInfo {
  bet: Bet;
  bid: Bid;
  card_count: CardCount;
  cards: Cards1;
  hand: HandInfo | null;
  id: Id1;
  is_banker: IsBanker;
  pairing: Pairing | null;
  settlement: SeatMoney | null;
  stack: Stack1;
  swap_confirmed: SwapConfirmed;
  swapped: Swapped;
}
/**
 * This interface was referenced by `NiuniuView`'s JSON-Schema
 * via the `definition` "HandInfo".
 */
export interface HandInfo {
  bull_cards: BullCards;
  cards: Cards2;
  en: En;
  multiplier: Multiplier;
  point_cards: PointCards;
  top_card: TopCard;
  type: Type;
  zh: Zh;
}
/**
 * This interface was referenced by `NiuniuView`'s JSON-Schema
 * via the `definition` "Pairing".
 */
export interface Pairing {
  multiplier: Multiplier1;
  raw: Raw;
  stake: Stake;
  winner: Winner;
}
/**
 * This interface was referenced by `NiuniuView`'s JSON-Schema
 * via the `definition` "SeatMoney".
 */
export interface SeatMoney {
  commission: Commission1;
  gross: Gross;
  net: Net;
  raw: Raw1;
}
