"""San Gong's GameSpec (rules/en.md): seats, settings, actions, buy-in, pay table, and the
capabilities the room and the tools need of it, each from this folder (docs/adding-a-game.md):
bots.py, analysis.py (exact return and simulation), settle.py with examples/, env.py,
fairness.py with verify_deal.py, reports.py."""

from __future__ import annotations

from qipai.core.protocol import JSON
from qipai.core.spec import GameSpec, countdown, label, lazy, ref
from qipai.games.sangong.config import SangongConfig
from qipai.games.sangong.hands import HandType
from qipai.games.sangong.round import SangongRound
from qipai.games.sangong.view import SangongView


def min_buy_in(config: SangongConfig) -> int:
    """Common to every game, buy-in: the largest loss at the smallest multiples — a banker at
    the lowest bid paying every other seat's lowest bet at the highest hand multiplier."""
    per_player = (
        config.base * config.bid_multiples[0] * config.bet_multiples[0] * config.multipliers.highest
    )
    return (config.max_seats - 1) * per_player


def pay_table(config: SangongConfig) -> JSON:
    """Hand multipliers, base, multiples, commission, the cap and the countdowns (rules/en.md)."""
    hands = [
        {
            "type": t.name.lower(),
            "label": label(t.zh, t.en),
            "multiplier": t.multiplier(config.multipliers),
        }
        for t in sorted(HandType, reverse=True)
    ]
    return {
        "game": "sangong",
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
            "label": label("抽水: 每局净赢的", "commission on each participant's net win"),
        },
        "limits": [],
        "cap": label(
            "每局输赢不超过带入本局的余额", "nobody wins or loses more in a round than its stack"
        ),
        "countdowns": [
            countdown("bid", "抢庄", "bid for banker", config.bid_s),
            countdown("bet", "下注", "bet", config.bet_s),
            countdown("show", "亮牌", "show", config.show_s),
        ],
        "min_buy_in": min_buy_in(config),
    }


SPEC = GameSpec(
    name="sangong",
    title={"en": "San Gong", "zh": "抢庄三公"},
    # rules/en.md, Seats and deck: 2–6 seats, default 5 (the table's seats; `max_seats` up to 6).
    seat_ids=("A", "B", "C", "D", "E"),
    min_players=2,
    max_players=5,
    round_type=SangongRound,
    config_model=SangongConfig,
    bots={
        "random": lazy("qipai.games.sangong.bots:RandomBot"),
        "sensible": lazy("qipai.games.sangong.bots:SensibleBot"),
    },
    view_model=SangongView,
    min_buy_in_of=min_buy_in,
    pay_table_of=pay_table,
    rtp_of=lazy("qipai.games.sangong.analysis:rtp_for"),
    settle_doc=lazy("qipai.games.sangong.settle:settle"),
    engine_version="1",
    order=60,
    analyse=lazy("qipai.games.sangong.analysis:reports"),
    analyse_modes="(no modes: the default table)",
    simulate=lazy("qipai.games.sangong.analysis:simulate"),
    encoder=ref("qipai.games.sangong.env:SangongEncoder"),
    fairness=ref("qipai.games.sangong.fairness:DESCRIPTION"),
    stakes=lazy("qipai.games.sangong.reports:stakes"),
)
