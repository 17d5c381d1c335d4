"""Random playouts over any GameSpec (after OpenSpiel's random_sim_test).

A playout starts a round with random stacks, then repeatedly picks a seat and an action that is
either what the game's random bot chooses from the legal actions or a mutation of it (a stray
field, a wrong type, an unknown type, another seat, a seat that is not playing). Every attempt
goes through `check` and then `act`: both must agree, and a refusal must leave the round exactly
as it was (every seat's view, the spectator's, the log); an action the bot chose from the legal
actions, unmutated, must be accepted (legal_actions and the validation agree). When nobody has a legal action the
countdown expires.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema

from qipai.core.errors import GameError
from qipai.core.protocol import Round, Seat
from qipai.core.rng import Rng
from qipai.core.spec import GameSpec
from qipai.games import registry

MAX_STEPS = 400


PLUGIN = Path(__file__).resolve().parent / "plugin"


@contextlib.contextmanager
def mounted(folder: Path = PLUGIN) -> Iterator[None]:
    """The game folders in `folder` as if they were in `qipai/games/` (a new folder there is
    one more entry of the package's search path), for the time of the block."""
    import qipai.games as games_package

    entry = str(folder)
    games_package.__path__.append(entry)
    registry.rediscover()
    try:
        yield
    finally:
        games_package.__path__.remove(entry)
        registry.rediscover()


@functools.cache
def plugin_specs() -> tuple[GameSpec, ...]:
    """The one-folder test games (tests/conformance/plugin/), found by the registry's own
    discovery while mounted; their modules stay imported afterwards."""
    shipped = set(registry.available())
    with mounted():
        found = [spec for name, spec in registry.available().items() if name not in shipped]
    assert found, "no game found in tests/conformance/plugin"
    return tuple(found)


def specs() -> list[GameSpec]:
    """Every game of the registry, then the one-folder test games."""
    return [*registry.available().values(), *plugin_specs()]


def spec_ids() -> list[str]:
    return [spec.name for spec in specs()]


def snapshot(round_: Round[Any]) -> str:
    """Everything observable about a round, as one text (views, log, phase, legal actions)."""
    seats = round_.seat_ids()
    state = {
        "phase": round_.phase,
        "deadline": round_.deadline_s,
        "awaiting": round_.awaiting(),
        "spectator": round_.view(None),
        "views": {s: round_.view(s) for s in seats},
        "legal": {s: [a.to_json() for a in round_.legal_actions(s)] for s in seats},
        "log": [entry.to_json() for entry in round_.log],
        "won_so_far": round_.won_so_far(),
    }
    if round_.finished:
        state["result"] = round_.result().to_json()
    return json.dumps(state, sort_keys=True, default=str)


def outcome(call: Callable[[], Any]) -> str | None:
    """None when the call succeeds, else the refusal's code (other exceptions propagate)."""
    try:
        call()
    except GameError as exc:
        return exc.code
    return None


@dataclass
class Playout:
    spec: GameSpec
    seats: list[Seat]
    seed: bytes
    config: Any
    round: Round[Any]
    refused: int = 0
    accepted: int = 0
    expired: int = 0
    codes: set[str] = field(default_factory=set)


def mutations(action: Any, other_seat: str, rng: Rng) -> Iterator[tuple[str, Any]]:
    """(seat, action) variants of a legal JSON action that are mostly invalid."""
    if not isinstance(action, dict):
        return
    yield "", {**action, "zz_stray": 1}
    yield "", {**action, "type": "zz_unknown"}
    yield "", {k: v for k, v in action.items() if k != "type"}
    for key, value in action.items():
        if key == "type":
            continue
        for bad in (True, 1.5, "7", None, [], {}, -1, 10**30, float("nan")):
            if type(bad) is not type(value) or bad != value:
                yield "", {**action, key: bad}
                break
        yield "", {**{k: v for k, v in action.items() if k != key}, key[:-1] or "k": value}
    yield "nobody", action
    yield other_seat, action


def start(spec: GameSpec, rng: Rng, stacks: list[int] | None = None) -> Playout:
    players = spec.min_players + rng.randbelow(spec.max_players - spec.min_players + 1)
    ids = list(spec.seat_ids[:players])
    if stacks is None:
        choices = [0, 1, 99, 1_000, 25_000, 10**6, 10**9]
        stacks = [choices[rng.randbelow(len(choices))] for _ in ids]
    seats = [Seat(s, stack) for s, stack in zip(ids, stacks[: len(ids)], strict=False)]
    seed = rng.next_bytes(32)
    config = spec.parse_config(None)
    round_ = spec.round_type.start(config, seats, Rng(seed))
    return Playout(spec, seats, seed, config, round_)


def legal_types(round_: Round[Any], seat: str) -> set[str]:
    """The action types `legal_actions` offers `seat` now (none for a seat not in the round)."""
    if seat not in round_.seat_ids():
        return set()
    return {spec.type for spec in round_.legal_actions(seat)}


def attempt(play: Playout, seat: str, action: Any) -> str | None:
    """check, then act: they agree; a refusal changes nothing; what is accepted is of a type
    `legal_actions` offered (accepted ⊆ legal: legality has one source, as in PokerKit)."""
    round_ = play.round
    offered = legal_types(round_, seat)
    before = snapshot(round_)
    checked = outcome(lambda: round_.check(seat, action))
    assert snapshot(round_) == before, f"check changed the round: {seat} {action!r}"
    acted = outcome(lambda: round_.act(seat, action))
    assert acted == checked, f"check said {checked}, act said {acted}: {seat} {action!r}"
    if acted is None:
        play.accepted += 1
        kind = action.get("type") if isinstance(action, dict) else None
        assert kind in offered, (
            f"{play.spec.name}: {seat}'s {action!r} was accepted, but legal_actions offered only "
            f"{sorted(offered)}"
        )
        check_action_json(play.spec, action)
    else:
        play.refused += 1
        play.codes.add(acted)
        assert snapshot(round_) == before, f"a refused action changed the round: {action!r}"
    return acted


def run(play: Playout, rng: Rng, illegal_share: int = 3) -> Playout:
    """Play to the end: bots' choices, with `illegal_share` in 10 attempts mutated."""
    spec, round_ = play.spec, play.round
    levels = spec.bot_levels
    bots = {s.id: spec.make_bot(levels[0]) for s in play.seats}
    bot_rng = Rng(b"conformance-bots" * 2)
    for _ in range(MAX_STEPS):
        if round_.finished:
            return play
        movers = [s for s in round_.seat_ids() if round_.legal_actions(s)]
        if not movers or rng.randbelow(20) == 0:
            before_expire = round_.finished
            assert not before_expire
            round_.expire()
            play.expired += 1
            continue
        seat = movers[rng.randbelow(len(movers))]
        action = bots[seat].choose(round_.view(seat), round_.legal_actions(seat), bot_rng)
        if rng.randbelow(10) < illegal_share:
            others = [s for s in round_.seat_ids() if s != seat] or [seat]
            variants = list(mutations(action, others[rng.randbelow(len(others))], rng))
            if variants:
                who, bad = variants[rng.randbelow(len(variants))]
                attempt(play, who or seat, bad)
                continue
        refused = attempt(play, seat, action)
        # legal_actions and the validation agree: what a bot picks from them is accepted
        assert refused is None, f"{spec.name}: {seat}'s legal {action!r} was refused: {refused}"
    raise AssertionError(f"{spec.name}: no end after {MAX_STEPS} steps")


# ----- schemas ---------------------------------------------------------------------------------
SCHEMA_DIR = Path(__file__).resolve().parents[2] / "docs" / "schema"


_VALIDATORS: dict[str, Any] = {}


def validator(spec: GameSpec, kind: str) -> Any:
    """A JSON Schema validator for docs/schema/<game>.<kind>.json (as checked in), or, for a
    test game, for the schema generated from its models now (`kind`: actions, config, view)."""
    from pydantic import TypeAdapter

    from qipai.core import schema as schemas

    name = f"{spec.name}.{kind}"
    if name not in _VALIDATORS:
        path = SCHEMA_DIR / f"{name}.json"
        if path.exists():
            document = json.loads(path.read_text(encoding="utf-8"))
        else:
            source = {
                "actions": lambda: TypeAdapter(spec.actions),
                "config": lambda: spec.config_model,
                "view": lambda: spec.view_model,
            }[kind]()
            document = json.loads(schemas.render(source, name))
        jsonschema.Draft202012Validator.check_schema(document)
        _VALIDATORS[name] = jsonschema.Draft202012Validator(document)
    return _VALIDATORS[name]


def check_views(spec: GameSpec, round_: Round[Any]) -> None:
    """Every seat's and the spectator's view validate against the game's view schema and carry
    the common keys (docs/schema/README.md)."""
    if spec.view_model is None:
        return
    check = validator(spec, "view")
    for seat in [None, *round_.seat_ids()]:
        view = json.loads(json.dumps(round_.view(seat)))
        errors = sorted(check.iter_errors(view), key=lambda e: list(e.path))
        assert not errors, (
            f"{spec.name} view of {seat}: {errors[0].message} at {list(errors[0].path)}"
        )
        assert {"game", "phase", "countdown_s", "awaiting", "me"} <= set(view)
        assert view["game"] == spec.name and view["phase"] == round_.phase
        assert (view["me"] is None) == (seat is None)
        if seat is not None:
            assert view["me"]["id"] == seat


def check_action_json(spec: GameSpec, action: Any) -> None:
    """The canonical JSON of an accepted action validates against the actions schema."""
    canonical = spec.action_json(action)
    errors = list(validator(spec, "actions").iter_errors(canonical))
    assert not errors, f"{spec.name} action {canonical}: {errors[0].message}"


# ----- hidden information ------------------------------------------------------------------------
CARD = re.compile(r"^(?:[2-9TJQKA])[cdhs]$")
TILE = re.compile(r"^[1-6]-[1-6]$")


def tokens(data: Any) -> set[str]:
    """Card names, and tile instances (`tile#id`) or tile faces, anywhere in a JSON document."""
    out: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            tile = x.get("tile") or x.get("pips")
            if "id" in x and isinstance(tile, str) and TILE.match(tile):
                out.add(f"tile#{x['id']}")
                return
            for v in x.values():
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)
        elif isinstance(x, str) and (CARD.match(x) or TILE.match(x)):
            out.add(x)

    walk(data)
    return out


def private_tokens(round_: Round[Any]) -> dict[str, set[str]]:
    """What each seat's view shows that the spectator's does not."""
    public = tokens(round_.view(None))
    return {s: tokens(round_.view(s)) - public for s in round_.seat_ids()}


def check_hidden(round_: Round[Any], shared_faces: bool) -> None:
    """No seat's view shows what another seat holds privately. `shared_faces`: the game has
    identical pieces (Pai Gow's paired tiles), so a face both seats hold is no leak."""
    private = private_tokens(round_)
    for me in round_.seat_ids():
        mine = tokens(round_.view(me))
        for other, theirs in private.items():
            if other == me:
                continue
            leaked = theirs & mine
            if shared_faces:
                leaked -= private[me]
            assert not leaked, f"{me} sees {other}'s private {sorted(leaked)} ({round_.phase})"
