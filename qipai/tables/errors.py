"""The table's own refusals (not seated, seat taken, not enough money…): typed errors with a
stable code, raised by the table's parts and re-exported by `table.py`."""

from __future__ import annotations

from qipai.core.errors import GameError, InvalidInput


class TableError(GameError):
    """A refusal by the table itself (not seated, seat taken, not enough money…)."""

    code = "table_error"


class NotSeated(TableError):
    code = "not_seated"


class SeatTaken(TableError):
    code = "seat_taken"


class Funds(TableError):
    code = "insufficient_funds"


class BuyInRange(TableError):
    """docs/rules/common.md#buy-in "Decision (buy-in)": a seat's stack is within the table's buy-in range."""

    code = "buy_in_out_of_range"


class BotsNotAllowed(TableError):
    code = "bots_not_allowed"


class TableSuspended(TableError):
    code = "table_suspended"


class TableClosed(TableError):
    code = "table_closed"


class TableMoved(TableError):
    code = "table_moved"


class HostDraining(TableError):
    """An operator drains this table host: it opens and seats at no new table (another host
    does)."""

    code = "host_draining"


class GameInProgress(TableError):
    """docs/rules/paigow.md#the-game: a Pai Gow game is two rounds; nobody may leave between them."""

    code = "game_in_progress"


class ClientSeedsOff(InvalidInput):
    """docs/fairness.md, "Client seeds": this table's client seeds are off, so a seed given to it
    would be dropped; it is refused instead (nothing changes)."""

    code = "client_seeds_off"

    def __init__(self) -> None:
        super().__init__("this table does not take client seeds: sit without one", "client_seed")


class CommitmentMoved(TableError):
    """The client seed was meant for a commitment that is no longer the next one (its unit
    began): the seed would meet a server seed drawn after it; refused, nothing changes."""

    code = "commitment_moved"

    def __init__(self, current: str) -> None:
        super().__init__(
            f"that commitment's unit has begun; the next unit's commitment is {current}",
            "commitment",
        )
        self.current = current


class StaleAction(TableError):
    """docs/protocol.md, "State versions": the action was built from a state that is no longer
    the current one (the round moved on, or the player's legal actions changed); nothing was
    taken. Names the current round and version, so the client can show what happened."""

    code = "stale_action"

    def __init__(self, message: str, round_id: str | None, phase: str | None, version: str) -> None:
        super().__init__(message, "version")
        self.round_id = round_id
        self.phase = phase
        self.version = version

    def to_json(self) -> dict[str, str]:
        out = super().to_json()
        if self.round_id is not None:
            out["round_id"] = self.round_id
        if self.phase is not None:
            out["phase"] = self.phase
        out["version"] = self.version
        return out


__all__ = [
    "BotsNotAllowed",
    "BuyInRange",
    "ClientSeedsOff",
    "CommitmentMoved",
    "Funds",
    "GameInProgress",
    "HostDraining",
    "NotSeated",
    "SeatTaken",
    "StaleAction",
    "TableClosed",
    "TableError",
    "TableMoved",
    "TableSuspended",
]
