"""Bid-for-banker Pai Gow's GameSpec (docs/rules/paigow.md#table-settings): seats, settings, actions, buy-in, pay table."""

from __future__ import annotations

from qipai.core.banker import stakes_against_banker
from qipai.core.protocol import JSON
from qipai.core.spec import GameSpec, countdown, label, lazy, ref
from qipai.games.paigow.config import NO_BID_MULTIPLE, SEATS, PaigowConfig
from qipai.games.paigow.round import PaigowRound
from qipai.games.paigow.view import PaigowView


def min_buy_in(config: PaigowConfig) -> int:
    """docs/rules/common.md#buy-in, buy-in: the largest loss at the smallest multiples — a banker at the smallest
    banker multiple losing A·X·Y to each of the three players at the lowest bet."""
    smallest_bank = min(NO_BID_MULTIPLE, config.bid_choices[0])
    return (SEATS - 1) * config.base * smallest_bank * config.bet_choices[0]


def pay_table(config: PaigowConfig) -> JSON:
    """Base, multiples, commission, tie policy and the cap (docs/rules/paigow.md#settlement, Settlement)."""
    tie = (
        label("庄家赢", "the banker wins")
        if config.tie_policy == "banker"
        else label("和 (不输不赢)", "a push")
    )
    return {
        "game": "paigow",
        "base": config.base,
        "bets": [
            {
                "bet": "player",
                "label": label("闲家对庄家", "player against the banker"),
                "stake": label(
                    "底注 A × 庄倍数 X × 闲倍数 Y", "base A × banker multiple X × player multiple Y"
                ),
                "pays": [{"when": label("闲家牌大", "the player's hand is higher"), "odds": "1:1"}],
                "loses": [{"when": label("庄家牌大", "the banker's hand is higher"), "odds": "1x"}],
                "ties": tie,
            }
        ],
        "bid_choices": [0, *config.bid_choices],
        "bet_choices": list(config.bet_choices),
        "commission": {
            "rate": config.commission,
            "label": label("抽水: 每局净赢的", "commission on each participant's net win"),
        },
        "limits": [],
        "cap": label(
            "防以小博大: 每局输赢不超过带入的筹码",
            "nobody wins or loses more in a round than the stack brought into it",
        ),
        "settings": {"tie_policy": config.tie_policy, "high_nine": config.high_nine},
        "countdowns": [
            countdown("bid", "抢庄", "bid for banker", config.bid_seconds),
            countdown("bet", "下注", "bet", config.bet_seconds),
            countdown("reveal", "开牌", "reveal", config.reveal_seconds),
        ],
        "min_buy_in": min_buy_in(config),
    }


SPEC = GameSpec(
    name="paigow",
    title={"en": "Pai Gow", "zh": "抢庄牌九"},
    seat_ids=("E", "S", "W", "N"),
    min_players=4,  # docs/rules/paigow.md#table-settings: four seats
    max_players=4,
    round_type=PaigowRound,
    config_model=PaigowConfig,
    bots={
        "paigow-random": lazy("qipai.games.paigow.bots:RandomPaigowBot"),
        "paigow-sensible": lazy("qipai.games.paigow.bots:SensiblePaigowBot"),
    },
    view_model=PaigowView,
    min_buy_in_of=min_buy_in,
    pay_table_of=pay_table,
    rtp_of=lazy("qipai.games.paigow.analysis:rtp_for"),
    settle_doc=lazy("qipai.games.paigow.settle:settle"),
    engine_version="2",
    order=20,
    analyse=lazy("qipai.analysis.rtp:paigow_reports"),
    advise=lazy("qipai.games.paigow.advise:advise"),
    par=lazy("qipai.games.paigow.analysis:par"),
    analyse_modes="banker | push: the tie policy (default: both)",
    simulate=lazy("qipai.analysis.simulate:simulate_paigow"),
    encoder=ref("qipai.games.paigow.env:PaigowEncoder"),
    batch_env=ref("qipai.games.paigow.batch:PaigowBatch"),
    fairness=ref("qipai.games.paigow.fairness:DESCRIPTION"),
    stakes=stakes_against_banker,
    turnover=lazy("qipai.games.paigow.reports:turnover"),
)
