"""The Pai Gow round state machine: bidding, betting, dice and deal, reveal, the two-round game,
hidden information and refusals (docs/rules/paigow.md#round-flow)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from qipai.core.errors import IllegalAction, InvalidInput, OutOfTurn, WrongPhase
from qipai.core.protocol import RecordedAction
from qipai.core.rng import Rng
from qipai.core.tiles import full_set
from qipai.games import game_package
from qipai.games.paigow import CONFIG, ROUND, PaigowConfig, PaigowRound
from qipai.games.paigow.round import deal_order, first_seat_index, game_shuffle, reveal_order

from .helpers import IDS, play, seats, seed, start


def test_package_exports_round_and_config() -> None:
    pkg = game_package("paigow")
    assert pkg.ROUND is ROUND is PaigowRound and pkg.CONFIG is CONFIG is PaigowConfig
    config = PaigowConfig(tie_policy="push", high_nine="named", commission="0.04")
    assert PaigowConfig.from_json(json.loads(json.dumps(config.to_json()))) == config
    with pytest.raises(InvalidInput):
        PaigowConfig.from_json({"tie_policy": "player"})
    with pytest.raises(InvalidInput):
        PaigowConfig.from_json({"bas": 100})
    with pytest.raises(InvalidInput):
        PaigowConfig(commission="1.5")


def test_dice_pick_the_first_seat_clockwise_from_the_banker() -> None:
    # docs/rules/paigow.md#dice-and-deal: s = 1 would be the banker, 2 the next seat clockwise, … (s − 1) mod 4 steps
    assert [first_seat_index(0, s) for s in range(2, 13)] == [1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]
    assert first_seat_index(2, 5) == 2  # 5 → 4 steps → the banker itself
    assert first_seat_index(3, 2) == 0
    # counter-clockwise from that seat, one tile per seat per pass, two passes
    assert deal_order(1) == [1, 0, 3, 2, 1, 0, 3, 2]
    assert reveal_order(2) == [2, 3, 0, 1]


def test_deal_follows_dice_and_the_game_shuffle() -> None:
    r = play(start(n=7), {"S3": 2}, {"S1": 1, "S2": 2, "S4": 3})
    assert r.banker == "S3" and r.dice is not None
    shuffled = game_shuffle(Rng(seed(7)))
    first = (IDS.index("S3") + sum(r.dice) - 1) % 4
    assert r.first_seat == IDS[first]
    expected: dict[str, list[Any]] = {s: [] for s in IDS}
    for k, tile in enumerate(shuffled[:8]):
        expected[IDS[deal_order(first)[k]]].append(tile)
    assert {s: list(t) for s, t in r.tiles.items()} == expected
    # the dice are recomputable from their own fork of the seed
    d = Rng(seed(7)).fork("round1/dice").dice(2)
    assert r.dice == d
    details = r.result().details
    assert details["dice"] == list(d) and details["first_seat"] == IDS[first]
    assert details["reveal_order"] == ["S3", "S4", "S1", "S2"]


def test_highest_bid_banks_and_bets_settle_a_x_y() -> None:
    r = play(start(n=3), {"S1": 1, "S2": 4, "S3": 2, "S4": 0}, {"S1": 5, "S3": 2, "S4": 1})
    assert r.banker == "S2" and r.banker_multiple == 4
    for pairing in r.result().details["pairings"]:
        y = {"S1": 5, "S3": 2, "S4": 1}[pairing["player"]]
        assert pairing["amount"] == 100 * 4 * y


def test_silence_means_no_bid_and_the_lowest_bet() -> None:
    r = start(n=4)
    r.act("S2", {"type": "bid", "multiple": 3})
    events = r.expire()
    assert r.bids == {"S1": 0, "S2": 3, "S3": 0, "S4": 0}
    assert r.banker == "S2" and any(e.type == "banker" for e in events)
    r.expire()
    assert r.bets == {"S1": 1, "S3": 1, "S4": 1}
    assert r.phase == "reveal"


def test_nobody_bids_gives_a_uniform_random_banker_at_multiple_one() -> None:
    bankers = Counter()
    for n in range(200):
        r = play(start(n=n), {})
        assert r.banker_multiple == 1
        assert r.banker == Rng(seed(n)).fork("round1/banker").choice(IDS)
        bankers[r.banker] += 1
    assert set(bankers) == set(IDS)
    assert all(25 <= c <= 75 for c in bankers.values()), bankers


def test_tied_bids_are_broken_by_stack_weight() -> None:
    # docs/rules/paigow.md#bidding: a tie is broken at random weighted by the tied seats' table stacks
    for n in range(30):  # a zero stack never wins a tie against a positive one
        r = play(start((0, 1000, 9000, 9000), n=n), {"S1": 4, "S2": 4, "S3": 1})
        assert r.banker == "S2"
    wins = Counter(
        play(start((1000, 3000, 500, 500), n=n), {"S1": 2, "S2": 2}).banker for n in range(400)
    )
    assert set(wins) == {"S1", "S2"}
    assert 240 <= wins["S2"] <= 360, wins  # expected 300 of 400 (weight 3:1)
    banker_event = play(start((1000, 3000, 500, 500), n=1), {"S1": 2, "S2": 2}).result().details
    assert banker_event["banker"] in ("S1", "S2")


def test_hidden_information_before_the_reveal() -> None:
    r = start(n=11)
    for view_seat in [*IDS, None]:
        assert all(s["tiles"] is None for s in r.view(view_seat)["seats"])
    r.act("S1", {"type": "bid", "multiple": 1})
    r.expire()
    events = r.expire()  # bets by default → deal
    private = [e for e in events if e.type == "tiles"]
    assert sorted(e.to for e in private) == [(s,) for s in IDS]  # type: ignore[misc]
    assert all(e.visible_to(e.data["seat"]) and not e.visible_to(None) for e in private)
    for seat in IDS:
        view = r.view(seat)
        for s in view["seats"]:
            assert (s["tiles"] is not None) == (s["id"] == seat)
            assert (s["hand"] is not None) == (s["id"] == seat)
        assert view["tiles_left"] == 24 and view["seen_tiles"] == []
        text = json.dumps(view)
        for other in IDS:
            if other != seat:
                own = {str(t) for t in r.tiles[seat]}
                hidden = {str(t) for t in r.tiles[other]} - own
                assert not any(f'"pips": "{p}"' in text for p in hidden)
    assert all(s["tiles"] is None for s in r.view(None)["seats"])
    r.act("S2", {"type": "reveal"})
    assert r.view("S1")["seats"][1]["tiles"] is None  # a ready signal shows nothing yet
    events = r.expire()
    reveals = [e.data["seat"] for e in events if e.type == "reveal"]
    assert reveals == r.reveal_seats() and reveals[0] == "S1"
    assert all(s["tiles"] is not None for s in r.view(None)["seats"])


def test_two_rounds_on_one_shuffle() -> None:
    cfg = PaigowConfig()
    r1 = play(PaigowRound.start(cfg, seats(), Rng(seed(21))), {"S4": 2}, {"S1": 2})
    nxt = r1.next_round()
    assert nxt.reuse_seed and nxt.context == {"round": 2, "seats": IDS}
    stacks = [5000 + r1.result().net(s) for s in IDS]
    r2 = play(
        PaigowRound.start(cfg, seats(stacks), Rng(seed(21)), nxt.context), {"S1": 1}, {"S2": 5}
    )
    assert r2.round_no == 2
    shuffled = game_shuffle(Rng(seed(21)))
    dealt1 = Counter(t for ts in r1.tiles.values() for t in ts)
    dealt2 = Counter(t for ts in r2.tiles.values() for t in ts)
    assert dealt1 == Counter(shuffled[:8]) and dealt2 == Counter(shuffled[8:16])
    assert dealt1 + dealt2 <= Counter(full_set())  # no tile is used twice in a game
    assert [t["pips"] for t in r2.view("S1")["seen_tiles"]] == [str(t) for t in shuffled[:8]]
    assert r2.view(None)["tiles_left"] == 16
    fresh = r2.next_round()
    assert not fresh.reuse_seed and fresh.context == {}
    assert r1.result().details["dice"] != [] and r2.result().details["round"] == 2


def test_round_two_refuses_other_seats() -> None:
    with pytest.raises(InvalidInput, match="nobody may leave"):
        start(context={"round": 2, "seats": ["S1", "S2", "S3", "X"]})
    with pytest.raises(InvalidInput, match="seats"):
        start(context={"round": 2})  # round 2 names its seats, or nobody could check them
    with pytest.raises(InvalidInput):
        start(context={"round": 3})
    with pytest.raises(InvalidInput):
        start(context={"round": 2, "shoe": 1})
    with pytest.raises(InvalidInput):
        PaigowRound.start(PaigowConfig(), seats()[:3], Rng(seed(1)))


def snapshot(r: PaigowRound) -> str:
    return json.dumps([r.view(s) for s in [*IDS, None]] + [[a.to_json() for a in r.log]])


@pytest.mark.parametrize(
    ("prepare", "seat", "action", "error"),
    [
        (0, "S1", {"type": "bet", "multiple": 2}, WrongPhase),
        (0, "S1", {"type": "bid", "multiple": 5}, IllegalAction),
        (0, "S1", {"type": "bid", "multiple": True}, InvalidInput),
        (0, "S1", {"type": "bid", "multiple": "2"}, InvalidInput),
        (0, "S1", {"type": "bid"}, InvalidInput),
        (0, "S1", {"type": "bid", "multiple": 1, "extra": 1}, InvalidInput),
        (0, "S1", {"type": "fold"}, InvalidInput),
        (0, "S9", {"type": "bid", "multiple": 1}, OutOfTurn),
        (1, "S2", {"type": "bid", "multiple": 1}, IllegalAction),  # already bid
        (2, "S2", {"type": "bet", "multiple": 6}, IllegalAction),
        (2, "S2", {"type": "bet", "multiple": 0}, IllegalAction),
        (2, "S1", {"type": "bet", "multiple": 1}, IllegalAction),  # the banker
        (2, "S2", {"type": "reveal"}, WrongPhase),
        (3, "S3", {"type": "bet", "multiple": 1}, WrongPhase),
        (4, "S3", {"type": "reveal"}, WrongPhase),  # finished
    ],
)
def test_refusals_change_nothing(
    prepare: int, seat: str, action: dict[str, Any], error: type[Exception]
) -> None:
    r = start(n=5)
    if prepare >= 1:
        r.act("S2", {"type": "bid", "multiple": 0})
    if prepare >= 2:
        r.act("S1", {"type": "bid", "multiple": 4})
        r.expire()
    if prepare >= 3:
        r.expire()
    if prepare >= 4:
        r.expire()
    before = snapshot(r)
    with pytest.raises(error):
        r.act(seat, action)
    assert snapshot(r) == before


def test_all_actions_end_phases_early_and_replay_matches() -> None:
    r = start(n=9, context=None)
    for s, m in zip(IDS, [0, 2, 2, 1], strict=True):
        r.act(s, {"type": "bid", "multiple": m})
    # docs/rules/common.md#silence-defaults: bet 12 s
    assert r.phase == "bet" and r.deadline_s == 12
    for s in r.players():
        r.act(s, {"type": "bet", "multiple": 3})
    assert r.phase == "reveal" and r.awaiting() == IDS
    for s in IDS:
        assert r.legal_actions(s)[0].type == "reveal"
        r.act(s, {"type": "reveal"})
    assert r.finished and r.deadline_s is None and r.legal_actions("S1") == []
    again = PaigowRound.replay(
        r.config,
        r.seats,
        seed(9),
        [RecordedAction.from_json(a.to_json()) for a in r.log],
    )
    assert again.result() == r.result() and snapshot(again) == snapshot(r)
    with pytest.raises(WrongPhase):
        start().result()


def test_view_has_exactly_the_documented_keys() -> None:
    # the card-room client is built from this shape (PaigowRound module docstring)
    top = {
        "game", "phase", "countdown_s", "awaiting", "me", "round", "rounds", "config", "seats",
        "banker", "banker_multiple", "dice", "first_seat", "deal_order", "reveal_order",
        "tiles_left", "seen_tiles", "result",
    }  # fmt: skip
    seat = {"id", "stack", "position", "bid", "bet", "banker", "ready", "tiles", "hand", "outcome"}
    seat |= {"net"}
    r = start(n=3)
    for step in range(4):
        for who in [*IDS, None]:
            view = r.view(who)
            assert set(view) == top and all(set(s) == seat for s in view["seats"])
            assert (view["me"] is None) == (who is None)
            assert view["me"] is None or view["me"] in view["seats"]
            json.dumps(view)  # JSON-ready
        if step < 3:
            r.expire()
    view = r.view("S2")
    assert view["phase"] == "finished" and view["result"]["details"]["round"] == 1
    hand = view["seats"][0]["hand"]
    assert {"tiles", "zh", "zh_hant", "en", "rank", "points", "values", "strength"} <= set(hand)
