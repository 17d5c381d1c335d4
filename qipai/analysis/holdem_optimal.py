"""Hold'em Bonus main bets: the optimal strategy and its exact return, by enumeration.

`solve()` runs `holdem_main.flop_counts` over one flop per suit-isomorphism class (1,755 on a full
deck, each weighted by its class size) and every hole pair, then decides in exact integer
arithmetic, working back from the river:

* river (hole + 4 board cards): bet iff wins > losses over the river card and dealer hands;
* turn (hole + flop): under the source rule (a check gives up the river bet) bet iff
  (W − L) + Σ_turn-cards max(0, W − L at the river) > 0; under the common rule the river stays
  open either way, so bet iff W − L > 0 over all endings;
* flop (hole cards): play iff the summed value of playing on exceeds −1 ante per ending.

Summing a class of hole cards over the canonical flops times their class sizes equals summing
over every flop (a suit permutation maps (hole, flop) to (hole', canonical flop) with hole' in
the same class), so the per-class totals, and hence the return, are exact. Every count is an
integer number of (hole, flop, turn, river, dealer) deals; nothing is estimated.
"""

from __future__ import annotations

import math
import os
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations
from pathlib import Path

import numpy as np
import numpy.typing as npt

from qipai.analysis.holdem_main import N_FIELDS, flop_counts

RANKS = "23456789TJQKA"
RULES = ("source", "common")
FULL_DECK: tuple[int, ...] = tuple(range(52))

# Outcome nets per unit ante for (turn bet, river bet, result); result: 0 win below a straight,
# 1 win with a straight or better, 2 tie, 3 loss (RULES.md §3: ante pushes on a win below a
# straight, flop/turn/river pay 1:1, a tie returns every main bet, a loss loses all).


def outcome_net(turn: int, river: int, result: int) -> int:
    """Net per unit ante of one showdown outcome, given the turn and river bets made."""
    raised = 2 + turn + river
    return (raised, raised + 1, 0, -(raised + 1))[result]


def hole_class(a: int, b: int) -> str:
    """The starting-hand class of two card ids: 'AA', 'AKs' or 'AKo'."""
    ra, rb = a >> 2, b >> 2
    if ra < rb:
        ra, rb = rb, ra
    if ra == rb:
        return RANKS[ra] * 2
    return RANKS[ra] + RANKS[rb] + ("s" if (a & 3) == (b & 3) else "o")


def class_names() -> list[str]:
    """The 169 classes, strongest-looking first (pairs, then suited, then offsuit by ranks)."""
    pairs = [RANKS[r] * 2 for r in range(12, -1, -1)]
    suited = [RANKS[h] + RANKS[lo] + "s" for h in range(12, -1, -1) for lo in range(h - 1, -1, -1)]
    offsuit = [RANKS[h] + RANKS[lo] + "o" for h in range(12, -1, -1) for lo in range(h - 1, -1, -1)]
    return pairs + suited + offsuit


@lru_cache(maxsize=1)
def pair_cards() -> npt.NDArray[np.int64]:
    """(1326, 2) card ids of each pair index (`holdem_main.pair_id` order)."""
    out = np.zeros((1326, 2), np.int64)
    for b in range(52):
        for a in range(b):
            out[b * (b - 1) // 2 + a] = (a, b)
    return out


def canonical_flops(deck: Sequence[int]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """One flop per suit-permutation class of 3-card subsets of `deck`, and each class's size.

    The deck must be closed under suit permutations (a full deck, or whole ranks)."""
    ids = np.array(sorted(set(deck)), np.int64)
    flops = np.array(list(combinations(ids.tolist(), 3)), np.int64).reshape(-1, 3)
    best = None
    for p in permutations(range(4)):
        perm = np.array(p, np.int64)
        mapped = np.sort((flops & ~3) | perm[flops & 3], axis=1)
        code = (mapped[:, 0] * 52 + mapped[:, 1]) * 52 + mapped[:, 2]
        best = code if best is None else np.minimum(best, code)
    assert best is not None
    codes, sizes = np.unique(best, return_counts=True)
    keys = np.stack([codes // 2704, codes // 52 % 52, codes % 52], axis=1)
    if not np.isin(keys, ids).all():
        raise ValueError("deck is not closed under suit permutations")
    return keys.astype(np.int64), sizes.astype(np.int64)


def all_flops(deck: Sequence[int]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every 3-card subset of `deck`, weight 1 (no isomorphism; for checks on small decks)."""
    flops = list(combinations(sorted(deck), 3))
    return np.array(flops, np.int64).reshape(-1, 3), np.ones(len(flops), np.int64)


@dataclass(frozen=True)
class Solution:
    """Per-(flop, hole) counts and the derived decisions for one deck."""

    deck: tuple[int, ...]
    flops: npt.NDArray[np.int64]  # (F, 3)
    weights: npt.NDArray[np.int64]  # (F,)
    counts: npt.NDArray[np.int64]  # (F, 1326, N_FIELDS)
    valid: npt.NDArray[np.bool_]  # (F, 1326): hole in deck and disjoint from the flop

    @property
    def endings_per_hole(self) -> int:
        """Flops × turn × river × dealer hands behind one hole pair."""
        n = len(self.deck)
        return math.comb(n - 2, 3) * (n - 5) * (n - 6) * math.comb(n - 7, 2)

    def hole_pairs(self) -> npt.NDArray[np.int64]:
        """Pair indices of the hole pairs of this deck."""
        ids = sorted(self.deck)
        return np.array([b * (b - 1) // 2 + a for a, b in combinations(ids, 2)], np.int64)


def solve(deck: Sequence[int] = FULL_DECK, isomorphism: bool = True) -> Solution:
    """Run the enumeration over `deck` (the 52 cards by default)."""
    from qipai.poker.tables import tables

    deck_t = tuple(sorted(deck))
    flops, weights = canonical_flops(deck_t) if isomorphism else all_flops(deck_t)
    t = tables()
    counts = flop_counts(np.array(deck_t, np.int64), flops, t.noflush, t.flush, t.card_keys)
    return _solution(deck_t, flops, weights, counts)


CACHE_VERSION = 2  # 2: the simple turn rule also bets with an ace


def cache_path() -> Path:
    """Where the full deck's counts are kept (the user cache dir; `QIPAI_CACHE_DIR` overrides).

    The name carries a digest of the kernel's source and the evaluator tables' checksum, so a
    change to either computes afresh instead of reading stale counts."""
    import hashlib

    from qipai.analysis import holdem_main
    from qipai.poker.tables import TABLES_CRC32, cache_dir

    digest = hashlib.sha256(Path(holdem_main.__file__).read_bytes())
    digest.update(f"{TABLES_CRC32:08x}".encode())
    return cache_dir() / f"holdem-bonus-counts-v{CACHE_VERSION}-{digest.hexdigest()[:12]}.npz"


@lru_cache(maxsize=1)
def full_solution() -> Solution:
    """The full deck's solution: read from the cache file, else computed (minutes) and cached."""
    path = cache_path()
    flops, weights = canonical_flops(FULL_DECK)
    try:
        with np.load(path) as data:
            counts = data["counts"]
            ok = np.array_equal(data["flops"], flops) and counts.shape == (
                len(flops),
                1326,
                N_FIELDS,
            )
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):
        ok = False
    if ok:
        return _solution(FULL_DECK, flops, weights, counts)
    sol = solve(FULL_DECK)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            np.savez_compressed(fh, counts=sol.counts.astype(np.int32), flops=flops)
        os.replace(tmp, path)
    except OSError:
        pass  # an unwritable cache is skipped
    return sol


def _solution(
    deck: tuple[int, ...],
    flops: npt.NDArray[np.int64],
    weights: npt.NDArray[np.int64],
    counts: npt.NDArray[np.int32],
) -> Solution:
    pc = pair_cards()
    in_deck = np.zeros(52, np.bool_)
    in_deck[list(deck)] = True
    pair_ok = in_deck[pc[:, 0]] & in_deck[pc[:, 1]]
    clash = np.zeros((flops.shape[0], 1326), np.bool_)
    for j in range(3):
        f = flops[:, j][:, None]
        clash |= (pc[None, :, 0] == f) | (pc[None, :, 1] == f)
    valid = pair_ok[None, :] & ~clash
    return Solution(deck, flops, weights, counts.astype(np.int64), valid)


@dataclass(frozen=True)
class Play:
    """A strategy's exact outcome counts over every deal for one rule.

    `outcomes[(turn, river, result)]` counts showdowns (see `outcome_net`); `folds` counts the
    deals folded before the flop. `class_value[k]` / `class_endings[k]` is the expected net of
    *playing* class k (whatever the strategy's flop decision), `play[k]` that decision."""

    rule: str
    outcomes: dict[tuple[int, int, int], int]
    folds: int
    total: int
    class_value: dict[str, int]
    class_endings: dict[str, int]
    play: dict[str, bool]
    turn_bets: int  # deals (played) with a turn bet
    river_bets: int  # deals (played) with a river bet


def _values(
    sol: Solution, rule: str, turn_bet: npt.NDArray[np.bool_] | None, river: int
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.bool_], dict[tuple[int, int, int], npt.NDArray[np.int64]]
]:
    """Per (flop, hole): the value of playing on, the turn decision and outcome counts.

    `turn_bet` None means the optimal turn decision; `river` is the field offset of the river
    branch counts (4 optimal, 8 simple)."""
    c = sol.counts
    w_all, ws_all, t_all, l_all = (c[..., i] for i in range(4))
    w_r, ws_r, t_r, l_r = (c[..., river + i] for i in range(4))
    base = 2 * w_all + ws_all - 3 * l_all
    d_turn = w_all - l_all
    d_river = w_r - l_r
    if rule == "source":
        gain = d_turn + d_river
        bet = gain > 0 if turn_bet is None else turn_bet
        value = base + np.where(bet, gain, 0)
    else:
        bet = d_turn > 0 if turn_bet is None else turn_bet
        value = base + d_river + np.where(bet, d_turn, 0)
    bet = bet & sol.valid
    value = np.where(sol.valid, value, 0)
    split_all = (w_all - ws_all, ws_all, t_all, l_all)
    split_r = (w_r - ws_r, ws_r, t_r, l_r)
    outs: dict[tuple[int, int, int], npt.NDArray[np.int64]] = {}
    for res in range(4):
        a, r = split_all[res], split_r[res]
        outs[(1, 1, res)] = np.where(bet, r, 0)
        outs[(1, 0, res)] = np.where(bet, a - r, 0)
        if rule == "source":
            outs[(0, 0, res)] = np.where(bet, 0, a)
        else:
            outs[(0, 1, res)] = np.where(bet, 0, r)
            outs[(0, 0, res)] = np.where(bet, 0, a - r)
    return value, bet, outs


def evaluate(
    sol: Solution,
    rule: str,
    simple: bool = False,
    fold_classes: frozenset[str] | None = None,
    turn_bets: npt.NDArray[np.bool_] | None = None,
) -> Play:
    """Exact outcome counts of the optimal strategy (or the simple one) under `rule`.

    With `simple`, turn and river follow the simple rules and the flop decision folds exactly
    `fold_classes` (`turn_bets`, if given, replaces the simple turn rule); otherwise every
    decision is optimal (`fold_classes` and `turn_bets` ignored)."""
    if rule not in RULES:
        raise ValueError(f"rule {rule!r}: expected one of {RULES}")
    turn = sol.counts[..., 12].astype(bool) if simple else None
    if simple and turn_bets is not None:
        turn = turn_bets  # another turn rule, e.g. a candidate simple rule (F, 1326)
    value, _bet, outs = _values(sol, rule, turn, 8 if simple else 4)
    pc = pair_cards()
    pairs = sol.hole_pairs()
    names = [hole_class(int(pc[p, 0]), int(pc[p, 1])) for p in pairs]
    w = sol.weights
    per_pair_value = (value[:, pairs] * w[:, None]).sum(axis=0)
    per_class_value: dict[str, int] = {}
    per_class_n: dict[str, int] = {}
    for name, v in zip(names, per_pair_value.tolist(), strict=True):
        per_class_value[name] = per_class_value.get(name, 0) + int(v)
        per_class_n[name] = per_class_n.get(name, 0) + sol.endings_per_hole
    if simple:
        play = {k: k not in (fold_classes or frozenset()) for k in per_class_value}
    else:
        play = {k: per_class_value[k] > -per_class_n[k] for k in per_class_value}
    played = np.array([play[n] for n in names], np.bool_)
    outcomes: dict[tuple[int, int, int], int] = {}
    for key, arr in outs.items():
        per_pair = (arr[:, pairs] * w[:, None]).sum(axis=0)
        outcomes[key] = int(per_pair[played].sum())
    folds = sum(per_class_n[k] for k in play if not play[k])
    total = sum(per_class_n.values())
    n_turn = sum(v for (t, _r, _res), v in outcomes.items() if t)
    n_river = sum(v for (_t, r, _res), v in outcomes.items() if r)
    assert folds + sum(outcomes.values()) == total
    return Play(
        rule,
        outcomes,
        folds,
        total,
        per_class_value,
        per_class_n,
        play,
        n_turn,
        n_river,
    )


def turn_decisions(sol: Solution, rule: str) -> npt.NDArray[np.bool_]:
    """(F, 1326) optimal turn bet for every (canonical flop, hole pair)."""
    _v, bet, _o = _values(sol, rule, None, 4)
    return bet


__all__ = [
    "N_FIELDS",
    "RULES",
    "Play",
    "Solution",
    "all_flops",
    "canonical_flops",
    "class_names",
    "evaluate",
    "hole_class",
    "outcome_net",
    "solve",
]
