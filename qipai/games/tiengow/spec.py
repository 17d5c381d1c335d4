"""Tien Gow's GameSpec (docs/rules/tiengow.md#table-settings): seats, settings, actions, buy-in, pay table, bots."""

from __future__ import annotations

from qipai.core.protocol import JSON
from qipai.core.spec import BetReturn, GameSpec, countdown, label, lazy, ref
from qipai.games.tiengow.config import TienGowConfig
from qipai.games.tiengow.round import TienGowRound
from qipai.games.tiengow.view import TienGowView


def min_buy_in(config: TienGowConfig) -> int:
    """docs/rules/tiengow.md#minimum-buy-in Decision (minimum buy-in): `min_stack_units` (12) base units."""
    return config.min_stack_units * config.base


def pay_table(config: TienGowConfig) -> JSON:
    """The scoring in base units, 尊钱, the banker multiplier and the cap (docs/rules/tiengow.md#scoring)."""
    return {
        "game": "tiengow",
        "base": config.base,
        "bets": [],
        "scoring": [
            {"dong": 0, "label": label("空栋", "no 栋"), "units": -5},
            {"dong": 1, "label": label("1 栋", "1 栋"), "units": -3},
            {"dong": 2, "label": label("2 栋", "2 栋"), "units": -2},
            {"dong": 3, "label": label("3 栋", "3 栋"), "units": -1},
            {"dong": 4, "label": label("4 栋 (平)", "4 栋 (even)"), "units": 0},
            {"dong": 5, "label": label("入一", "入一 (5 栋)"), "units": 1},
            {"dong": 6, "label": label("入二", "入二 (6 栋)"), "units": 2},
        ],
        "scoring_note": label(
            "每个输家按栋数向赢家 (结) 付底注单位; 入一/入二由赢家付给输家",
            "each loser pays the winner (结) in base units by its 栋; 入一/入二 are paid by the "
            "winner to the loser",
        ),
        "banker_multiplier": label(
            "庄家倍数: 首庄 2 倍, 连庄 3、4、5 … 倍",
            "banker multiplier: 2 on a first bank, 3, 4, 5 … on consecutive banks",
        ),
        "zun": {
            "units": config.zun_units,
            "amount_each": config.zun_units * config.base,
            "wen_zun": config.wen_zun,
            "label": label(
                "打出至尊 (武尊, 及开启时的文尊), 其他每家付尊钱",
                "playing 至尊 (武尊, and 文尊 when on): every other player pays 尊钱",
            ),
        },
        "commission": None,
        "limits": [],
        "cap": label(
            "每局输赢不超过带入的筹码 (以结者为庄计算)",
            "nobody wins or loses more in a game than the stack brought into it (the winner "
            "settles in the banker's place)",
        ),
        "countdowns": [countdown("play", "每次出牌", "each turn", config.turn_seconds)],
        "min_buy_in": min_buy_in(config),
    }


def rtp(config: TienGowConfig) -> list[BetReturn]:
    """Tien Gow has no bet against the house: the players settle among themselves and the house
    takes nothing, so what the players stake returns to them in full (exactly 100 %)."""
    from fractions import Fraction

    return [
        BetReturn(
            "players",
            label("玩家之间", "between the players"),
            Fraction(1),
            None,
            "no house bet: the players pay each other and the house takes no commission, so the "
            "players together get back exactly what they lose (100 %); a seat's expectation "
            "depends on the skill of the four players",
        )
    ]


SPEC = GameSpec(
    name="tiengow",
    title={"en": "Tien Gow", "zh": "打天九"},
    seat_ids=("E", "S", "W", "N"),
    min_players=4,
    max_players=4,
    round_type=TienGowRound,
    config_model=TienGowConfig,
    bots={
        "random": lazy("qipai.games.tiengow.bots:RandomBot"),
        "rule-of-thumb": lazy("qipai.games.tiengow.bots:RuleOfThumbBot"),
        "strong": lazy("qipai.games.tiengow.bots:StrongBot"),
    },
    view_model=TienGowView,
    min_buy_in_of=min_buy_in,
    pay_table_of=pay_table,
    rtp_of=rtp,
    settle_doc=lazy("qipai.games.tiengow.settle:settle"),
    reveal_seed=False,  # docs/rules/tiengow.md#discards: discards are hidden forever (see GameSpec.reveal_seed)
    commits_tiles=True,  # docs/fairness.md "Tien Gow's tile commitment"
    engine_version="2",
    order=50,
    encoder=ref("qipai.games.tiengow.env:TienGowEncoder"),
    fairness=ref("qipai.games.tiengow.fairness:DESCRIPTION"),
    stakes=lazy("qipai.games.tiengow.reports:stakes"),
    turnover=lazy("qipai.games.tiengow.reports:turnover"),
    analyse=lazy("qipai.games.tiengow.analysis:reports"),
    par=lazy("qipai.games.tiengow.analysis:par"),
    no_advice=(
        "its strong bot decides by sampled rollouts, which is not advice that can be "
        "stated exactly; Tien Gow has no exact advisor"
    ),
    simulate=lazy("qipai.analysis.simulate:simulate_tiengow"),
)
