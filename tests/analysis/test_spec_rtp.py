"""`GameSpec.rtp(config)`: the exact return of every bet for a table's own settings.

The default settings give the published figures (README, docs/rtp.md); other settings move them
the way the rules say they must.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from qipai.games import registry
from qipai.games.holdem_bonus.strategy_exact import cache_path
from tests.conftest import require_service


def rtps(game: str, config: object = None) -> dict[tuple[str, str | None], Fraction]:
    out = {}
    for bet in registry.get(game).rtp(config):
        assert bet.rtp is not None and set(bet.label) == {"zh", "en"}
        assert bet.to_json()["rtp_exact"] == f"{bet.rtp.numerator}/{bet.rtp.denominator}"
        out[bet.bet, bet.strategy] = bet.rtp
    return out


def pct(value: Fraction) -> float:
    return round(float(value) * 100, 4)


def test_pokdeng_defaults_and_settings() -> None:
    classic = rtps("pokdeng")
    assert pct(classic["player", None]) == 97.4998 and pct(classic["pair", None]) == 89.6386
    bp = rtps("pokdeng", {"mode": "banker-player"})
    assert pct(bp["player", None]) == pct(bp["banker", None]) == 96.7222
    # The pair bet pays odds x P(pair) - (1 - P(pair)): 11:1 → 89.6386 %, 12:1 → 12/11 as far.
    p_pair = (classic["pair", None]) / 12  # rtp = 12 · P(pair) at 11:1
    assert rtps("pokdeng", {"pair_odds": 12})["pair", None] == 13 * p_pair
    assert (
        rtps("pokdeng", {"mode": "banker-player", "win_rate": "0.9"})["player", None]
        < bp["player", None]
    )


def test_paigow_and_niuniu_follow_their_commission() -> None:
    paigow = rtps("paigow")
    assert pct(paigow["player", None]) == 97.0933
    assert pct(rtps("paigow", {"high_nine": "named"})["player", None]) == 97.1096
    assert rtps("paigow", {"commission": "0"})["player", None] > paigow["player", None]
    niuniu = rtps("niuniu")
    assert pct(niuniu["player", "no swap"]) == 96.7696
    assert rtps("niuniu", {"commission": "0"})["player", "no swap"] == 1  # a fair game


def test_tiengow_has_no_house_bet() -> None:
    (bet,) = registry.get("tiengow").rtp(None)
    assert bet.rtp == 1 and "no house bet" in bet.note


@pytest.mark.slow
def test_holdem_bonus_under_optimal_and_bot_strategies() -> None:
    require_service(
        cache_path().exists(), "the cached exact Hold'em Bonus sums (.ci/run makes them)"
    )
    holdem = rtps("holdem-bonus")
    assert pct(1 - holdem["main", "optimal"]) == 4.3467  # house edge, source rule
    assert holdem["main", "bot: optimal"] == holdem["main", "optimal"] > holdem["main", "simple"]
    assert round(float(holdem["bonus", None]) * 100, 2) == 75.17
    small = rtps("holdem-bonus", {"bonus_table": "with-small-pairs", "pool_stake": 0})
    assert round(float(small["bonus", None]) * 100, 2) == 91.46 and ("pool", None) not in small
    assert rtps("holdem-bonus", {"pool_seed": 100_000})["pool", None] > holdem["pool", None]
