"""The Swap Niu Niu round: flow, defaults, hidden information, refusals, replay (docs/rules/niuniu.md#round-flow)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.cards import Card, parse_card
from qipai.core.errors import GameError, IllegalAction, InvalidInput, OutOfTurn, WrongPhase
from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.games import game_package
from qipai.games.niuniu import CONFIG, ROUND, NiuniuConfig, NiuniuRound
from qipai.games.niuniu.hands import evaluate
from qipai.games.niuniu.payout import settle_hands

RICH = 1_000_000


def seed(n: int) -> bytes:
    return n.to_bytes(4, "big") * 8


def seats(*stacks: int) -> list[Seat]:
    return [Seat(f"s{i}", s) for i, s in enumerate(stacks)]


def new_round(n: int = 4, stack: int = RICH, s: int = 1, **cfg: Any) -> NiuniuRound:
    return NiuniuRound.start(NiuniuConfig(**cfg), seats(*([stack] * n)), Rng(seed(s)))


def strings(data: Any) -> set[str]:
    """Every string anywhere in a JSON value (keys included)."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, Mapping):
        return set().union(*(strings(k) | strings(v) for k, v in data.items())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*(strings(v) for v in data)) if data else set()
    return set()


def hidden_from(round_: NiuniuRound, seat: str | None) -> set[str]:
    """Cards `seat` must not see now: other seats' cards (before the reveal), undealt cards and
    other seats' discards (never: the four cards are seen only by their owner, docs/rules/niuniu.md#hidden-information)."""
    out = {str(c) for c in round_._deck[round_._next :]}
    if not round_.finished:
        for other, cards in round_.cards.items():
            if other != seat:
                out |= {str(c) for c in cards}
    for other, cards in round_.discarded.items():
        if other != seat:
            out |= {str(c) for c in cards}
    return out


def test_package_exports() -> None:
    pkg = game_package("niuniu")
    assert pkg.ROUND is ROUND is NiuniuRound and pkg.CONFIG is CONFIG is NiuniuConfig
    cfg = NiuniuConfig(base=50, swap_s=8)
    assert NiuniuConfig.from_json(json.loads(json.dumps(cfg.to_json()))) == cfg
    with pytest.raises(InvalidInput):
        NiuniuConfig.from_json({"bogus": 1})
    with pytest.raises(InvalidInput):
        NiuniuConfig(commission="1.5")
    with pytest.raises(InvalidInput):
        NiuniuConfig(max_seats=6)


def test_seat_count() -> None:
    for n in (2, 3, 4, 5):
        assert len(new_round(n).cards) == n
    for n in (1, 6):
        with pytest.raises(InvalidInput):
            new_round(n)


def test_deal_and_swap_replacements_in_seat_order() -> None:
    r = new_round(3)
    deck = r._deck
    # One card at a time in seat order, four passes.
    for i, s in enumerate(r.seat_ids()):
        assert r.cards[s] == [deck[i + 3 * p] for p in range(4)]
    assert r.phase == "swap" and r.deadline_s == 10.0
    s2_cards = list(r.cards["s2"])
    s0_cards = list(r.cards["s0"])
    # s2 confirms first, but replacements are dealt in seat order: s0's come first.
    r.act("s2", {"type": "swap", "cards": [str(s2_cards[3]), str(s2_cards[0])]})
    r.act("s0", {"type": "swap", "cards": [str(s0_cards[1])]})
    assert r.phase == "swap" and r.cards["s2"] == s2_cards  # nothing dealt before the phase ends
    r.act("s1", {"type": "swap", "cards": []})
    assert r.phase == "bid"
    assert r.cards["s0"] == [s0_cards[0], deck[12], s0_cards[2], s0_cards[3]]
    assert r.cards["s2"] == [deck[13], s2_cards[1], s2_cards[2], deck[14]]
    assert r.discarded["s2"] == (s2_cards[0], s2_cards[3])
    assert r.view("s2")["me"]["received"] == [str(deck[13]), str(deck[14])]
    assert [s["swapped"] for s in r.view(None)["seats"]] == [1, 0, 2]


def test_silence_means_no_swap_no_bid_minimum_bet() -> None:
    r = new_round(4)
    before = {s: list(c) for s, c in r.cards.items()}
    r.act("s1", {"type": "swap", "cards": [str(before["s1"][0])]})
    r.expire()  # the others never confirmed: no swap
    assert r.phase == "bid"
    assert all(r.cards[s] == before[s] for s in ("s0", "s2", "s3"))
    assert r.cards["s1"][0] != before["s1"][0]
    r.act("s2", {"type": "bid", "multiple": 3})
    r.expire()
    assert r.bids == {"s0": 0, "s1": 0, "s2": 3, "s3": 0}
    assert (r.banker, r.banker_multiple, r.banker_by) == ("s2", 3, "bid")
    assert r.phase == "bet" and sorted(r.awaiting()) == ["s0", "s1", "s3"]
    r.act("s0", {"type": "bet", "multiple": 4})
    r.expire()
    assert r.bets == {"s0": 4, "s1": 1, "s3": 1}
    assert r.finished and r.deadline_s is None
    assert all(len(c) == 5 for c in r.cards.values())


def test_nobody_bids_random_seat_at_one() -> None:
    picked = Counter()
    for s in range(40):
        r = new_round(4, s=s)
        r.expire()
        r.expire()
        assert r.banker_multiple == 1 and r.banker_by == "random"
        picked[r.banker] += 1
    assert set(picked) == {"s0", "s1", "s2", "s3"}


def test_tied_bids_weighted_by_balance() -> None:
    # s0 has no balance at all: with cover checks off it may bid, but a tie never makes it banker
    # (weight 0) while s1 always wins the tie.
    wins = Counter()
    for s in range(30):
        r = NiuniuRound.start(NiuniuConfig(cover_check=False), seats(0, 5000, 10**6), Rng(seed(s)))
        r.expire()
        r.act("s0", {"type": "bid", "multiple": 4})
        r.act("s1", {"type": "bid", "multiple": 4})
        r.act("s2", {"type": "bid", "multiple": 2})
        assert r.banker_by == "tie"
        wins[r.banker] += 1
    assert wins == {"s1": 30}
    # Equal balances: both tied seats become banker sometimes.
    both = Counter()
    for s in range(30):
        r = new_round(3, s=s)
        r.expire()
        r.act("s0", {"type": "bid", "multiple": 2})
        r.act("s1", {"type": "bid", "multiple": 2})
        r.act("s2", {"type": "bid", "multiple": 1})
        both[r.banker] += 1
    assert set(both) == {"s0", "s1"}


def test_allowed_multiples_follow_the_balance() -> None:
    # base 100, 3 opponents: bid m needs 100 × m × 3 × 1 × 5 = 1,500 m.
    r = NiuniuRound.start(NiuniuConfig(), seats(4_499, 4_500, RICH, 0), Rng(seed(3)))
    r.expire()
    assert r.legal_actions("s0")[0].options["choices"] == [0, 1, 2]
    assert r.legal_actions("s1")[0].options["choices"] == [0, 1, 2, 3]
    assert r.legal_actions("s2")[0].options["choices"] == [0, 1, 2, 3, 4]
    assert r.legal_actions("s3")[0].options["choices"] == [0]
    with pytest.raises(IllegalAction):
        r.act("s0", {"type": "bid", "multiple": 3})
    r.act("s2", {"type": "bid", "multiple": 2})
    r.expire()
    # Bet m against a banker multiple of 2 needs 100 × 2 × m × 5 = 1,000 m; the minimum is
    # always allowed (the cap limits what a short balance can lose).
    assert r.legal_actions("s0")[0].options["choices"] == [1, 2, 3, 4]
    assert r.legal_actions("s1")[0].options["choices"] == [1, 2, 3, 4]
    assert r.legal_actions("s3")[0].options["choices"] == [1]
    assert r.legal_actions("s2") == []
    with pytest.raises(OutOfTurn):
        r.act("s2", {"type": "bet", "multiple": 1})


def test_refusals_change_nothing() -> None:
    r = new_round(3)
    mine = [str(c) for c in r.cards["s0"]]
    other = str(r.cards["s1"][0])
    bad: list[tuple[str, dict[str, Any], type[GameError]]] = [
        ("s0", {"type": "swap", "cards": [other]}, IllegalAction),
        ("s0", {"type": "swap", "cards": [mine[0], mine[0]]}, InvalidInput),
        ("s0", {"type": "swap", "cards": "As"}, InvalidInput),
        ("s0", {"type": "swap", "cards": ["Zz"]}, InvalidInput),
        ("s0", {"type": "bid", "multiple": 1}, WrongPhase),
        ("s0", {"type": "fold"}, InvalidInput),
        ("s0", {"kind": "swap"}, InvalidInput),
        ("nobody", {"type": "swap", "cards": []}, OutOfTurn),
        # A misspelt field must not silently confirm an empty swap (confirmation is final).
        ("s0", {"type": "swap", "card": [mine[0]]}, InvalidInput),
        ("s0", {"type": "swap", "cards": [mine[0]], "extra": 1}, InvalidInput),
    ]

    def snapshot() -> str:
        views = [r.view(s) for s in [None, *r.seat_ids()]]
        return json.dumps([views, [a.to_json() for a in r.log]], sort_keys=True)

    def refuse_all(cases: Sequence[tuple[str, dict[str, Any], type[GameError]]]) -> None:
        for seat, action, error in cases:
            before = snapshot()
            with pytest.raises(error):
                r.act(seat, action)
            assert snapshot() == before

    refuse_all(bad)
    r.act("s0", {"type": "swap", "cards": [mine[1]]})
    refuse_all([("s0", {"type": "swap", "cards": []}, IllegalAction)])  # confirmation is final
    r.expire()
    refuse_all(
        [
            ("s0", {"type": "bid", "multiple": 7}, IllegalAction),
            ("s0", {"type": "bid", "multiple": "2"}, InvalidInput),
            ("s0", {"type": "bid", "multiple": True}, InvalidInput),
            ("s0", {"type": "bid", "multiple": 1, "multiplier": 2}, InvalidInput),
            ("s0", {"type": "bet", "multiple": 1}, WrongPhase),
            ("s0", {"type": "swap", "cards": []}, WrongPhase),
        ]
    )
    r.act("s0", {"type": "bid", "multiple": 1})
    refuse_all([("s0", {"type": "bid", "multiple": 2}, IllegalAction)])
    r.expire()
    refuse_all([("s1", {"type": "bet", "multiple": 9}, IllegalAction)])
    r.expire()
    with pytest.raises(WrongPhase):
        r.act("s1", {"type": "bet", "multiple": 1})
    with pytest.raises(WrongPhase):
        r.expire()


def test_results_match_the_payout_rules() -> None:
    r = new_round(5, s=7)
    r.expire()
    r.act("s3", {"type": "bid", "multiple": 4})
    r.expire()
    for i, s in enumerate(["s0", "s1", "s2", "s4"]):
        r.act(s, {"type": "bet", "multiple": i + 1})
    assert r.finished
    res = r.result()
    hands = {s: evaluate(c) for s, c in r.cards.items()}
    bets = {"s0": 1, "s1": 2, "s2": 3, "s4": 4}
    expected = settle_hands(
        base=100,
        commission="0.04",
        banker="s3",
        banker_multiple=4,
        hands=hands,
        bets=bets,
        balances=dict.fromkeys(r.cards, RICH),
    )
    for s in r.cards:
        assert res.net(s) == expected.settlement.seats[s].net
    for p, bet in bets.items():
        b, h = hands["s3"], hands[p]
        if h.key > b.key:
            assert res.details["pairings"][p]["raw"] == 100 * 4 * bet * h.multiplier
        else:
            assert res.details["pairings"][p]["raw"] == -100 * 4 * bet * b.multiplier
    assert sum(p.amount for p in res.postings) == 0
    assert res.net("commission") == sum(v["commission"] for v in res.details["seats"].values())


def test_no_balance_goes_below_zero() -> None:
    # A banker with 1,000 facing big winners loses exactly what it has, no more.
    for s in range(25):
        r = NiuniuRound.start(
            NiuniuConfig(cover_check=False), seats(1_000, RICH, RICH, RICH), Rng(seed(s))
        )
        r.expire()
        r.act("s0", {"type": "bid", "multiple": 4})
        r.expire()
        for p in ("s1", "s2", "s3"):
            r.act(p, {"type": "bet", "multiple": 5})
        res = r.result()
        for seat in r.seats:
            assert seat.stack + res.net(seat.id) >= 0
        assert res.net("s0") >= -1_000


def test_hint_in_own_view_only_during_swap() -> None:
    r = new_round(3)
    me = r.view("s0")["me"]
    assert me["hint"]["best"]["discard"] is not None
    assert len(me["hint"]["choices"]) == 16
    assert set(me["hint"]["best"]["keep"]) <= {str(c) for c in r.cards["s0"]}
    assert r.view(None)["me"] is None
    r.act("s0", {"type": "swap", "cards": []})
    assert r.view("s0")["me"]["hint"] is None and r.view("s0")["me"]["marked"] == []
    assert new_round(3, hints=False).view("s0")["me"]["hint"] is None


def run_random(r: NiuniuRound, data: st.DataObject) -> list[tuple[str | None, dict[str, Any]]]:
    """Drive a round with random legal actions and expiries; check hidden info at every step."""
    steps: list[tuple[str | None, dict[str, Any]]] = []
    while not r.finished:
        for seat in [None, *r.seat_ids()]:
            view = r.view(seat)
            json.dumps(view)
            assert not strings(view) & hidden_from(r, seat), (seat, r.phase)
        waiting = r.awaiting()
        if not waiting or data.draw(st.integers(0, 5)) == 0:
            events = r.expire()
            steps.append((None, {"type": "expire"}))
        else:
            seat = data.draw(st.sampled_from(waiting))
            spec = r.legal_actions(seat)[0]
            if spec.type == "swap":
                cards = data.draw(st.lists(st.sampled_from(spec.options["cards"]), unique=True))
                action: dict[str, Any] = {"type": "swap", "cards": cards}
            else:
                action = {
                    "type": spec.type,
                    "multiple": data.draw(st.sampled_from(spec.options["choices"])),
                }
            events = r.act(seat, action)
            steps.append((seat, action))
        # Events tell each audience only what it may see by now.
        for event in events:
            for viewer in [None, *r.seat_ids()]:
                if event.visible_to(viewer):
                    assert not strings(event.to_json()) & hidden_from(r, viewer), event
    for seat in [None, *r.seat_ids()]:
        view = r.view(seat)
        assert all(s["cards"] is not None and len(s["cards"]) == 5 for s in view["seats"])
        assert not strings(view) & hidden_from(r, seat)
    # The result (shared with every seat and the ledger) names no discarded card, only counts.
    assert not strings(r.result().to_json()) & {str(c) for d in r.discarded.values() for c in d}
    assert r.result().details["swapped"] == {s: len(d) for s, d in r.discarded.items()}
    return steps


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 5),
    st.integers(0, 2**32 - 1),
    st.lists(st.integers(0, 50_000), min_size=5, max_size=5),
    st.data(),
)
def test_random_rounds_hide_balance_and_replay(
    n: int, s: int, stacks: list[int], data: st.DataObject
) -> None:
    table = seats(*stacks[:n])
    r = NiuniuRound.start(NiuniuConfig(), table, Rng(seed(s)))
    run_random(r, data)
    res = r.result()
    assert sum(p.amount for p in res.postings) == 0
    for seat in table:
        assert seat.stack + res.net(seat.id) >= 0
    used = [c for cards in r.cards.values() for c in cards] + [
        c for d in r.discarded.values() for c in d
    ]
    assert len(set(used)) == len(used)  # one deck, no card twice
    again = NiuniuRound.replay(NiuniuConfig(), table, seed(s), r.log)
    assert again.result().to_json() == res.to_json()
    assert again.view(None) == r.view(None)


def test_card_strings_parse() -> None:
    r = new_round(2)
    for s in r.seat_ids():
        assert [parse_card(c) for c in r.view(s)["me"]["cards"]] == r.cards[s]
        assert all(isinstance(c, Card) for c in r.cards[s])


def test_view_has_exactly_the_documented_keys() -> None:
    # The card-room client is built from this shape (NiuniuRound module docstring).
    top = {
        "game", "phase", "countdown_s", "awaiting", "me", "base", "commission", "banker",
        "banker_multiple", "banker_by", "seats", "commission_total", "rounding",
    }  # fmt: skip
    seat = {
        "id", "stack", "cards", "card_count", "swap_confirmed", "swapped", "bid", "bet",
        "is_banker", "hand", "pairing", "settlement",
    }  # fmt: skip
    me = {"id", "stack", "cards", "marked", "discarded", "received", "hint"}
    r = new_round(3)
    phases = []
    while True:
        for who in [None, *r.seat_ids()]:
            view = r.view(who)
            json.dumps(view)
            assert set(view) == top and (view["me"] is None) == (who is None)
            assert all(set(s) == seat for s in view["seats"])
            if who is not None:
                assert set(view["me"]) == me
        phases.append(r.phase)
        if r.finished:
            break
        r.expire()
    assert phases == ["swap", "bid", "bet", "finished"]
    done = r.view("s0")
    assert done["banker_by"] in ("bid", "tie", "random") and done["me"]["hint"] is None
    for s in done["seats"]:
        assert len(s["cards"]) == 5 and s["card_count"] == 5 and s["swapped"] == 0
        assert set(s["settlement"]) == {"raw", "gross", "commission", "net"}
        if not s["is_banker"]:
            assert set(s["pairing"]) == {"winner", "stake", "multiplier", "raw"}
