"""Request and response models of the HTTP API (the OpenAPI document is built from them).

Requests are strict: an amount is a JSON integer (not `true`, `"50"`, `1.0`, NaN), unknown
fields are refused, and text must be storable (`StoredStr`). A table's public facts and a
round's view are the table runtime's and the games' documents (docs/protocol.md,
docs/schema/), passed through as JSON objects.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from qipai.core.messages import SeedNote
from qipai.server.inputs import StoredStr

MAX_DEPOSIT = 1_000_000
MAX_BUY_IN = 100_000_000

JSONObject = dict[str, Any]


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# ----- requests ---------------------------------------------------------------------------
class CredentialsIn(Strict):
    username: StoredStr = Field(min_length=1, max_length=64)
    password: StoredStr = Field(min_length=1, max_length=200)


class DepositIn(Strict):
    amount: int = Field(gt=0, le=MAX_DEPOSIT)
    key: StoredStr | None = Field(default=None, min_length=1, max_length=64)
    method: StoredStr = Field(default="", max_length=24)
    """How the money comes (a deposit request with demo money off: the cashier matches it)."""
    reference: StoredStr = Field(default="", max_length=64)
    """The payment's reference (a transfer's id, a receipt number)."""


class CreateTableIn(Strict):
    game: StoredStr = Field(max_length=32)
    name: StoredStr = Field(default="", max_length=40)
    config: dict[str, Any] = Field(default_factory=dict)


class SitIn(Strict):
    buy_in: int = Field(ge=0, le=MAX_BUY_IN)
    seat: StoredStr | None = Field(default=None, max_length=8)
    # docs/fairness.md: checked by qipai.fairness.check_client_seed (printable ASCII, 1–64),
    # which names the problem (a length, a character)
    client_seed: str | None = Field(default=None, max_length=1000)


class ClientSeedIn(Strict):
    client_seed: str = Field(max_length=1000)
    commitment: str | None = Field(
        default=None,
        max_length=64,
        description="the table's `next_commitment` you saw: refused (`commitment_moved`) if "
        "its unit has begun meanwhile",
    )


class ClientSeedOut(BaseModel):
    table_id: str
    client_seed: str
    applies: str
    commitment: str = Field(
        description="the commitment of the deal unit your seed enters (its server seed was "
        "drawn and committed to before your seed came)"
    )


class BotsIn(Strict):
    level: StoredStr | None = Field(default=None, max_length=32)
    count: int | None = Field(default=None, ge=1, le=10)


class AutomatchIn(Strict):
    game: StoredStr = Field(max_length=32)
    buy_in: int = Field(gt=0, le=MAX_BUY_IN)


# ----- responses --------------------------------------------------------------------------
class SessionOut(BaseModel):
    player: str = Field(description="the player's id (the username as spelt at sign-up)")
    token: str = Field(description="send as `Authorization: Bearer <token>`; WebSocket: auth")


class Ok(BaseModel):
    ok: bool = True


class LoggedOut(BaseModel):
    ok: bool = True
    sessions: int = Field(description="sessions ended")
    sockets: int = Field(description="WebSockets closed")


class SeatedAt(BaseModel):
    table_id: str
    game: str
    seat: str
    stack: int


class MeOut(BaseModel):
    player: str
    wallet: int
    tables: list[SeatedAt]


class WalletOut(BaseModel):
    wallet: int
    statement: list[JSONObject] = Field(description="the wallet's last 20 ledger entries")


class DepositOut(BaseModel):
    wallet: int
    status: str = Field(
        default="approved",
        description="approved (demo money, credited now) or pending (a request an operator "
        "approves: demo money is off)",
    )
    request_id: int | None = None
    demo_left_today: int | None = Field(
        default=None, description="demo money this player may still deposit today (UTC)"
    )


class GameOut(BaseModel):
    game: str
    title: dict[str, str]
    seats: list[str]
    min_players: int
    bot_levels: list[str]
    default_buy_in: int
    tables: int
    renderer: str | None = Field(
        default=None,
        description="URL of the game's own renderer (an ES module from its folder), if it has one",
    )
    strings: str | None = Field(
        default=None, description="URL of the game's own UI strings ({zh, en}), if it has them"
    )
    templates: list[JSONObject] = Field(
        default_factory=list,
        description="the operator's templates of this game, each with its facts (pay table, "
        "limits, buy-in range, exact return of every bet)",
    )


class GamesOut(BaseModel):
    games: list[GameOut]


class TablesOut(BaseModel):
    tables: list[JSONObject] = Field(description="each table's public facts")


class SatOut(BaseModel):
    table_id: str
    seat: str
    stack: int
    wallet: int
    client_seed: SeedNote | None = Field(
        default=None, description="your client seed and the commitment it meets"
    )


class LeftOut(BaseModel):
    table_id: str
    cashed_out: int | None
    after_round: bool
    wallet: int


class BotsOut(BaseModel):
    table_id: str
    bots: list[str]


class AutomatchOut(BaseModel):
    table_id: str
    seat: str | None
    table: JSONObject
    client_seed: SeedNote | None = Field(
        default=None, description="your client seed and the commitment it meets"
    )


class PlayerLine(BaseModel):
    seat: str
    user_id: str
    start_balance: int
    end_balance: int | None
    net: int | None


class RoundOut(BaseModel):
    round_id: str
    table_id: str
    game: str
    status: str
    opened_at: str | None
    closed_at: str | None
    seat: str | None = Field(description="your seat in the round, null if you were not in it")
    players: list[PlayerLine]
    commitment: str | None
    seed: str | None
    seed_policy: str
    view: JSONObject | None = Field(description="the round as you saw it at its end")


class RoundDetailOut(RoundOut):
    """A round's summary and, when the round can be exported, its `qipai-round/1` keys."""

    format: str | None = None
    deal_spec: str | None = None
    client_seeds: Any = None
    inputs: Any = None
    dealt: Any = None
    tiles: Any = None


class HistoryOut(BaseModel):
    rounds: list[RoundOut]


class HealthOut(BaseModel):
    ok: bool
    tables: int
    sockets: int


__all__ = [
    "MAX_DEPOSIT",
    "AutomatchIn",
    "AutomatchOut",
    "BotsIn",
    "BotsOut",
    "CreateTableIn",
    "CredentialsIn",
    "DepositIn",
    "DepositOut",
    "GameOut",
    "GamesOut",
    "HealthOut",
    "HistoryOut",
    "LeftOut",
    "LoggedOut",
    "MeOut",
    "Ok",
    "RoundOut",
    "SatOut",
    "SeedNote",
    "SessionOut",
    "TablesOut",
    "WalletOut",
]
