"""The table's own refusals (not seated, seat taken, not enough money…): typed errors with a
stable code, raised by the table's parts and re-exported by `table.py`."""

from __future__ import annotations

from qipai.core.errors import GameError


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


__all__ = [
    "BotsNotAllowed",
    "BuyInRange",
    "Funds",
    "GameInProgress",
    "HostDraining",
    "NotSeated",
    "SeatTaken",
    "TableClosed",
    "TableError",
    "TableMoved",
    "TableSuspended",
]
