// Generated from docs/schema/messages.server.json by tests/web/tools/types.mjs (npm run types). Do not edit.

export type MessagesServerJson = Hello | State | Delta | Ack | Error | Left | Away | Pong | Unsubscribed;
export type Player = string;
export type Protocol = number;
export type Type = "hello";
export type Seat = string | null;
export type Type1 = string;
export type Events = EventName[];
/**
 * whether this table takes client seeds
 */
export type ClientSeedsEnabled = boolean;
/**
 * SHA-256 of the unit's server seed, shown before its deal
 */
export type Commitment = string;
/**
 * the server seed (hex) once revealed, else null
 */
export type Seed = string | null;
/**
 * the deal specification's version, e.g. deal-spec/1
 */
export type DealSpec = string;
/**
 * the next unit's commitment: a client seed set now meets this one
 */
export type NextCommitment = string;
export type Commitment1 = string;
export type Ended = boolean;
/**
 * the unit's round ids
 */
export type Rounds = string[];
/**
 * null for a game whose seeds players never see
 */
export type Seed1 = string | null;
/**
 * the last units ended (at most 5)
 */
export type Revealed = RevealedUnit[];
export type SeedPolicy = "after_deal" | "operator_only";
/**
 * round.legal_actions(your seat)
 */
export type Legal = {
  [k: string]: unknown;
}[];
export type NextRoundIn = number | null;
export type Result = {
  [k: string]: unknown;
} | null;
export type Results = {
  [k: string]: unknown;
}[];
export type Awaiting = string[];
export type Commitment2 = string | null;
/**
 * server time at which the countdown ends
 */
export type Deadline = number | null;
export type Finished = boolean;
export type Hint = {
  [k: string]: unknown;
} | null;
export type Number = number;
/**
 * Tien Gow, once the game is over: the openings of the tiles you were shown
 */
export type Openings =
  | unknown[]
  | {
      [k: string]: unknown;
    }
  | null;
export type Phase = string;
export type RoundId = string;
export type Leaves = string[];
/**
 * the dealt tiles' commitment root (hex)
 */
export type Root = string;
export type Scheme = string;
/**
 * seconds left on the countdown
 */
export type TimeLeft = number | null;
/**
 * this state's number: a later `delta` with this number as its `base` applies to it (docs/protocol.md, "Deltas")
 */
export type Seq = number;
export type ServerTime = number;
export type TableId = string;
export type Type2 = "state";
/**
 * this state's version for your seat: send it with every action built from this state (docs/protocol.md, "State versions")
 */
export type Version = string;
/**
 * a commitment drawn after the seed came (a table opened for you by automatch): the seed skips that unit and enters the next one, from its first round
 */
export type AfterCommitment = string | null;
export type ClientSeed = string;
/**
 * the commitment of the unit it is in or enters; null while that unit's server seed is not drawn yet (see `after_commitment`)
 */
export type Commitment3 = string | null;
/**
 * the running deal unit was keyed with it
 */
export type InUnit = boolean;
export type InRound = boolean;
export type Player1 = string;
export type Seat1 = string | null;
/**
 * the `seq` of the state this patch applies to
 */
export type Base = number;
export type Op = "add" | "remove" | "replace";
/**
 * an RFC 6901 pointer into the state
 */
export type Path = string;
/**
 * RFC 6902 JSON Patch of the state (docs/protocol.md, "Deltas"); a client that does not hold state `base` subscribes again for the whole state
 */
export type Patch = PatchOp[];
/**
 * the `seq` of the state it makes
 */
export type Seq1 = number;
export type TableId1 = string;
export type Type3 = "delta";
export type ClientId = string | null;
export type Duplicate = boolean;
export type TableId2 = string | null;
export type Type4 = "ack";
export type ClientId1 = string | null;
export type Code = string;
export type Field = string | null;
export type Message = string;
/**
 * stale_action: its phase now
 */
export type Phase1 = string | null;
/**
 * stale_action: the round running now (absent: none is)
 */
export type RoundId1 = string | null;
export type TableId3 = string | null;
export type Type5 = "error";
/**
 * stale_action: the current state version of your seat
 */
export type Version1 = string | null;
export type CashedOut = number | null;
export type Reason = string | null;
export type Table1 = string | null;
export type TableId4 = string;
export type Type6 = "left";
export type Seat2 = string | null;
export type Table2 = string | null;
export type TableId5 = string;
export type Type7 = "away";
export type ClientId2 = string | null;
export type Type8 = "pong";
export type TableId6 = string;
export type Type9 = "unsubscribed";

export interface Hello {
  player: Player;
  protocol: Protocol;
  type: Type;
}
export interface State {
  events: Events;
  fairness: Fairness;
  legal: Legal;
  next_round_in: NextRoundIn;
  result: Result;
  results: Results;
  round: RoundState | null;
  seq: Seq;
  server_time: ServerTime;
  table: Table;
  table_id: TableId;
  type: Type2;
  version: Version;
  you: You;
}
export interface EventName {
  seat: Seat;
  type: Type1;
}
/**
 * The table's fairness block (docs/fairness.md, docs/protocol.md).
 */
export interface Fairness {
  client_seeds: ClientSeeds;
  client_seeds_enabled: ClientSeedsEnabled;
  /**
   * the running (or last) deal unit
   */
  current: UnitNow | null;
  deal_spec: DealSpec;
  next_commitment: NextCommitment;
  revealed: Revealed;
  seed_policy: SeedPolicy;
}
/**
 * the current (or last) unit's client seeds by seat: with its seed, the key
 */
export interface ClientSeeds {
  [k: string]: string;
}
export interface UnitNow {
  commitment: Commitment;
  seed: Seed;
}
export interface RevealedUnit {
  client_seeds: ClientSeeds1;
  commitment: Commitment1;
  ended: Ended;
  rounds: Rounds;
  seed: Seed1;
}
/**
 * the client seeds the unit was keyed with, by seat (docs/fairness.md)
 */
export interface ClientSeeds1 {
  [k: string]: string;
}
export interface RoundState {
  awaiting: Awaiting;
  commitment: Commitment2;
  deadline: Deadline;
  finished: Finished;
  hint: Hint;
  number: Number;
  openings: Openings;
  phase: Phase;
  round_id: RoundId;
  /**
   * Tien Gow, while a game runs: the dealt tiles' commitment (docs/fairness.md)
   */
  tiles: TilesRoot | null;
  time_left: TimeLeft;
  view: View;
}
export interface TilesRoot {
  leaves: Leaves;
  root: Root;
  scheme: Scheme;
}
/**
 * round.view(seat): docs/schema/<game>.view.json
 */
export interface View {
  [k: string]: unknown;
}
/**
 * the table's public facts (tables layer)
 */
export interface Table {
  [k: string]: unknown;
}
export interface You {
  /**
   * my client seed and the commitment it meets (seated only)
   */
  client_seed?: SeedNote | null;
  in_round: InRound;
  player: Player1;
  seat: Seat1;
}
/**
 * Which commitment my client seed meets (docs/fairness.md, "Which commitment a seed
 * meets").
 */
export interface SeedNote {
  after_commitment: AfterCommitment;
  client_seed: ClientSeed;
  commitment: Commitment3;
  in_unit: InUnit;
}
export interface Delta {
  base: Base;
  patch: Patch;
  seq: Seq1;
  table_id: TableId1;
  type: Type3;
}
/**
 * One RFC 6902 operation; only these three are used.
 */
export interface PatchOp {
  op: Op;
  path: Path;
  value?: Value;
}
export interface Value {
  [k: string]: unknown;
}
export interface Ack {
  client_id: ClientId;
  duplicate: Duplicate;
  table_id?: TableId2;
  type: Type4;
}
export interface Error {
  client_id?: ClientId1;
  code: Code;
  field?: Field;
  message: Message;
  phase?: Phase1;
  round_id?: RoundId1;
  table_id?: TableId3;
  type: Type5;
  version?: Version1;
}
export interface Left {
  cashed_out: CashedOut;
  reason?: Reason;
  table?: Table1;
  table_id: TableId4;
  type: Type6;
}
export interface Away {
  seat: Seat2;
  table?: Table2;
  table_id: TableId5;
  type: Type7;
}
export interface Pong {
  client_id: ClientId2;
  type: Type8;
}
export interface Unsubscribed {
  table_id: TableId6;
  type: Type9;
}
