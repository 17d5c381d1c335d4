"""Swap Niu Niu: hand-type probabilities, the optimal swap and the banker/player expectations.

Everything is computed on rank multisets, because a hand's *type* depends only on its ranks (the
game's own `rank_type_table`, built from its classifier, is the authority; a test checks it
against `hands.evaluate`). The suit-based tie-break within one type is handled by
exchangeability: when two hands from one deck have the same type, each is equally likely to win.

* Five random cards: 6,175 rank multisets weighted by Π C(4, m_r) — exact.
* Two disjoint hands (banker and one player): every pair of multisets whose counts fit in one
  deck, weighted by Π C(4, a_r)·C(4 − a_r, b_r) — exact joint type distribution.
* Swap: for each of the 1,820 four-card rank multisets and each of the 16 keep choices, the exact
  type counts over every completion from the 48 unseen cards. The swap policy maximises the
  expected settlement per unit against an opponent of the population's final type distribution
  (iterated to a fixed point); the type distribution after that swap is exact for one seat.
  The banker/player expectation when every seat swaps so is a Monte Carlo estimate (seeded,
  with its 95 % confidence interval), because seats' swaps interact through the deck.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from qipai.analysis.distribution import BetFigures, from_weights
from qipai.analysis.report import Report, Table
from qipai.core.spec import BetReturn

N_TYPES = 15
_C = np.array([[math.comb(n, k) for k in range(6)] for n in range(5)], dtype=np.int64)


def _game() -> tuple[Any, npt.NDArray[np.int64], Fraction]:
    from qipai.core.money import to_rate
    from qipai.games.niuniu.config import NiuniuConfig
    from qipai.games.niuniu.hands import MULTIPLIER_ARRAY, HandType

    return HandType, MULTIPLIER_ARRAY, to_rate(NiuniuConfig().commission)


def _table() -> npt.NDArray[np.int64]:
    """The game's numba type table over ordered 5-tuples of ranks (for the swap enumeration)."""
    from qipai.games.niuniu.hands import rank_type_table

    return rank_type_table().astype(np.int64)


@lru_cache(maxsize=8)
def multisets(size: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Rank multisets of `size` cards (≤ 4 per rank): counts (M, 13) and sorted ranks (M, size)."""
    rows: list[list[int]] = []
    ranks: list[tuple[int, ...]] = []
    for combo in combinations_with_replacement(range(13), size):
        mult = [0] * 13
        for r in combo:
            mult[r] += 1
        if max(mult, default=0) <= 4:
            rows.append(mult)
            ranks.append(combo)
    return np.array(rows, np.int64).reshape(-1, 13), np.array(ranks, np.int64).reshape(
        len(rows), size
    )


def _index(ranks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The game's rank-table index Σ rank_i · 13^(4−i) of (n, 5) zero-based ranks."""
    out = np.zeros(ranks.shape[0], np.int64)
    for i in range(ranks.shape[1]):
        out = out * 13 + ranks[:, i]
    return out


@lru_cache(maxsize=1)
def multiset_types() -> npt.NDArray[np.int64]:
    """The type of every five-card rank multiset, by the game's readable `hands.evaluate`
    applied to one representative (suits spread so no impossible hand is formed)."""
    from qipai.core.cards import Card
    from qipai.games.niuniu.hands import evaluate

    _, ranks = multisets(5)
    out = np.empty(ranks.shape[0], np.int64)
    for n, row in enumerate(ranks.tolist()):
        seen: dict[int, int] = {}
        cards = []
        for r in row:  # zero-based Niu Niu rank: 0 = A, 1 = 2, …, 12 = K
            suit = seen.get(r, 0)
            seen[r] = suit + 1
            cards.append(Card(14 if r == 0 else r + 1, suit))
        out[n] = int(evaluate(cards).type)
    return out


def type_counts() -> npt.NDArray[np.int64]:
    """How many of the C(52,5) hands have each type, from rank multisets (exact)."""
    counts, _ = multisets(5)
    weights = _C[4, counts].prod(axis=1)
    out = np.zeros(N_TYPES, np.int64)
    np.add.at(out, multiset_types(), weights)
    return out


@njit(cache=True)
def _joint_kernel(
    counts: Any, types: Any, comb: Any, out: Any
) -> None:  # pragma: no cover - compiled
    m = counts.shape[0]
    for i in range(m):
        wa = 1
        for r in range(13):
            wa *= comb[4, counts[i, r]]
        for j in range(m):
            w = wa
            for r in range(13):
                left = 4 - counts[i, r]
                need = counts[j, r]
                if need > left:
                    w = 0
                    break
                w *= comb[left, need]
            if w:
                out[types[i], types[j]] += w


@lru_cache(maxsize=1)
def joint_types() -> npt.NDArray[np.int64]:
    """J[t, u]: ways to deal a 5-card hand of type t and a disjoint one of type u (one deck)."""
    counts, _ = multisets(5)
    types = multiset_types()
    out = np.zeros((N_TYPES, N_TYPES), np.int64)
    _joint_kernel(counts, types, _C, out)
    return out


def pair_value(multipliers: npt.NDArray[np.int64], rate: Fraction) -> list[list[Fraction]]:
    """g[t][u]: a player's net per unit (base × multiples) with type t against a banker of type u.

    docs/rules/niuniu.md#settlement: the winner is paid its own hand's multiplier, less the commission when it is the
    player; a type tie is decided by the top card, each side winning half the time (exchangeable).
    """
    keep = 1 - rate
    g: list[list[Fraction]] = []
    for t in range(N_TYPES):
        row = []
        for u in range(N_TYPES):
            win = keep * int(multipliers[t])
            lose = -int(multipliers[u])
            if t > u:
                row.append(win)
            elif t < u:
                row.append(Fraction(lose))
            else:
                row.append((win + lose) / 2)
        g.append(row)
    return g


@njit(cache=True)
def _swap_kernel(
    hands: Any, sizes_off: Any, ms_counts: Any, ms_tail: Any, table: Any, comb: Any, out: Any
) -> None:  # pragma: no cover - compiled
    for h in range(hands.shape[0]):
        unseen = np.full(13, 4, np.int64)
        for i in range(4):
            unseen[hands[h, i]] -= 1
        for mask in range(16):
            head = 0
            kept = 0
            for i in range(4):
                if mask >> i & 1:
                    head = head * 13 + hands[h, i]
                    kept += 1
            n = 5 - kept
            scale = 1
            for _ in range(n):
                scale *= 13
            for j in range(sizes_off[n], sizes_off[n + 1]):
                w = 1
                for r in range(13):
                    need = ms_counts[j, r]
                    if need:
                        if need > unseen[r]:
                            w = 0
                            break
                        w *= comb[unseen[r], need]
                if w:
                    out[h, mask, table[head * scale + ms_tail[j]]] += w


@lru_cache(maxsize=1)
def swap_counts() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(hands4 (H,4) sorted ranks, their weights Π C(4,c_r), counts (H,16,15)).

    counts[h, mask, t]: completions of four-card hand h keeping the cards in `mask` (bit i = the
    i-th card) by 5 − |mask| cards from the 48 unseen that give type t (out of C(48, 5 − |mask|)).
    """
    table = _table()
    c4, hands = multisets(4)
    weights = _C[4, c4].prod(axis=1)
    blocks = [multisets(n) for n in range(6)]
    offsets = np.zeros(7, np.int64)
    for n in range(6):
        offsets[n + 1] = offsets[n] + blocks[n][0].shape[0]
    ms_counts = np.concatenate([b[0] for b in blocks])
    ms_tail = np.concatenate([_index(b[1]) for b in blocks])
    out = np.zeros((hands.shape[0], 16, N_TYPES), np.int64)
    _swap_kernel(hands, offsets, ms_counts, ms_tail, table, _C, out)
    return hands, weights, out


_SIZE = np.array([bin(m).count("1") for m in range(16)])
_OUTCOMES = np.array([math.comb(48, 5 - int(k)) for k in _SIZE], np.float64)


def best_masks(values: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """For every four-card multiset, the keep mask of highest expected value (keep more on ties)."""
    _, _, counts = swap_counts()
    ev = (counts @ values) / _OUTCOMES[None, :]
    # Prefer fewer swaps on (float) ties: add a tiny bonus per kept card.
    ev = ev + _SIZE[None, :] * 1e-12
    return np.asarray(ev.argmax(axis=1), np.int64)


def distribution_after(masks: npt.NDArray[np.int64]) -> list[Fraction]:
    """Exact type distribution of one seat's final hand under a swap policy."""
    _, weights, counts = swap_counts()
    total = [Fraction(0)] * N_TYPES
    denom = math.comb(52, 4)
    for h in range(counts.shape[0]):
        m = int(masks[h])
        outcomes = math.comb(48, 5 - int(_SIZE[m]))
        for t in range(N_TYPES):
            c = int(counts[h, m, t])
            if c:
                total[t] += Fraction(int(weights[h]) * c, denom * outcomes)
    return total


@lru_cache(maxsize=8)
def optimal_swap(
    iterations: int = 6, commission: Fraction | None = None
) -> tuple[npt.NDArray[np.int64], list[Fraction]]:
    """The money-maximising swap policy against the population's final type distribution.

    Start from the no-swap distribution; best-respond; recompute the distribution; repeat until
    the policy no longer changes. Returns (masks, exact final type distribution). `commission`
    is the table's rate (default: the rules' 4 %).
    """
    _, mult, rate = _game()
    if commission is not None:
        rate = commission
    g = pair_value(mult, rate)
    base = type_counts()
    dist = [Fraction(int(c), math.comb(52, 5)) for c in base]
    masks = np.full(swap_counts()[0].shape[0], 15, np.int64)
    for _ in range(iterations):
        values = np.array(
            [float(sum(g[t][u] * dist[u] for u in range(N_TYPES))) for t in range(N_TYPES)]
        )
        new = best_masks(values)
        dist = distribution_after(new)
        if np.array_equal(new, masks):
            break
        masks = new
    masks.setflags(write=False)  # shared through the cache
    return masks, dist


@lru_cache(maxsize=8)
def money_values(commission: Fraction | None = None) -> tuple[Fraction, ...]:
    """v[t]: a player's exact expected net per unit (base × banker multiple × own multiple,
    after the commission) when its final hand has type t, against a banker whose final type is
    distributed as the population's under the money-optimal swap (`optimal_swap`, the fixed
    point). This is the objective the swap hint maximises: the multiples only scale it, so the
    best swap does not depend on them. Same-type hands are split evenly (exchangeable), and the
    banker's type is taken independent of the player's four cards (the population model)."""
    _, mult, rate = _game()
    if commission is not None:
        rate = commission
    _, dist = optimal_swap(commission=rate)
    g = pair_value(mult, rate)
    return tuple(
        sum((g[t][u] * dist[u] for u in range(N_TYPES)), Fraction(0)) for t in range(N_TYPES)
    )


def multiplier_swap() -> tuple[npt.NDArray[np.int64], list[Fraction]]:
    """The game advisor's policy (maximise the expected hand multiplier) and its distribution."""
    _, mult, _ = _game()
    masks = best_masks(mult.astype(np.float64))
    return masks, distribution_after(masks)


def player_ev_no_swap(commission: Fraction | None = None) -> Fraction:
    """A player's exact expectation per unit against the banker, no swaps (either side), at
    the rules' 4 % commission or the given one."""
    _, mult, rate = _game()
    if commission is not None:
        rate = commission
    g = pair_value(mult, rate)
    j = joint_types()
    total = int(j.sum())
    return (
        sum((g[t][u] * int(j[t, u]) for t in range(N_TYPES) for u in range(N_TYPES)), Fraction(0))
        / total
    )


@njit(cache=True)
def _deal_kernel(
    seed: int,
    rounds: int,
    seats: int,
    lookup: Any,
    masks: Any,
    hands: Any,
    rank_of: Any,
    out: Any,
) -> None:  # pragma: no cover - compiled
    np.random.seed(seed)
    deck = np.arange(52)
    for n in range(rounds):
        np.random.shuffle(deck)
        top = 0
        four = np.empty((seats, 4), np.int64)
        for s in range(seats):
            for i in range(4):
                four[s, i] = deck[top]
                top += 1
        for s in range(seats):
            cards = four[s]
            # sort the four cards by rank so the mask refers to the multiset's order
            order = np.argsort(rank_of[cards], kind="mergesort")
            sc = cards[order]
            code = 0
            for i in range(4):
                code = code * 13 + rank_of[sc[i]]
            m = masks[0 if s == 0 else 1, lookup[code]]
            k = 0
            for i in range(4):
                if m >> i & 1:
                    out[n, s, k] = sc[i]
                    k += 1
            while k < 4:
                out[n, s, k] = deck[top]
                top += 1
                k += 1
        for s in range(seats):
            out[n, s, 4] = deck[top]
            top += 1


POLICIES = ("none", "multiplier", "money")


def policy_masks(policy: str, commission: Fraction | None = None) -> npt.NDArray[np.int64]:
    """Keep masks per four-card rank multiset: `none` keeps all four, `multiplier` maximises the
    expected hand multiplier (the former hint), `money` the expected net against the banker."""
    if policy == "none":
        return np.full(swap_counts()[0].shape[0], 15, np.int64)
    if policy == "multiplier":
        return multiplier_swap()[0]
    if policy == "money":
        return optimal_swap(commission=commission)[0]
    raise ValueError(f"unknown swap policy {policy!r}; expected one of {', '.join(POLICIES)}")


def monte_carlo(
    rounds: int,
    seed: int,
    seats: int = 4,
    swap: bool = True,
    player: str = "money",
    banker: str = "money",
) -> dict[str, tuple[float, float]]:
    """Estimate per-unit expectations with the banker and the players swapping by the given
    policies (`policy_masks`; `swap=False` means no swaps anywhere).

    Seat 0 is the banker; every player bets one unit (X = Y = 1). Returns mean and 95 % CI
    half-width of: a player's net per unit, the banker's net per player-unit (commission on its
    net over all players, docs/rules/niuniu.md#return-to-player).
    """
    from qipai.games.niuniu.hands import keys_of

    _, mult, rate = _game()
    hands4, _, _ = swap_counts()
    lookup = np.full(13**4, -1, np.int64)
    lookup[_index(hands4)] = np.arange(hands4.shape[0])
    if not swap:
        player = banker = "none"
    masks = np.stack([policy_masks(banker), policy_masks(player)])
    rank_of = np.array([(i // 4 + 1) % 13 for i in range(52)], np.int64)  # 2..K → 1..12, A → 0
    out = np.empty((rounds, seats, 5), np.int64)
    _deal_kernel(seed, rounds, seats, lookup, masks, hands4, rank_of, out)
    keys = keys_of(out.reshape(-1, 5)).astype(np.int64).reshape(rounds, seats)
    m = mult[keys // 64]
    keep = float(1 - rate)
    player_wins = keys[:, 1:] > keys[:, :1]
    raw = np.where(player_wins, m[:, 1:], -m[:, :1]).astype(np.float64)  # player's view, gross
    player_net = np.where(raw > 0, raw * keep, raw)
    banker_gross = -raw.sum(axis=1)
    banker_net = np.where(banker_gross > 0, banker_gross * keep, banker_gross) / (seats - 1)
    res = {}
    for name, arr in (("player", player_net.ravel()), ("banker", banker_net)):
        res[name] = (float(arr.mean()), 1.96 * float(arr.std(ddof=1)) / math.sqrt(arr.size))
    return res


def analyse(mode: str | None = None, rounds: int = 400_000, seed: int = 2026) -> Report:
    """The full Niu Niu report (exact where stated, Monte Carlo where stated)."""
    hand_type, mult, rate = _game()
    counts = type_counts()
    total = math.comb(52, 5)
    no_swap = [Fraction(int(c), total) for c in counts]
    opt_masks, opt = optimal_swap()
    _, adv = multiplier_swap()
    rows = []
    for t in reversed(range(N_TYPES)):
        ht = hand_type(t)
        rows.append((f"{ht.zh} {ht.en}", int(mult[t]), int(counts[t]), no_swap[t], opt[t], adv[t]))
    table = Table(
        "Hand types: five random cards, and one seat's final hand after a swap",
        (
            "type",
            "multiplier",
            "hands of C(52,5)",
            "no swap",
            "EV-optimal swap",
            "max-multiplier swap",
        ),
        tuple(rows),
        "exact; 'EV-optimal' maximises the settlement per unit against the population of swapped "
        "hands, 'max-multiplier' is the game advisor's rule (expected hand multiplier)",
    )
    ev = player_ev_no_swap()
    j = joint_types()
    jt = int(j.sum())
    p_win = Fraction(
        sum(int(j[t, u]) for t in range(N_TYPES) for u in range(N_TYPES) if t > u)
        + sum(int(j[t, t]) for t in range(N_TYPES)) // 2,
        jt,
    )
    mean_mult = sum((Fraction(int(mult[t])) * no_swap[t] for t in range(N_TYPES)), Fraction(0))
    bets = [no_swap_figures()]
    mc = monte_carlo(rounds, seed, 4, True)
    mc0 = monte_carlo(rounds, seed, 4, False)
    policies = policy_table(rounds, seed)
    differ, cost = hint_difference()
    facts: dict[str, Any] = {
        "player expectation per unit, no swap (exact)": f"{float(ev):+.6f} ({ev})",
        "P(player beats banker), no swap (exact)": f"{float(p_win):.6f}",
        "mean hand multiplier, no swap (exact)": f"{float(mean_mult):.6f}",
        f"player per unit, 4 seats, no swap (Monte Carlo {rounds:,} rounds, seed {seed})": _ci(
            mc0["player"]
        ),
        "banker per player-unit, 4 seats, no swap (Monte Carlo, commission on net)": _ci(
            mc0["banker"]
        ),
        f"player per unit, 4 seats, all swap EV-optimally (Monte Carlo {rounds:,} rounds)": _ci(
            mc["player"]
        ),
        "banker per player-unit, 4 seats, all swap EV-optimally (Monte Carlo)": _ci(mc["banker"]),
        "swap policy: four-card hands that keep all four cards": f"{int((opt_masks == 15).sum())} of {len(opt_masks)} rank multisets",
        "four-card hands on which the money-best swap differs from the max-multiplier swap "
        "(exact)": differ,
        "expected money the max-multiplier swap gives up per unit (exact, population model)": cost,
    }
    return Report(
        game="niuniu",
        title="Swap Niu Niu, one 52-card deck",
        settings={"commission": str(rate), "seats (Monte Carlo)": 4},
        bets=tuple(bets),
        tables=(table, policies),
        facts=facts,
        notes=(
            "Hand types are of ranks only; exact counts are over the 2,598,960 five-card hands.",
            "Monte Carlo figures are estimates: mean ± 95 % confidence half-width.",
        ),
    )


def _policy_ev(player: str, banker: str) -> Fraction:
    """A player's exact expectation per unit when its final type and the banker's are
    independent, each distributed as its policy makes one seat's (the population model)."""
    _, mult, rate = _game()
    g = pair_value(mult, rate)
    dist = {
        "none": [Fraction(int(c), math.comb(52, 5)) for c in type_counts()],
        "multiplier": multiplier_swap()[1],
        "money": optimal_swap()[1],
    }
    p, b = dist[player], dist[banker]
    return sum((p[t] * b[u] * g[t][u] for t in range(N_TYPES) for u in range(N_TYPES)), Fraction(0))


def policy_table(rounds: int, seed: int) -> Table:
    """The player's return for each pair of swap policies (player, banker): a Monte Carlo run
    of the real deal order (4 seats, swaps in seat order, the fifth card after all swaps, ties
    broken by the top card) and the exact figure of the population model."""
    rows = []
    for player in POLICIES:
        for banker in POLICIES:
            if player == banker == "none":
                exact = player_ev_no_swap()  # two hands of one deck, exactly
                mc_text = "exact"
            else:
                exact = _policy_ev(player, banker)
                mc = monte_carlo(rounds, seed, 4, True, player, banker)
                mc_text = f"{(1 + mc['player'][0]) * 100:.3f} % ± {mc['player'][1] * 100:.3f}"
            rows.append((player, banker, mc_text, 1 + exact))
    return Table(
        "Player's return against the banker by swap policy (none, multiplier = the highest "
        "expected hand multiplier, money = the hint: the highest expected net)",
        (
            "player swaps",
            "banker swaps",
            "RTP (Monte Carlo, 95 %)",
            "RTP (population model, exact)",
        ),
        tuple(rows),
        f"Monte Carlo: {rounds:,} deals of 4 seats (3 players), seed {seed}, the game's deal "
        "order and tie-break; the population model takes the two final hands independent (it "
        "ignores card removal between them), which is what the hint optimises. 'none/none' is "
        "exact for two hands of one deck. A player's best response to a banker who follows the "
        "hint is the hint (the policy is that fixed point).",
    )


def hint_difference() -> tuple[Fraction, Fraction]:
    """(share of four-card hands where the money-best and the max-multiplier swaps differ,
    expected net per unit the max-multiplier swap gives up), both exact against the banker's
    money-policy distribution."""
    hands, weights, counts = swap_counts()
    money, _ = optimal_swap()
    mult, _ = multiplier_swap()
    values = money_values()
    denom = math.comb(52, 4)
    differ = Fraction(0)
    cost = Fraction(0)
    for h in range(hands.shape[0]):
        a, b = int(money[h]), int(mult[h])
        if a == b:
            continue
        w = Fraction(int(weights[h]), denom)
        ev = [
            sum((values[t] * int(counts[h, m, t]) for t in range(N_TYPES)), Fraction(0))
            / int(_OUTCOMES[m])
            for m in (a, b)
        ]
        differ += w
        cost += w * (ev[0] - ev[1])
    return differ, cost


def no_swap_figures(
    commission: Fraction | None = None,
    multipliers: Sequence[int] | None = None,
    cap: Fraction | None = None,
) -> BetFigures:
    """A player's bet against the banker, no swaps: the exact distribution of its net per unit
    (win ×m less commission, or lose ×m of the banker's hand). Same-type pairings are split
    evenly between the two sides (exchangeable hands, no ties).

    `multipliers` (per HandType value) replaces the rules' hand multipliers — a free setting
    for pricing. `cap` is the smaller of the two balances at the table in units of the stake:
    docs/rules/niuniu.md#settlement, nobody wins or loses more in a round than its balance, so
    a pairing moves min(m, cap) units (commission on the net after the cap)."""
    _, mult, rate = _game()
    if commission is not None:
        rate = commission
    if multipliers is not None:
        if len(multipliers) != N_TYPES or min(multipliers) < 1:
            raise ValueError(f"{N_TYPES} hand multipliers of at least 1 are needed")
        mult = np.array(multipliers, np.int64)
    keep = 1 - rate
    j = joint_types()
    weights: dict[tuple[str, Fraction], int] = {}

    def add(win: bool, m: int, w: int) -> None:
        moved = Fraction(m) if cap is None else min(Fraction(m), cap)
        text = f"×{m}" if moved == m else f"×{m} capped at {float(moved):g}"
        key = (f"win {text}", keep * moved) if win else (f"lose {text}", -moved)
        weights[key] = weights.get(key, 0) + w

    for t in range(N_TYPES):
        for u in range(N_TYPES):
            w = int(j[t, u])
            if not w:
                continue
            if t > u:
                add(True, int(mult[t]), 2 * w)
            elif t < u:
                add(False, int(mult[u]), 2 * w)
            else:  # half each way, in doubled weights
                add(True, int(mult[t]), w)
                add(False, int(mult[t]), w)
    order = [label for label, _ in sorted(weights, key=lambda k: (-k[1], k[0]))]
    return from_weights(
        "player vs banker, no swap",
        weights,
        f"per unit of base × banker multiple × own multiple, {float(rate) * 100:g} % commission "
        "on a win; with one player the banker's bet is the mirror image (same figures)",
        order,
    )


def par(
    config: Any, multipliers: Mapping[str, int] | None = None, cap: Fraction | None = None
) -> Any:
    """The PAR sheet of a Niu Niu table (qipai.analysis.par): the player's bet against the
    banker without swaps, exact, and the house's commission hold of one pairing. The banker's
    side of one pairing is the mirror image, so its expectation equals the player's."""
    from qipai.analysis.par import Hold, sheet
    from qipai.core.money import to_rate
    from qipai.games.niuniu.hands import HandType

    rate = to_rate(config.commission)
    mult = [int(m) for m in _game()[1]]
    for name, m in (multipliers or {}).items():
        try:
            t = HandType[name.upper()]
        except KeyError:
            known = ", ".join(h.name.lower() for h in HandType)
            raise ValueError(f"unknown hand type {name!r}; expected one of {known}") from None
        mult[int(t)] = int(m)
    figures = no_swap_figures(rate, mult, cap)
    settings: dict[str, Any] = {"commission": config.commission}
    if multipliers:
        settings["multipliers"] = dict(multipliers)
    if cap is not None:
        settings["stack_units"] = str(cap)
    return sheet(
        "niuniu",
        "Swap Niu Niu, player against the banker (no swap)",
        settings,
        [figures],
        Hold(figures.ev, figures.ev),
        notes=(
            "Exact over every pair of five-card hands of one deck; with swaps the return depends "
            "on both sides' swaps (docs/rtp.md section 2: ≈ 96.0 % when everyone follows the "
            "hint).",
            "Hold: the commission of one pairing (one banker, one player); with several players "
            "the banker's commission is on its net over all of them.",
        ),
    )


def par_sheet(config: Any, options: Mapping[str, Any]) -> Any:
    """GameSpec.par: the PAR sheet with the PAR-only options a table does not have — the hand
    `multipliers` ({"bull_bull": 4, …}) and the cap `stack_units` (the stack in units of the
    stake); ValueError names a bad one."""
    from qipai.analysis.par import int_mapping, positive_fraction

    cap = options.get("stack_units")
    return par(
        config,
        int_mapping(options.get("multipliers"), "multipliers"),
        None if cap is None else positive_fraction(cap, "stack_units"),
    )


def _ci(v: tuple[float, float]) -> str:
    return f"{v[0]:+.5f} ± {v[1]:.5f}"


def rtp_for(config: Any) -> list[BetReturn]:
    """The exact return of a Niu Niu table's bet with these settings (GameSpec.rtp): a player
    against the banker when neither swaps. With swaps the figure depends on both sides'
    choices; it is not computed exactly (the report's Monte Carlo estimates it)."""
    from qipai.core.money import to_rate
    from qipai.core.spec import label

    figures = no_swap_figures(to_rate(config.commission))
    return [
        BetReturn(
            "player",
            label("闲家对庄家 (不换牌)", "player against the banker (no swap)"),
            figures.rtp,
            "no swap",
            "per unit of base × banker multiple × player multiple, after the commission; with "
            "one player the banker's side is the mirror image; with swaps not exact (both "
            "sides' choices matter); the cap is ignored (stacks large enough)",
        )
    ]
