"""PAR sheets: exact figures against independent enumeration on changed tables, changed pay
tables against hand arithmetic, the range approximation against exact binomial quantiles, and
the command's formats."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qipai.analysis.distribution import BetFigures, Outcome
from qipai.analysis.par import Z90, Z95, BetPar, ParSheet, par_for
from qipai.cli import app
from qipai.core.errors import InvalidInput
from qipai.games.niuniu import analysis as niuniu
from qipai.games.niuniu.hands import HandType

runner = CliRunner()


def bonus_by_enumeration(pays: dict[str, int]) -> dict[Fraction, Fraction]:
    """The bonus bet's distribution by counting all C(52,2) hole pairs by rank and suit, with
    the dealer's two cards (C(50,2)) mattering only for aces against aces — written from the
    pay table's words, not the game's bonus code."""
    dist: dict[Fraction, Fraction] = {}
    deal = Fraction(1, math.comb(52, 2))
    for a, b in combinations(range(52), 2):
        (ra, sa), (rb, sb) = divmod(a, 4), divmod(b, 4)  # rank 0 = 2 … 12 = A
        hi, lo = max(ra, rb), min(ra, rb)
        suited = sa == sb
        cases: list[tuple[int, Fraction]] = []
        if hi == lo == 12:
            p_aa = Fraction(1, math.comb(50, 2))  # the other two aces
            cases = [(pays["aces_vs_dealer_aces"], p_aa), (pays["aces"], 1 - p_aa)]
        elif hi == lo and hi >= 9:  # JJ, QQ, KK
            cases = [(pays["kk_qq_jj"], Fraction(1))]
        elif hi == 12 and lo == 11:
            cases = [(pays["ak_suited" if suited else "ak_offsuit"], Fraction(1))]
        elif hi == 12 and lo in (9, 10):
            cases = [(pays["aq_aj_suited" if suited else "aq_aj_offsuit"], Fraction(1))]
        else:
            cases = [(-1, Fraction(1))]
        for net, p in cases:
            dist[Fraction(net)] = dist.get(Fraction(net), Fraction(0)) + deal * p
    return dist


SOURCE = {
    "aces_vs_dealer_aces": 1000,
    "aces": 30,
    "ak_suited": 25,
    "aq_aj_suited": 20,
    "ak_offsuit": 15,
    "kk_qq_jj": 10,
    "aq_aj_offsuit": 5,
}


def by_net(figures: BetFigures) -> dict[Fraction, Fraction]:
    out: dict[Fraction, Fraction] = {}
    for o in figures.outcomes:
        out[o.net] = out.get(o.net, Fraction(0)) + o.probability
    return out


@pytest.mark.parametrize(
    "changes", [{}, {"ak_suited": 30}, {"aces": 50, "aq_aj_offsuit": 0, "kk_qq_jj": 12}]
)
def test_bonus_par_equals_enumeration_of_a_changed_pay_table(changes: dict[str, int]) -> None:
    from qipai.games.holdem_bonus.analysis import bonus_figures

    figures = bonus_figures("source", changes)
    want = bonus_by_enumeration(SOURCE | changes)
    assert by_net(figures) == {k: v for k, v in want.items() if v}
    par = BetPar(figures)
    assert par.rtp == 1 + sum(k * v for k, v in want.items())
    assert par.hit_frequency == sum(v for k, v in want.items() if k > 0)


def test_bonus_pay_change_moves_the_rtp_exactly_by_hand_arithmetic() -> None:
    from qipai.games.holdem_bonus.analysis import bonus_figures

    base = bonus_figures("source").rtp
    # AK suited: 4 of the 1,326 hole pairs; 5 more units on each.
    assert bonus_figures("source", {"ak_suited": 30}).rtp - base == Fraction(5 * 4, 1326)
    # AQ/AJ offsuit to a push: 24 of 1,326 pairs now return their stake instead of 6 units.
    assert bonus_figures("source", {"aq_aj_offsuit": 0}).rtp - base == Fraction(-5 * 24, 1326)


def test_niuniu_flat_multipliers_and_a_one_unit_cap_are_a_coin_toss_less_commission() -> None:
    flat = {t.name.lower(): 1 for t in HandType}
    for settings in ({"multipliers": flat}, {"stack_units": 1}):
        bet = par_for("niuniu", settings).bets[0]
        # Without ties every hand wins half the time: +0.96 or −1 with probability 1/2 each.
        assert bet.rtp == 1 + (Fraction(96, 100) - 1) / 2
        assert bet.figures.variance == Fraction(98, 100) ** 2
        assert bet.hit_frequency == Fraction(1, 2)


def test_niuniu_multiplier_change_moves_the_rtp_exactly_by_hand_arithmetic() -> None:
    base = par_for("niuniu").bets[0].rtp
    changed = par_for("niuniu", {"multipliers": {"bull_bull": 4}}).bets[0].rtp
    # One more unit on every pairing a 牛牛 wins: the player gains 0.96 when it holds it and
    # loses 1 more when the banker does, and the two are equally likely, so ΔRTP = −0.04·p.
    j = niuniu.joint_types()
    bb = int(HandType.BULL_BULL)
    wins = sum(int(j[bb, u]) for u in range(bb)) + Fraction(int(j[bb, bb]), 2)
    p = wins / int(j.sum())
    assert changed - base == -Fraction(4, 100) * p


def test_commission_hold_per_round_and_per_handle() -> None:
    paigow = par_for("paigow")
    assert paigow.hold is not None
    # Ties go to the banker, so every pairing has one winner paying 5 % of one stake.
    assert paigow.hold.per_round == Fraction(5, 100)
    assert paigow.hold.per_handle == Fraction(5, 200)
    free = par_for("paigow", {"commission": "0"})
    assert free.hold is not None and free.hold.per_round == 0
    nn = par_for("niuniu")
    assert nn.hold is not None and nn.hold.player_ev == nn.hold.banker_ev == nn.bets[0].figures.ev


def binomial_quantile(n: int, q: float) -> int:
    """The smallest k with P(Binomial(n, 1/2) ≤ k) ≥ q, exactly."""
    total = 0
    for k in range(n + 1):
        total += math.comb(n, k)
        if Fraction(total, 2**n) >= Fraction(q):
            return k
    return n


def test_ranges_match_exact_binomial_quantiles_of_an_even_money_bet() -> None:
    bet = BetPar(
        BetFigures(
            "coin",
            (
                Outcome("win", Fraction(1), Fraction(1, 2)),
                Outcome("lose", Fraction(-1), Fraction(1, 2)),
            ),
        )
    )
    n = 1000
    for z, q in ((Z90, 0.05), (Z95, 0.025)):
        lo, hi = bet.return_range(n, z)
        # Return after n rounds: 1 + (2W − n)/n with W ~ Binomial(n, 1/2).
        exact_lo = 1 + (2 * binomial_quantile(n, q) - n) / n
        exact_hi = 1 + (2 * binomial_quantile(n, 1 - q) - n) / n
        assert abs(lo - exact_lo) < 0.003 and abs(hi - exact_hi) < 0.003
    assert bet.volatility_index == pytest.approx(Z90)


def test_cli_formats_and_template_files(tmp_path: Path) -> None:
    template = tmp_path / "t.json"
    template.write_text(json.dumps({"game": "paigow", "settings": {"tie_policy": "push"}}))
    out = runner.invoke(app, ["par", str(template), "--json"])
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["settings"]["tie_policy"] == "push"
    rtp = data["bets"][0]["rtp"]
    assert isinstance(rtp["numerator"], int) and isinstance(rtp["denominator"], int)
    assert [r["rounds"] for r in data["bets"][0]["ranges"]] == [1000, 10000, 100000, 1000000]
    page = runner.invoke(app, ["par", "pokdeng", "--html"])
    assert page.exit_code == 0 and page.stdout.startswith("<!doctype html>")
    assert page.stdout.count("<table>") >= 3
    md = runner.invoke(app, ["par", "niuniu"])
    assert "96.7696 %" in md.stdout and "hold per unit of handle" in md.stdout


@pytest.mark.parametrize(
    ("game", "settings", "message"),
    [
        ("niuniu", {"multipliers": {"bull_99": 3}}, "unknown hand type"),
        ("niuniu", {"multipliers": {"bull_bull": "3"}}, "whole numbers"),
        ("niuniu", {"stack_units": -1}, "positive"),
        ("paigow", {"commission": "2"}, "commission"),
        ("mahjong", {}, "unknown game 'mahjong'"),
        ("paigow", {"multipliers": {"bull_bull": 4}}, "multipliers"),
    ],
)
def test_bad_settings_are_named(game: str, settings: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        par_for(game, settings)


@pytest.mark.parametrize("tiles", [7, 8, 9])
def test_triple_counts_equal_brute_force(tiles: int) -> None:
    import numpy as np

    from qipai.games.paigow.analysis import triple_counts

    rng = np.random.default_rng(tiles)
    sign = np.triu(rng.integers(-1, 2, (tiles, tiles)), 1)
    want = [0] * 7
    hands = list(combinations(range(tiles), 2))
    for a in hands:
        for b in hands:
            if set(a) & set(b):
                continue
            for c in hands:
                if not set(c) & (set(a) | set(b)):
                    want[int(sign[a] + sign[b] + sign[c]) + 3] += 1
    assert triple_counts(sign, tiles).tolist() == want


def test_pai_gow_banker_against_three_players_exactly() -> None:
    from qipai.games.paigow.analysis import banker_three_players, player_figures

    for policy in ("banker", "push"):
        ev0, dist = banker_three_players("any-seven", policy, Fraction(0))
        assert sum(dist) == 1
        # Without commission the banker's expectation is linear: three times one pairing's.
        player = player_figures("any-seven", policy, Fraction(0))
        assert ev0 == -3 * player.ev
    ev, dist = banker_three_players("any-seven", "banker", Fraction(5, 100))
    gross = sum((g * p for g, p in zip(range(-3, 4), dist, strict=True)), Fraction(0))
    # Commission on the net: 5 % of each positive gross.
    assert ev == gross - Fraction(5, 100) * sum(
        (g * p for g, p in zip(range(-3, 4), dist, strict=True) if g > 0), Fraction(0)
    )
    assert ev == Fraction(-160019, 4247775)
    sheet = par_for("paigow")
    assert sheet.facts["banker against three players, per player-unit"] == ev / 3


def test_par_goes_through_the_registry() -> None:
    """A game's sheet is its spec's, given the parsed settings and only the PAR-only options
    the game names; a game without one is refused naming those with one."""
    import dataclasses

    from qipai.core.spec import NotOffered
    from qipai.games import registry

    calls: list[tuple[object, dict[str, object]]] = []
    base = registry.get("paigow")

    def fake(config: object, options: Mapping[str, object]) -> ParSheet:
        calls.append((config, dict(options)))
        return base_sheet

    base_sheet = par_for("paigow")
    spec = dataclasses.replace(base, name="par-probe", order=998, par=fake, par_options=("x",))
    registry.register(spec)
    try:
        assert par_for("par-probe", {"x": 1, "tie_policy": "push"}) is base_sheet
        ((config, options),) = calls
        assert options == {"x": 1} and config == base.parse_config({"tie_policy": "push"})
        with pytest.raises(InvalidInput, match="y"):
            par_for("par-probe", {"y": 1})  # not a PAR-only option: the settings refuse it
        offered = [n for n, s in registry.available().items() if s.par is not None]
        registry.register(dataclasses.replace(spec, par=None))
        with pytest.raises(NotOffered) as caught:
            par_for("par-probe")
        want = f"no PAR sheet for game 'par-probe'; games with one: {', '.join(offered[:-1])}"
        assert caught.value.message == want
    finally:
        registry.unregister("par-probe")


@pytest.mark.slow
def test_every_games_sheet() -> None:
    """Every game's PAR sheet is built (minutes where the sheet needs a full enumeration)."""
    from qipai.games import registry

    for game, spec in registry.available().items():
        if spec.par is not None:
            sheet = par_for(game)
            assert isinstance(sheet, ParSheet) and sheet.game == game
            assert set(spec.par_options).isdisjoint(spec.config_json(None))
