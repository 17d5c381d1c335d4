"""A typed, read-only snapshot of a table: everything `messages.py` may read to build a client's
message, taken once per change (and shared by every listener) instead of reading the table's
internals. The round is exposed only through its read-only methods (`RoundReadout`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from qipai.core.protocol import JSON, ActionSpec
from qipai.tables.versions import VersionCache


class RoundReadout(Protocol):
    """The read-only part of the Round protocol that messages use."""

    @property
    def phase(self) -> str: ...
    @property
    def finished(self) -> bool: ...
    def seat_ids(self) -> list[str]: ...
    def awaiting(self) -> list[str]: ...
    def legal_actions(self, seat: str) -> list[ActionSpec]: ...
    def view(self, seat: str | None) -> JSON: ...


@dataclass(frozen=True)
class RoundFacts:
    round: RoundReadout  # the running round, or the last one once it finished
    running: bool  # False: the round shown is the last finished (or interrupted) one
    round_id: str
    number: int
    commitment: str
    deadline: float | None
    openings: Mapping[str, JSON]  # Tien Gow: each seat's tile openings, once the game ended


@dataclass(frozen=True)
class TableSnapshot:
    table: JSON  # `Table.public_info()`: the lobby's facts (no cards, no running seeds)
    seat_of: Mapping[str, str]  # player -> seat
    round: RoundFacts | None
    hint: Callable[[JSON], JSON | None] | None
    fairness: JSON  # seed policy, current commitment, next commitment, revealed units
    tiles: JSON | None  # Tien Gow's published tile commitment of the running game
    last_result: JSON | None
    results: tuple[JSON, ...]
    next_start_at: float | None
    now: float
    versions: VersionCache  # the table's: each seat's state version (`versions.py`)
    # player -> which commitment their client seed meets (`lobby.seed_note`)
    seed_notes: Mapping[str, JSON] = field(default_factory=dict)


__all__ = ["RoundFacts", "RoundReadout", "TableSnapshot"]
