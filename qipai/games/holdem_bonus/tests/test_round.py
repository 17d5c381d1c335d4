"""The Hold'em Bonus round: flow, countdown defaults, refusals, hidden cards, 抢押, replay."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.cards import standard_deck
from qipai.core.errors import GameError, IllegalAction, InvalidInput, OutOfTurn, WrongPhase
from qipai.core.protocol import JACKPOT, RecordedAction, Seat
from qipai.core.rng import Rng
from qipai.games.holdem_bonus import HoldemBonusConfig, HoldemBonusRound

from .helpers import bet_all, round_with

SEED = bytes(range(32))
ALL_CARDS = {str(c) for c in standard_deck()}


def cards_in(view: Any) -> set[str]:
    """Every card token anywhere in a JSON view."""
    text = json.dumps(view)
    return {c for c in ALL_CARDS if f'"{c}"' in text}


def test_full_round_all_bets() -> None:
    r = round_with(["Ac Ad"], "Kc Kd", "As 7s 9c 4d 3s")
    bet_all(r, {"1": {"ante": 100, "bonus": 100, "pool": True}})
    assert r.phase == "flop" and r.view("1")["board"] == []
    assert r.view("1")["boxes"][0]["cards"] == ["Ac", "Ad"]
    assert r.legal_actions("1")[0].to_json() == {"type": "flop", "boxes": {"1": 200}}
    r.act("1", {"type": "flop", "amount": 200})
    assert r.phase == "turn" and r.view("1")["board"] == ["As", "7s", "9c"]
    r.act("1", {"type": "turn", "box": "1", "amount": 100})
    assert r.phase == "river" and r.view("1")["board"] == ["As", "7s", "9c", "4d"]
    r.act("1", {"type": "river"})
    assert r.finished and r.view(None)["board"] == ["As", "7s", "9c", "4d", "3s"]
    res = r.result()
    box = res.details["boxes"]["1"]
    # Trips win with less than a straight: ante pushes, flop/turn/river 1:1; bonus AA 30:1;
    # the pool hand AAA-7-9 is trips: the stake is lost, half flows in.
    assert box["nets"] == {
        "ante": 0,
        "flop": 200,
        "turn": 100,
        "river": 100,
        "bonus": 3000,
        "pool": -100,
    }
    assert res.net("1") == 3300
    assert res.net(JACKPOT) == 50
    assert r.next_round().context == {"pool": 1_000_050}


def test_a_turn_check_gives_up_the_river() -> None:
    r = round_with(["Ac Ad", "2c 7d"], "Kc Kd", "As 7s 9c 4d 3s", seats=("1", "2"))
    bet_all(r, {"1": {"ante": 100}, "2": {"ante": 100}})
    r.act("1", {"type": "flop"})
    r.act("2", {"type": "flop"})
    r.act("1", {"type": "check"})
    r.act("2", {"type": "turn"})
    assert r.phase == "river"
    assert r.legal_actions("1") == []
    with pytest.raises(IllegalAction):
        r.act("1", {"type": "river", "box": "1"})
    r.act("2", {"type": "check"})
    assert r.finished
    assert r.result().details["boxes"]["1"]["bets"]["river"] == 0


def test_everyone_folds_still_settles_bonus_and_pool() -> None:
    r = round_with(["Ah Kh"], "2c 2d", "Qh Jh Th 4d 3s")
    bet_all(r, {"1": {"ante": 100, "bonus": 100, "pool": True}})
    r.act("1", {"type": "fold"})
    assert r.finished
    box = r.result().details["boxes"]["1"]
    assert box["outcome"] == "fold"
    assert box["nets"]["ante"] == -100 and box["nets"]["bonus"] == 2500
    assert box["nets"]["pool"] == 1_000_000 - 100  # royal flush on hole + flop: the whole pool
    assert r.result().details["pool_balance"] == 25_000  # topped back up to the default seed


def test_silence_folds_at_the_flop_and_checks_later() -> None:
    r = round_with(["Ac Ad", "Kc Kd"], "2c 7d", "As 7s 9c 4d 3s", seats=("1", "2"))
    r.act("1", {"type": "bet", "ante": 100})
    r.act("2", {"type": "bet", "ante": 100})
    r.expire()  # betting closes; bets on the layout stand
    assert r.phase == "flop"
    r.act("2", {"type": "flop"})
    r.expire()  # box 1 silent: folds
    assert r.phase == "turn"
    r.expire()  # box 2 silent: checks, so no river
    assert r.finished
    boxes = r.result().details["boxes"]
    assert boxes["1"]["outcome"] == "fold"
    assert boxes["2"]["bets"] == {
        "ante": 100,
        "bonus": 0,
        "pool": 0,
        "flop": 200,
        "turn": 0,
        "river": 0,
    }


def test_river_silence_checks() -> None:
    r = round_with(["Ac Ad"], "2c 7d", "As 7s 9c 4d 3s")
    bet_all(r, {"1": {"ante": 100}})
    r.act("1", {"type": "flop"})
    r.act("1", {"type": "turn"})
    r.expire()
    assert r.finished and r.result().details["boxes"]["1"]["bets"]["river"] == 0


def test_no_bets_ends_the_round_without_cards() -> None:
    r = round_with(["Ac Ad"], "2c 7d", "As 7s 9c 4d 3s", seats=("1", "2"))
    r.expire()
    assert r.finished and r.result().postings == ()
    assert cards_in(r.view(None)) == set()
    assert r.next_round().context == {"pool": 1_000_000}


def snapshot(r: HoldemBonusRound) -> str:
    return json.dumps([r.view(None), r.view("1"), r.view("2"), [a.to_json() for a in r.log]])


def refused(r: HoldemBonusRound, seat: str, action: dict[str, Any], error: type[GameError]) -> None:
    before = snapshot(r)
    with pytest.raises(error):
        r.act(seat, action)
    assert snapshot(r) == before


def test_refusals_change_nothing() -> None:
    r = round_with(["Ac Ad", "Kc Kd"], "2c 7d", "As 7s 9c 4d 3s", seats=("1", "2"), stack=1000)
    refused(r, "1", {"type": "bet", "ante": 50}, IllegalAction)  # under the minimum
    refused(r, "1", {"type": "bet", "ante": 100, "bonus": 50}, IllegalAction)  # bonus != ante
    refused(r, "1", {"type": "bet", "ante": 100, "pool": 1}, InvalidInput)
    refused(r, "1", {"type": "bet", "ante": 200, "bonus": 200}, IllegalAction)  # 1,200 > stack
    refused(r, "1", {"type": "bet", "box": "2", "ante": 100}, IllegalAction)  # 2's own box
    refused(r, "1", {"type": "bet", "box": "9", "ante": 100}, InvalidInput)
    refused(r, "1", {"type": "bet", "ante": 100.0}, InvalidInput)
    refused(r, "1", {"type": "flop"}, WrongPhase)
    refused(r, "1", {"type": "clear"}, IllegalAction)
    refused(r, "1", {"type": "jump"}, InvalidInput)
    refused(r, "7", {"type": "done"}, OutOfTurn)
    r.act("1", {"type": "bet", "ante": 100})
    r.act("2", {"type": "bet", "ante": 100})
    r.act("1", {"type": "done"})
    refused(r, "1", {"type": "bet", "ante": 100}, IllegalAction)  # confirmed already
    r.act("2", {"type": "done"})
    refused(r, "1", {"type": "flop", "amount": 100}, IllegalAction)  # the flop bet is 2x
    refused(r, "1", {"type": "flop", "amount": True}, InvalidInput)  # a bool is no amount
    refused(r, "1", {"type": "turn"}, WrongPhase)
    refused(r, "1", {"type": "river"}, WrongPhase)
    refused(r, "1", {"type": "flop", "box": "2"}, OutOfTurn)
    refused(r, "1", {"type": "bet", "ante": 100}, WrongPhase)
    r.act("1", {"type": "flop", "amount": 200})
    refused(r, "1", {"type": "flop"}, InvalidInput)  # no box of 1's awaits
    refused(r, "1", {"type": "fold", "box": "1"}, IllegalAction)  # repeated decision
    r.act("2", {"type": "fold"})
    refused(r, "1", {"type": "river"}, WrongPhase)  # river before the turn
    refused(r, "1", {"type": "turn", "amount": 200}, IllegalAction)  # the turn bet is 1x
    refused(r, "2", {"type": "turn", "box": "2"}, IllegalAction)  # folded box
    r.act("1", {"type": "turn"})
    r.act("1", {"type": "check"})
    assert r.finished
    refused(r, "1", {"type": "check"}, WrongPhase)
    with pytest.raises(WrongPhase):
        r.expire()


def test_hidden_information() -> None:
    r = round_with(["Ac Ad", "Kc Kd", "Qc Qd"], "2c 7d", "As 7s 9c 4d 3s", seats=("1", "2", "3"))
    bet_all(r, {s: {"ante": 100} for s in ("1", "2", "3")})
    assert cards_in(r.view("1")) == {"Ac", "Ad"}
    assert cards_in(r.view("2")) == {"Kc", "Kd"}
    assert cards_in(r.view(None)) == set()
    for s in ("1", "2", "3"):
        r.act(s, {"type": "flop"})
    # The flop is public; pool hands show only to their box's player.
    assert cards_in(r.view(None)) == {"As", "7s", "9c"}
    assert cards_in(r.view("3")) == {"Qc", "Qd", "As", "7s", "9c"}
    for s in ("1", "2", "3"):
        r.act(s, {"type": "turn"})
    assert cards_in(r.view("1")) == {"Ac", "Ad", "As", "7s", "9c", "4d"}
    # Private events go only to their box's player.
    for s in ("1", "2", "3"):
        r.act(s, {"type": "check"})
    assert r.finished
    shown = cards_in(r.view(None))
    assert shown == {"Ac", "Ad", "Kc", "Kd", "Qc", "Qd", "2c", "7d", "As", "7s", "9c", "4d", "3s"}


def test_hole_events_are_private() -> None:
    r = round_with(["Ac Ad", "Kc Kd"], "2c 7d", "As 7s 9c 4d 3s", seats=("1", "2"))
    r.act("1", {"type": "bet", "ante": 100})
    r.act("2", {"type": "bet", "ante": 100})
    r.act("1", {"type": "done"})
    events = r.act("2", {"type": "done"})
    holes = [e for e in events if e.type == "hole"]
    assert [(e.to, e.data["cards"]) for e in holes] == [
        (("1",), ["Ac", "Ad"]),
        (("2",), ["Kc", "Kd"]),
    ]
    assert all(not e.visible_to(None) for e in holes)


def test_playing_a_vacant_box() -> None:
    # Seats 1 and 2 sit; box 4 is empty; seat 2 confirms without betting.
    r = round_with(["Ac Ad", "Kc Kd", "Qc Qd"], "2c 7d", "As 7s 9c 4d 3s", seats=("1", "2"))
    spec = r.legal_actions("1")[0].to_json()
    assert "2" not in spec["boxes"] and "4" in spec["boxes"]
    r.act("1", {"type": "bet", "ante": 100})
    r.act("1", {"type": "bet", "box": "4", "ante": 200, "bonus": 200})
    refused(r, "2", {"type": "bet", "box": "4", "ante": 100}, IllegalAction)  # taken
    r.act("2", {"type": "done"})
    r.act("1", {"type": "bet", "box": "2", "ante": 100})  # 2 did not bet: open to 1 now
    r.act("1", {"type": "done"})
    assert r.phase == "flop"
    assert r.view("1")["me"]["boxes"] == ["1", "2", "4"]
    assert r.awaiting() == ["1"]
    with pytest.raises(InvalidInput):
        r.act("1", {"type": "flop"})  # which box?
    r.act("1", {"type": "flop", "box": "1"})
    r.act("1", {"type": "fold", "box": "2"})
    r.act("1", {"type": "flop", "box": "4", "amount": 400})
    r.expire()  # both boxes check the turn: no river decision, straight to the showdown
    assert r.finished
    res = r.result()
    boxes = res.details["boxes"]
    assert [boxes[b]["player"] for b in ("1", "2", "4")] == ["1", "1", "1"]
    assert res.net("1") == sum(boxes[b]["net"] for b in ("1", "2", "4"))
    assert res.net("2") == 0


def test_clear_reopens_a_box() -> None:
    r = round_with(["Ac Ad"], "2c 7d", "As 7s 9c 4d 3s", seats=("1", "2"))
    r.act("1", {"type": "bet", "box": "5", "ante": 100})
    r.act("1", {"type": "clear", "box": "5"})
    r.act("2", {"type": "bet", "box": "5", "ante": 100})
    assert r.view(None)["boxes"][4]["player"] == "2"


def test_seat_must_be_a_box() -> None:
    with pytest.raises(InvalidInput):
        HoldemBonusRound.start(HoldemBonusConfig(), [Seat("S9", 1000)], Rng(SEED))
    with pytest.raises(InvalidInput):
        HoldemBonusRound.start(HoldemBonusConfig(), [Seat("1", 1000)], Rng(SEED), {"pool": -1})


def test_opening_pool_from_context_and_seed_floor() -> None:
    cfg = HoldemBonusConfig(pool_seed=1000)
    r = HoldemBonusRound.start(cfg, [Seat("1", 10_000)], Rng(SEED), {"pool": 200})
    bet_all(r, {"1": {"ante": 100, "pool": True}})
    r.expire()
    res = r.result()
    pool = res.details["pool"]
    assert pool["opening"] == 200 and pool["opening_top_up"] == 800
    assert r.next_round().context["pool"] == pool["balance_after"]


def check_hidden(r: HoldemBonusRound) -> None:
    """Before the showdown a seat sees only its own boxes' hole cards and the board shown."""
    if r.finished:
        return
    board = set(r.view(None)["board"])
    assert cards_in(r.view(None)) == board
    for seat in r.seat_ids():
        own = {
            str(c) for box, hole in r._holes.items() if r._bets[box].player == seat for c in hole
        }
        assert cards_in(r.view(seat)) <= own | board


def play_randomly(r: HoldemBonusRound, rng: Rng) -> None:
    """Drive a round with random legal actions (and silences) until it finishes, checking at
    every step that no view shows a card its seat may not see."""
    steps = 0
    while not r.finished:
        check_hidden(r)
        steps += 1
        assert steps < 200
        options: list[tuple[str | None, dict[str, Any]]] = [(None, {})]
        for seat in r.awaiting():
            for spec in r.legal_actions(seat):
                j = spec.to_json()
                if j["type"] == "bet":
                    box = rng.choice(j["boxes"])
                    ante = rng.choice([100, 200, 300])
                    options.append(
                        (
                            seat,
                            {
                                "type": "bet",
                                "box": box,
                                "ante": ante,
                                "bonus": rng.choice([0, ante]),
                                "pool": rng.choice([True, False]),
                            },
                        )
                    )
                elif "boxes" in j and isinstance(j["boxes"], dict | list):
                    for box in j["boxes"]:
                        options.append((seat, {"type": j["type"], "box": box}))
                else:
                    options.append((seat, {"type": j["type"]}))
        seat, action = rng.choice(options)
        if seat is None:
            r.expire()
            continue
        before = json.dumps([r.view(None), r.view(seat), len(r.log)])
        try:
            r.act(seat, action)
        except GameError:  # a random bet can exceed the stack: refused, and nothing changed
            assert json.dumps([r.view(None), r.view(seat), len(r.log)]) == before


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(1, 7))
def test_random_play_balances_and_replays(seed: bytes, n: int) -> None:
    seats = [Seat(str(i), 3000) for i in range(1, n + 1)]
    cfg = HoldemBonusConfig()
    r = HoldemBonusRound.start(cfg, seats, Rng(seed), {"pool": 600_000})
    play_randomly(r, Rng(seed).fork("bot"))
    res = r.result()  # balanced, or RoundResult raises
    again = HoldemBonusRound.replay(
        cfg, seats, seed, [RecordedAction.from_json(a.to_json()) for a in r.log], {"pool": 600_000}
    )
    assert again.result().to_json() == res.to_json()
    assert again.view(None) == r.view(None)
    for seat in seats:
        assert res.net(seat.id) >= -seat.stack


def test_deadlines() -> None:
    r = round_with(["Ac Ad"], "2c 7d", "As 7s 9c 4d 3s")
    assert r.deadline_s == 12.0  # docs/rules/common.md#silence-defaults: bet 12 s
    bet_all(r, {"1": {"ante": 100}})
    assert r.deadline_s == 12.0  # each decision 12 s
    r.act("1", {"type": "fold"})
    assert r.deadline_s is None
