"""Swap Niu Niu's GameSpec (docs/rules/niuniu.md#table-settings): seats, settings, actions, buy-in, pay table."""

from __future__ import annotations

from qipai.core.banker import stakes_against_banker
from qipai.core.protocol import JSON
from qipai.core.spec import GameSpec, countdown, label, lazy, ref
from qipai.games.niuniu.config import NiuniuConfig
from qipai.games.niuniu.hands import MULTIPLIERS, HandType
from qipai.games.niuniu.round import NiuniuRound
from qipai.games.niuniu.view import NiuniuView

TOP_MULTIPLIER = max(MULTIPLIERS.values())  # 五小牛: 5


def min_buy_in(config: NiuniuConfig) -> int:
    """docs/rules/common.md#buy-in, buy-in: the largest loss at the smallest multiples — a banker at the smallest
    bid paying every other seat's lowest bet at the top hand multiplier."""
    per_player = config.base * config.bid_multiples[0] * config.bet_multiples[0] * TOP_MULTIPLIER
    return (config.max_seats - 1) * per_player


def pay_table(config: NiuniuConfig) -> JSON:
    """Hand multipliers, base, multiples, commission and the cap (docs/rules/niuniu.md#settlement, Settlement)."""
    hands = [
        {"type": t.name.lower(), "label": label(t.zh, t.en), "multiplier": t.multiplier}
        for t in sorted(HandType, reverse=True)
    ]
    return {
        "game": "niuniu",
        "base": config.base,
        "bets": [
            {
                "bet": "player",
                "label": label("闲家对庄家", "player against the banker"),
                "stake": label(
                    "底注 × 庄倍数 × 闲倍数 × 赢方牌型倍数",
                    "base × banker multiple × player multiple × the winning hand's multiplier",
                ),
                "pays": [{"when": label("闲家牌大", "the player's hand is higher"), "odds": "1:1"}],
                "loses": [{"when": label("庄家牌大", "the banker's hand is higher"), "odds": "1x"}],
            }
        ],
        "hands": hands,
        "bid_choices": [0, *config.bid_multiples],
        "bet_choices": list(config.bet_multiples),
        "cover_check": config.cover_check,
        "commission": {
            "rate": config.commission,
            "label": label("公点: 净赢的", "commission on a net win"),
        },
        "limits": [],
        "cap": label(
            "每局输赢不超过在桌上的余额", "nobody wins or loses more in a round than its balance"
        ),
        "countdowns": [
            countdown("swap", "换牌", "swap", config.swap_s),
            countdown("bid", "抢庄", "bid for banker", config.bid_s),
            countdown("bet", "下注", "bet", config.bet_s),
        ],
        "min_buy_in": min_buy_in(config),
    }


def _warm_up() -> None:
    """Compute what the first swap hint would otherwise compute mid-game: the money value of
    each hand type at the rules' commission (the swap enumeration, a few seconds of CPU that
    would stall every table of the event loop). Other rates are computed on first use."""
    from qipai.games.niuniu.advisor import type_values

    type_values(NiuniuConfig().commission)


SPEC = GameSpec(
    name="niuniu",
    title={"en": "Swap Niu Niu", "zh": "换牌牛牛"},
    seat_ids=("A", "B", "C", "D"),
    min_players=2,
    max_players=4,
    round_type=NiuniuRound,
    config_model=NiuniuConfig,
    bots={
        "random": lazy("qipai.games.niuniu.bots:RandomBot"),
        "sensible": lazy("qipai.games.niuniu.bots:SensibleBot"),
    },
    view_model=NiuniuView,
    min_buy_in_of=min_buy_in,
    pay_table_of=pay_table,
    rtp_of=lazy("qipai.games.niuniu.analysis:rtp_for"),
    settle_doc=lazy("qipai.games.niuniu.settle:settle"),
    warm_up=_warm_up,
    engine_version="2",
    order=40,
    analyse=lazy("qipai.analysis.rtp:niuniu_reports"),
    analyse_modes="no-swap | swap (default: both)",
    simulate=lazy("qipai.analysis.simulate:simulate_niuniu"),
    exact_assumes="no bids (a random banker) and no swaps, while the room's bots bid and swap",
    advise=lazy("qipai.games.niuniu.advisor:command"),
    par=lazy("qipai.games.niuniu.analysis:par_sheet"),
    par_options=("multipliers", "stack_units"),
    batch_env=ref("qipai.games.niuniu.env:NiuniuBatch"),
    encoder=ref("qipai.games.niuniu.env:NiuniuEncoder"),
    fairness=ref("qipai.games.niuniu.fairness:DESCRIPTION"),
    stakes=stakes_against_banker,
)
