"""The WebSocket messages of the card room, typed (docs/protocol.md, "WebSocket /ws").

These models are the contract's third part, beside each game's actions and view: their JSON
Schemas are generated into `docs/schema/messages.client.json` (what a client may send) and
`docs/schema/messages.server.json` (what the server sends), checked in CI like the others, and
`tests/conformance/test_messages.py` validates every message a real server sends in a played
round against them.

What each layer owns inside a message is typed here as far as the contract goes and left open
(`dict`) where another document describes it: `round.view` is the game's view
(`docs/schema/<game>.view.json`), `legal` holds the game's legal-action options, and the
table's public facts (`table`), its fairness block (`fairness`, docs/fairness.md) and a round's
`result` are the tables layer's.

Names: a view's own block is `me` and its countdown `countdown_s` (the phase's length, from the
game); the state message's `you` is the connection's identity at the table (player, seat), and
`round.deadline` / `round.time_left` are the table's clock (absolute server time and seconds
left) — docs/schema/README.md, "Naming".
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

ClientId = Annotated[str, Field(min_length=1, max_length=64)]


class Message(BaseModel):
    """A closed message: unknown keys are not part of the protocol."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


# ----- client → server ---------------------------------------------------------------------------
class Auth(Message):
    type: Literal["auth"]
    token: str
    heartbeat: bool = Field(
        default=False, description='a ping at least every second (docs/protocol.md, "Heartbeat")'
    )
    deltas: bool = Field(
        default=False,
        description='states after the first of a table may come as `delta` (docs/protocol.md, "Deltas")',
    )


class Subscribe(Message):
    type: Literal["subscribe"]
    table_id: str
    client_id: ClientId | None = None


class Unsubscribe(Message):
    type: Literal["unsubscribe"]
    table_id: str
    client_id: ClientId | None = None


class ActionMessage(Message):
    type: Literal["action"]
    table_id: str
    client_id: ClientId
    version: str = Field(
        min_length=3,
        max_length=81,
        description="the `version` of the state message the action was built from "
        '(docs/protocol.md, "State versions")',
    )
    action: dict[str, Any] = Field(
        description="the game's action (docs/schema/<game>.actions.json)"
    )


class Ping(Message):
    type: Literal["ping"]
    client_id: ClientId | None = None


ClientMessage = Annotated[
    Auth | Subscribe | Unsubscribe | ActionMessage | Ping, Field(discriminator="type")
]


# ----- server → client ---------------------------------------------------------------------------
class Hello(Message):
    type: Literal["hello"]
    player: str
    protocol: int


class SeedNote(Message):
    """Which commitment my client seed meets (docs/fairness.md, "Which commitment a seed
    meets")."""

    client_seed: str
    in_unit: bool = Field(description="the running deal unit was keyed with it")
    commitment: str | None = Field(
        description="the commitment of the unit it is in or enters; null while that unit's "
        "server seed is not drawn yet (see `after_commitment`)"
    )
    after_commitment: str | None = Field(
        description="a commitment drawn after the seed came (a table opened for you by "
        "automatch): the seed skips that unit and enters the next one, from its first round"
    )


class You(Message):
    player: str
    seat: str | None
    in_round: bool
    client_seed: SeedNote | None = Field(
        default=None, description="my client seed and the commitment it meets (seated only)"
    )


class RoundState(Message):
    round_id: str
    number: int
    phase: str
    finished: bool
    awaiting: list[str]
    deadline: float | None = Field(description="server time at which the countdown ends")
    time_left: float | None = Field(description="seconds left on the countdown")
    view: dict[str, Any] = Field(description="round.view(seat): docs/schema/<game>.view.json")
    hint: dict[str, Any] | None
    commitment: str | None
    tiles: TilesRoot | None = Field(
        description="Tien Gow, while a game runs: the dealt tiles' commitment (docs/fairness.md)"
    )
    openings: list[Any] | dict[str, Any] | None = Field(
        description="Tien Gow, once the game is over: the openings of the tiles you were shown"
    )


class UnitNow(Message):
    commitment: str = Field(description="SHA-256 of the unit's server seed, shown before its deal")
    seed: str | None = Field(description="the server seed (hex) once revealed, else null")


class RevealedUnit(Message):
    commitment: str
    seed: str | None = Field(description="null for a game whose seeds players never see")
    rounds: list[str] = Field(description="the unit's round ids")
    ended: bool
    client_seeds: dict[str, str] = Field(
        description="the client seeds the unit was keyed with, by seat (docs/fairness.md)"
    )


class Fairness(Message):
    """The table's fairness block (docs/fairness.md, docs/protocol.md)."""

    seed_policy: Literal["after_deal", "operator_only"]
    deal_spec: str = Field(description="the deal specification's version, e.g. deal-spec/1")
    current: UnitNow | None = Field(description="the running (or last) deal unit")
    next_commitment: str = Field(
        description="the next unit's commitment: a client seed set now meets this one"
    )
    client_seeds: dict[str, str] = Field(
        description="the current (or last) unit's client seeds by seat: with its seed, the key"
    )
    client_seeds_enabled: bool = Field(description="whether this table takes client seeds")
    revealed: list[RevealedUnit] = Field(description="the last units ended (at most 5)")


class TilesRoot(Message):
    scheme: str
    root: str = Field(description="the dealt tiles' commitment root (hex)")
    leaves: list[str]


class EventName(Message):
    type: str
    seat: str | None


class State(Message):
    type: Literal["state"]
    table_id: str
    version: str = Field(
        description="this state's version for your seat: send it with every action built "
        'from this state (docs/protocol.md, "State versions")'
    )
    table: dict[str, Any] = Field(description="the table's public facts (tables layer)")
    you: You
    round: RoundState | None
    legal: list[dict[str, Any]] = Field(description="round.legal_actions(your seat)")
    events: list[EventName]
    result: dict[str, Any] | None
    results: list[dict[str, Any]]
    fairness: Fairness
    next_round_in: float | None
    server_time: float
    seq: int = Field(
        description="this state's number: a later `delta` with this number as its `base` "
        'applies to it (docs/protocol.md, "Deltas")'
    )


class PatchOp(Message):
    """One RFC 6902 operation; only these three are used."""

    op: Literal["add", "remove", "replace"]
    path: str = Field(description="an RFC 6901 pointer into the state")
    value: Any = None


class Delta(Message):
    type: Literal["delta"]
    table_id: str
    base: int = Field(description="the `seq` of the state this patch applies to")
    seq: int = Field(description="the `seq` of the state it makes")
    patch: list[PatchOp] = Field(
        description='RFC 6902 JSON Patch of the state (docs/protocol.md, "Deltas"); a client '
        "that does not hold state `base` subscribes again for the whole state"
    )


class Ack(Message):
    type: Literal["ack"]
    client_id: ClientId | None
    duplicate: bool
    table_id: str | None = None


class Error(Message):
    type: Literal["error"]
    code: str
    message: str
    field: str | None = None
    client_id: ClientId | None = None
    table_id: str | None = None
    round_id: str | None = Field(
        default=None, description="stale_action: the round running now (absent: none is)"
    )
    phase: str | None = Field(default=None, description="stale_action: its phase now")
    version: str | None = Field(
        default=None, description="stale_action: the current state version of your seat"
    )


class Left(Message):
    type: Literal["left"]
    table_id: str
    table: str | None = None
    cashed_out: int | None
    reason: str | None = None


class Away(Message):
    type: Literal["away"]
    table_id: str
    table: str | None = None
    seat: str | None


class Pong(Message):
    type: Literal["pong"]
    client_id: ClientId | None


class Unsubscribed(Message):
    type: Literal["unsubscribed"]
    table_id: str


ServerMessage = Annotated[
    Hello | State | Delta | Ack | Error | Left | Away | Pong | Unsubscribed,
    Field(discriminator="type"),
]

SCHEMAS: dict[str, TypeAdapter[Any]] = {
    "messages.client": TypeAdapter(ClientMessage),
    "messages.server": TypeAdapter(ServerMessage),
}
