// Generated from docs/schema/paigow.view.json by tests/web/tools/types.mjs (npm run types). Do not edit.

/**
 * seats whose action the phase still waits for
 */
export type Awaiting = string[];
export type Banker = string | null;
export type BankerMultiple = number | null;
/**
 * the current phase's countdown; null: none
 */
export type CountdownS = number | null;
export type DealOrder = string[] | null;
export type Dice = number[] | null;
export type FirstSeat = string | null;
export type Game = "paigow";
export type Banker1 = boolean;
export type Bet = number | null;
export type Bid = number | null;
export type En = string;
export type Key = string;
export type Points = number;
export type Rank = number;
export type Strength = number;
export type En1 = string;
export type Zh = string;
export type TileNames = Name[];
export type Tiles = string[];
export type Values = number[];
export type Zh1 = string;
export type ZhHant = string;
export type Id = string;
export type Net = number | null;
export type Outcome = ("banker" | "player" | "push") | null;
export type Position = number;
export type Ready = boolean;
export type Stack = number;
export type Tiles1 = TileInfo[] | null;
export type En2 = string;
export type Pips = string;
export type Points1 = number;
export type Zh2 = string;
export type Phase = "bid" | "bet" | "reveal" | "finished";
export type Result = {
  [k: string]: unknown;
} | null;
export type RevealOrder = string[] | null;
export type Round = number;
export type Rounds = number;
export type Seats = SeatInfo[];
export type SeenTiles = TileInfo[];
export type TilesLeft = number;

export interface PaigowView {
  awaiting: Awaiting;
  banker: Banker;
  banker_multiple: BankerMultiple;
  config: Config;
  countdown_s: CountdownS;
  deal_order: DealOrder;
  dice: Dice;
  first_seat: FirstSeat;
  game: Game;
  me: SeatInfo | null;
  phase: Phase;
  result: Result;
  reveal_order: RevealOrder;
  round: Round;
  rounds: Rounds;
  seats: Seats;
  seen_tiles: SeenTiles;
  tiles_left: TilesLeft;
}
export interface Config {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `PaigowView`'s JSON-Schema
 * via the `definition` "SeatInfo".
 */
export interface SeatInfo {
  banker: Banker1;
  bet: Bet;
  bid: Bid;
  hand: HandInfo | null;
  id: Id;
  net: Net;
  outcome: Outcome;
  position: Position;
  ready: Ready;
  stack: Stack;
  tiles: Tiles1;
}
/**
 * This interface was referenced by `PaigowView`'s JSON-Schema
 * via the `definition` "HandInfo".
 */
export interface HandInfo {
  en: En;
  key: Key;
  points: Points;
  rank: Rank;
  strength: Strength;
  tile_names: TileNames;
  tiles: Tiles;
  values: Values;
  zh: Zh1;
  zh_hant: ZhHant;
}
/**
 * This interface was referenced by `PaigowView`'s JSON-Schema
 * via the `definition` "Name".
 */
export interface Name {
  en: En1;
  zh: Zh;
}
/**
 * This interface was referenced by `PaigowView`'s JSON-Schema
 * via the `definition` "TileInfo".
 */
export interface TileInfo {
  en: En2;
  pips: Pips;
  points: Points1;
  zh: Zh2;
}
