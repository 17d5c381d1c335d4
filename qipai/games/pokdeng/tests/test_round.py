"""The Pok Deng round engine: betting, refusals, the deal order, views, the shoe across rounds."""

from __future__ import annotations

import contextlib
import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.bots.base import Bot
from qipai.core.cards import Card, Shoe
from qipai.core.errors import GameError, IllegalAction, InvalidInput, OutOfTurn, WrongPhase
from qipai.core.protocol import HOUSE, ROUNDING, RecordedAction, Seat
from qipai.core.rng import Rng
from qipai.games import game_package
from qipai.games.pokdeng import CONFIG, ROUND, PokDengConfig, PokDengRound
from qipai.games.pokdeng.bots import RandomBot, SensibleBot
from qipai.games.pokdeng.config import Limits
from qipai.games.pokdeng.round import replay_shoe
from qipai.games.pokdeng.tests.oracle import allowed_returns, oracle_hand, oracle_returned

SEED = bytes(range(32))
SEATS = [Seat("alice", 10_000), Seat("bob", 50_000)]
LIMITS = {"player": Limits(10, 1_000), "banker": Limits(10, 1_000), "pair": Limits(5, 100)}


def new_round(mode: str = "classic", seed: bytes = SEED, **context: Any) -> PokDengRound:
    config = PokDengConfig(mode=mode, limits=LIMITS)  # type: ignore[arg-type]
    return PokDengRound.start(config, SEATS, Rng(seed), context or None)


def snapshot(round_: PokDengRound) -> str:
    state = {s.id: round_.view(s.id) for s in round_.seats}
    return json.dumps([state, round_.view(None), [a.to_json() for a in round_.log]], sort_keys=True)


def test_package_exports_round_and_config() -> None:
    package = game_package("pokdeng")
    assert package.ROUND is PokDengRound and package.CONFIG is PokDengConfig
    assert ROUND is PokDengRound and CONFIG is PokDengConfig


def test_config_json_round_trip_and_validation() -> None:
    config = PokDengConfig(mode="banker-player", cut_behind=(60, 90), limits=LIMITS)
    assert PokDengConfig.from_json(json.loads(json.dumps(config.to_json()))) == config
    for bad in (
        {"mode": "baccarat"},
        {"cut_behind": [5, 10]},
        {"cut_behind": [100, 90]},
        {"decks": 0},
        {"limits": {"player": {"min": 50, "max": 10}}},
        {"win_rate": 0.95},
        {"cut_behind": [52.5, 104]},
        {"cut_behind": "52-104"},
        {"colour": "red"},
    ):
        with pytest.raises(InvalidInput):
            PokDengConfig.from_json(bad)


def test_bets_then_expire_deal_in_the_rules_order() -> None:
    round_ = new_round(position=26, round_in_shoe=3)
    assert round_.phase == "betting" and round_.deadline_s == 15.0
    round_.act("alice", {"type": "bet", "spot": "P1", "amount": 100})
    round_.act("alice", {"type": "bet", "spot": "P1", "amount": 50})  # chips add up
    round_.act("alice", {"type": "bet", "spot": "P3 pair", "amount": 20})
    assert round_.available("alice") == 10_000 - 2 * 150 - 20
    round_.expire()
    assert round_.phase == "finished" and round_.deadline_s is None
    # docs/rules/pokdeng.md#dealing: burn one, then P1, P2, P3, P4, P5, Banker, then again in the same order.
    shoe = Shoe(Rng(SEED), decks=8, behind_cut=(52, 104))
    cards = shoe.cards[26:39]
    order = ["P1", "P2", "P3", "P4", "P5", "B"]
    for i, name in enumerate(order):
        assert round_.hands[name].cards == (cards[1 + i], cards[7 + i])
    bets = {b["spot"]: b for b in round_.result().details["bets"]}
    assert bets["P1"]["amount"] == 150 and bets["P1"]["taken"] == 300
    assert bets["P3 pair"]["taken"] == 20


def test_several_players_several_spots_and_postings_balance() -> None:
    round_ = new_round("banker-player")
    round_.act(
        "alice",
        {"type": "bets", "bets": [{"spot": "P1", "amount": 101}, {"spot": "B2", "amount": 33}]},
    )
    round_.act("bob", {"type": "bets", "bets": [{"spot": "B pair", "amount": 7}], "done": True})
    assert round_.awaiting() == ["alice"]
    round_.act("alice", {"type": "done"})  # everyone confirmed: betting closes, cards are dealt
    assert round_.finished
    result = round_.result()
    assert sum(p.amount for p in result.postings) == 0
    nets = {b["player"]: 0 for b in result.details["bets"]}
    for bet in result.details["bets"]:
        nets[bet["player"]] += bet["net"]
    assert result.net("alice") == nets["alice"] and result.net("bob") == nets["bob"]
    assert result.net(HOUSE) + result.net(ROUNDING) == -(nets["alice"] + nets["bob"])
    json.dumps(result.to_json())


def test_clear_takes_chips_back() -> None:
    round_ = new_round()
    round_.act(
        "alice",
        {"type": "bets", "bets": [{"spot": "P1", "amount": 100}, {"spot": "P2", "amount": 10}]},
    )
    round_.act("alice", {"type": "clear", "spot": "P1"})
    assert round_.view("alice")["me"]["bets"] == {"P2": 10}
    round_.act("alice", {"type": "clear"})
    assert round_.available("alice") == 10_000 and round_.bets() == []


REFUSALS: list[tuple[str, dict[str, Any], type[GameError], str]] = [
    ("alice", {"type": "bet", "spot": "P1", "amount": 5}, IllegalAction, "under the table minimum"),
    (
        "alice",
        {"type": "bet", "spot": "P1", "amount": 1_001},
        IllegalAction,
        "over the table maximum",
    ),
    ("alice", {"type": "bet", "spot": "P1 pair", "amount": 101}, IllegalAction, "maximum 100"),
    (
        "alice",
        {"type": "bet", "spot": "B1", "amount": 100},
        IllegalAction,
        "not on a classic table",
    ),
    ("alice", {"type": "bet", "spot": "B pair", "amount": 10}, IllegalAction, "not on a classic"),
    ("alice", {"type": "bet", "spot": "P6", "amount": 100}, InvalidInput, "unknown spot"),
    ("alice", {"type": "bet", "spot": "P1", "amount": 10.0}, InvalidInput, "integer"),
    ("alice", {"type": "bet", "spot": "P1", "amount": True}, InvalidInput, "integer"),
    ("alice", {"type": "bet", "spot": "P1", "amount": -10}, InvalidInput, "positive"),
    (
        "alice",
        {"type": "bets", "bets": [{"spot": "P1", "amount": 10}, {"spot": "P9", "amount": 1}]},
        InvalidInput,
        "unknown spot",
    ),  # all or nothing: the valid first bet is not placed
    # Balance: alice has 10,000; 5 × 1,000 on positions takes 10,000, the 6th chip is too much.
    (
        "alice",
        {
            "type": "bets",
            "bets": [{"spot": p, "amount": 1_000} for p in ("P1", "P2", "P3", "P4", "P5")]
            + [{"spot": "P1 pair", "amount": 5}],
        },
        IllegalAction,
        "only 10000 is available",
    ),
    ("alice", {"type": "clear"}, IllegalAction, "no bets"),
    ("alice", {"type": "raise"}, InvalidInput, "unknown action"),
    ("carol", {"type": "bet", "spot": "P1", "amount": 100}, OutOfTurn, "not in this round"),
]


@pytest.mark.parametrize(("seat", "action", "error", "message"), REFUSALS)
def test_refusals_change_nothing(
    seat: str, action: dict[str, Any], error: type[GameError], message: str
) -> None:
    round_ = new_round()
    round_.act("bob", {"type": "bet", "spot": "P2", "amount": 500})
    before = snapshot(round_)
    with pytest.raises(error, match=message):
        round_.act(seat, action)
    assert snapshot(round_) == before


def test_over_balance_counts_the_hold() -> None:
    round_ = new_round()
    small = PokDengRound.start(round_.config, [Seat("x", 150)], Rng(SEED))
    with pytest.raises(IllegalAction, match="needs 200"):
        small.act("x", {"type": "bet", "spot": "P1", "amount": 100})  # stake 100 + hold 100
    small.act("x", {"type": "bet", "spot": "P1 pair", "amount": 100})  # pair bets take no hold
    assert small.available("x") == 50


def test_no_bets_after_the_countdown_or_after_done() -> None:
    round_ = new_round()
    round_.act("alice", {"type": "done"})
    before = snapshot(round_)
    with pytest.raises(IllegalAction, match="confirmed"):
        round_.act("alice", {"type": "bet", "spot": "P1", "amount": 100})
    assert snapshot(round_) == before
    round_.expire()
    before = snapshot(round_)
    with pytest.raises(WrongPhase, match="betting is closed"):
        round_.act("bob", {"type": "bet", "spot": "P1", "amount": 100})
    with pytest.raises(WrongPhase):
        round_.expire()
    assert snapshot(round_) == before
    assert round_.legal_actions("bob") == []


def test_silence_is_no_bet() -> None:
    round_ = new_round()
    round_.expire()
    result = round_.result()
    assert all(p.amount == 0 for p in result.postings) and result.details["bets"] == []


def test_views_hide_undealt_cards_and_show_the_deal_to_everyone() -> None:
    round_ = new_round()
    round_.act("alice", {"type": "bet", "spot": "P1", "amount": 100})
    for seat in ("alice", "bob", None):
        view = round_.view(seat)
        assert view["cards"] is None and view["hands"] is None and view["results"] is None
        assert "burn" not in json.dumps(view)
    assert round_.view("bob")["me"]["bets"] == {}  # bob sees his own (no) bets …
    assert round_.view("bob")["spot_totals"] == {"P1": 100}  # … and the chips on the table
    with pytest.raises(OutOfTurn):
        round_.view("carol")
    round_.expire()
    dealt = {n: [str(c) for c in h.cards] for n, h in round_.hands.items()}
    for seat in ("alice", "bob", None):
        view = round_.view(seat)
        assert view["cards"] == dealt  # Pok Deng: all hands are public after the deal
        assert set(view["hands"]) == {"P1", "P2", "P3", "P4", "P5", "B"}
        assert view["shoe"]["cards_used"] == 13
        json.dumps(view)
    assert [b["spot"] for b in round_.view("alice")["payouts"]["bets"]] == ["P1"]
    assert round_.view("bob")["payouts"] == {"bets": [], "net": 0}


def test_legal_actions_reflect_the_state() -> None:
    round_ = new_round("banker-player")
    kinds = [a.type for a in round_.legal_actions("alice")]
    assert kinds == ["bet", "bets", "done"]
    options = round_.legal_actions("alice")[0].options
    assert set(options["spots"]) == set(round_.config.spots) and options["available"] == 10_000
    round_.act("alice", {"type": "bet", "spot": "B3", "amount": 10})
    kinds = [a.type for a in round_.legal_actions("alice")]
    assert kinds == ["bet", "bets", "clear", "done"]
    assert round_.legal_actions("alice")[0].options["current"] == {"B3": 10}


def play_shoe(
    seed: bytes, mode: str = "banker-player"
) -> list[tuple[dict[str, Any], list[RecordedAction], str]]:
    """Play one whole shoe with bots; return each round's (context, log, result JSON)."""
    config = PokDengConfig(mode=mode, limits=LIMITS)  # type: ignore[arg-type]
    seats = [Seat("r", 10**6), Seat("s", 10**6), Seat("t", 30)]
    bots: dict[str, Bot] = {"r": RandomBot(), "s": SensibleBot(), "t": SensibleBot()}
    bot_rng = Rng(seed).fork("bots")
    context: dict[str, Any] = {}
    rounds = []
    for k in range(1, 40):
        round_ = PokDengRound.start(config, seats, Rng(seed), context)
        assert round_.view(None)["shoe"]["round"] == k
        for seat in seats:
            legal = round_.legal_actions(seat.id)
            if legal and k % 5:  # every fifth round: silence for everyone
                round_.act(seat.id, bots[seat.id].choose(round_.view(seat.id), legal, bot_rng))
        if not round_.finished:
            round_.expire()
        rounds.append((context, list(round_.log), json.dumps(round_.result().to_json())))
        following = round_.next_round()
        json.dumps(dict(following.context))
        last = round_.view(None)["shoe"]["last_round"]
        assert last == (not following.reuse_seed)
        if last:
            return rounds
        context = dict(following.context)
    raise AssertionError("the cut card never came out")


def test_a_full_shoe_replays_to_identical_results() -> None:
    seed = bytes([7]) * 32
    rounds = play_shoe(seed)
    shoe = Shoe(Rng(seed))
    cut_index = 416 - shoe.behind_cut
    # The last round is the one whose deal passes the cut card; the rounds before do not.
    assert 13 * (len(rounds) - 1) <= cut_index < 13 * len(rounds)
    config = PokDengConfig(mode="banker-player", limits=LIMITS)
    seats = [Seat("r", 10**6), Seat("s", 10**6), Seat("t", 30)]
    for context, log, result in rounds:
        again = PokDengRound.replay(config, seats, seed, log, copy.deepcopy(context) or None)
        assert json.dumps(again.result().to_json()) == result
    # The whole shoe again from (config, seed, actions) alone: contexts derived, not stored.
    seats_and_logs = [(seats, log) for _, log, _ in rounds]
    again_all = replay_shoe(config, seed, seats_and_logs)
    assert [json.dumps(r.result().to_json()) for r in again_all] == [r for _, _, r in rounds]
    assert again_all[-1].view(None)["shoe"]["last_round"]
    with pytest.raises(InvalidInput, match="new shoe"):
        replay_shoe(config, seed, [*seats_and_logs, seats_and_logs[0]])
    # The road carried in the context grows by one row a round, for this shoe only.
    assert rounds[-1][0]["road"].count(";") == len(rounds) - 2
    with pytest.raises(InvalidInput, match="past the cut card"):
        PokDengRound.start(config, seats, Rng(seed), {"position": 13 * len(rounds)})


def test_bad_context_is_refused() -> None:
    for context in (
        {"position": -1},
        {"position": "3"},
        {"position": True},
        {"round_in_shoe": 0},
        {"road": "Q,Q"},
        {"road": ["W,W,W,W,W,-"]},
    ):
        with pytest.raises(InvalidInput):
            new_round(**context)


@settings(max_examples=40, deadline=None)
@given(
    mode=st.sampled_from(["classic", "banker-player"]),
    seed=st.binary(min_size=32, max_size=32),
    position=st.integers(0, 24).map(lambda k: 13 * k),
    bets=st.lists(
        st.tuples(st.sampled_from(["alice", "bob"]), st.integers(0, 15), st.integers(10, 1000)),
        max_size=10,
    ),
)
def test_every_bet_returns_an_allowed_value_and_money_balances(
    mode: str, seed: bytes, position: int, bets: list[tuple[str, int, int]]
) -> None:
    round_ = new_round(mode, seed, position=position)
    spots = sorted(round_.config.spots)
    for player, k, amount in bets:
        spot = spots[k % len(spots)]
        amount = min(amount, round_.config.spot_limits[spot].max)
        with contextlib.suppress(IllegalAction):  # over a limit or the balance: refused
            round_.act(player, {"type": "bet", "spot": spot, "amount": amount})
    round_.expire()
    result = round_.result()
    oracle = {n: oracle_hand(*(str(c) for c in h.cards)) for n, h in round_.hands.items()}
    for bet in result.details["bets"]:
        assert bet["returned"] in allowed_returns(mode, bet["spot"], bet["amount"])
        assert bet["returned"] == oracle_returned(mode, bet["spot"], bet["amount"], oracle)
    # player nets + house + rounding = 0, and no one risked more than their stack.
    assert sum(p.amount for p in result.postings) == 0
    for seat in SEATS:
        taken = sum(b["taken"] for b in result.details["bets"] if b["player"] == seat.id)
        assert taken <= seat.stack
        assert result.net(seat.id) >= -taken


def test_banker_player_spots_use_their_own_limits() -> None:
    limits = {"player": Limits(10, 100), "banker": Limits(20, 200), "pair": Limits(1, 5)}
    config = PokDengConfig(mode="banker-player", limits=limits)
    round_ = PokDengRound.start(config, SEATS, Rng(SEED))
    round_.act("alice", {"type": "bet", "spot": "B1", "amount": 200})
    with pytest.raises(IllegalAction, match="maximum 100"):
        round_.act("alice", {"type": "bet", "spot": "P1", "amount": 101})
    with pytest.raises(IllegalAction, match="minimum 20"):
        round_.act("alice", {"type": "bet", "spot": "B2", "amount": 10})
    round_.act("alice", {"type": "bet", "spot": "B pair", "amount": 5})
    spots = round_.view(None)["spots"]
    assert spots["B1"] == {"kind": "banker", "hand": "P1", "min": 20, "max": 200, "hold": 2}
    assert spots["B pair"]["hand"] == "B" and "B1" not in new_round().view(None)["spots"]


@pytest.mark.parametrize(
    ("action", "error"),
    [
        ({"type": "clear", "spot": "P3"}, IllegalAction),  # no bet there
        ({"type": "clear", "spot": "B1"}, InvalidInput),  # not a classic spot
        ({"type": "bets", "bets": "P1"}, InvalidInput),
        ({"type": "bets", "bets": [], "done": "yes"}, InvalidInput),
        ({"type": "bets", "bets": [["P1", 100]]}, InvalidInput),
        ({"spot": "P1", "amount": 100}, InvalidInput),  # no type
    ],
)
def test_malformed_actions_change_nothing(action: dict[str, Any], error: type[GameError]) -> None:
    round_ = new_round()
    round_.act("alice", {"type": "bet", "spot": "P1", "amount": 100})
    before = snapshot(round_)
    with pytest.raises(error):
        round_.act("alice", action)
    assert snapshot(round_) == before


def test_the_log_is_a_copy_of_what_was_sent() -> None:
    round_ = new_round()
    chips = [{"spot": "P1", "amount": 100}]
    round_.act("alice", {"type": "bets", "bets": chips})
    chips[0]["amount"] = 999  # the caller reuses its objects: the journal must not change
    assert round_.log[0].action["bets"] == [{"spot": "P1", "amount": 100}]


def test_the_burn_card_and_the_rest_of_the_shoe_never_show() -> None:
    """Two rounds whose shoes differ only in the burn card and the undealt cards give every
    seat identical views (before and after the deal) and identical results."""
    a, b = new_round(position=13), new_round(position=13)
    cards = list(b._shoe.cards)
    cards[13] = Card.from_id((cards[13].id + 1) % 52)  # another burn card
    cards[26:] = [Card.from_id((c.id + 7) % 52) for c in cards[26:]]  # another rest of the shoe
    b._shoe.cards = tuple(cards)
    for round_ in (a, b):
        round_.act("alice", {"type": "bet", "spot": "P2", "amount": 100})
    assert snapshot(a) == snapshot(b)
    a.expire()
    b.expire()
    assert snapshot(a) == snapshot(b)
    assert a.result().to_json() == b.result().to_json()


@settings(max_examples=40, deadline=None)
@given(
    st.binary(min_size=32, max_size=32),
    st.sampled_from(["", "table-7"]),
    st.integers(1, 8),
    st.data(),
)
def test_the_cached_shoe_is_exactly_core_shoe(
    seed: bytes, label: str, decks: int, data: st.DataObject
) -> None:
    """`shoe_cards` (what the fairness tests read) is the very shoe `Shoe` deals."""
    from qipai.games.pokdeng.round import shoe_cards

    lo = data.draw(st.integers(13, 52 * decks - 13))
    hi = data.draw(st.integers(lo, 52 * decks - 13))
    config = PokDengConfig(decks=decks, cut_behind=(lo, hi))
    cards, ids, behind = shoe_cards(Rng(seed, label), config)
    shoe = Shoe(Rng(seed, label), decks=decks, behind_cut=(lo, hi))
    assert cards == shoe.cards and behind == shoe.behind_cut
    assert ids == tuple((c.rank - 2) * 4 + c.suit for c in shoe.cards)
