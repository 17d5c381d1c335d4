"""Pok Deng's GameSpec (docs/rules/pokdeng.md#table-settings): seats, settings, actions, buy-in, pay table, bots."""

from __future__ import annotations

from qipai.core.protocol import JSON
from qipai.core.spec import GameSpec, ShippedTable, countdown, label, lazy, pays, ref
from qipai.games.pokdeng.config import BetKind, PokDengConfig
from qipai.games.pokdeng.round import PokDengRound
from qipai.games.pokdeng.view import PokDengView


def min_buy_in(config: PokDengConfig) -> int:
    """docs/rules/common.md#buy-in, buy-in: the minimum position bet and its hold (2 x the minimum)."""
    return 2 * config.limits["player"].min


def _limit(kind: BetKind, zh: str, en: str, config: PokDengConfig) -> JSON:
    limits = config.limits[kind]
    return {"bet": kind, "label": label(zh, en), "min": limits.min, "max": limits.max}


def pay_table(config: PokDengConfig) -> JSON:
    """Every bet of the table's mode with what it pays and takes (docs/rules/pokdeng.md#table-settings)."""
    pair = str(config.pair_odds)
    pair_bet = {
        "bet": "pair",
        "spots": [s for s, (kind, _) in config.spots.items() if kind == "pair"],
        "label": label("对子", "pair"),
        "hold": 1,
        "pays": [pays("两张牌同点数", "the two cards are of one rank", f"{pair}:1")],
        "loses": [pays("其他", "otherwise", "1x")],
    }
    if config.mode == "classic":
        bets: list[JSON] = [
            {
                "bet": "player",
                "spots": ["P1", "P2", "P3", "P4", "P5"],
                "label": label("闲家位置 P1–P5 胜庄", "position P1–P5 beats the banker"),
                "hold": 2,
                "pays": [
                    pays("胜", "win", "1:1"),
                    pays(
                        "以双牌胜 (庄家 0 点或 6 点时仅 1:1, 8/9 点除外)",
                        "win with a double hand (1:1 when the banker has exactly 0 or 6, "
                        "unless the player has 8 or 9)",
                        "2:1",
                    ),
                    pays("和", "tie", "push"),
                ],
                "loses": [
                    pays("庄家胜", "the banker wins", "1x"),
                    pays("庄家以双牌胜", "the banker wins with a double hand", "2x"),
                ],
            },
            pair_bet,
        ]
    else:
        win, double = config.win_rate, config.double_win_rate
        side = {
            "hold": 2,
            "pays": [
                pays("胜", "win", f"{win}:1"),
                pays("以双牌胜", "win with a double hand", f"{double}:1"),
                pays("和", "tie", "push"),
            ],
            "loses": [
                pays("输", "lose", "1x"),
                pays("对方以双牌胜", "the other side wins with a double hand", "2x"),
            ],
        }
        bets = [
            {
                "bet": "player",
                "spots": ["P1", "P2", "P3", "P4", "P5"],
                "label": label("闲 P1–P5 胜庄", "P1–P5: the position beats the banker"),
                **side,
            },
            {
                "bet": "banker",
                "spots": ["B1", "B2", "B3", "B4", "B5"],
                "label": label("庄 B1–B5 胜闲", "B1–B5: the banker beats the position"),
                **side,
            },
            pair_bet,
        ]
    kinds: list[tuple[BetKind, str, str]] = [
        ("player", "闲位", "positions"),
        ("pair", "对子", "pairs"),
    ]
    if config.mode == "banker-player":
        kinds.insert(1, ("banker", "庄位", "banker bets"))
    return {
        "game": "pokdeng",
        "mode": config.mode,
        "bets": bets,
        "limits": [_limit(kind, zh, en, config) for kind, zh, en in kinds],
        "commission": None,
        "base": None,
        "countdowns": [countdown("betting", "下注", "betting", config.betting_s)],
        "shoe": {"decks": config.decks, "cut_behind": list(config.cut_behind)},
        "notes": [
            label(
                "位置注扣除本金加同额预扣 (2 倍), 以备 2 倍输",
                "a position bet takes its stake and an equal hold (2x) to cover a 2x loss",
            )
        ],
        "min_buy_in": min_buy_in(config),
    }


SPEC = GameSpec(
    name="pokdeng",
    title={"en": "Pok Deng", "zh": "博丁"},
    seat_ids=("S1", "S2", "S3", "S4", "S5"),
    min_players=1,
    max_players=5,
    round_type=PokDengRound,
    config_model=PokDengConfig,
    bots={
        "random": lazy("qipai.games.pokdeng.bots:RandomBot"),
        "sensible": lazy("qipai.games.pokdeng.bots:SensibleBot"),
    },
    view_model=PokDengView,
    min_buy_in_of=min_buy_in,
    pay_table_of=pay_table,
    rtp_of=lazy("qipai.games.pokdeng.analysis:rtp_for"),
    settle_doc=lazy("qipai.games.pokdeng.settle:settle"),
    engine_version="2",
    order=10,
    analyse=lazy("qipai.analysis.rtp:pokdeng_reports"),
    advise=lazy("qipai.games.pokdeng.advise:advise"),
    par=lazy("qipai.games.pokdeng.analysis:par"),
    batch_env=ref("qipai.games.pokdeng.env:PokDengBatch"),
    analyse_modes="classic | banker-player (default: both)",
    simulate=lazy("qipai.analysis.simulate:simulate_pokdeng"),
    shipped_tables=(
        ShippedTable("pokdeng-classic", "Pok Deng classic 经典博丁", {"mode": "classic"}),
        ShippedTable(
            "pokdeng-banker-player", "Pok Deng banker-player 庄闲博丁", {"mode": "banker-player"}
        ),
    ),
    encoder=ref("qipai.games.pokdeng.env:PokDengEncoder"),
    fairness=ref("qipai.games.pokdeng.fairness:DESCRIPTION"),
    stakes=lazy("qipai.games.pokdeng.reports:stakes"),
)
