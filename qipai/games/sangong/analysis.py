"""San Gong's exact math (rules/en.md, The odds): the hand distribution, each bet multiple's
exact expectation against a banker, and the house's expected commission per unit staked.

Everything exact is a `Fraction` from integer counts over one 52-card deck:

* the hand distribution: the 22,100 three-card hands by type;
* a player against the banker: every ordered pair of disjoint hands (22,100 × 18,424 =
  407,170,400 pairings), counted without enumerating them. For a player hand P and a hand type
  t, the banker hands of type t that beat P and share no card with P are, by inclusion–exclusion
  over P's cards, (all hands above P of type t) − Σ over P's cards c (those holding c) + Σ over
  P's pairs of cards (those holding both); the three-card term is P itself, never above P.
  Each term is a binary search in sorted key lists (all hands, the 1,176 holding one card, the
  50 holding two). Keys are totally ordered (hands.py) and two disjoint hands never tie, so
  "not above P" is "below P". `pair_counts(deck)` runs on any sub-deck, which the tests check
  against brute force.

Per unit of A·X·Y (base × banker multiple × player multiple), a player wins M(P)·(1 − r) when
its hand is higher and loses M(B) when the banker's is (r the commission). Both hands are
random disjoint hands of one deck, so they are exchangeable: the expected result before
commission is exactly 0, and each side's expectation is minus its expected commission. A
player's bet of multiple Y returns Y times the per-unit figure; the commission is rounded down
to the minor unit in play (the figures here are before that rounding, which favours players).

The banker's commission is charged on its net over all players; heads up it mirrors the
player's exactly. With several players the netting lowers it: a seeded Monte Carlo estimate
(with its 95 % confidence half-width) gives that figure for the default table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from qipai.analysis.distribution import BetFigures, from_weights
from qipai.analysis.report import Report, Table
from qipai.core.money import to_rate
from qipai.core.spec import BetReturn, label
from qipai.games.sangong.config import HandMultipliers, SangongConfig
from qipai.games.sangong.hands import HandType, key_of_codes, type_of_key

N_TYPES = len(HandType)
FULL_DECK: tuple[int, ...] = tuple(range(52))  # card codes (hands.code_of)
_TYPE_SPAN = 4 * 52**3  # key // _TYPE_SPAN is the type


@lru_cache(maxsize=4)
def pair_counts(
    deck: tuple[int, ...] = FULL_DECK,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """For a deck of card codes: (types[i], above[i, t]) for every three-card hand i (in
    `combinations(sorted(deck), 3)` order) — its type, and how many hands of type t that share
    no card with it are higher (see the module docstring)."""
    cards = sorted(deck)
    hands = np.array(list(combinations(cards, 3)), dtype=np.int64)
    keys = np.array([key_of_codes(h) for h in hands.tolist()], dtype=np.int64)
    types = keys // _TYPE_SPAN

    def above(
        subset: npt.NDArray[np.int64], queries: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.int64]:
        """For each query key, per type: hands of `subset` (indices) with a higher key."""
        out = np.zeros((len(queries), N_TYPES), dtype=np.int64)
        sub_keys, sub_types = keys[subset], types[subset]
        for t in range(N_TYPES):
            k = np.sort(sub_keys[sub_types == t])
            out[:, t] = len(k) - np.searchsorted(k, queries, side="right")
        return out

    result = above(np.arange(len(hands)), keys)
    for c in cards:  # − hands holding one of P's cards
        holders = np.flatnonzero((hands == c).any(axis=1))
        result[holders] -= above(holders, keys[holders])
    both: dict[tuple[int, int], list[int]] = {}
    for i, (a, b, c) in enumerate(hands.tolist()):
        for pair in ((a, b), (a, c), (b, c)):
            both.setdefault(pair, []).append(i)
    for members in both.values():  # + hands holding two of P's cards (counted twice above)
        idx = np.array(members, dtype=np.int64)
        result[idx] += above(idx, keys[idx])
    return types, result


def hand_distribution() -> dict[HandType, int]:
    """How many of the 22,100 hands are of each type."""
    types, _ = pair_counts()
    counts = np.bincount(types, minlength=N_TYPES)
    return {HandType(t): int(counts[t]) for t in range(N_TYPES)}


def _multiplier_of_type(multipliers: HandMultipliers) -> list[int]:
    return [HandType(t).multiplier(multipliers) for t in range(N_TYPES)]


def outcome_weights(
    multipliers: HandMultipliers, deck: tuple[int, ...] = FULL_DECK
) -> dict[tuple[bool, int], int]:
    """(player wins?, the winner's multiplier) → the number of ordered (player, banker) pairs of
    disjoint hands with that outcome."""
    types, above = pair_counts(deck)
    mult = _multiplier_of_type(multipliers)
    out: dict[tuple[bool, int], int] = {}
    wins_by_type = np.zeros(N_TYPES, dtype=np.int64)
    # the number of pairs in which P is beaten by a type-t hand; P wins the rest of its pairs
    n = len(deck)
    others = math.comb(n - 3, 3)
    beaten = above.sum(axis=1)
    np.add.at(wins_by_type, types, others - beaten)
    lost_to_type = above.sum(axis=0)
    for t in range(N_TYPES):
        for won, count in ((True, int(wins_by_type[t])), (False, int(lost_to_type[t]))):
            if count:
                key = (won, mult[t])
                out[key] = out.get(key, 0) + count
    return out


def player_figures(
    multipliers: HandMultipliers, rate: Fraction, deck: tuple[int, ...] = FULL_DECK
) -> BetFigures:
    """The exact distribution of a player's net per unit of A·X·Y against the banker."""
    weights: dict[tuple[str, Fraction], int] = {}
    for (won, m), count in outcome_weights(multipliers, deck).items():
        key = (f"win ×{m}", (1 - rate) * m) if won else (f"lose ×{m}", Fraction(-m))
        weights[key] = weights.get(key, 0) + count
    values = sorted({m for m in multipliers.in_order()}, reverse=True)
    order = [f"win ×{m}" for m in values] + [f"lose ×{m}" for m in reversed(values)]
    return from_weights(
        "player vs banker",
        weights,
        f"per unit of base × banker multiple × own multiple; {float(rate) * 100:g} % commission "
        "on the player's net win; heads up the banker's side is the mirror image",
        order,
    )


def commission_per_unit(multipliers: HandMultipliers, rate: Fraction) -> Fraction:
    """The house's expected commission from a player, per unit of A·X·Y it stakes (exact): the
    rate times the expected win. Heads up the banker pays the same again per unit."""
    weights = outcome_weights(multipliers)
    total = sum(weights.values())
    won = sum(m * c for (w, m), c in weights.items() if w)
    return rate * Fraction(won, total)


# ----- several players: the banker's netting (Monte Carlo) -----------------------------------------
def _keys_of(codes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """`hands.key_of_codes` on an (..., 3) array of distinct codes (vectorised)."""
    c = -np.sort(-codes, axis=-1)
    ranks = c // 4 + 1
    courts = (ranks >= 11).sum(axis=-1)
    points = np.where(ranks <= 9, ranks, 0).sum(axis=-1) % 10
    trips = ranks[..., 0] == ranks[..., 2]
    kind = np.where(trips, 11, np.where(courts == 3, 10, points))
    keys: npt.NDArray[np.int64] = (
        ((kind * 4 + courts) * 52 + c[..., 0]) * 52 + c[..., 1]
    ) * 52 + c[..., 2]
    return keys


def monte_carlo(
    rounds: int, seed: int, seats: int, multipliers: HandMultipliers, rate: Fraction
) -> dict[str, tuple[float, float]]:
    """Per unit staked (every player bets 1 against a banker at 1; no cap: stacks large): the
    player's net, the banker's net per player, and the house's commission — mean and 95 %
    half-width over `rounds` seeded deals."""
    rng = np.random.default_rng(seed)
    mult = np.array(_multiplier_of_type(multipliers), dtype=np.int64)
    r = float(rate)
    deals = np.argsort(rng.random((rounds, 52)), axis=1)[:, : 3 * seats].reshape(rounds, seats, 3)
    keys = _keys_of(deals.astype(np.int64))
    m = mult[keys // _TYPE_SPAN]
    banker, players = keys[:, 0:1], keys[:, 1:]
    raw = np.where(players > banker, m[:, 1:], -m[:, 0:1])  # the players' results
    player_net = np.where(raw > 0, raw * (1 - r), raw)
    banker_gross = -raw.sum(axis=1)
    banker_net = np.where(banker_gross > 0, banker_gross * (1 - r), banker_gross)
    house = (np.where(raw > 0, raw * r, 0).sum(axis=1) + np.maximum(banker_gross, 0) * r) / (
        seats - 1
    )
    out = {}
    for name, arr in (
        ("player", player_net.ravel()),
        ("banker", banker_net / (seats - 1)),
        ("house", house),
    ):
        out[name] = (float(arr.mean()), 1.96 * float(arr.std(ddof=1)) / math.sqrt(arr.size))
    return out


# ----- the spec's entry points -------------------------------------------------------------------
def rtp_for(config: SangongConfig) -> list[BetReturn]:
    """The exact return of a player's bet for a table's multipliers and commission (GameSpec.rtp)."""
    figures = player_figures(config.multipliers, to_rate(config.commission))
    return [
        BetReturn(
            "player",
            label("闲家对庄家", "player against the banker"),
            figures.rtp,
            None,
            "per unit of base × banker multiple × player multiple, after the commission; the "
            "same for every multiple; the cap is ignored (stacks large enough)",
        )
    ]


def analyse(config: SangongConfig | None = None, rounds: int = 200_000, seed: int = 2026) -> Report:
    """The `qipai rtp sangong` report for a table (the default table unless given)."""
    cfg = config or SangongConfig()
    rate = to_rate(cfg.commission)
    mults = cfg.multipliers
    dist = hand_distribution()
    total = sum(dist.values())
    hand_rows = tuple(
        (f"{t.zh} {t.en}", t.multiplier(mults), dist[t], Fraction(dist[t], total))
        for t in sorted(HandType, reverse=True)
    )
    figures = player_figures(mults, rate)
    ev = figures.ev
    bet_rows = tuple(
        (y, f"{cfg.base} × X × {y}", y * ev, cfg.base * y * ev, figures.rtp)
        for y in cfg.bet_multiples
    )
    per_unit = commission_per_unit(mults, rate)
    weights = outcome_weights(mults)
    pairs = sum(weights.values())
    p_win = Fraction(sum(c for (w, _), c in weights.items() if w), pairs)
    gross = sum((m if w else -m) * c for (w, m), c in weights.items())
    mc = monte_carlo(rounds, seed, cfg.max_seats, mults, rate)
    facts: dict[str, Any] = {
        "player expectation per unit (exact)": f"{float(ev):+.6f} ({ev})",
        "P(player beats banker) (exact)": f"{float(p_win):.6f} ({p_win})",
        "expected result before commission (exact; exchangeable hands)": str(
            Fraction(gross, pairs)
        ),
        "house commission from a player, per unit it stakes (exact)": f"{float(per_unit):.6f} ({per_unit})",
        "house commission per unit the player stakes, heads up (exact: from player and banker)": f"{float(2 * per_unit):.6f} ({2 * per_unit})",
        f"player per unit, {cfg.max_seats} seats (Monte Carlo {rounds:,} deals, seed {seed})": _ci(
            mc["player"]
        ),
        f"banker per unit staked against it, {cfg.max_seats} seats (Monte Carlo)": _ci(
            mc["banker"]
        ),
        f"house commission per unit staked, {cfg.max_seats} seats (Monte Carlo)": _ci(mc["house"]),
    }
    return Report(
        game="sangong",
        title="San Gong (抢庄三公), one 52-card deck",
        settings={
            "commission": cfg.commission,
            "multipliers": dict(mults.to_json()),
            "base": cfg.base,
            "seats (Monte Carlo)": cfg.max_seats,
        },
        bets=(figures,),
        tables=(
            Table(
                "Hand types: three random cards",
                ("type", "multiplier", "hands of C(52,3)", "probability"),
                hand_rows,
                "exact, over the 22,100 three-card hands",
            ),
            Table(
                "Each bet multiple against a banker at multiple X",
                (
                    "multiple",
                    "stake",
                    "expectation per unit of base × X",
                    "per X, in minor units",
                    "return",
                ),
                bet_rows,
                "exact; a bet's expectation is its multiple times the per-unit figure",
            ),
        ),
        facts=facts,
        notes=(
            "Exact figures are over every ordered pair of disjoint hands (407,170,400 pairings).",
            "Commission is taken before rounding down to the minor unit; caps are ignored.",
            "Monte Carlo figures are estimates: mean ± 95 % confidence half-width.",
        ),
    )


def reports(mode: str | None) -> list[Report]:
    """`qipai rtp sangong` (GameSpec.analyse): one report for the default table."""
    if mode:
        from qipai.core.errors import InvalidInput

        raise InvalidInput(f"San Gong has no rtp modes; got {mode!r}")
    return [analyse()]


def _ci(v: tuple[float, float]) -> str:
    return f"{v[0]:+.5f} ± {v[1]:.5f}"


def brute_force_weights(
    multipliers: HandMultipliers, deck: Sequence[int]
) -> dict[tuple[bool, int], int]:
    """`outcome_weights` by enumerating every ordered pair of disjoint hands (small decks only:
    the test's reference)."""
    hands = list(combinations(sorted(deck), 3))
    keys = {h: key_of_codes(h) for h in hands}
    mult = _multiplier_of_type(multipliers)
    out: dict[tuple[bool, int], int] = {}
    for p in hands:
        for b in hands:
            if set(p) & set(b):
                continue
            won = keys[p] > keys[b]
            m = mult[type_of_key(keys[p] if won else keys[b])]
            out[(won, m)] = out.get((won, m), 0) + 1
    return out


# ----- `qipai simulate sangong`: the engine played by bots, against the exact figure -------------
def simulate(rounds: int, seed: int, mode: str | None) -> Any:
    """Play `rounds` rounds of the default table with the game's bots (mode "sensible", the
    default: no bids, the lowest bet; "random": random bids and bets) and compare the players'
    observed return per unit staked (A·X·Y) with the exact figure. Stacks are large, so the cap
    never applies, as the exact figure assumes."""
    import time

    from qipai.analysis.simulate import SimulationResult, Tally, play_round, round_seed
    from qipai.core.errors import InvalidInput
    from qipai.core.protocol import Seat
    from qipai.core.rng import Rng
    from qipai.games.sangong.bots import BOTS
    from qipai.games.sangong.reports import stakes
    from qipai.games.sangong.round import SangongRound

    level = mode or "sensible"
    if level not in BOTS:
        raise InvalidInput(f"San Gong simulate mode {mode!r}: expected one of {', '.join(BOTS)}")
    config = SangongConfig()
    seats = [Seat(f"s{i}", 10**12) for i in range(1, config.max_seats + 1)]
    bots = {s.id: BOTS[level]() for s in seats}
    bot_rng = Rng(round_seed(seed, -1), "bots")
    tally = Tally()
    start, cpu = time.perf_counter(), time.process_time()
    for n in range(rounds):
        rnd = SangongRound.start(config, seats, Rng(round_seed(seed, n)))
        play_round(rnd, bots, bot_rng)
        placed = stakes(config.to_json(), rnd.result().details)
        tally.add_round(
            float(sum(b.net for b in placed)), float(sum(b.staked for b in placed)), len(placed)
        )
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    exact = float(player_figures(config.multipliers, to_rate(config.commission)).rtp)
    observed, half = tally.estimate()
    row = {
        "bet": "player vs banker",
        "bets": tally.bets,
        "observed_rtp": observed,
        "ci95": half,
        "exact_rtp": exact,
        "agrees": abs(observed - exact) <= half,
    }
    notes = [
        f"bots: {level} at every seat of a {config.max_seats}-seat table, stacks too large to cap",
        "per unit of base × banker multiple × player multiple, after the 5 % commission (rounded "
        "down to the minor unit in play; the exact figure is before that rounding)",
    ]
    return SimulationResult("sangong", level, rounds, seed, seconds, [row], notes, cpu)
