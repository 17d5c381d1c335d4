"""The game protocol every game in `qipai/games/` implements (ARCHITECTURE.md).

Modelled on OpenSpiel's state API and boardgame.io's pure game definitions: a round is a pure,
synchronous state machine. The table layer drives it in time (countdowns call `expire`), the
server sends each client only `view(seat)`, and the journal stores `(config, seed, actions)` —
enough to rebuild the round exactly with `replay`.

Errors: `act` raises `InvalidInput`, `IllegalAction`, `OutOfTurn` or `WrongPhase` and leaves the
round unchanged; games validate fully before they mutate (`_check`, then `_apply`).

Actions are typed: each game declares `Action`, a union of frozen pydantic models tagged by
`type` (`qipai/games/<game>/actions.py`). `act` and `check` take a typed action or its JSON
(parsed first, `InvalidInput` naming the field), and the log keeps each action's canonical JSON
(`action_json`), which is what the journal stores and `replay` parses again. `check(seat,
action)` validates exactly as `act` would and changes nothing, so a table can journal an
action between `check` and `act`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Self, TypeVar

from pydantic import BaseModel, TypeAdapter

from qipai.core.errors import InvalidInput, OutOfTurn, WrongPhase
from qipai.core.model import parse_with
from qipai.core.rng import Rng

JSON = dict[str, Any]

# Reserved account names for postings; any other account is a seat/participant id.
HOUSE = "house"
COMMISSION = "commission"
ROUNDING = "rounding"
JACKPOT = "jackpot"
HOUSE_ACCOUNTS = frozenset({HOUSE, COMMISSION, ROUNDING, JACKPOT})

# Fast construction of the frozen dataclasses below, which every round builds several of: the
# generated `__init__` of a frozen dataclass sets each field through `object.__setattr__`; these
# hand-written ones (kept by `@dataclass`, which never replaces a class's own `__init__`) install
# the whole instance dict in one call instead. Same fields, defaults, equality, hash and repr.
_set_fields = object.__setattr__
# Marks "argument not given" for a field whose default is a fresh empty dict (default_factory).
_NO_DATA: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class Seat:
    """A participant in a round: its id (seat name or player id) and the stack it brings."""

    id: str
    stack: int = 0

    def to_json(self) -> JSON:
        return {"id": self.id, "stack": self.stack}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Seat:
        return cls(str(data["id"]), int(data.get("stack", 0)))


@dataclass(frozen=True)
class ActionSpec:
    """One kind of action a seat may take now, with its JSON-ready constraints.

    `options` is game-specific and documented by each game, e.g. `{"choices": [0, 1, 2, 3, 4]}`
    for a bid, or `{"spots": {"P1": {"min": 10, "max": 500}}}` for a bet.
    """

    type: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"type": self.type, **dict(self.options)}


@dataclass(frozen=True)
class Event:
    """Something that happened. `to` is None for a public event, else the seats that may see it."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    to: tuple[str, ...] | None = None

    def __init__(
        self, type: str, data: Mapping[str, Any] = _NO_DATA, to: tuple[str, ...] | None = None
    ) -> None:
        if data is _NO_DATA:
            data = {}
        _set_fields(self, "__dict__", {"type": type, "data": data, "to": to})

    def visible_to(self, seat: str | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> JSON:
        return {"type": self.type, **dict(self.data)}


@dataclass(frozen=True)
class RecordedAction:
    """One entry of a round's log: a seat's action, or (seat None) the countdown expiring."""

    seat: str | None
    action: Mapping[str, Any]

    def __init__(self, seat: str | None, action: Mapping[str, Any]) -> None:
        _set_fields(self, "__dict__", {"seat": seat, "action": action})

    def to_json(self) -> JSON:
        return {"seat": self.seat, "action": dict(self.action)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RecordedAction:
        return cls(data.get("seat"), dict(data["action"]))


EXPIRE: Mapping[str, Any] = {"type": "expire"}


@dataclass(frozen=True)
class Posting:
    """A signed money movement for one account (positive = the account receives)."""

    account: str
    amount: int
    memo: str = ""

    def __init__(self, account: str, amount: int, memo: str = "") -> None:
        _set_fields(self, "__dict__", {"account": account, "amount": amount, "memo": memo})

    def to_json(self) -> JSON:
        return {"account": self.account, "amount": self.amount, "memo": self.memo}


@dataclass(frozen=True)
class RoundResult:
    """A finished round: balanced postings and game-specific details (hands, ranks, per-bet)."""

    postings: tuple[Posting, ...]
    details: Mapping[str, Any] = field(default_factory=dict)

    def __init__(
        self, postings: tuple[Posting, ...], details: Mapping[str, Any] = _NO_DATA
    ) -> None:
        if details is _NO_DATA:
            details = {}
        _set_fields(self, "__dict__", {"postings": postings, "details": details})
        total = 0
        for posting in postings:
            total += posting.amount
        if total != 0:
            raise AssertionError(f"round postings do not balance: they sum to {total}")

    def net(self, account: str) -> int:
        return sum(p.amount for p in self.postings if p.account == account)

    def to_json(self) -> JSON:
        return {"postings": [p.to_json() for p in self.postings], "details": dict(self.details)}


@dataclass(frozen=True)
class NextRound:
    """How the next round at the table follows this one.

    `reuse_seed` is True while the same deal unit goes on (the same Pok Deng shoe, round 2 of a
    Pai Gow game): the next round starts from the same seed with `context`. False means a fresh
    seed and commitment (a new shoe or tile set); `context` still carries table state such as the
    Tien Gow banker and streak.
    """

    reuse_seed: bool = False
    context: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, reuse_seed: bool = False, context: Mapping[str, Any] = _NO_DATA) -> None:
        if context is _NO_DATA:
            context = {}
        _set_fields(self, "__dict__", {"reuse_seed": reuse_seed, "context": context})


ConfigT = TypeVar("ConfigT")


class Round(ABC, Generic[ConfigT]):
    """Base of every game's round state machine.

    Subclasses implement `start`, `phase`, `deadline_s`, `legal_actions`, `_check`, `_apply`,
    `_expire`, `view`, `result` and `finished`. The base keeps the action log and enforces the
    "refuse without changing anything" contract around `act`.
    """

    game: ClassVar[str] = ""

    def __init__(self, config: ConfigT, seats: Sequence[Seat]) -> None:
        ids = [s.id for s in seats]
        if len(set(ids)) != len(ids):
            raise InvalidInput(f"duplicate seat ids: {ids}")
        self.config = config
        self.seats: tuple[Seat, ...] = tuple(seats)
        self.log: list[RecordedAction] = []

    # ----- construction -------------------------------------------------------------------
    @classmethod
    @abstractmethod
    def start(
        cls,
        config: ConfigT,
        seats: Sequence[Seat],
        rng: Rng,
        context: Mapping[str, Any] | None = None,
    ) -> Self:
        """Begin a round. `context` carries state from earlier rounds of the same deal unit
        (the shoe position in Pok Deng, round 2 of a Pai Gow game, the banker streak)."""

    @classmethod
    def replay(
        cls,
        config: ConfigT,
        seats: Sequence[Seat],
        seed: bytes,
        actions: Sequence[RecordedAction],
        context: Mapping[str, Any] | None = None,
    ) -> Self:
        """Rebuild a round exactly from its journal: a round is a fold over its actions."""
        round_ = cls.start(config, seats, Rng(seed), context)
        for entry in actions:
            if entry.seat is None:
                round_.expire()
            else:
                round_.act(entry.seat, entry.action)
        return round_

    # ----- state ----------------------------------------------------------------------------
    @property
    @abstractmethod
    def phase(self) -> str:
        """The current phase's name (e.g. "betting", "swap", "finished")."""

    @property
    @abstractmethod
    def deadline_s(self) -> float | None:
        """The current phase's countdown length in seconds, or None when nobody is awaited."""

    @property
    def finished(self) -> bool:
        return self.phase == "finished"

    def seat_ids(self) -> list[str]:
        return [s.id for s in self.seats]

    @abstractmethod
    def legal_actions(self, seat: str) -> list[ActionSpec]:
        """Exactly the actions this seat may take now (empty when it has nothing to do)."""

    @abstractmethod
    def awaiting(self) -> list[str]:
        """Seats whose action the current phase still waits for (the countdown's subjects)."""

    # ----- moves ----------------------------------------------------------------------------
    # The game's actions: a union of frozen pydantic models tagged by `type` (None: a legacy
    # game whose `_check` reads a Mapping itself).
    Action: ClassVar[Any] = None
    # The message of `WrongPhase` for an action after the end.
    finished_message: ClassVar[str] = "the round is finished"

    @classmethod
    def action_adapter(cls) -> TypeAdapter[Any] | None:
        """The validator of `Action`, built once per game."""
        if cls.Action is None:
            return None
        adapter: TypeAdapter[Any] | None = cls.__dict__.get("_action_adapter")
        if adapter is None:
            adapter = TypeAdapter(cls.Action)
            setattr(cls, "_action_adapter", adapter)  # noqa: B010 - per subclass, not inherited
        return adapter

    @classmethod
    def parse_action(cls, action: object) -> Any:
        """A typed action from JSON (a typed one passes as it is); InvalidInput names the field."""
        adapter = cls.action_adapter()
        if adapter is None:
            if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
                raise InvalidInput("an action is an object with a string 'type'", field="type")
            return action
        if isinstance(action, BaseModel):
            return action
        return parse_with(adapter, action, f"{cls.game or 'game'} action", tagged=True)

    @classmethod
    def action_json(cls, action: Any) -> JSON:
        """An action's canonical JSON: its type, then every field that differs from its default
        (what the journal stores; `parse_action` reads it back to the same action)."""
        if isinstance(action, BaseModel):
            data = action.model_dump(mode="json", exclude_defaults=True)
            return {"type": getattr(action, "type"), **data}  # noqa: B009
        return dict(action)

    def _precheck(self, seat: str) -> None:
        if seat not in self.seat_ids():
            raise OutOfTurn(f"seat {seat!r} is not in this round")
        if self.finished:
            raise WrongPhase(self.finished_message)

    def check(self, seat: str, action: Any) -> None:
        """Validate `action` exactly as `act` would; raise its typed error; change nothing."""
        typed = self.parse_action(action)
        self._precheck(seat)
        self._check(seat, typed)

    def act(self, seat: str, action: Any) -> list[Event]:
        """Validate and apply a seat's action; raise a typed error and change nothing if invalid."""
        typed = self.parse_action(action)
        self._precheck(seat)
        checked = self._check(seat, typed)
        events = self._apply(seat, checked)
        self.log.append(RecordedAction(seat, self.action_json(typed)))
        return events

    def expire(self) -> list[Event]:
        """The countdown ran out: apply the rules' defaults for every seat still awaited."""
        if self.finished:
            raise WrongPhase("the round is finished")
        events = self._expire()
        self.log.append(RecordedAction(None, dict(EXPIRE)))
        return events

    def won_so_far(self) -> dict[str, int]:
        """Money already decided by completed parts of an unfinished round (seat → net), for
        the interrupted-game policy (docs/rules/common.md#interrupted-games: the better of "won so far" and "stakes
        returned"). Default: nothing is decided before the end."""
        return {}

    @abstractmethod
    def _check(self, seat: str, action: Any) -> Any:
        """Validate a typed action without mutating; return whatever `_apply` needs."""

    @abstractmethod
    def _apply(self, seat: str, checked: Any) -> list[Event]:
        """Apply an action that `_check` accepted."""

    @abstractmethod
    def _expire(self) -> list[Event]:
        """Apply the defaults of the current phase and move on."""

    # ----- output ---------------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: str | None) -> JSON:
        """JSON-ready state as `seat` may see it (None = a spectator): never hidden cards."""

    @abstractmethod
    def result(self) -> RoundResult:
        """Hands, ranks and the balanced postings; raises WrongPhase before the round ends."""

    def next_round(self) -> NextRound:
        """What the next round needs from this one (default: a fresh seed, no context)."""
        self.require_finished()
        return NextRound()

    def require_finished(self) -> None:
        if not self.finished:
            raise WrongPhase(f"the round is not finished (phase {self.phase!r})")


RoundT = TypeVar("RoundT", bound=Round[Any])


def replay(
    round_type: type[RoundT],
    config: Any,
    seats: Sequence[Seat],
    seed: bytes,
    actions: Sequence[RecordedAction],
    context: Mapping[str, Any] | None = None,
) -> RoundT:
    """`replay(config, seed, actions)` for any game: the round type names the game."""
    return round_type.replay(config, seats, seed, actions, context)
