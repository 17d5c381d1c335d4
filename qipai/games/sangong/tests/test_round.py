"""The San Gong round (rules/en.md, A round): bid, bet, the clockwise deal after the banker, the
show, defaults on silence, what each seat may see, replay, and random playouts."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.errors import GameError, IllegalAction, InvalidInput, OutOfTurn, WrongPhase
from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.games.sangong.config import SangongConfig
from qipai.games.sangong.round import SangongRound, deal_order
from qipai.games.sangong.spec import SPEC, min_buy_in
from qipai.games.sangong.view import SangongView

IDS = ["A", "B", "C", "D", "E"]


def _round(
    stacks: int | list[int] = 100_000, seed: bytes = b"s" * 32, **config: object
) -> SangongRound:
    values = stacks if isinstance(stacks, list) else [stacks] * len(IDS)
    seats = [Seat(i, v) for i, v in zip(IDS, values, strict=False)]
    return SangongRound.start(SangongConfig.parse(config), seats, Rng(seed))


def _to_show(r: SangongRound, banker: str = "C", multiple: int = 3) -> None:
    r.act(banker, {"type": "bid", "multiple": multiple})
    r.expire()  # the others: no bid
    r.expire()  # the players: the lowest bet


def test_highest_bid_banks_and_silence_is_no_bid() -> None:
    r = _round()
    r.act("B", {"type": "bid", "multiple": 2})
    r.act("D", {"type": "bid", "multiple": 3})
    events = r.expire()
    assert [e.data["multiple"] for e in events if e.type == "bid"] == [0, 0, 0]
    assert all(e.data.get("default") for e in events if e.type == "bid")
    assert (r.banker, r.banker_multiple, r.banker_by, r.phase) == ("D", 3, "bid", "bet")
    assert r.awaiting() == ["A", "B", "C", "E"]


def test_nobody_bids_a_random_seat_banks_at_the_lowest_multiple() -> None:
    r = _round()
    r.expire()
    assert r.banker in IDS and r.banker_multiple == 1 and r.banker_by == "random"


def test_silence_bets_the_lowest_and_the_banker_does_not_bet() -> None:
    r = _round()
    r.act("C", {"type": "bid", "multiple": 1})
    r.expire()
    with pytest.raises(OutOfTurn):
        r.act("C", {"type": "bet", "multiple": 2})
    r.act("A", {"type": "bet", "multiple": 5})
    r.expire()
    assert r.bets == {"A": 5, "B": 1, "D": 1, "E": 1}
    assert r.phase == "show"


def test_the_deal_is_clockwise_from_the_seat_after_the_banker() -> None:
    r = _round()
    _to_show(r, banker="C")
    assert r.deal_order == ["D", "E", "A", "B", "C"] == deal_order(IDS, "C")
    # one card at a time, three passes: card k of the deck to deal_order[k mod 5]
    for i, seat in enumerate(r.deal_order):
        assert r.cards[seat] == (r.deck[i], r.deck[5 + i], r.deck[10 + i])


def test_every_hand_is_shown_when_all_have_shown_early() -> None:
    r = _round()
    _to_show(r)
    for seat in IDS[:-1]:
        r.act(seat, {"type": "show"})
        assert r.phase == "show"
    with pytest.raises(IllegalAction):
        r.act("A", {"type": "show"})
    events = r.act("E", {"type": "show"})
    assert r.finished and events[-1].type == "result"


def test_the_show_countdown_shows_the_rest() -> None:
    r = _round()
    _to_show(r)
    r.act("B", {"type": "show"})
    events = r.expire()
    assert [e.data["seat"] for e in events if e.type == "show"] == ["A", "C", "D", "E"]
    assert r.finished
    assert sum(p.amount for p in r.result().postings) == 0


def test_a_seat_sees_only_its_own_cards_until_the_show() -> None:
    r = _round()
    assert r.view("A")["me"]["cards"] == [] and r.view("A")["seats"][0]["cards"] is None
    _to_show(r)
    for viewer in [*IDS, None]:
        view = r.view(viewer)
        SangongView.model_validate(view)
        text = json.dumps(view, ensure_ascii=False)
        for seat in IDS:
            for card in r.cards[seat]:
                assert (str(card) in text) == (seat == viewer), (viewer, seat, card)
        # the undealt cards' order is never shown
        assert "deck" not in view
    r.act("B", {"type": "show"})
    assert r.view("A")["seats"][1]["cards"] == [str(c) for c in r.cards["B"]]
    assert r.view(None)["seats"][3]["cards"] is None
    r.expire()
    for viewer in [*IDS, None]:
        view = r.view(viewer)
        SangongView.model_validate(view)
        assert all(s["cards"] is not None and s["hand"] is not None for s in view["seats"])


def test_private_cards_go_to_their_seat_only() -> None:
    r = _round()
    r.act("A", {"type": "bid", "multiple": 1})
    r.expire()
    events = r.expire()
    cards = [e for e in events if e.type == "cards"]
    assert [e.to for e in cards] == [(s,) for s in IDS]
    assert all(e.visible_to(e.to[0]) and not e.visible_to(None) for e in cards if e.to)


def test_a_refused_action_changes_nothing() -> None:
    r = _round()
    before = json.dumps(r.view("A"))
    for seat, action, error in [
        ("A", {"type": "bet", "multiple": 1}, WrongPhase),
        ("A", {"type": "bid", "multiple": 7}, IllegalAction),
        ("A", {"type": "show"}, WrongPhase),
        ("Z", {"type": "bid", "multiple": 1}, OutOfTurn),
        ("A", {"type": "bid", "multiple": 1, "extra": 1}, InvalidInput),
        ("A", {"type": "bid", "multiple": True}, InvalidInput),
    ]:
        with pytest.raises(error):
            r.act(seat, action)
    assert json.dumps(r.view("A")) == before and r.log == []


def test_the_coverage_test_uses_the_highest_hand_multiplier() -> None:
    # base 100, highest ×5: a bet m against a banker at 2 needs 100·2·m·5 ≤ stack
    r = _round([100_000, 100_000, 3_000, 100_000, 1_000])
    # bids: 100·b·4 opponents·1·5 ≤ stack
    assert r.legal_actions("C")[0].options["choices"] == [0, 1]
    assert r.legal_actions("E")[0].options["choices"] == [0]
    r.act("A", {"type": "bid", "multiple": 2})
    r.expire()
    assert r.legal_actions("C")[0].options["choices"] == [1, 2, 3]
    assert r.legal_actions("E")[0].options["choices"] == [1]  # the lowest is always offered
    # a table paying ×9 for three of a kind tests against 9
    r9 = _round([100_000, 100_000, 3_000, 100_000, 1_000], multipliers={"three_of_a_kind": 9})
    r9.act("A", {"type": "bid", "multiple": 2})
    r9.expire()
    assert r9.legal_actions("C")[0].options["choices"] == [1]
    off = _round([100_000, 100_000, 3_000, 100_000, 1_000], cover_check=False)
    assert off.legal_actions("E")[0].options["choices"] == [0, 1, 2, 3, 4]


def test_countdowns_and_what_silence_does() -> None:
    r = _round()
    assert (r.deadline_s, r.view(None)["silence"]["en"]) == (8.0, "no bid")
    r.expire()
    assert (r.deadline_s, r.view(None)["silence"]["en"]) == (12.0, "bet 1×")
    r.expire()
    assert (r.deadline_s, r.view(None)["silence"]["en"]) == (8.0, "cards shown")
    r.expire()
    assert r.deadline_s is None and r.view(None)["silence"] is None


def test_seat_counts() -> None:
    with pytest.raises(InvalidInput):
        SangongRound.start(SangongConfig(), [Seat("A", 1)], Rng(b"x" * 16))
    with pytest.raises(InvalidInput):
        SangongRound.start(SangongConfig(), [Seat(s, 1) for s in "ABCDEF"], Rng(b"x" * 16))
    six = SangongRound.start(
        SangongConfig(max_seats=6), [Seat(s, 1) for s in "ABCDEF"], Rng(b"x" * 16)
    )
    assert len(six.seats) == 6
    with pytest.raises(InvalidInput):
        SangongConfig.parse({"max_seats": 7})


def test_min_buy_in_covers_the_worst_loss_at_the_smallest_multiples() -> None:
    assert min_buy_in(SangongConfig()) == 4 * 100 * 1 * 1 * 5
    assert SPEC.min_buy_in({"multipliers": {"three_of_a_kind": 8}}) == 4 * 100 * 8


# ----- random playouts --------------------------------------------------------------------------
def _only_what_each_seat_may_see(r: SangongRound) -> None:
    """Each viewer's view holds its own cards (once dealt), others' only once shown."""
    for viewer in [*IDS, None]:
        view = r.view(viewer)
        for s in view["seats"]:
            dealt = s["id"] in r.cards
            may = dealt and (r.finished or r.shown[s["id"]] or s["id"] == viewer)
            assert (s["cards"] is not None) == may, (viewer, s["id"], r.phase)
            assert (s["hand"] is not None) == may


@settings(max_examples=60, deadline=None)
@given(
    seed=st.binary(min_size=16, max_size=32),
    stacks=st.lists(st.integers(0, 30_000), min_size=5, max_size=5),
    moves=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 9), st.booleans()), max_size=40),
)
def test_random_playouts_settle_balanced_and_replay(
    seed: bytes, stacks: list[int], moves: list[tuple[int, int, bool]]
) -> None:
    seats = [Seat(i, v) for i, v in zip(IDS, stacks, strict=True)]
    config = SangongConfig()
    r = SangongRound.start(config, seats, Rng(seed))
    for who, pick, wait in moves:
        if r.finished:
            break
        if wait:
            r.expire()
            continue
        seat = IDS[who]
        legal = r.legal_actions(seat)
        if not legal:
            continue
        spec = legal[0]
        action: dict[str, object] = {"type": spec.type}
        if spec.type != "show":
            choices = spec.options["choices"]
            action["multiple"] = choices[pick % len(choices)]
        r.act(seat, action)
        _only_what_each_seat_may_see(r)
    while not r.finished:
        r.expire()
    result = r.result()
    assert sum(p.amount for p in result.postings) == 0
    for s in seats:
        assert result.net(s.id) >= -s.stack
    again = SangongRound.replay(config, seats, seed, r.log)
    assert again.result().to_json() == result.to_json()
    for viewer in [*IDS, None]:
        SangongView.model_validate(r.view(viewer))


def test_every_accepted_action_was_legal() -> None:
    r = _round()
    for seat in IDS:
        with pytest.raises(GameError):
            r.check(seat, {"type": "bet", "multiple": 1})
        for choice in r.legal_actions(seat)[0].options["choices"]:
            r.check(seat, {"type": "bid", "multiple": choice})
