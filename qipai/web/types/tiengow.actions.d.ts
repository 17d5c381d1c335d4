// Generated from docs/schema/tiengow.actions.json by tests/web/tools/types.mjs (npm run types). Do not edit.

export type TiengowActionsJson = Play | Discard;
/**
 * @minItems 1
 * @maxItems 4
 */
export type Tiles = [number] | [number, number] | [number, number, number] | [number, number, number, number];
export type Type = "play";
/**
 * @minItems 1
 * @maxItems 4
 */
export type Tiles1 =
  [number] | [number, number] | [number, number, number] | [number, number, number, number];
export type Type1 = "discard";

export interface Play {
  tiles: Tiles;
  type?: Type;
}
export interface Discard {
  tiles: Tiles1;
  type?: Type1;
}
