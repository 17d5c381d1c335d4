"""High card's GameSpec: all a layer needs, so that nothing outside this folder names it."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from qipai.core.cards import parse_card
from qipai.core.errors import InvalidInput
from qipai.core.protocol import JSON
from qipai.core.spec import BetReturn, GameSpec, countdown, label, lazy, ref

from .config import HighCardConfig
from .round import HighCardRound
from .view import HighCardView


def pay_table(config: HighCardConfig) -> JSON:
    return {
        "game": "highcard",
        "bets": [{"bet": "ante", "label": label("底注", "ante"), "max": config.max_ante}],
        "countdowns": [countdown("ante", "下底注", "ante", config.countdown_s)],
        "min_buy_in": config.max_ante,
    }


def rtp(config: HighCardConfig) -> list[BetReturn]:
    """Players play each other and the house takes nothing: 100 % in total."""
    return [BetReturn("ante", label("底注", "ante"), Fraction(1), note="zero-sum between seats")]


def settle(doc: Mapping[str, Any]) -> JSON:
    """`qipai settle`: {"game": "highcard", "antes": {seat: n}, "cards": {seat: card}}."""
    antes, cards = doc.get("antes"), doc.get("cards")
    if not isinstance(antes, Mapping) or not isinstance(cards, Mapping) or set(antes) != set(cards):
        raise InvalidInput("antes and cards name the same seats", field="cards")
    winner = max(cards, key=lambda s: parse_card(cards[s]).id)
    pot = sum(int(a) for a in antes.values())
    nets = {s: (pot if s == winner else 0) - int(a) for s, a in antes.items()}
    return {"game": "highcard", "winner": winner, "nets": nets}


SPEC = GameSpec(
    name="highcard",
    title={"en": "High card", "zh": "比大小"},
    seat_ids=("A", "B", "C"),
    min_players=2,
    max_players=3,
    round_type=HighCardRound,
    config_model=HighCardConfig,
    view_model=HighCardView,
    bots={"simple": lazy(f"{__package__}.bot:HighCardBot")},
    min_buy_in_of=lambda config: config.max_ante,
    pay_table_of=pay_table,
    rtp_of=rtp,
    settle_doc=settle,
    encoder=ref(f"{__package__}.env:HighCardEncoder"),
    fairness=ref(f"{__package__}.fairness:DESCRIPTION"),
    stakes=lazy(f"{__package__}.reports:stakes"),
    analyse=None,
    no_analysis="the players play each other and the house takes nothing (100 % in total)",
    simulate=None,
    order=900,
    default_buy_in=100,
)
