// Generated from docs/schema/tiengow.view.json by tests/web/tools/types.mjs (npm run types). Do not edit.

/**
 * seats whose action the phase still waits for
 */
export type Awaiting = string[];
export type Banker = string;
export type BankerStreak = number;
/**
 * the current phase's countdown; null: none
 */
export type CountdownS = number | null;
export type Game = "tiengow";
export type LastTrick = boolean;
export type Leader = string;
export type Civil = boolean;
export type En = string;
export type Id = number;
export type Order = number;
export type Tile = string;
export type Zh = string;
export type Hand = TileInfo[];
export type Id1 = string;
export type Multiplier = number;
export type Phase = "play" | "finished";
export type Result = {
  [k: string]: unknown;
} | null;
export type Seats = string[];
export type Best = string | null;
export type Dong1 = number | null;
export type Action = "play" | "discard";
export type Count = number | null;
export type En1 = string;
export type Kind = string;
export type KindZh = string;
export type Rank = number;
export type Zh1 = string;
export type Zun = boolean;
export type Seat = string;
export type Tiles = TileInfo[] | null;
export type Entries = Entry[];
export type Kind1 = string | null;
export type Leader1 = string;
export type Number = number;
export type Size = number | null;
export type Winner = string | null;
export type Tricks = Trick[];
export type Turn = string | null;
export type En2 = string;
export type Seat1 = string;
export type Trick1 = number;
export type Units = number;
export type Zh2 = string;
export type Zun1 = Zun2[];

export interface TienGowView {
  awaiting: Awaiting;
  banker: Banker;
  banker_streak: BankerStreak;
  config: Config;
  countdown_s: CountdownS;
  dong: Dong;
  game: Game;
  hand_counts: HandCounts;
  last_trick: LastTrick;
  leader: Leader;
  me: Me | null;
  multiplier: Multiplier;
  phase: Phase;
  result: Result;
  seats: Seats;
  trick: Trick | null;
  tricks: Tricks;
  turn: Turn;
  zun: Zun1;
}
export interface Config {
  [k: string]: unknown;
}
export interface Dong {
  [k: string]: number;
}
export interface HandCounts {
  [k: string]: number;
}
/**
 * This interface was referenced by `TienGowView`'s JSON-Schema
 * via the `definition` "Me".
 */
export interface Me {
  hand: Hand;
  id: Id1;
}
/**
 * This interface was referenced by `TienGowView`'s JSON-Schema
 * via the `definition` "TileInfo".
 */
export interface TileInfo {
  civil: Civil;
  en: En;
  id: Id;
  order: Order;
  tile: Tile;
  zh: Zh;
}
/**
 * This interface was referenced by `TienGowView`'s JSON-Schema
 * via the `definition` "Trick".
 */
export interface Trick {
  best: Best;
  dong?: Dong1;
  entries: Entries;
  kind: Kind1;
  leader: Leader1;
  number: Number;
  size: Size;
  winner?: Winner;
}
/**
 * This interface was referenced by `TienGowView`'s JSON-Schema
 * via the `definition` "Entry".
 */
export interface Entry {
  action: Action;
  count?: Count;
  play?: PlayInfo | null;
  seat: Seat;
  tiles?: Tiles;
}
/**
 * This interface was referenced by `TienGowView`'s JSON-Schema
 * via the `definition` "PlayInfo".
 */
export interface PlayInfo {
  en: En1;
  kind: Kind;
  kind_zh: KindZh;
  rank: Rank;
  zh: Zh1;
  zun: Zun;
}
/**
 * This interface was referenced by `TienGowView`'s JSON-Schema
 * via the `definition` "Zun".
 */
export interface Zun2 {
  en: En2;
  seat: Seat1;
  trick: Trick1;
  units: Units;
  zh: Zh2;
}
