"""Pai Gow (bid-for-banker): a player's exact expectation against the banker (docs/rules/paigow.md#return-to-player).

Per unit of A·X·Y (table base × banker's multiple × player's multiple), with the 5 % commission on
a net win. The banker's and the player's two tiles are, before the deal, a uniformly random choice
of four of the 32 tiles, whatever the dice and the seat order; every one of the 496 × 435 ways is
counted. Hands are evaluated by the game's own `hands.evaluate` and every pairing is decided by
its own `hands.outcome` (one call per pair of distinct strengths, then counted in integers).

Round 2 deals from the 24 tiles round 1 left. Averaged over round 1's removed tiles it is exactly
round 1 (the tiles of round 2 are as random as those of round 1: exchangeability); a test checks
this identity exactly for a 2-tile removal, and the report gives the spread of the round-2
expectation across sampled round-1 deals, which is what a player who watched round 1 can know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from qipai.analysis.distribution import BetFigures, from_weights
from qipai.analysis.report import Report, Table
from qipai.core.spec import BetReturn

_ORDER = ("player wins", "push", "banker wins (higher hand)", "banker wins (equal hands)")


@lru_cache(maxsize=4)
def hands_table(high_nine: str) -> tuple[list[Any], npt.NDArray[np.int64], list[tuple[int, int]]]:
    """(representative hand per strength, strength index per physical pair, the pairs)."""
    from qipai.core.tiles import full_set
    from qipai.games.paigow.hands import evaluate

    tiles = full_set()
    pairs = list(combinations(range(len(tiles)), 2))
    reps: dict[int, Any] = {}
    strength = []
    for i, j in pairs:
        hand = evaluate([tiles[i], tiles[j]], high_nine)  # type: ignore[arg-type]
        reps.setdefault(hand.strength, hand)
        strength.append(hand.strength)
    order = sorted(reps)
    index = {s: n for n, s in enumerate(order)}
    return [reps[s] for s in order], np.array([index[s] for s in strength], np.int64), pairs


def pair_counts(high_nine: str, removed: Sequence[int] = ()) -> npt.NDArray[np.int64]:
    """C[b, p]: ways to deal the banker strength b and the player strength p (disjoint tiles)
    from the 32 tiles less `removed` (physical tile indices)."""
    reps, cls, pairs = hands_table(high_nine)
    gone = set(removed)
    live = np.array([not ({i, j} & gone) for i, j in pairs])
    idx = np.nonzero(live)[0]
    tiles = np.array(pairs)[idx]
    # disjoint[a, b]: the two hands share no tile
    t0, t1 = tiles[:, 0], tiles[:, 1]
    shared = (
        (t0[:, None] == t0[None, :])
        | (t0[:, None] == t1[None, :])
        | (t1[:, None] == t0[None, :])
        | (t1[:, None] == t1[None, :])
    )
    # Counts stay far below 2**53, so BLAS float products are exact integers here.
    disjoint = (~shared).astype(np.float64)
    onehot = np.zeros((idx.size, len(reps)), np.float64)
    onehot[np.arange(idx.size), cls[idx]] = 1.0
    counts: npt.NDArray[np.int64] = np.rint(onehot.T @ disjoint @ onehot).astype(np.int64)
    return counts


@lru_cache(maxsize=8)
def outcome_matrix(high_nine: str, tie_policy: str) -> list[list[str]]:
    """The game's verdict for every (banker strength, player strength), and why."""
    from qipai.games.paigow.hands import outcome

    reps, _, _ = hands_table(high_nine)
    out = []
    for b in reps:
        row = []
        for p in reps:
            verdict = outcome(b, p, tie_policy)  # type: ignore[arg-type]
            if verdict == "player":
                row.append("player wins")
            elif verdict == "push":
                row.append("push")
            else:
                equal = b.strength == p.strength
                row.append("banker wins (equal hands)" if equal else "banker wins (higher hand)")
        out.append(row)
    return out


@lru_cache(maxsize=8)
def _verdict_codes(high_nine: str, tie_policy: str) -> npt.NDArray[np.int64]:
    verdicts = outcome_matrix(high_nine, tie_policy)
    return np.array([[_ORDER.index(v) for v in row] for row in verdicts], np.int64)


def player_figures(
    high_nine: str, tie_policy: str, commission: Fraction, removed: Sequence[int] = ()
) -> BetFigures:
    """The player's bet against the banker: outcome probabilities and net per unit (exact)."""
    counts = pair_counts(high_nine, removed)
    net = {
        "player wins": 1 - commission,
        "push": Fraction(0),
        "banker wins (higher hand)": Fraction(-1),
        "banker wins (equal hands)": Fraction(-1),
    }
    codes = _verdict_codes(high_nine, tie_policy)
    sums = np.bincount(codes.ravel(), weights=counts.ravel(), minlength=len(_ORDER))
    weights: dict[tuple[str, Fraction], int] = {}
    for code, label in enumerate(_ORDER):
        if sums[code]:
            weights[label, net[label]] = round(float(sums[code]))
    return from_weights(
        f"player vs banker ({tie_policy} on ties, high_nine={high_nine})", weights, order=_ORDER
    )


def banker_ev(player: BetFigures, commission: Fraction) -> Fraction:
    """The banker's expectation per unit against one player (commission on its net win)."""
    p = {o.label: o.probability for o in player.outcomes}
    won = p.get("banker wins (higher hand)", Fraction(0)) + p.get(
        "banker wins (equal hands)", Fraction(0)
    )
    return won * (1 - commission) - p.get("player wins", Fraction(0))


def round_two_spread(
    high_nine: str, tie_policy: str, commission: Fraction, samples: int, seed: int
) -> dict[str, float]:
    """The player's exact expectation in round 2 for `samples` random round-1 deals (8 tiles
    gone): its mean, sd and range. The exact average over all round-1 deals is round 1's."""
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(samples):
        removed = rng.choice(32, 8, replace=False).tolist()
        values.append(float(player_figures(high_nine, tie_policy, commission, removed).ev))
    arr = np.array(values)
    return {
        "mean": float(arr.mean()),
        "sd": float(arr.std(ddof=1)),
        "min": float(arr.min()),
        "max": float(arr.max()),
        "share_positive": float((arr > 0).mean()),
    }


def analyse(mode: str | None = None, samples: int = 300, seed: int = 2026) -> list[Report]:
    """One report per tie policy (`mode` = banker | push), each with both high_nine settings."""
    from qipai.core.errors import InvalidInput
    from qipai.core.money import to_rate
    from qipai.games.paigow.config import HIGH_NINES, TIE_POLICIES, PaigowConfig

    policies = [mode] if mode else list(TIE_POLICIES)
    for p in policies:
        if p not in TIE_POLICIES:
            raise InvalidInput(f"Pai Gow tie policy {p!r}: expected one of {TIE_POLICIES}")
    commission = to_rate(PaigowConfig().commission)
    reports = []
    for policy in policies:
        bets = []
        rows = []
        for high_nine in HIGH_NINES:
            fig = player_figures(high_nine, policy, commission)
            bets.append(fig)
            spread = round_two_spread(high_nine, policy, commission, samples, seed)
            rows.append(
                (
                    high_nine,
                    fig.ev,
                    banker_ev(fig, commission),
                    fig.ev,
                    f"{spread['mean']:+.5f}",
                    f"{spread['sd']:.5f}",
                    f"{spread['min']:+.4f} … {spread['max']:+.4f}",
                    f"{spread['share_positive']:.3f}",
                )
            )
        table = Table(
            "Expectation per unit of A·X·Y, one player against the banker",
            (
                "high_nine",
                "player, round 1",
                "banker vs one player",
                "player, round 2 (average over round 1, exact)",
                f"round 2 sampled mean ({samples} round-1 deals)",
                "sd across round-1 deals",
                "range",
                "share of round-1 deals where the player is favoured",
            ),
            tuple(rows),
            "commission 5 % of a net win; round 2's exact average equals round 1 by exchangeability",
        )
        reports.append(
            Report(
                game="paigow",
                title=f"Pai Gow, equal hands: {policy}",
                settings={"tie_policy": policy, "commission": str(commission)},
                bets=tuple(bets),
                tables=(table,),
                notes=(
                    "Per unit staked = per A·X·Y; the cap (防以小博大) is ignored (stacks large "
                    "enough), and with several players the banker's commission is charged on its "
                    "net, so its figure against one player is a bound.",
                ),
            )
        )
    return reports


def rtp_for(config: Any) -> list[BetReturn]:
    """The exact return of a Pai Gow table's bets with these settings (GameSpec.rtp): a player
    against the banker, per unit of A·X·Y, and the banker against one player."""
    from qipai.core.spec import label

    commission = config.commission_rate
    player = player_figures(config.high_nine, config.tie_policy, commission)
    banker = 1 + banker_ev(player, commission)
    cap = "; the cap (防以小博大) is ignored (stacks large enough)"
    return [
        BetReturn(
            "player",
            label("闲家对庄家", "player against the banker"),
            player.rtp,
            None,
            "per unit of A·X·Y, round 1 (round 2's exact average is the same)" + cap,
        ),
        BetReturn(
            "banker",
            label("庄家对一位闲家", "the banker against one player"),
            banker,
            None,
            "per unit of A·X·Y against one player; with several players the commission is "
            "charged on the banker's net, so this is a bound" + cap,
        ),
    ]


def par(config: Any, options: Mapping[str, Any] | None = None) -> Any:
    """The PAR sheet of a Pai Gow table (qipai.analysis.par; GameSpec.par, no PAR-only
    options): the player's bet against the
    banker, exact, and the house's commission hold of one pairing. The cap has no effect: a
    pairing moves one stake either way and a seat's minimum buy-in covers its stake."""
    from qipai.analysis.par import Hold, sheet

    commission = config.commission_rate
    player = player_figures(config.high_nine, config.tie_policy, commission)
    banker = banker_ev(player, commission)
    banker3, gross3 = banker_three_players(config.high_nine, config.tie_policy, commission)
    facts = {
        "banker against three players, expectation per round (exact, units of A·X·Y)": banker3,
        "banker against three players, per player-unit": banker3 / 3,
        "house hold per round with three players (exact, units of A·X·Y)": -(
            3 * player.ev + banker3
        ),
        "banker's gross −3 … +3 against three players (exact probabilities)": ", ".join(
            f"{g:+d}: {float(p):.6f}" for g, p in zip(range(-3, 4), gross3, strict=True)
        ),
    }
    return sheet(
        "paigow",
        "Pai Gow (bid for banker), player against the banker",
        {
            "commission": config.commission,
            "tie_policy": config.tie_policy,
            "high_nine": config.high_nine,
        },
        [player],
        Hold(player.ev, banker),
        notes=(
            "Per unit of A·X·Y, round 1; round 2's exact average is the same (docs/rtp.md §3).",
            "Hold: the commission of one pairing; with several players the banker's commission "
            "is on its net over all of them (three players: the facts, exact).",
        ),
        facts=facts,
    )


def _sign_code(high_nine: str, tie_policy: str) -> npt.NDArray[np.int64]:
    """S[b, p] by strength index: the banker's gross in one pairing, +1 (banker wins), 0 (push)
    or −1 (player wins), by the game's own verdicts."""
    codes = _verdict_codes(high_nine, tie_policy)
    sign = np.array([-1, 0, 1, 1], np.int64)  # _ORDER: player, push, banker, banker (equal)
    return sign[codes]


def triple_counts(sign_of_pair: npt.NDArray[np.int64], tiles: int) -> npt.NDArray[np.int64]:
    """For one banker hand: how many ordered triples of pairwise disjoint player hands, drawn
    from `tiles` tiles (0..tiles−1), give each banker gross total −3 … +3 (index total + 3).

    `sign_of_pair[i, j]` (i < j) is the banker's result against the hand of tiles i and j. The
    third hand is counted, for each ordered pair of disjoint first and second hands, by
    inclusion–exclusion over the four tiles they use: hands of sign c avoiding those tiles =
    all hands of sign c − those touching any of the 4 tiles (each touching hand counted once
    per tile it touches, so the six hands among the 4 tiles are added back once)."""
    iu, ju = np.triu_indices(tiles, 1)
    sign = sign_of_pair[iu, ju]
    out = np.zeros(7, np.int64)
    for c in (-1, 0, 1):
        onc = sign == c
        total_c = int(onc.sum())
        deg = np.zeros(tiles, np.int64)
        np.add.at(deg, iu[onc], 1)
        np.add.at(deg, ju[onc], 1)
        is_c = np.zeros((tiles, tiles), np.int64)
        is_c[iu[onc], ju[onc]] = 1
        is_c = is_c + is_c.T
        # ordered pairs (a, b) of disjoint hands
        a_i, a_j = iu[:, None], ju[:, None]
        b_i, b_j = iu[None, :], ju[None, :]
        disjoint = (a_i != b_i) & (a_i != b_j) & (a_j != b_i) & (a_j != b_j)
        touching = deg[a_i] + deg[a_j] + deg[b_i] + deg[b_j]
        inside = (
            is_c[a_i, a_j]
            + is_c[b_i, b_j]
            + is_c[a_i, b_i]
            + is_c[a_i, b_j]
            + is_c[a_j, b_i]
            + is_c[a_j, b_j]
        )
        third = np.where(disjoint, total_c - touching + inside, 0)
        first_two = sign[:, None] + sign[None, :] + c
        np.add.at(out, (first_two + 3).ravel(), third.ravel())
    return out


@lru_cache(maxsize=8)
def banker_three_players(
    high_nine: str, tie_policy: str, commission: Fraction
) -> tuple[Fraction, list[Fraction]]:
    """The banker's exact expectation per round against three players of one unit each
    (A·X·Y, the same X for all), commission on its net win, and the distribution of its gross
    −3 … +3. Every banker hand (496) and every ordered triple of disjoint player hands from
    the other 30 tiles is counted (`triple_counts`); the cap is ignored (stacks cover 3 units).
    """
    _, cls, pairs = hands_table(high_nine)
    s = _sign_code(high_nine, tie_policy)
    n = 32
    strength = np.zeros((n, n), np.int64)  # strength index of the hand of tiles x, y
    for k, (x, y) in enumerate(pairs):
        strength[x, y] = strength[y, x] = cls[k]
    totals = np.zeros(7, np.int64)
    for b, (bi, bj) in enumerate(pairs):
        rest = np.array([t for t in range(n) if t not in (bi, bj)])
        sp = np.triu(s[cls[b]][strength[np.ix_(rest, rest)]], 1)
        totals += triple_counts(sp, 30)
    whole = int(totals.sum())
    dist = [Fraction(int(c), whole) for c in totals]
    keep = 1 - commission
    ev = sum(
        (p * (keep * g if g > 0 else Fraction(g)) for g, p in zip(range(-3, 4), dist, strict=True)),
        Fraction(0),
    )
    return ev, dist
