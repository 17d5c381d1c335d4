"""State deltas (docs/protocol.md, "Deltas"; `qipai/tables/deltas.py`).

* For any two JSON documents, applying `diff(old, new)` to `old` gives `new` exactly (a JSON
  `true` is not `1`), and leaves `old` as it was.
* For every game of the registry, a client that starts from the first whole state and then
  applies each delta it is sent holds, after every step, exactly the whole state the table
  built for it — for seated players and a spectator, through rounds, a reconnection and a
  seat taken mid-way; and listeners who held the same state share one delta object (one
  encoding for all of them).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import fresh_ledger
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from qipai.core.errors import GameError
from qipai.core.rng import Rng
from qipai.games import registry
from qipai.tables import games
from qipai.tables.deltas import PatchError, apply, diff
from qipai.tables.messages import StateMessage
from qipai.tables.ports import ManualClock
from qipai.tables.table import Table, Timing


def same(a: Any, b: Any) -> bool:
    """Equal as JSON texts (types included: `true` is not `1`, `1` is not `1.0`)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-2, 2) | st.text(max_size=3)
keys = st.sampled_from(["a", "b", "c", "~", "/", "a/b", "~1", ""])
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=20,
)


@given(st.dictionaries(keys, documents, max_size=5), st.dictionaries(keys, documents, max_size=5))
@settings(max_examples=200, deadline=None)
def test_a_diff_applied_makes_the_new_document(old: dict[str, Any], new: dict[str, Any]) -> None:
    before = json.dumps(old, sort_keys=True)
    ops = diff(old, new)
    assert same(apply(old, ops), new)
    assert json.dumps(old, sort_keys=True) == before  # the old document is left as it was
    if same(old, new):
        assert ops == []


@given(st.lists(documents, min_size=1, max_size=8), st.lists(documents, max_size=4))
@settings(max_examples=100, deadline=None)
def test_a_list_that_moved_back_changes_by_a_few_operations(
    old: list[Any], newest: list[Any]
) -> None:
    """The last results: the newest added at one end, the oldest dropped at the other."""
    for new in ((newest + old)[: len(old)], (old + newest)[len(newest) :]):
        ops = diff({"results": old}, {"results": new})
        assert same(apply({"results": old}, ops), {"results": new})
        if 0 < len(newest) < len(old):
            assert len(ops) <= 2 * len(newest)


def test_a_patch_that_does_not_fit_is_refused() -> None:
    for ops in (
        [{"op": "replace", "path": "/missing", "value": 1}],
        [{"op": "remove", "path": "/a/5"}],
        [{"op": "move", "path": "/a", "from": "/b"}],
        [{"op": "add", "path": "/a/3", "value": 1}],
        [{"op": "add", "path": "no-slash", "value": 1}],
    ):
        with pytest.raises(PatchError):
            apply({"a": [1, 2]}, ops)


class Client:
    """What a delta-taking client holds of one table, checked against what the table built."""

    def __init__(self) -> None:
        self.held: dict[str, Any] | None = None
        self.deltas = 0
        self.wholes = 0

    def take(self, message: dict[str, Any]) -> None:
        if message.get("type") != "state":
            return
        assert isinstance(message, StateMessage)
        delta = message.delta
        if self.held is not None and delta is not None and delta.base == self.held["seq"]:
            made = {**apply(self.held, delta.message()["patch"]), "seq": delta.seq}
            assert same(made, message), (made, dict(message))
            self.deltas += 1
        else:
            self.wholes += 1
        self.held = dict(message)


def play(game: str, seed: bytes, rounds: int, rejoin_at: int, late_sit: bool) -> dict[str, Client]:
    info = games.get(game)
    ledger, clock = fresh_ledger(), ManualClock()
    table = Table("dlt", info, ledger, clock, timing=Timing(0.5, 1.0))
    clients: dict[str, Client] = {}
    shared: dict[tuple[str, int], set[int]] = {}  # (player, seq) -> id of the delta

    def send(player: str, message: dict[str, Any]) -> None:
        if isinstance(message, StateMessage) and message.delta is not None:
            shared.setdefault((message.delta.table_id, message.seq), set()).add(id(message.delta))
        clients.setdefault(player, Client()).take(message)

    table.send = send
    people = ["alice", "bob"]
    for p in people:
        ledger.deposit(p, 10**7, f"d-{p}")
        table.sit(p, p, info.default_buy_in)
        table.connect(p)
    ledger.deposit("carol", 10**7, "d-carol")
    table.connect("watcher")  # a spectator: never sits
    if not late_sit:  # else a seat stays free for carol, who sits mid-way
        table.fill_with_bots()
    bot = info.make_bot(info.default_bot())
    rng = Rng(seed)
    n = 0
    rejoined: int | None = None
    for step in range(4000):
        if len(table.results) >= rounds and rejoined is not None and step > rejoined + 8:
            break
        if rejoined is None and (step == rejoin_at or len(table.results) >= rounds):
            table.disconnect("bob")  # bob's client drops and subscribes again: whole, then deltas
            table.connect("bob")
            rejoined = step
        if late_sit and step == rejoin_at % 5:  # carol sits, then bots fill the rest
            table.sit("carol", "carol", info.default_buy_in)
            table.connect("carol")
            table.fill_with_bots()
        clock.advance(0.25)
        table.tick()
        if table.round is None:
            continue
        for p in (*people, "carol"):
            seat = table.seating.seat_of(p)
            if seat is None or table.round is None or seat not in table.round.awaiting():
                continue
            legal = table.round.legal_actions(seat)
            try:
                action = bot.choose(table.round.view(seat), legal, rng) if legal else None
            except GameError:
                action = None
            if action is not None:
                table.act(p, action, f"c-{n}")
                n += 1
    assert len(table.results) >= rounds, f"{game}: only {len(table.results)} rounds"
    return clients


@pytest.mark.parametrize("game", sorted(registry.available()))
@given(
    seed=st.binary(min_size=16, max_size=16),
    rejoin_at=st.integers(0, 30),
    late_sit=st.booleans(),
)
@settings(
    max_examples=3,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a failing game is slow to shrink
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
def test_deltas_in_sequence_make_every_whole_state(
    game: str, seed: bytes, rejoin_at: int, late_sit: bool
) -> None:
    clients = play(game, seed, 1, rejoin_at, late_sit)
    for player in ("alice", "bob", "watcher"):
        client = clients[player]
        assert client.deltas > 0, (player, client.wholes)
    assert clients["bob"].wholes >= 2  # the first state and the one after subscribing again


def test_listeners_who_held_the_same_state_share_one_delta() -> None:
    """Two spectators and one seat out of the round see through the same eyes: one delta object
    (so one encoding) serves them all."""
    info = games.get(sorted(registry.available())[0])
    ledger, clock = fresh_ledger(), ManualClock()
    table = Table("shr", info, ledger, clock, timing=Timing(0.5, 1.0))
    got: dict[str, list[StateMessage]] = {}
    table.send = lambda player, m: got.setdefault(player, []).append(m)  # type: ignore[arg-type]
    ledger.deposit("alice", 10**7, "d")
    table.sit("alice", "alice", info.default_buy_in)
    table.fill_with_bots()
    for p in ("alice", "w1", "w2"):
        table.connect(p)
    table.connect("w1")  # w1 subscribes again: its next delta starts from another state
    for _ in range(20):
        clock.advance(0.25)
        table.tick()
    last_w2 = [m for m in got["w2"] if m.delta is not None][-1]
    same_seq = [m for m in got["w1"] if m.seq == last_w2.seq]
    assert same_seq and same_seq[0].delta is last_w2.delta
    assert same_seq[0] is not last_w2  # each has its own `you`
