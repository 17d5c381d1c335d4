"""Deal units and their fairness data (docs/fairness.md).

A deal unit is what one server seed deals: one round, a Pok Deng shoe (many rounds), a two-round
Pai Gow game. Before a unit's first deal the table shows the SHA-256 commitment of its server
seed; the seed is revealed when the unit ends — its last round finished, or the unit was
abandoned (no person at the table for `TableTerms.idle_reveal_s`), voided, suspended or closed
(docs/fairness.md) — except for games that never show seeds to players (Tien Gow: `reveal_seed` False).

Anti-grinding: the next unit's server seed is drawn, and its commitment shown
(`next_commitment`), before the seated players' client seeds are read when the unit's first
round opens (its cards are shuffled then, before any bet; a seed that came before the commitment
was drawn skips that unit: `Table.seed_after`);
the unit's stream key is `qipai.fairness.unit_key(server_seed, client_seeds)` and the seeds are
fixed for the whole unit (each round records them in its `meta`).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import qipai
from qipai.core.protocol import JSON, Round
from qipai.core.rng import commitment
from qipai.fairness import TilesCommitment, deal_meta, seat_openings, tiles_commitment, unit_key

if TYPE_CHECKING:
    from qipai.tables.games import Game
    from qipai.tables.seating import SeatState
    from qipai.tables.terms import TableTerms


@dataclass
class Reveal:
    """A deal unit's fairness data: the commitment shown before, the seed once the unit ends
    (`ended` with no seed: a game whose seeds are never shown to players)."""

    commitment: str
    seed_hex: str | None
    rounds: list[str] = field(default_factory=list)
    ended: bool = False
    # the client seeds the unit was keyed with, by seat: with the seed, the key actually used
    # (`qipai.fairness.unit_key`), shown after the unit ended as while it ran
    client_seeds: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {
            "commitment": self.commitment,
            "seed": self.seed_hex,
            "rounds": list(self.rounds),
            "ended": self.ended or self.seed_hex is not None,
            "client_seeds": dict(self.client_seeds),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], show_seed: bool) -> Reveal:
        return cls(
            str(data["commitment"]),
            data.get("seed") if show_seed else None,
            [str(r) for r in data.get("rounds", [])],
            bool(data.get("ended", data.get("seed") is not None)),
            {str(k): str(v) for k, v in (data.get("client_seeds") or {}).items()},
        )


class DealUnits:
    """The table's running deal unit, the next unit's seed, and the units' reveals."""

    KEEP = 50  # reveals kept (the last 20 are saved in the layout)

    def __init__(self, reveal_seeds: bool, seed_source: Callable[[], bytes]) -> None:
        self.reveal_seeds = reveal_seeds
        self.seed_source = seed_source
        self.reveals: list[Reveal] = []
        self.carry_seed: bytes | None = None  # the running unit's server seed (None: none)
        # what the next round continues from (the shoe position, Pai Gow round 2, the Tien Gow
        # banker): kept across units too, as the game's `NextRound.context` says
        self.carry_context: JSON = {}
        self.client_seeds: dict[str, str] = {}  # the running unit's, by seat (fixed at its start)
        self.next_seed: bytes = seed_source()  # the next unit's, committed to in advance

    # ----- the running unit ------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.carry_seed is not None

    @property
    def next_commitment(self) -> str:
        return commitment(self.next_seed)

    def bound_seats(self) -> frozenset[str]:
        """Seats that must play the next round of the running unit (Pai Gow round 2 gets
        `{"round": 2, "seats": [...]}` from round 1). Empty when anyone seated may be dealt."""
        seats = self.carry_context.get("seats") if self.carry_seed is not None else None
        return frozenset(str(s) for s in seats) if isinstance(seats, list | tuple) else frozenset()

    def key(self) -> bytes:
        """The running unit's stream key (its server seed with its client seeds)."""
        assert self.carry_seed is not None
        return unit_key(self.carry_seed, self.client_seeds)

    def begin(self, client_seeds: Mapping[str, str]) -> None:
        """A new unit starts with the pre-drawn seed and these client seeds; the next unit's
        seed is drawn at once (and its commitment shown)."""
        self.carry_seed, self.next_seed = self.next_seed, self.seed_source()
        self.client_seeds = dict(client_seeds)
        self.reveals.append(
            Reveal(commitment(self.carry_seed), None, [], False, dict(client_seeds))
        )
        self.reveals = self.reveals[-self.KEEP :]

    def current(self) -> Reveal | None:
        return self.reveals[-1] if self.reveals else None

    def add_round(self, round_id: str) -> None:
        current = self.current()
        if current is not None and round_id not in current.rounds:
            current.rounds.append(round_id)

    def end(self, reveal: Callable[[str], None]) -> Reveal | None:
        """The running unit ended: show its seed (where the game shows seeds; `reveal(c)` tells
        the ledger to reveal every round of commitment c). Returns the ended unit's reveal."""
        seed, self.carry_seed = self.carry_seed, None
        self.client_seeds = {}
        current = self.current()
        if current is None or current.ended:
            return None
        current.ended = True
        if seed is not None and self.reveal_seeds and commitment(seed) == current.commitment:
            current.seed_hex = seed.hex()
            reveal(current.commitment)
        return current

    # ----- recovery --------------------------------------------------------------------------
    def adopt(self, seed: bytes, client_seeds: Mapping[str, str], round_id: str) -> None:
        """An open round found in the journal belongs to the running unit (or starts one)."""
        self.carry_seed = seed
        self.client_seeds = dict(client_seeds)
        current = self.current()
        if current is None or current.commitment != commitment(seed):
            self.reveals.append(
                Reveal(commitment(seed), None, [round_id], False, dict(client_seeds))
            )
        elif round_id not in current.rounds:
            current.rounds.append(round_id)

    # ----- layout ---------------------------------------------------------------------------
    def to_json(self) -> JSON:
        return {
            "carry_seed": self.carry_seed.hex() if self.carry_seed else None,
            "carry_context": self.carry_context,
            "unit_client_seeds": dict(self.client_seeds),
            "next_seed": self.next_seed.hex(),
            "reveals": [r.to_json() for r in self.reveals[-20:]],
        }

    def restore(self, data: Mapping[str, Any]) -> None:
        carry = data.get("carry_seed")
        self.carry_seed = bytes.fromhex(carry) if carry else None
        self.carry_context = dict(data.get("carry_context") or {})
        self.client_seeds = {
            str(k): str(v) for k, v in (data.get("unit_client_seeds") or {}).items()
        }
        nxt = data.get("next_seed")
        if nxt:
            self.next_seed = bytes.fromhex(nxt)
        self.reveals = [Reveal.from_json(r, self.reveal_seeds) for r in data.get("reveals", [])]


# ----- what a unit's deal reads and records ---------------------------------------------------
def client_seeds(
    terms: TableTerms,
    seed_of: Mapping[str, str],
    players: Iterable[SeatState],
    skip: Container[str] = (),
) -> dict[str, str]:
    """The seated people's client seeds by seat, read when a unit starts (never bots'; never
    a seed in `skip`, the players whose seed came before this unit's commitment was drawn:
    `Table.seed_after`)."""
    if not terms.client_seeds:
        return {}
    out = {}
    for s in players:
        seed = seed_of.get(s.player or "")
        if seed is not None and not s.bot and (s.player or "") not in skip:
            out[s.seat] = seed
    return out


def commit_tiles(game: Game, key: bytes, round_: Round[Any]) -> TilesCommitment | None:
    """A game that commits to its tiles (`GameSpec.commits_tiles`, Tien Gow): the dealt tiles
    one by one under one root (docs/fairness.md, "Tien Gow's tile commitment")."""
    deck = getattr(round_, "deck", None) if game.commits_tiles else None
    if deck is None:
        return None
    return tiles_commitment(key, list(deck))


def openings(tiles: TilesCommitment, round_: Round[Any]) -> dict[str, JSON]:
    """Once the game is over, each seat's openings of exactly the tiles it was shown (never a
    discard: docs/fairness.md, "Tien Gow's tile commitment")."""
    game_round: Any = round_  # a round of a game that commits to its tiles has their facts
    return {seat: seat_openings(game_round, tiles, seat) for seat in round_.seat_ids()}


def round_meta(
    terms: TableTerms,
    game: Game,
    unit_client_seeds: Mapping[str, str],
    tiles: TilesCommitment | None,
) -> JSON:
    """What each round records about how it was dealt and under which terms (docs/fairness.md)."""
    meta: JSON = {
        "template_id": terms.template_id,
        "template_version": terms.template_version,
        "config_hash": terms.config_hash,
        "engine_version": str(getattr(game, "engine_version", qipai.__version__)),
        **deal_meta(unit_client_seeds),
    }
    if tiles is not None:
        meta["tiles_root"] = tiles.root
    return meta


__all__ = ["DealUnits", "Reveal", "client_seeds", "commit_tiles", "openings", "round_meta"]
