from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.errors import GameError, IllegalAction, InvalidInput, OutOfTurn, WrongPhase
from qipai.core.protocol import (
    Event,
    NextRound,
    Posting,
    RecordedAction,
    RoundResult,
    Seat,
    replay,
)
from qipai.core.rng import Rng
from tests.core.toy_game import ToyConfig, ToyRound

SEED = bytes(range(32))
SEATS = [Seat("A", 10), Seat("B", 10), Seat("C", 10)]


def new_round() -> ToyRound:
    return ToyRound.start(ToyConfig(), SEATS, Rng(SEED))


def snapshot(r: ToyRound) -> Any:
    return copy.deepcopy((r.phase, r.antes, r.cards, r.turn, r.deck, r.log))


def test_a_round_end_to_end() -> None:
    r = new_round()
    assert r.phase == "ante" and r.deadline_s == 5.0
    assert [a.type for a in r.legal_actions("A")] == ["ante"]
    r.act("A", {"type": "ante", "amount": 2})
    assert r.legal_actions("A") == []
    r.act("B", {"type": "ante", "amount": 3})
    events = r.expire()  # C is silent: default ante of 1, then the deal
    assert any(e.type == "ante" and e.data.get("default") for e in events)
    assert r.phase == "draw" and r.awaiting() == ["A"]
    # hidden information: each seat sees only its own card until the end
    assert set(r.view("A")["cards"]) == {"A"}
    assert r.view(None)["cards"] == {}
    private = [e for e in events if e.type == "card"]
    assert all(e.to == (e.data["seat"],) and not e.visible_to("Z") for e in private)
    r.act("A", {"type": "switch"})
    r.act("B", {"type": "keep"})
    r.expire()
    assert r.finished and r.deadline_s is None
    result = r.result()
    assert sum(p.amount for p in result.postings) == 0
    assert result.net(result.details["winner"]) == 6 - r.antes[result.details["winner"]]


@pytest.mark.parametrize(
    ("seat", "action", "error"),
    [
        ("A", {"type": "keep"}, WrongPhase),
        ("A", {"type": "ante", "amount": 9}, IllegalAction),
        ("A", {"type": "ante", "amount": "2"}, InvalidInput),
        ("A", {"kind": "ante"}, InvalidInput),
        ("Z", {"type": "ante", "amount": 1}, OutOfTurn),
    ],
)
def test_refusals_change_nothing(seat: str, action: dict[str, Any], error: type[GameError]) -> None:
    r = new_round()
    before = snapshot(r)
    with pytest.raises(error):
        r.act(seat, action)
    assert snapshot(r) == before


def test_out_of_turn_and_finished_refusals() -> None:
    r = new_round()
    for s in "ABC":
        r.act(s, {"type": "ante", "amount": 1})
    before = snapshot(r)
    with pytest.raises(OutOfTurn):
        r.act("B", {"type": "keep"})
    assert snapshot(r) == before
    for _ in range(3):
        r.expire()
    with pytest.raises(WrongPhase):
        r.act("A", {"type": "keep"})
    with pytest.raises(WrongPhase):
        r.expire()
    with pytest.raises(WrongPhase):
        new_round().result()


actions = st.lists(
    st.one_of(
        st.tuples(st.sampled_from("ABC"), st.sampled_from(["keep", "switch"])),
        st.tuples(st.sampled_from("ABC"), st.integers(0, 4)),
        st.just(None),
    ),
    max_size=20,
)


@settings(max_examples=60, deadline=None)
@given(actions, st.binary(min_size=32, max_size=32))
def test_replay_rebuilds_any_round_exactly(script: list[Any], seed: bytes) -> None:
    r = ToyRound.start(ToyConfig(), SEATS, Rng(seed))
    for step in script:
        if r.finished:
            break
        try:
            if step is None:
                r.expire()
            elif isinstance(step[1], int):
                r.act(step[0], {"type": "ante", "amount": step[1]})
            else:
                r.act(step[0], {"type": step[1]})
        except GameError:
            pass
    # refused actions are not in the log; the log alone rebuilds the same state
    again = replay(ToyRound, ToyConfig(), SEATS, seed, r.log)
    assert snapshot(again) == snapshot(r)
    assert again.view(None) == r.view(None)
    restored = [RecordedAction.from_json(a.to_json()) for a in r.log]
    assert snapshot(ToyRound.replay(ToyConfig(), SEATS, seed, restored)) == snapshot(r)


def test_result_postings_must_balance() -> None:
    with pytest.raises(AssertionError, match="do not balance"):
        RoundResult((Posting("A", 5), Posting("house", -4)))


def test_json_helpers() -> None:
    assert Seat.from_json(Seat("A", 7).to_json()) == Seat("A", 7)
    assert Event("x", {"a": 1}).to_json() == {"type": "x", "a": 1}
    with pytest.raises(InvalidInput, match="duplicate seat"):
        ToyRound(ToyConfig(), [Seat("A"), Seat("A")], [])


def test_hand_written_constructors_keep_the_dataclass_contract() -> None:
    """Event, RecordedAction, Posting, RoundResult and NextRound build their instance dict in
    one call (speed); they must behave exactly as the generated frozen dataclasses did."""
    import dataclasses
    import pickle

    # Defaults: a fresh empty dict per instance (default_factory), never a shared object.
    a, b = Event("x"), Event("x")
    assert a.data == {} and a.data is not b.data and type(a.data) is dict and a.to is None
    assert NextRound().context == {} and NextRound().context is not NextRound().context
    assert NextRound() == NextRound(False, {}) and not NextRound().reuse_seed
    assert RoundResult(()).details == {} and type(RoundResult(()).details) is dict
    # Positional and keyword arguments, equality, hash, repr, fields.
    assert Posting("a", 5) == Posting(account="a", amount=5, memo="")
    assert hash(Posting("a", 5, "m")) == hash(("a", 5, "m"))
    assert repr(Posting("a", 5)) == "Posting(account='a', amount=5, memo='')"
    assert Event("t", {"k": 1}, ("s",)) == Event(type="t", data={"k": 1}, to=("s",))
    assert RecordedAction(seat=None, action={"type": "expire"}) == RecordedAction(
        None, {"type": "expire"}
    )
    assert [f.name for f in dataclasses.fields(Event)] == ["type", "data", "to"]
    assert dataclasses.asdict(Posting("a", 1)) == {"account": "a", "amount": 1, "memo": ""}
    # Frozen, replace() and pickling still work.
    posting = Posting("a", 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        posting.amount = 2  # type: ignore[misc]
    assert dataclasses.replace(posting, amount=3) == Posting("a", 3)
    result = RoundResult((Posting("a", 2), Posting("house", -2)), {"d": 1})
    assert pickle.loads(pickle.dumps(result)) == result
    assert copy.deepcopy(NextRound(True, {"p": 1})) == NextRound(True, {"p": 1})
    # RoundResult still refuses unbalanced postings, also through replace().
    with pytest.raises(AssertionError, match="sum to 1"):
        RoundResult((Posting("a", 1),))
    with pytest.raises(AssertionError, match="sum to 2"):
        dataclasses.replace(result, postings=(Posting("a", 2),))
