// Generated from docs/schema/pokdeng.view.json by tests/web/tools/types.mjs (npm run types). Do not edit.

/**
 * seats whose action the phase still waits for
 */
export type Awaiting = string[];
export type Cards = {
  [k: string]: string[];
} | null;
/**
 * the current phase's countdown; null: none
 */
export type CountdownS = number | null;
export type Game = "pokdeng";
export type Hands = {
  [k: string]: HandInfo;
} | null;
export type Cards1 = string[];
export type Double = boolean;
export type En = string;
export type Pair = boolean;
export type Points = number;
export type Rank = string;
export type Suited = boolean;
export type Zh = string;
export type Available = number;
export type Done = boolean;
export type Id = string;
export type Stack = number;
export type Taken = number;
export type Mode = "classic" | "banker-player";
export type Amount = number;
export type Id1 = string;
export type Multiple = number;
export type Net = number;
export type Outcome = "win" | "lose" | "tie";
export type Player = string;
export type Returned = number;
export type Rounding = number;
export type Spot = string;
export type Taken1 = number;
export type Bets1 = BetPayout[];
export type Net1 = number;
export type Phase = "betting" | "finished";
export type Done1 = boolean;
export type Id2 = string;
export type Spots = string[];
export type Players = PlayerRow[];
export type Results = {
  [k: string]: ResultCell;
} | null;
export type Color = string;
export type Pair1 = boolean;
export type Result = "win" | "lose" | "tie";
export type Ring = boolean;
export type Code = string;
export type CardsRemaining = number;
export type CardsUsed = number;
export type CutCardOut = boolean;
export type Decks = number;
export type LastRound = boolean;
export type NewShoe = boolean;
export type Round = number;
export type Hand = string;
export type Hold = number;
export type Kind = "player" | "banker" | "pair";
export type Max = number;
export type Min = number;

export interface PokDengView {
  awaiting: Awaiting;
  cards: Cards;
  countdown_s: CountdownS;
  game: Game;
  hands: Hands;
  me: Me | null;
  mode: Mode;
  payouts: Payouts | null;
  phase: Phase;
  players: Players;
  results: Results;
  road: RoadView;
  shoe: ShoeInfo;
  spot_totals: SpotTotals;
  spots: Spots1;
}
/**
 * This interface was referenced by `PokDengView`'s JSON-Schema
 * via the `definition` "HandInfo".
 */
export interface HandInfo {
  cards: Cards1;
  double: Double;
  en: En;
  pair: Pair;
  points: Points;
  rank: Rank;
  suited: Suited;
  zh: Zh;
}
/**
 * This interface was referenced by `PokDengView`'s JSON-Schema
 * via the `definition` "Me".
 */
export interface Me {
  available: Available;
  bets: Bets;
  done: Done;
  id: Id;
  stack: Stack;
  taken: Taken;
}
export interface Bets {
  [k: string]: number;
}
/**
 * This interface was referenced by `PokDengView`'s JSON-Schema
 * via the `definition` "Payouts".
 */
export interface Payouts {
  bets: Bets1;
  net: Net1;
}
/**
 * This interface was referenced by `PokDengView`'s JSON-Schema
 * via the `definition` "BetPayout".
 */
export interface BetPayout {
  amount: Amount;
  id: Id1;
  multiple: Multiple;
  net: Net;
  outcome: Outcome;
  player: Player;
  returned: Returned;
  rounding: Rounding;
  spot: Spot;
  taken: Taken1;
}
/**
 * This interface was referenced by `PokDengView`'s JSON-Schema
 * via the `definition` "PlayerRow".
 */
export interface PlayerRow {
  done: Done1;
  id: Id2;
  spots: Spots;
}
/**
 * This interface was referenced by `PokDengView`'s JSON-Schema
 * via the `definition` "ResultCell".
 */
export interface ResultCell {
  color: Color;
  pair: Pair1;
  result: Result;
  ring: Ring;
}
/**
 * This interface was referenced by `PokDengView`'s JSON-Schema
 * via the `definition` "RoadView".
 */
export interface RoadView {
  code: Code;
  counts: Counts;
}
export interface Counts {
  [k: string]: {
    [k: string]: number;
  };
}
/**
 * This interface was referenced by `PokDengView`'s JSON-Schema
 * via the `definition` "ShoeInfo".
 */
export interface ShoeInfo {
  cards_remaining: CardsRemaining;
  cards_used: CardsUsed;
  cut_card_out: CutCardOut;
  decks: Decks;
  last_round: LastRound;
  new_shoe: NewShoe;
  round: Round;
}
export interface SpotTotals {
  [k: string]: number;
}
export interface Spots1 {
  [k: string]: SpotInfo;
}
/**
 * This interface was referenced by `PokDengView`'s JSON-Schema
 * via the `definition` "SpotInfo".
 */
export interface SpotInfo {
  hand: Hand;
  hold: Hold;
  kind: Kind;
  max: Max;
  min: Min;
}
