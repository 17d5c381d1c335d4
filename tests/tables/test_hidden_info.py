"""Two players at a table of every game: no message to one player ever contains another's
hidden cards or tiles, any undealt card or tile, or an unrevealed seed — for every message type
in every phase (state, ack, error, left), checked against the round itself at the moment each
message is sent.

A card/tile token in a message to `me` is allowed only if `round.view(me)` shows it at that
moment or showed it earlier in the round (what a player has seen stays seen). Independently, a
token another seat holds privately (in its own view but not the spectator's) must never reach
`me` unless `me` holds an identical one (multi-deck shoes and the paired Chinese tiles).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from helpers import TOY, fresh_ledger  # registers the toy game

from qipai.core.errors import GameError
from qipai.core.rng import Rng
from qipai.tables import games
from qipai.tables.ports import ManualClock
from qipai.tables.table import Table, Timing

CARD = re.compile(r"^(?:[2-9TJQKA])[cdhs]$")
TILE = re.compile(r"^[1-6]-[1-6]$")
GAMES = ["toy", "pokdeng", "paigow", "holdem-bonus", "niuniu", "tiengow"]
assert TOY


def tokens(data: Any) -> set[str]:
    out: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            tile = x.get("tile") or x.get("pips")
            if "id" in x and isinstance(tile, str) and TILE.match(tile):
                out.add(f"tile#{x['id']}")
            for v in x.values():
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)
        elif isinstance(x, str) and (CARD.match(x) or TILE.match(x)):
            out.add(x)

    walk(data)
    return out


class Checker:
    """Wraps a table's `send`: checks each message against the round at that instant."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.seen: dict[str, set[str]] = {}
        self.round_id: str | None = None
        self.coverage: set[tuple[str, str]] = set()
        self.count = 0
        self.hints: list[tuple[str, Any]] = []

    def __call__(self, player: str, message: dict[str, Any]) -> None:
        delta = getattr(message, "delta", None)  # what a delta-taking client gets instead
        if delta is not None:
            self(player, delta.message())
        table = self.table
        round_ = table.round or table.last_round
        record = table.record or table.last_record
        text = json.dumps(message)
        phase = "between" if table.round is None else round_.phase if round_ else "none"
        self.coverage.add((str(message.get("type")), phase))
        self.count += 1
        # seeds: the running deal unit's seed is never sent before it is revealed
        if table.units.reveals and table.units.reveals[-1].seed_hex is None and record is not None:
            assert record.seed_hex not in text, "unrevealed seed leaked"
        if table.units.carry_seed is not None:
            assert table.units.carry_seed.hex() not in text, "seed of the running shoe leaked"
        if round_ is None or record is None:
            return
        hint = (message.get("round") or {}).get("hint")
        if hint is not None:  # advice only about the recipient's own boxes (Hold'em Bonus)
            me_view = round_.view(table.seating.seat_of(player)).get("me") or {}
            assert {b["box"] for b in hint["boxes"]} <= set(me_view.get("boxes") or ()), hint
            self.hints.append((player, hint))
        if record.round_id != self.round_id:
            self.round_id, self.seen = record.round_id, {}
        me = table.seating.seat_of(player)
        ids = round_.seat_ids()
        mine = tokens(round_.view(me)) if me in ids else set()
        self.seen.setdefault(player, set()).update(mine)
        public = tokens(round_.view(None))
        got = tokens(message)
        extra = got - mine - public - self.seen[player]
        assert not extra, (
            f"{player} was sent {sorted(extra)} it may not see ({message.get('type')}, {phase})"
        )
        for other in ids:
            if other == me:
                continue
            private = tokens(round_.view(other)) - public - mine
            leaked = got & private
            assert not leaked, f"{other}'s hidden {sorted(leaked)} reached {player}"


def drive(game: str, rounds: int = 2) -> Checker:
    info = games.get(game)
    ledger, clock = fresh_ledger(), ManualClock()
    table = Table("hid", info, ledger, clock, timing=Timing(0.5, 1.0))
    checker = Checker(table)
    table.send = checker
    humans = ["alice", "bob"]
    for p in humans:
        ledger.deposit(p, 10**6, f"d-{p}")
        table.sit(p, p, info.default_buy_in)
        table.connect(p)
    table.fill_with_bots()
    bot = info.make_bot(info.default_bot())
    rng = Rng(b"hidden-information-test-seed-123")
    n = 0
    phases_err: set[tuple[str, str]] = set()
    for _step in range(5000):
        if len(table.results) >= rounds:
            break
        clock.advance(0.25)
        table.tick()
        if table.round is None:
            continue
        for p in humans:
            seat = table.seating.seat_of(p)
            if table.round is None or seat not in table.round.awaiting():
                continue
            key = (p, table.round.phase)
            if key not in phases_err:  # one refused message per player and phase
                phases_err.add(key)
                reply = table.act(p, {"type": "no-such-action"}, f"bad-{n}")
                checker(p, reply)
                n += 1
            legal = table.round.legal_actions(seat)
            if not legal:
                continue
            try:
                action = bot.choose(table.round.view(seat), legal, rng)
            except GameError:
                continue
            reply = table.act(p, action, f"c-{n}")
            checker(p, reply)
            checker(p, table.act(p, action, f"c-{n}"))  # the duplicate's ack
            n += 1
    table.leave("bob")
    for _ in range(400):
        if table.seating.seat_of("bob") is None:
            break
        clock.advance(0.5)
        table.tick()
    assert len(table.results) >= rounds, f"{game}: only {len(table.results)} rounds finished"
    return checker


@pytest.mark.parametrize(
    "game", [g if g == "toy" else pytest.param(g, marks=pytest.mark.slow) for g in GAMES]
)
def test_no_message_leaks_hidden_information(game: str) -> None:
    if game not in games.available():
        pytest.skip(f"the {game} package is not built yet")
    checker = drive(game)
    kinds = {k for k, _ in checker.coverage}
    assert {"state", "ack", "error", "left"} <= kinds, kinds
    assert checker.count > 20
    if game == "holdem-bonus":  # the optimal-strategy hint reached the deciding players
        assert {p for p, _ in checker.hints} == {"alice", "bob"}


def test_holdem_hint_goes_to_the_deciding_player_only() -> None:
    checker = drive("holdem-bonus", rounds=1)
    assert checker.hints
    for _player, hint in checker.hints:
        for box in hint["boxes"]:
            assert box["action"] in ("play", "fold", "bet", "check")


def test_the_checker_catches_a_leak() -> None:
    """Negative control: a message carrying the other player's card is caught."""
    ledger, clock = fresh_ledger(), ManualClock()
    table = Table("neg", TOY, ledger, clock, timing=Timing(0.5, 1.0))
    checker = Checker(table)
    table.send = checker
    for p in ("alice", "bob"):
        ledger.deposit(p, 1000, f"d-{p}")
        table.sit(p, p, 100)
    table.tick()
    assert table.round is not None
    bobs = table.round.view("B")["cards"]["B"]
    with pytest.raises(AssertionError, match="may not see"):
        checker("alice", {"type": "state", "oops": bobs})
    record = table.record
    assert record is not None
    with pytest.raises(AssertionError, match="seed"):
        checker("alice", {"type": "state", "x": record.seed_hex})


def test_warm_up_loads_the_hold_em_decision_kernels_ahead_of_play() -> None:
    from qipai.games.holdem_bonus import strategy

    games.warm_up()
    assert strategy._turn.cache_info().currsize >= 1
    assert strategy._river.cache_info().currsize >= 1
