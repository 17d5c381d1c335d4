"""Texas Hold'em Bonus analysis (`qipai rtp holdem-bonus`): main bets, bonus bet, pool bet.

This module is the Hold'em Bonus analysis: it assembles the reports. The exact enumeration of
the main bets and the optimal strategy live in `holdem_main` (kernels) and `holdem_optimal`
(decisions and outcome counts); the bonus and pool figures are computed here, from the game's
own pay table (`qipai.games.holdem_bonus.hands.bonus_line`) and config (pool rates, stake,
contribution, seed) and the project's evaluator.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Any

from qipai.analysis.distribution import BetFigures, Outcome, from_weights, percent
from qipai.analysis.holdem_optimal import (
    RULES,
    Play,
    class_names,
    evaluate,
    full_solution,
    outcome_net,
)
from qipai.analysis.report import Report, Table
from qipai.core.cards import Card
from qipai.core.errors import InvalidInput
from qipai.poker import Category

# The simple strategy's flop decision: fold only these offsuit hands (the published rule of
# thumb for this game, e.g. casinosite.net/?p=882: "the only hands worth folding are unsuited
# hands from 2/3 through 2/7").
SIMPLE_FOLDS = frozenset({"32o", "42o", "52o", "62o", "72o"})

SIMPLE_RULES = (
    "Flop: play every hand except 2-3, 2-4, 2-5, 2-6 and 2-7 offsuit (fold those).",
    "Turn (after the flop): bet with an ace in your hand, or when your hole cards make a pair "
    "or better beyond what the flop shows on its own, or you hold four to a flush with a hole "
    "card of that suit; else check.",
    "River (after the turn card): bet when your hole cards make a pair or better beyond what the "
    "four board cards show on their own; else check.",
)

RESULT_LABELS = ("win below a straight", "win, straight or better", "tie", "lose")


# --------------------------------------------------------------------------------------------
# Bonus bet


@lru_cache(maxsize=4)
def bonus_figures(table: str) -> BetFigures:
    """The bonus bet's exact outcome distribution under one pay-table preset.

    Every one of the 1,326 hole pairs is classified by the game's `bonus_line`; for the pairs
    whose line depends on the dealer (AA), every one of the C(50, 2) = 1,225 dealer pairs is
    classified too. Weights are hole × dealer pairs (1,326 × 1,225 in all)."""
    from qipai.games.holdem_bonus.hands import bonus_line

    deck = [Card.from_id(i) for i in range(52)]
    weights: dict[tuple[str, Fraction], int] = {}
    n_dealer = math.comb(50, 2)
    order: list[str] = []
    for hole in combinations(deck, 2):
        line = bonus_line(hole, None, table)  # type: ignore[arg-type]
        if line is not None and line.key == "aces":
            rest = [c for c in deck if c not in hole]
            found = [bonus_line(hole, d, table) for d in combinations(rest, 2)]  # type: ignore[arg-type]
            tally: dict[Any, int] = {}
            for x in found:
                tally[x] = tally.get(x, 0) + 1
        else:
            tally = {line: n_dealer}
        for ln, w in tally.items():
            label = "lose" if ln is None else f"{ln.label} ({ln.odds}:1)"
            net = Fraction(-1) if ln is None else Fraction(ln.odds)
            weights[(label, net)] = weights.get((label, net), 0) + w
            if label not in order:
                order.append(label)
    ranked = sorted(order, key=lambda lb: (lb == "lose", -_odds(lb)))
    return from_weights(
        f"bonus ({table} pay table)",
        weights,
        note="per unit of the bonus stake; paid on the hole cards even after a fold",
        order=ranked,
    )


def _odds(label: str) -> int:
    if label.endswith(":1)"):
        return int(label.rsplit("(", 1)[1].split(":")[0])
    return 0


# --------------------------------------------------------------------------------------------
# Pool bet


@lru_cache(maxsize=1)
def five_card_counts() -> dict[Category, int]:
    """How many of the C(52, 5) hole + flop hands fall in each category (project evaluator)."""
    from qipai.poker import category_counts

    return category_counts(5)


def pool_hit_rate(rates: dict[Category, Fraction]) -> Fraction:
    """Σ P(category) × award share: the expected award per round as a fraction of the pool."""
    counts = five_card_counts()
    total = math.comb(52, 5)
    return sum((Fraction(counts[c], total) * r for c, r in rates.items()), Fraction(0))


def pool_figures(pool: int, stake: int, rates: dict[Category, Fraction]) -> BetFigures:
    """The pool bet's outcomes per unit stake when the pool stands at `pool` at the round's
    start (one winner; every stake is collected, an award is its share of the pool)."""
    counts = five_card_counts()
    total = math.comb(52, 5)
    outcomes = []
    lose = total
    for cat in sorted(rates, reverse=True):
        award = Fraction(math.floor(rates[cat] * pool))  # awards are rounded down
        outcomes.append(
            Outcome(
                f"{cat.label} ({percent(rates[cat], 0)} of the pool)",
                award / stake - 1,
                Fraction(counts[cat], total),
            )
        )
        lose -= counts[cat]
    outcomes.append(Outcome("no jackpot hand", Fraction(-1), Fraction(lose, total)))
    return BetFigures(
        f"pool (pool {pool}, stake {stake})",
        tuple(outcomes),
        note="per unit of the pool stake, with the pool at the stated size when the round starts",
    )


def pool_tables(
    stake: int, contribution: Fraction, seed: int, rates: dict[Category, Fraction]
) -> tuple[list[Table], dict[str, Any], list[str]]:
    """Jackpot-hand probabilities and the break-even / equilibrium pool sizes (see notes)."""
    counts = five_card_counts()
    total = math.comb(52, 5)
    rows = tuple(
        (
            cat.label,
            counts[cat],
            Fraction(counts[cat], total),
            f"1 in {total / counts[cat]:,.1f}",
            percent(rates.get(cat, Fraction(0)), 0),
        )
        for cat in sorted(Category, reverse=True)
    )
    table = Table(
        "Pool: hole cards + flop (five cards), all C(52, 5) = 2,598,960 hands",
        ("hand", "count", "probability", "odds", "award"),
        rows,
        note="counted with the project's evaluator (categories.py's known 5-card counts)",
    )
    h = pool_hit_rate(rates)
    q = sum((Fraction(counts[c], total) for c in rates), Fraction(0))
    breakeven = Fraction(stake) / h
    equilibrium = contribution * (1 - q) * breakeven
    facts: dict[str, Any] = {
        "pool: expected award per round, share of the pool (h)": h,
        "pool: probability of any award (q)": q,
        "pool: break-even pool size P* = stake / h (minor units)": breakeven,
        "pool: break-even pool in stakes (1 / h)": 1 / h,
        "pool: long-run pool without seed, c·(1−q)·P* (minor units)": equilibrium,
        "pool: return at the seed amount": 1 + pool_figures(seed, stake, rates).ev,
    }
    notes = [
        "Pool model: a pool bet of stake s with the pool at P returns h·P/s per unit "
        "(h = Σ P(hand)·share), so it breaks even at P* = s/h, whatever the contribution rate c. "
        "The rate sets where the pool settles: each bet adds c·s·(1−q) on average and pays out "
        "h·P, so without a seed the pool drifts to P = c·(1−q)·P* and the long-run return of the "
        "pool bet is c·(1−q) < 1; the house seed floor is what can lift P (and the return) higher. "
        "One bettor per round is assumed (several winners in one round are paid in sequence from "
        "a shrinking pool) and awards are rounded down.",
    ]
    if seed > breakeven:
        notes.append(
            f"With this table's settings the seed ({seed}) is above the break-even pool "
            f"({float(breakeven):,.0f}): at the seed the pool bet returns "
            f"{percent(1 + pool_figures(seed, stake, rates).ev, 1)} — the house pays for every "
            "pool bet until the seed or the stake is changed."
        )
    return [table], facts, notes


# --------------------------------------------------------------------------------------------
# Main bets


def main_figures(play: Play, name: str) -> BetFigures:
    """A strategy's exact outcome distribution on the main bets, per unit ante."""
    weights: dict[tuple[str, Fraction], int] = {}
    labels = []
    if play.folds:
        weights[("fold", Fraction(-1))] = play.folds
        labels.append("fold")
    bets_name = {
        (0, 0): "no raise",
        (1, 0): "turn bet",
        (0, 1): "river bet",
        (1, 1): "turn + river",
    }
    for (t, r, res), n in sorted(play.outcomes.items()):
        if not n:
            continue
        if res == 2:
            key = ("tie (all bets returned)", Fraction(0))
        else:
            key = (f"{RESULT_LABELS[res]}, {bets_name[(t, r)]}", Fraction(outcome_net(t, r, res)))
        weights[key] = weights.get(key, 0) + n
        labels.append(key[0])
    return from_weights(name, weights, note="per unit ante (flop bet 2, turn and river 1 each)")


def _avg_wager(play: Play) -> Fraction:
    played = play.total - play.folds
    return Fraction(play.folds + 3 * played + play.turn_bets + play.river_bets, play.total)


def main_report(rule: str) -> Report:
    """The main bets under one rule: optimal strategy, its return, the simple strategy's."""
    sol = full_solution()
    opt = evaluate(sol, rule)
    simple = evaluate(sol, rule, simple=True, fold_classes=SIMPLE_FOLDS)
    f_opt = main_figures(opt, "main bets, optimal strategy")
    f_simple = main_figures(simple, "main bets, simple strategy")
    rows = []
    for k in class_names():
        ev = Fraction(opt.class_value[k], opt.class_endings[k])
        rows.append(
            (k, ev, "play" if opt.play[k] else "fold", "play" if k not in SIMPLE_FOLDS else "fold")
        )
    flop_table = Table(
        "Flop decision per starting hand (expected net of playing on optimally, per ante)",
        ("hand", "EV of playing", "optimal", "simple"),
        tuple(rows),
        note="fold = −1; play when the EV of playing exceeds −1",
    )
    w_opt, w_simple = _avg_wager(opt), _avg_wager(simple)
    facts: dict[str, Any] = {
        "house edge per ante, optimal": f_opt.house_edge,
        "average total wager per ante, optimal": w_opt,
        "element of risk (edge / average wager), optimal": f_opt.house_edge / w_opt,
        "turn bet made (share of all deals), optimal": Fraction(opt.turn_bets, opt.total),
        "river bet made (share of all deals), optimal": Fraction(opt.river_bets, opt.total),
        "hands folded at the flop decision, optimal": Fraction(opt.folds, opt.total),
        "house edge per ante, simple strategy": f_simple.house_edge,
        "cost of the simple strategy vs optimal, per ante": f_simple.house_edge - f_opt.house_edge,
        "average total wager per ante, simple": w_simple,
    }
    title = {
        "source": "Texas Hold'em Bonus — main bets, source rule (a turn check gives up the river bet)",
        "common": "Texas Hold'em Bonus — main bets, common rule (the river bet stays open after a turn check)",
    }[rule]
    notes = [
        "Exact: every hole pair, flop (1,755 suit classes × class size), turn, river and dealer "
        "pair — 1,326 × 19,600 × 47 × 46 × 990 deals — counted in integers; river bet iff wins > "
        "losses, turn and flop decisions by exact comparison of summed values.",
        "Simple strategy: " + " ".join(SIMPLE_RULES),
    ]
    return Report(
        game="holdem-bonus",
        title=title,
        settings={"rule": rule},
        bets=(f_opt, f_simple),
        tables=(flop_table,),
        notes=tuple(notes),
        facts=facts,
    )


def side_report() -> Report:
    """The bonus bet under both presets and the pool bet under the default table config."""
    from qipai.games.holdem_bonus.config import BONUS_TABLES, HoldemBonusConfig

    cfg = HoldemBonusConfig()
    rates = dict(cfg.pool_rates)
    tables, facts, notes = pool_tables(cfg.pool_stake, cfg.contribution_rate, cfg.pool_seed, rates)
    breakeven = math.ceil(Fraction(cfg.pool_stake) / pool_hit_rate(rates))
    bets = [bonus_figures(t) for t in BONUS_TABLES]
    bets.append(pool_figures(cfg.pool_seed, cfg.pool_stake, rates))
    bets.append(pool_figures(breakeven, cfg.pool_stake, rates))
    return Report(
        game="holdem-bonus",
        title="Texas Hold'em Bonus — bonus and pool bets",
        settings={
            "pool_stake": cfg.pool_stake,
            "pool_contribution": cfg.pool_contribution,
            "pool_seed": cfg.pool_seed,
        },
        bets=tuple(bets),
        tables=tuple(tables),
        notes=tuple(notes),
        facts=facts,
    )


def analyse(mode: str | None = None) -> list[Report]:
    """`qipai rtp holdem-bonus [--mode source|common]`: main-bet reports, then the side bets.

    The first run computes the full enumeration (minutes on two cores) and caches it."""
    if mode is not None and mode not in RULES:
        raise InvalidInput(f"Hold'em Bonus mode {mode!r}: expected source or common")
    rules = [mode] if mode else list(RULES)
    return [main_report(r) for r in rules] + [side_report()]


def main(argv: list[str] | None = None) -> None:
    """`python -m qipai.analysis.holdem_bonus [source|common] [--json]`: print the reports."""
    import sys

    from qipai.analysis.report import render

    args = sys.argv[1:] if argv is None else argv
    mode = next((a for a in args if not a.startswith("-")), None)
    print(render(analyse(mode), "json" if "--json" in args else "markdown"))


if __name__ == "__main__":
    main()
