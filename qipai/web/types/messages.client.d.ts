// Generated from docs/schema/messages.client.json by tests/web/tools/types.mjs (npm run types). Do not edit.

export type MessagesClientJson = Auth | Subscribe | Unsubscribe | ActionMessage | Ping;
/**
 * states after the first of a table may come as `delta` (docs/protocol.md, "Deltas")
 */
export type Deltas = boolean;
/**
 * a ping at least every second (docs/protocol.md, "Heartbeat")
 */
export type Heartbeat = boolean;
export type Token = string;
export type Type = "auth";
export type ClientId = string | null;
export type TableId = string;
export type Type1 = "subscribe";
export type ClientId1 = string | null;
export type TableId1 = string;
export type Type2 = "unsubscribe";
export type ClientId2 = string;
export type TableId2 = string;
export type Type3 = "action";
/**
 * the `version` of the state message the action was built from (docs/protocol.md, "State versions")
 */
export type Version = string;
export type ClientId3 = string | null;
export type Type4 = "ping";

export interface Auth {
  deltas?: Deltas;
  heartbeat?: Heartbeat;
  token: Token;
  type: Type;
}
export interface Subscribe {
  client_id?: ClientId;
  table_id: TableId;
  type: Type1;
}
export interface Unsubscribe {
  client_id?: ClientId1;
  table_id: TableId1;
  type: Type2;
}
export interface ActionMessage {
  action: Action;
  client_id: ClientId2;
  table_id: TableId2;
  type: Type3;
  version: Version;
}
/**
 * the game's action (docs/schema/<game>.actions.json)
 */
export interface Action {
  [k: string]: unknown;
}
export interface Ping {
  client_id?: ClientId3;
  type: Type4;
}
