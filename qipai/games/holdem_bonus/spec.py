"""Texas Hold'em Bonus's GameSpec (docs/rules/holdem-bonus.md#table-settings): boxes, settings, actions, buy-in, pay table."""

from __future__ import annotations

from qipai.core.protocol import JSON
from qipai.core.spec import GameSpec, countdown, label, lazy, pays, ref
from qipai.games.holdem_bonus.config import HoldemBonusConfig
from qipai.games.holdem_bonus.hands import BonusLine
from qipai.games.holdem_bonus.round import HoldemBonusRound
from qipai.games.holdem_bonus.view import HoldemBonusView

# docs/rules/common.md#buy-in, buy-in: 6 x the minimum ante (ante, flop 2x, turn, river, and the bonus).
BUY_IN_ANTES = 6

_BONUS_LABELS: dict[BonusLine, tuple[str, str]] = {
    BonusLine.ACES_VS_ACES: ("AA 且庄家 AA", "AA against a dealer AA"),
    BonusLine.ACES: ("AA", "AA"),
    BonusLine.AK_SUITED: ("同花 AK", "AK suited"),
    BonusLine.AQ_AJ_SUITED: ("同花 AQ 或 AJ", "AQ or AJ suited"),
    BonusLine.AK_OFFSUIT: ("杂色 AK", "AK offsuit"),
    BonusLine.KK_QQ_JJ: ("KK、QQ 或 JJ", "KK, QQ or JJ"),
    BonusLine.AQ_AJ_OFFSUIT: ("杂色 AQ 或 AJ", "AQ or AJ offsuit"),
    BonusLine.SMALL_PAIR: ("22 至 TT 对子", "any pair 22 to TT"),
}
_POOL_LABELS: dict[str, tuple[str, str]] = {
    "high_card": ("高牌", "high card"),
    "pair": ("一对", "pair"),
    "two_pair": ("两对", "two pair"),
    "three_of_a_kind": ("三条", "three of a kind"),
    "straight": ("顺子", "straight"),
    "flush": ("同花", "flush"),
    "full_house": ("葫芦", "full house"),
    "four_of_a_kind": ("四条", "four of a kind"),
    "straight_flush": ("同花顺", "straight flush"),
    "royal_flush": ("皇家同花顺", "royal flush"),
}


def min_buy_in(config: HoldemBonusConfig) -> int:
    """docs/rules/common.md#buy-in, buy-in: 6 x the minimum ante."""
    return BUY_IN_ANTES * config.ante_min


def bonus_lines(config: HoldemBonusConfig) -> list[BonusLine]:
    lines = list(BonusLine)
    if config.bonus_table == "source":
        lines.remove(BonusLine.SMALL_PAIR)
    return lines


def pay_table(config: HoldemBonusConfig) -> JSON:
    """Main bets, the bonus table, the pool and the limits (docs/rules/holdem-bonus.md#table-settings)."""
    main = {
        "bet": "main",
        "label": label(
            "底注 / 翻牌 (2 倍) / 转牌 / 河牌", "ante / flop (2x) / turn / river against the dealer"
        ),
        "pays": [
            pays("以顺子或更大的牌胜", "win with a straight or better", "1:1 on every bet"),
            pays("以小于顺子的牌胜", "win with less", "ante push; flop, turn, river 1:1"),
            pays("和", "tie", "push"),
        ],
        "loses": [pays("庄家胜, 或弃牌 (输底注)", "the dealer wins, or a fold (the ante)", "1x")],
    }
    bonus = {
        "bet": "bonus",
        "label": label(
            "奖金注 (等于底注, 只看两张底牌)", "bonus (equal to the ante; hole cards only)"
        ),
        "pays": [pays(*_BONUS_LABELS[line], f"{line.odds}:1") for line in bonus_lines(config)],
        "loses": [pays("其他", "otherwise", "1x")],
    }
    bets: list[JSON] = [main, bonus]
    jackpot = None
    if config.pool_stake:
        shares = [
            {"category": key, "label": label(*_POOL_LABELS[key]), "share": share}
            for key, share in config.pool_percent.items()
        ]
        bets.append(
            {
                "bet": "pool",
                "label": label("彩池注 (底牌 + 翻牌)", "pool (hole cards + flop)"),
                "stake": config.pool_stake,
                "pays": [
                    pays(f"{zh}: 彩池的 {s['share']}", f"{en}: {s['share']} of the pool", "share")
                    for s in shares
                    for zh, en in [_POOL_LABELS[str(s["category"])]]
                ],
                "loses": [pays("其他", "otherwise", "1x")],
            }
        )
        jackpot = {
            "stake": config.pool_stake,
            "seed": config.pool_seed,
            "contribution": config.pool_contribution,
            "shares": shares,
        }
    return {
        "game": "holdem-bonus",
        "bets": bets,
        "bonus_table": config.bonus_table,
        "limits": [
            {
                "bet": "ante",
                "label": label("底注", "ante"),
                "min": config.ante_min,
                "max": config.ante_max,
            }
        ],
        "jackpot": jackpot,
        "commission": None,
        "base": None,
        "countdowns": [
            countdown("betting", "下注", "betting", config.betting_s),
            countdown("decision", "每次决定", "each decision", config.decision_s),
        ],
        "notes": [
            label(
                "每个位置的下注最多可能花费 5 倍底注 + 奖金注 + 彩池注, 须由筹码覆盖",
                "a box's bets may cost up to 5 x ante + bonus + pool; the stack must cover it",
            )
        ],
        "min_buy_in": min_buy_in(config),
    }


def _hint(view: JSON) -> JSON | None:
    """docs/rules/holdem-bonus.md#differences as implemented (a turn check gives up the river bet): the source rule."""
    from qipai.games.holdem_bonus.strategy import hint

    return hint(view, "source")


def _warm_up() -> None:
    """Load what the first hint or optimal-bot decision would otherwise load mid-game: the
    decision kernels (numba's on-disk cache) and evaluator tables, about a second of CPU that
    would stall every table of the event loop."""
    from qipai.core.cards import parse_cards
    from qipai.games.holdem_bonus.strategy import river_decision, turn_bet, turn_decision

    hole, flop = parse_cards("As Kd"), parse_cards("2c 7h 9s")
    turn_bet(hole, flop, "source")  # loads the enumeration's turn table if it is cached
    turn_decision(hole, flop)
    river_decision(hole, parse_cards("2c 7h 9s Jd"))


SPEC = GameSpec(
    name="holdem-bonus",
    title={"en": "Hold'em Bonus", "zh": "德州扑克"},
    seat_ids=("1", "2", "3", "4", "5"),  # the round's boxes are "1".."7"
    min_players=1,
    max_players=5,
    round_type=HoldemBonusRound,
    config_model=HoldemBonusConfig,
    bots={
        "random": lazy("qipai.games.holdem_bonus.bots:RandomBot"),
        "sensible": lazy("qipai.games.holdem_bonus.bots:SensibleBot"),
        "optimal": lazy("qipai.games.holdem_bonus.bots:optimal_bot"),
    },
    view_model=HoldemBonusView,
    min_buy_in_of=min_buy_in,
    pay_table_of=pay_table,
    rtp_of=lazy("qipai.games.holdem_bonus.analysis:rtp_for"),
    settle_doc=lazy("qipai.games.holdem_bonus.settle:settle"),
    context_keys=("pool",),  # the jackpot balance comes from the ledger
    hint=_hint,
    warm_up=_warm_up,
    engine_version="2",
    order=30,
    analyse=lazy("qipai.analysis.rtp:holdem_reports"),
    advise=lazy("qipai.games.holdem_bonus.advise:advise"),
    par=lazy("qipai.games.holdem_bonus.analysis:par_sheet"),
    par_options=("bonus_pays",),
    analyse_modes="source | common: the turn/river rule (default: both)",
    simulate=lazy("qipai.analysis.simulate:simulate_holdem"),
    batch_env=ref("qipai.games.holdem_bonus.batch:HoldemBonusBatch"),
    encoder=ref("qipai.games.holdem_bonus.env:HoldemBonusEncoder"),
    fairness=ref("qipai.games.holdem_bonus.fairness:DESCRIPTION"),
    stakes=lazy("qipai.games.holdem_bonus.reports:stakes"),
    turnover=lazy("qipai.games.holdem_bonus.reports:turnover"),
)
