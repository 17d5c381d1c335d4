"""The Hold'em Bonus bots play whole rounds from their views alone."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from qipai.core.cards import Card, parse_cards
from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.games.holdem_bonus import HoldemBonusConfig, HoldemBonusRound
from qipai.games.holdem_bonus.bots import BOTS, RandomBot, SensibleBot, rule_of_thumb


def play_round(bots: dict[str, object], seed: int) -> HoldemBonusRound:
    seats = [Seat(s, 10_000) for s in bots]
    r = HoldemBonusRound.start(HoldemBonusConfig(), seats, Rng(seed.to_bytes(32, "big")))
    rng = Rng(b"bots" * 8)
    while not r.finished:
        waiting = r.awaiting()
        assert waiting
        seat = waiting[0]
        action = bots[seat].choose(r.view(seat), r.legal_actions(seat), rng)  # type: ignore[attr-defined]
        r.act(seat, action)
    return r


@pytest.mark.parametrize("seed", range(20))
def test_bots_finish_rounds(seed: int) -> None:
    r = play_round(
        {"1": RandomBot(), "2": SensibleBot(), "3": SensibleBot(bonus=True, pool=True)}, seed
    )
    boxes = r.result().details["boxes"]
    assert "2" in boxes and "3" in boxes  # the sensible bot always bets its box
    assert boxes["3"]["bets"]["bonus"] == 100 and boxes["3"]["bets"]["pool"] == 100


def test_sensible_bot_uses_a_given_strategy() -> None:
    calls: list[tuple[str, int]] = []

    def always(phase: str, hole: Sequence[Card], board: Sequence[Card]) -> bool:
        calls.append((phase, len(board)))
        assert len(hole) == 2
        return True

    r = play_round({"1": SensibleBot(strategy=always)}, seed=3)
    assert calls == [("flop", 0), ("turn", 3), ("river", 4)]
    bets = r.result().details["boxes"]["1"]["bets"]
    assert (bets["flop"], bets["turn"], bets["river"]) == (200, 100, 100)


@pytest.mark.parametrize(
    ("phase", "hole", "board", "play"),
    [
        ("flop", "2c 7d", "", False),
        ("flop", "2c 7c", "", True),
        ("flop", "2c 2d", "", True),
        ("flop", "2c 9d", "", True),
        ("turn", "Ac 7d", "As 9c 4h", True),  # top pair
        ("turn", "2c 3d", "As 9c 4h", False),
        ("turn", "2h 3h", "Ah 9h 4c", True),  # flush draw
        ("turn", "2c 3d", "As Ac 9h", False),  # the pair is the board's
        ("river", "Kc Qd", "As Ac 9h 9d", False),
        ("river", "Ad 3d", "As Kc 9h 8d", True),
    ],
)
def test_rule_of_thumb(phase: str, hole: str, board: str, play: bool) -> None:
    assert rule_of_thumb(phase, parse_cards(hole), parse_cards(board)) is play


def test_registry_ends_with_the_optimal_bot() -> None:
    # The card room seats the last level by default (GameInfo.default_bot): the analysis's
    # exact optimal strategy (issue: "Hold'em Bonus follows a strategy from the analysis").
    assert list(BOTS) == ["random", "sensible", "optimal"]
    bot = BOTS["optimal"]()
    assert bot.name == "optimal" and bot.strategy is not rule_of_thumb


def test_optimal_bot_folds_what_the_analysis_folds_and_bets_a_made_hand() -> None:
    from .helpers import bet_all, round_with

    # Box 1: 7-2 offsuit, one of the five hands the enumeration folds; box 2: pocket aces.
    r = round_with(["7c 2d", "As Ad"], "3h 4h", "Ac 9s 5d Kh Qd", seats=("1", "2"))
    bet_all(r, {"1": {"box": "1", "ante": 100}, "2": {"box": "2", "ante": 100}})
    bot, rng = BOTS["optimal"](), Rng(b"x" * 32)
    assert bot.choose(r.view("1"), r.legal_actions("1"), rng) == {"type": "fold", "box": "1"}
    assert bot.choose(r.view("2"), r.legal_actions("2"), rng) == {"type": "flop", "box": "2"}
    r.act("1", {"type": "fold", "box": "1"})
    r.act("2", {"type": "flop", "box": "2"})
    # Trip aces on the flop: bet the turn.
    assert bot.choose(r.view("2"), r.legal_actions("2"), rng) == {"type": "turn", "box": "2"}
