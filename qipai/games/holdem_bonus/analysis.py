"""Texas Hold'em Bonus report (`qipai rtp holdem-bonus`): the main game under optimal and simple
play for both turn/river rules, the bonus bet under both pay tables, and the pool bet
(docs/rules/holdem-bonus.md#return-to-player).

* Main game: `holdem_strategy_exact` (exact over every deal).
* Bonus: every two-card hand of the player (1,326) and, for a pair of aces, whether the dealer
  holds the other two (1 of C(50,2) hands), paid by the game's own `hands.bonus_line` — exact.
* Pool: hole cards + flop are a uniformly random five-card hand; all C(52,5) hands counted by
  the project's evaluator, with the game's default pool percentages and contribution rate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any

from qipai.analysis.distribution import BetFigures, from_weights
from qipai.analysis.report import Report, Table
from qipai.core.cards import Card
from qipai.core.spec import BetReturn

# The simple strategy's flop decision: fold 2-3 … 2-7 offsuit, the published rule of thumb
# (casinosite.net/?p=882: "the only hands worth folding are unsuited hands from 2/3 through 2/7").
SIMPLE_FOLDS = frozenset({"32o", "42o", "52o", "62o", "72o"})
SIMPLE_RULE_TEXT = (
    "Simple strategy: fold 2-3 … 2-7 offsuit; bet the turn and the river with a pair or better "
    "that uses a hole card (a pocket pair counts), or four to a flush using a hole card."
)


def simple_strategy(phase: str, hole: Sequence[Card], board: Sequence[Card]) -> bool:
    """The simple strategy as a bot's strategy function (`qipai.games.holdem_bonus.bots.Strategy`):
    the same rules the exact kernels price (`holdem_kernels.simple_turn` / `simple_river`)."""
    a, b = hole
    if phase == "flop":
        hi, lo = (a, b) if a.rank >= b.rank else (b, a)
        name = (
            RANKS[hi.rank - 2] * 2
            if hi.rank == lo.rank
            else RANKS[hi.rank - 2] + RANKS[lo.rank - 2] + ("s" if hi.suit == lo.suit else "o")
        )
        return name not in SIMPLE_FOLDS
    if a.rank == b.rank or any(c.rank in (a.rank, b.rank) for c in board):
        return True
    cards = [a, b, *board]
    return any(
        sum(1 for c in cards if c.suit == s) >= 4 and s in (a.suit, b.suit) for s in range(4)
    )


RANKS = "23456789TJQKA"
_NET_ORDER = (
    "win 5 (all bets, straight+)",
    "win 4",
    "win 3",
    "win 2",
    "push",
    "fold",
    "lose 3",
    "lose 4",
    "lose 5",
)


def bonus_figures(table: str, pays: Mapping[str, int] | None = None) -> BetFigures:
    """The bonus bet's exact outcome distribution under one pay table, paid by the game's own
    `hands.bonus_line` (for a pair of aces, whether the dealer holds the other two matters).

    `pays` (line key → odds x:1, e.g. {"ak_suited": 30}) replaces the table's odds line by line
    — the pay table as a free setting for pricing; a line paying 0 pushes, and a `small_pair`
    pay adds that line to any table."""
    from qipai.games.holdem_bonus.hands import BonusLine

    pays = dict(pays or {})
    known = {line.key for line in BonusLine}
    for key, odds in pays.items():
        if key not in known:
            raise ValueError(
                f"unknown bonus line {key!r}; expected one of {', '.join(sorted(known))}"
            )
        if not isinstance(odds, int) or isinstance(odds, bool) or odds < 0:
            raise ValueError(f"bonus line {key!r}: odds are a whole number ≥ 0, got {odds!r}")
    if "small_pair" in pays:
        table = "with-small-pairs"
    from qipai.core.cards import Card
    from qipai.games.holdem_bonus.hands import bonus_line

    weights: dict[tuple[str, Fraction], int] = {}
    dealer_hands = math.comb(50, 2)
    for c1, c2 in combinations(range(52), 2):
        hole = [Card.from_id(c1), Card.from_id(c2)]
        rest = [Card.from_id(i) for i in range(52) if i not in (c1, c2)]
        if all(c.rank == 14 for c in hole):
            aces = [c for c in rest if c.rank == 14]
            not_aces = [c for c in rest if c.rank != 14][:2]
            cases = [(aces, 1), (not_aces, dealer_hands - 1)]
        else:
            cases = [(rest[:2], dealer_hands)]  # the dealer's cards matter only for AA
        for dealer, w in cases:
            line = bonus_line(hole, dealer, table)  # type: ignore[arg-type]
            odds = pays.get(line.key, line.odds) if line else -1
            label = f"{line.label} {odds}:1" if line else "lose"
            net = Fraction(odds)
            weights[label, net] = weights.get((label, net), 0) + w
    name = f"bonus ({table} pay table{', changed' if pays else ''})"
    return from_weights(name, weights, "paid even when the seat folds")


def pool_return(pool: int, stake: int, rates: dict[Any, Fraction]) -> Fraction:
    """Expected return per unit of one pool stake when the pool stands at `pool` when the round
    starts: every stake is collected; a jackpot hand (hole cards + flop) wins its share of the
    pool, rounded down to a whole minor unit as `games.holdem_bonus.pool.settle_pool` pays it.
    One bettor per round (several winners in a round are paid in turn from a shrinking pool)."""
    from qipai.poker.evaluator import category_counts

    counts = category_counts(5)
    total = math.comb(52, 5)
    won = sum(
        (Fraction(counts[cat], total) * math.floor(share * pool) for cat, share in rates.items()),
        Fraction(0),
    )
    return won / stake


def pool_table() -> tuple[Table, dict[str, Any], Table, list[str]]:
    """Probability of each jackpot hand, the pool share paid per stake, break-even and balance
    sizes by contribution rate, the return at the table's seed, and a warning when the seed is
    above break-even (then the house pays for every pool bet)."""
    from qipai.games.holdem_bonus.config import HoldemBonusConfig
    from qipai.poker.categories import Category
    from qipai.poker.evaluator import category_counts

    config = HoldemBonusConfig()
    shares = dict(config.pool_rates)
    contribution = config.contribution_rate
    counts = category_counts(5)
    total = math.comb(52, 5)
    rows = []
    alpha = Fraction(0)
    p_win = Fraction(0)
    for cat in reversed(list(Category)):
        share = shares.get(cat)
        if share is None:
            continue
        p = Fraction(counts[cat], total)
        alpha += p * share
        p_win += p
        rows.append((cat.label, counts[cat], p, f"1 in {float(1 / p):,.1f}", f"{share * 100}%"))
    stake, seed = config.pool_stake, config.pool_seed
    breakeven = Fraction(stake) / alpha
    at_seed = pool_return(seed, stake, shares)
    facts = {
        "pool: expected share of the pool won per pool stake (α)": alpha,
        "pool: P(any jackpot hand)": p_win,
        "pool: size at which the pool bet breaks even for the player (stake / α)": (
            f"{float(1 / alpha):,.2f} × stake"
        ),
        f"pool: break-even pool at the default stake {stake} (minor units)": breakeven,
        f"pool: size in balance at contribution rate {contribution} "
        "(expected awards = expected inflow c·(1 − P(win))·stake)": (
            f"{float(contribution * (1 - p_win) / alpha):,.2f} × stake"
        ),
        f"pool: long-run player return at contribution rate {contribution} "
        "(pool in balance, no seed top-ups)": f"{float(contribution * (1 - p_win)) * 100:.4f} %",
        f"pool: player return at the default seed {seed} (stake {stake}, awards rounded down)": (
            at_seed
        ),
    }
    notes = []
    if seed > breakeven:
        notes.append(
            f"Warning: the pool seed ({seed}) is above the break-even pool "
            f"({float(breakeven):,.0f}): at the seed the pool bet returns "
            f"{float(at_seed) * 100:.1f} %, so the house pays for every pool bet."
        )
    rates = sorted(
        {Fraction(1, 10), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1)}
        | {contribution}
    )
    balance = Table(
        "Pool bet by contribution rate c (share of a losing stake that flows into the pool)",
        ("c", "pool in balance (× stake)", "long-run player return of the pool bet"),
        tuple(
            (
                str(c),
                f"{float(c * (1 - p_win) / alpha):,.2f}",
                f"{float(c * (1 - p_win)) * 100:.4f} %",
            )
            for c in rates
        ),
        "in balance: expected awards α·pool equal the expected inflow c·(1 − P(win))·stake; the "
        "player breaks even only when the pool exceeds stake / α whatever c is",
    )
    table = Table(
        "Pool (jackpot) bet: hole cards + flop",
        ("hand", "hands of C(52,5)", "probability", "odds", "pool share"),
        tuple(rows),
        "exact, counted with the project's evaluator; several winners in one round share "
        "less (each award is a share of the pool as it then stands)",
    )
    return table, facts, balance, notes


def _label(net: int) -> str:
    if net == 0:
        return "push"
    if net == 5:
        return "win 5 (all bets, straight+)"
    return f"win {net}" if net > 0 else f"lose {-net}"


def strategy_figures(sums: Any, strategy: int) -> tuple[BetFigures, dict[str, Any]]:
    """The main game's exact outcome distribution per ante for one strategy (0 optimal/source,
    1 optimal/common, 2 simple/source, 3 simple/common)."""
    from qipai.games.holdem_bonus.strategy_exact import UNIT, start_classes

    weights: dict[tuple[str, Fraction], int] = {}
    per_class = int(sums.flops[0]) * UNIT
    turns = Fraction(0)
    rivers = Fraction(0)
    folded = 0
    folds = []
    for h, start in enumerate(start_classes()):
        hist = sums.hist[h, strategy]
        play_ev = Fraction(sum((i - 5) * int(hist[i]) for i in range(11)), per_class)
        play = play_ev > -1 if strategy < 2 else start.name not in SIMPLE_FOLDS
        if not play:
            folds.append(start.name)
            folded += start.combos
            key = ("fold", Fraction(-1))
            weights[key] = weights.get(key, 0) + start.combos * per_class
            continue
        turns += Fraction(start.combos * int(sums.turns[h, strategy]), int(sums.flops[h]))
        rivers += Fraction(start.combos * int(sums.rivers[h, strategy]), int(sums.flops[h]) * 47)
        for i in range(11):
            if hist[i]:
                key = (_label(i - 5), Fraction(i - 5))
                weights[key] = weights.get(key, 0) + start.combos * int(hist[i])
    name = "optimal" if strategy < 2 else "simple"
    rule = "source rule" if strategy % 2 == 0 else "common rule"
    fig = from_weights(f"ante, {name} strategy, {rule}", weights, order=_NET_ORDER)
    played = Fraction(1326 - folded, 1326)
    avg_bet = 1 + 2 * played + turns / 1326 + rivers / 1326
    facts = {
        "folded starting hands": " ".join(folds) or "none",
        "turn bets per hand": f"{float(turns / 1326):.6f}",
        "river bets per hand": f"{float(rivers / 1326):.6f}",
        "average total wager per ante": f"{float(avg_bet):.6f}",
        "element of risk (house edge / average wager)": (
            f"{float(fig.house_edge / avg_bet) * 100:.4f} %"
        ),
    }
    return fig, facts


def preflop_table(sums: Any) -> Table:
    """Every starting class: exact EV of playing on under each rule, and the optimal decision."""
    from qipai.games.holdem_bonus.strategy_exact import UNIT, start_classes

    rows = []
    total = int(sums.flops[0]) * UNIT
    for h, start in enumerate(start_classes()):
        evs = [
            Fraction(sum((i - 5) * int(sums.hist[h, s, i]) for i in range(11)), total)
            for s in (0, 1)
        ]
        rows.append(
            (
                start.name,
                start.combos,
                f"{float(evs[0]):+.6f}",
                "play" if evs[0] > -1 else "FOLD",
                f"{float(evs[1]):+.6f}",
                "play" if evs[1] > -1 else "FOLD",
                f"{float(Fraction(int(sums.turns[h, 0]), int(sums.flops[h]))):.4f}",
                f"{float(Fraction(int(sums.turns[h, 1]), int(sums.flops[h]))):.4f}",
            )
        )
    return Table(
        "Flop decision: expected result per ante of playing on (folding = −1)",
        (
            "start",
            "combos",
            "EV, source rule",
            "decision",
            "EV, common rule",
            "decision",
            "turn-bet share, source",
            "turn-bet share, common",
        ),
        tuple(rows),
        "exact, with the optimal turn and river decisions for every board",
    )


def analyse(mode: str | None = None, recompute: bool = False) -> list[Report]:
    """The Hold'em Bonus report: main game (both rules, optimal and simple), bonus, pool."""
    from qipai.core.errors import InvalidInput
    from qipai.games.holdem_bonus.config import BONUS_TABLES
    from qipai.games.holdem_bonus.strategy_exact import load_or_compute

    if mode not in (None, "source", "common"):
        raise InvalidInput(f"Hold'em Bonus mode {mode!r}: expected source or common")
    sums = load_or_compute(recompute)
    rules = [0, 1] if mode is None else [0 if mode == "source" else 1]
    bets: list[BetFigures] = []
    facts: dict[str, Any] = {}
    optimal: dict[int, BetFigures] = {}
    for s in rules:
        fig, f = strategy_figures(sums, s)
        optimal[s] = fig
        bets.append(fig)
        facts.update({f"{fig.bet}: {k}": v for k, v in f.items()})
    for s in rules:
        fig, f = strategy_figures(sums, s + 2)
        bets.append(fig)
        facts.update({f"{fig.bet}: {k}": v for k, v in f.items()})
        cost = optimal[s].ev - fig.ev
        rule = "source" if s == 0 else "common"
        facts[f"cost of the simple strategy against optimal, {rule} rule, per ante"] = (
            f"{float(cost) * 100:.4f} %"
        )
    for table in BONUS_TABLES:
        bets.append(bonus_figures(table))
    pool, pool_facts, balance, pool_notes = pool_table()
    facts.update(pool_facts)
    facts.update(
        {f"time of the exact computation: {k}": f"{v:.1f} s" for k, v in sums.timings.items()}
    )
    return [
        Report(
            game="holdem-bonus",
            title="Texas Hold'em Bonus, one 52-card deck",
            settings={"rules": "source and common" if mode is None else mode},
            bets=tuple(bets),
            tables=(preflop_table(sums), pool, balance),
            facts=facts,
            notes=(
                "Main-game figures are per ante. Source rule (docs/rules/holdem-bonus.md#differences): checking the turn "
                "gives up the river bet. Common (Las Vegas) rule: the river bet stays open.",
                SIMPLE_RULE_TEXT,
                *pool_notes,
            ),
        )
    ]


def rtp_for(config: Any) -> list[BetReturn]:
    """The exact return of every bet of a Hold'em Bonus table with these settings
    (GameSpec.rtp), under docs/rules/holdem-bonus.md#differences's source rule, which the engine plays.

    * main bets per ante: under the optimal strategy; under the simple strategy; and under the
      table's default bot, which plays the optimal strategy (`qipai.games.holdem_bonus.bots.
      optimal_bot`), so its figure is the optimal one. The `sensible` bot's rule of thumb is not
      priced exactly (the exact kernels price the optimal and simple strategies only).
    * bonus: the table's pay table.
    * pool: per stake, with the pool at the table's seed (its floor); it grows with the pool.
    """
    from qipai.core.spec import label
    from qipai.games.holdem_bonus.strategy_exact import load_or_compute

    sums = load_or_compute(False)
    optimal, _ = strategy_figures(sums, 0)
    simple, _ = strategy_figures(sums, 2)
    main = label("底注 + 翻牌/转牌/河牌 (每单位底注)", "ante + flop/turn/river (per ante)")
    out = [
        BetReturn("main", main, optimal.rtp, "optimal", "per ante, source rule, exact"),
        BetReturn("main", main, simple.rtp, "simple", SIMPLE_RULE_TEXT),
        BetReturn(
            "main",
            main,
            optimal.rtp,
            "bot: optimal",
            "the table's default bot plays the optimal strategy exactly, so this is the "
            "optimal figure; the 'sensible' bot's rule of thumb is not computed exactly",
        ),
        BetReturn(
            "bonus",
            label("奖金注", "bonus"),
            bonus_figures(config.bonus_table).rtp,
            None,
            f"{config.bonus_table} pay table, hole cards only (paid even after a fold)",
        ),
    ]
    if config.pool_stake:
        out.append(
            BetReturn(
                "pool",
                label("彩池注", "pool"),
                pool_return(config.pool_seed, config.pool_stake, config.pool_rates),
                None,
                f"per stake with the pool at its seed ({config.pool_seed}); the return grows "
                "with the pool (one pool bettor per round)",
            )
        )
    return out


def par_sheet(config: Any, options: Mapping[str, Any]) -> Any:
    """GameSpec.par: the PAR sheet with changes to the bonus bet's pay table (`bonus_pays`,
    {"ak_suited": 30, …}), a PAR-only option; ValueError names a bad one."""
    from qipai.analysis.par import int_mapping

    return par(config, int_mapping(options.get("bonus_pays"), "bonus_pays"))


def par(config: Any, bonus_pays: Mapping[str, int] | None = None) -> Any:
    """The PAR sheet of a Hold'em Bonus table (qipai.analysis.par): the main bets per ante
    under the optimal strategy (the engine's source rule; the table's default bot plays it),
    the bonus bet under the table's pay table with any `bonus_pays` changes, exact."""
    from qipai.analysis.par import sheet
    from qipai.games.holdem_bonus.strategy_exact import load_or_compute

    sums = load_or_compute(False)
    optimal, facts = strategy_figures(sums, 0)
    bonus = bonus_figures(config.bonus_table, bonus_pays)
    settings: dict[str, Any] = {"bonus_table": config.bonus_table}
    if bonus_pays:
        settings["bonus_pays"] = dict(bonus_pays)
    notes = ["Main bets: per ante, all of a hand's main bets together (ante, flop, turn, river)."]
    if config.pool_stake:
        pool = pool_return(config.pool_seed, config.pool_stake, config.pool_rates)
        notes.append(
            f"Pool bet: return {float(pool) * 100:.4f} % per stake with the pool at its seed "
            f"({config.pool_seed}); it grows with the pool (see `qipai rtp holdem-bonus`)."
        )
    return sheet(
        "holdem-bonus", "Texas Hold'em Bonus", settings, [optimal, bonus], notes=notes, facts=facts
    )
