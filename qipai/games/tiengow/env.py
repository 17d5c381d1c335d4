"""Tien Gow (打天九) for learning: plays and discards of hand slots as action indices.

A seat's eight tiles are its *slots* 0–7 (its hand at the deal, by tile id). Actions
(`TienGowEncoder.actions`): index `k` for k < 162 plays the k-th subset of slots (every subset of 1
to 4 slots, by size, then lexicographically: `play 0`, `play 1`, …, `play 0+1`, …, `play 4+5+6+7`);
index 162 + k discards that subset face down. The mask allows exactly the round's legal leads, beats
and discards (the nine kinds of play, the two-栋 rule). Seats are E, S, W, N in the order of play
(counter-clockwise); the observation lists them from the observer on.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

import numpy as np

from qipai.core.protocol import JSON, ActionSpec
from qipai.envs.base import Encoder, Segment, Table, Vector
from qipai.envs.features import TILE_TYPES, one_hot, ratio, relative, tile_counts, tile_index
from qipai.games.tiengow.plays import Kind

HAND = 8
SEATS = 4
SUBSETS: tuple[tuple[int, ...], ...] = tuple(
    s for size in range(1, 5) for s in combinations(range(HAND), size)
)  # 8 + 28 + 56 + 70 = 162
_SUBSET_INDEX = {s: i for i, s in enumerate(SUBSETS)}
KINDS = tuple(k.value for k in Kind)  # the nine kinds of play
TOTAL_DONG = 8


class TienGowEncoder(Encoder):
    game = "tiengow"
    default_players = 4

    def __init__(self, config: Any, players: int, ladder: Sequence[int] | None = None) -> None:
        super().__init__(config, players, ladder)
        self.actions = (
            *("play " + "+".join(map(str, s)) for s in SUBSETS),
            *("discard " + "+".join(map(str, s)) for s in SUBSETS),
        )
        self.segments = (
            Segment(
                "my_slots",
                HAND * TILE_TYPES,
                0,
                1,
                "per slot 0–7: its tile kind (one-hot "
                "of 21, 天 first), all 0 once the slot's tile is played or discarded",
            ),
            Segment("my_tiles", TILE_TYPES, 0, 2, "own tiles still in hand, per kind"),
            Segment("leading", 1, 0, 1, "1 when I am to lead the trick"),
            Segment("trick_size", 4, 0, 1, "one-hot: tiles per player in this trick (1–4)"),
            Segment("lead_kind", len(KINDS), 0, 1, "one-hot: the kind of play led (nine kinds)"),
            Segment("best_play", TILE_TYPES, 0, 2, "the trick's best play so far, per tile kind"),
            Segment("best_seat", SEATS, 0, 1, "one-hot per seat from me: who holds the trick"),
            Segment("trick_entries", 1, 0, 1, "players who have played or discarded / 4"),
            Segment("last_trick", 1, 0, 1, "1 on the trick that ends the game (two-栋 rule)"),
            Segment("dong", SEATS, 0, 1, "per seat from me: 栋 won / 8"),
            Segment("hand_counts", SEATS, 0, 1, "per seat: tiles in hand / 8"),
            Segment("banker", SEATS, 0, 1, "one-hot per seat: the banker"),
            Segment("multiplier", 1, 0, 1, "the banker multiplier (2 on a first bank) / 10, ≤ 1"),
            Segment("played", TILE_TYPES, 0, 2, "every face-up play so far this game, per kind"),
            Segment("my_discards", TILE_TYPES, 0, 2, "own face-down discards, per kind"),
            Segment("zun_played", SEATS, 0, 1, "per seat: has played 至尊 (or 文尊) this game"),
            Segment("wen_zun", 1, 0, 1, "1 when the table plays the optional 文尊 rule"),
            Segment("bias", 1, 0, 1, "always 1"),
        )

    def player_range(self, spec_min: int, spec_max: int) -> tuple[int, int]:
        return SEATS, SEATS

    def start(self, table: Table, previous: Table | None) -> None:
        table.extra["slots"] = {
            seat: tuple(t["id"] for t in table.round.view(seat)["me"]["hand"])
            for seat in table.seats
        }

    def encode(self, table: Table, seat: str, view: JSON) -> Vector:
        slots: tuple[int, ...] = table.extra["slots"][seat]
        hand = {t["id"]: t["tile"] for t in view["me"]["hand"]}
        my_slots = np.zeros((HAND, TILE_TYPES), np.float32)
        for i, tile_id in enumerate(slots):
            if tile_id in hand:
                my_slots[i, tile_index(hand[tile_id])] = 1.0
        order = relative(list(view["seats"]), seat)
        trick = view["trick"] or {}
        entries = trick.get("entries") or []
        best_tiles: list[str] = []
        if trick.get("best") is not None:
            best = next(e for e in reversed(entries) if e["seat"] == trick["best"])
            best_tiles = [t["tile"] for t in best["tiles"]]
        played: list[str] = []
        discarded: list[str] = []
        for t in [*view["tricks"], *([trick] if trick else [])]:
            for e in t.get("entries") or []:
                if e["action"] == "play":
                    played += [x["tile"] for x in e["tiles"]]
                elif e["seat"] == seat and "tiles" in e:
                    discarded += [x["tile"] for x in e["tiles"]]
        zun = {z["seat"] for z in view["zun"]}
        size = trick.get("size")
        return self.vector(
            {
                "my_slots": my_slots.reshape(-1),
                "my_tiles": tile_counts(hand.values()),
                "leading": float(view["turn"] == seat and not entries),
                "trick_size": one_hot(None if size is None else size - 1, 4),
                "lead_kind": one_hot(
                    None if trick.get("kind") is None else KINDS.index(trick["kind"]), len(KINDS)
                ),
                "best_play": tile_counts(best_tiles),
                "best_seat": [float(s == trick.get("best")) for s in order],
                "trick_entries": len(entries) / SEATS,
                "last_trick": float(bool(view["last_trick"])),
                "dong": [view["dong"][s] / TOTAL_DONG for s in order],
                "hand_counts": [view["hand_counts"][s] / HAND for s in order],
                "banker": [float(s == view["banker"]) for s in order],
                "multiplier": min(1.0, ratio(view["multiplier"], 10)),
                "played": tile_counts(played),
                "my_discards": tile_counts(discarded),
                "zun_played": [float(s in zun) for s in order],
                "wen_zun": float(bool(view["config"]["wen_zun"])),
                "bias": 1.0,
            }
        )

    def _index(self, table: Table, seat: str, ids: Sequence[int]) -> int:
        slots = table.extra["slots"][seat]
        return _SUBSET_INDEX[tuple(sorted(slots.index(i) for i in ids))]

    def legal(self, table: Table, seat: str, specs: Sequence[ActionSpec]) -> list[int]:
        out: list[int] = []
        for spec in specs:
            if spec.type == "play":
                out += [self._index(table, seat, ids) for ids in spec.options["plays"]]
            elif spec.type == "discard":
                out += [
                    len(SUBSETS) + self._index(table, seat, ids) for ids in spec.options["choices"]
                ]
        return sorted(out)

    def action(self, table: Table, seat: str, index: int) -> JSON:
        kind = "play" if index < len(SUBSETS) else "discard"
        slots = table.extra["slots"][seat]
        tiles = [slots[i] for i in SUBSETS[index % len(SUBSETS)]]
        return {"type": kind, "tiles": tiles}
