# ruff: noqa: SIM103, SIM108, SIM109 -- explicit comparisons and branches compile best in numba
"""Compiled kernels of the Texas Hold'em Bonus exact analysis (see `holdem_bonus.py`).

Cards are ids 0..51 (rank-major, suit = id & 3). Strengths come from the project's evaluator
(`qipai.poker.kernels.strength_from_key` over `qipai.poker.tables`), so the figures are of the
hand ranking as implemented.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from qipai.poker.kernels import strength7, strength_from_key

STRAIGHT = (
    4 << 12
)  # docs/rules/holdem-bonus.md#main-payout: a winning straight or better pays the ante 1:1

N_B4 = 270725  # C(52, 4): four-card boards, colex order


@njit(cache=True)
def binomials() -> Any:  # pragma: no cover - compiled
    c = np.zeros((53, 6), np.int64)
    for n in range(53):
        c[n, 0] = 1
        for k in range(1, 6):
            if n >= 1:
                c[n, k] = c[n - 1, k - 1] + c[n - 1, k]
    return c


@njit(cache=True)
def _map(card: int, perm: Any) -> int:  # pragma: no cover - compiled
    return int((card & ~3) | perm[card & 3])


@njit(cache=True)
def _sort5(a: Any) -> None:  # pragma: no cover - compiled
    for i in range(1, a.shape[0]):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@njit(cache=True)
def canonical_boards(perms: Any) -> Any:  # pragma: no cover - compiled
    """Every 5-card board that is the least (colex) of its suit-permutation images."""
    comb = binomials()
    out = np.empty((200000, 5), np.int64)
    n = 0
    img = np.empty(5, np.int64)
    for e in range(52):
        for d in range(e):
            for c in range(d):
                for b in range(c):
                    for a in range(b):
                        own = comb[a, 1] + comb[b, 2] + comb[c, 3] + comb[d, 4] + comb[e, 5]
                        least = True
                        for p in range(1, perms.shape[0]):
                            img[0] = _map(a, perms[p])
                            img[1] = _map(b, perms[p])
                            img[2] = _map(c, perms[p])
                            img[3] = _map(d, perms[p])
                            img[4] = _map(e, perms[p])
                            _sort5(img)
                            idx = (
                                comb[img[0], 1]
                                + comb[img[1], 2]
                                + comb[img[2], 3]
                                + comb[img[3], 4]
                                + comb[img[4], 5]
                            )
                            if idx < own:
                                least = False
                                break
                        if least:
                            out[n, 0] = a
                            out[n, 1] = b
                            out[n, 2] = c
                            out[n, 3] = d
                            out[n, 4] = e
                            n += 1
    return out[:n].copy()


@njit(cache=True)
def board_outcomes(
    board: Any, noflush: Any, flush: Any, card_keys: Any, out_o: Any, out_a: Any, out_q: Any
) -> None:  # pragma: no cover - compiled
    """For one 5-card board, every possible player hole pair (a, b) against all 990 dealer
    hands from the other 45 cards: out_o[a, b] = wins − losses, out_a[a, b] = the ante's
    (wins with a straight or better) − losses, out_q[a, b] = wins + losses (990 − ties).
    Entries touching the board are left as is."""
    used = np.zeros(52, np.bool_)
    bkey = 0
    for i in range(5):
        used[board[i]] = True
        bkey += card_keys[board[i]]
    rest = np.empty(47, np.int64)
    m = 0
    for c in range(52):
        if not used[c]:
            rest[m] = c
            m += 1
    cards = np.empty(7, np.int64)
    for i in range(5):
        cards[i] = board[i]
    ii = np.empty(1081, np.int64)
    jj = np.empty(1081, np.int64)
    vals = np.empty(1081, np.int64)
    n = 0
    for i in range(47):
        for j in range(i + 1, 47):
            cards[5] = rest[i]
            cards[6] = rest[j]
            key = bkey + card_keys[rest[i]] + card_keys[rest[j]]
            vals[n] = strength_from_key(key, 7, cards, noflush, flush)
            ii[n] = i
            jj[n] = j
            n += 1
    order = np.argsort(vals)
    # Walk the hands from weakest up, a group of equal strength at a time; `seen[c]` counts the
    # hands already passed that hold card c. Inclusion–exclusion over the two hole cards gives
    # the dealer hands disjoint from them that are below / above (the pair itself is neither).
    seen = np.zeros(47, np.int64)
    done = 0
    g = 0
    while g < 1081:
        e = g
        s = vals[order[g]]
        while e < 1081 and vals[order[e]] == s:
            e += 1
        for k in range(g, e):
            h = order[k]
            below = done - seen[ii[h]] - seen[jj[h]]
            out_o[rest[ii[h]], rest[jj[h]]] = below
        for k in range(g, e):
            h = order[k]
            seen[ii[h]] += 1
            seen[jj[h]] += 1
        done = e
        for k in range(g, e):
            h = order[k]
            above = (1081 - done) - (46 - seen[ii[h]]) - (46 - seen[jj[h]])
            x = rest[ii[h]]
            y = rest[jj[h]]
            below = out_o[x, y]
            o = below - above
            a = (below if s >= STRAIGHT else 0) - above
            out_o[x, y] = o
            out_o[y, x] = o
            out_a[x, y] = a
            out_a[y, x] = a
            out_q[x, y] = below + above
            out_q[y, x] = below + above
        g = e


@njit(cache=True)
def _scatter_chunk(
    boards: Any,
    start: int,
    step: int,
    perms: Any,
    inverse: Any,
    classes: Any,
    noflush: Any,
    flush: Any,
    card_keys: Any,
    acc: Any,
) -> None:  # pragma: no cover - compiled
    comb = binomials()
    out_o = np.zeros((52, 52), np.int64)
    out_a = np.zeros((52, 52), np.int64)
    out_q = np.zeros((52, 52), np.int64)
    img = np.empty(5, np.int64)
    seen = np.empty(24, np.int64)
    drop_idx = np.empty(5, np.int64)
    for bi in range(start, boards.shape[0], step):
        board = boards[bi]
        board_outcomes(board, noflush, flush, card_keys, out_o, out_a, out_q)
        nseen = 0
        for p in range(perms.shape[0]):
            for i in range(5):
                img[i] = _map(board[i], perms[p])
            _sort5(img)
            idx = (
                comb[img[0], 1]
                + comb[img[1], 2]
                + comb[img[2], 3]
                + comb[img[3], 4]
                + comb[img[4], 5]
            )
            dup = False
            for s in range(nseen):
                if seen[s] == idx:
                    dup = True
                    break
            if dup:
                continue
            seen[nseen] = idx
            nseen += 1
            mask = np.int64(0)
            for i in range(5):
                mask |= np.int64(1) << img[i]
            # colex index of the image less its k-th card (k = the river in that ordering)
            for k in range(5):
                v = 0
                pos = 1
                for i in range(5):
                    if i != k:
                        v += comb[img[i], pos]
                        pos += 1
                drop_idx[k] = v
            q = inverse[p]
            for h in range(classes.shape[0]):
                c1 = classes[h, 0]
                c2 = classes[h, 1]
                if (mask >> c1) & 1 or (mask >> c2) & 1:
                    continue
                x = _map(c1, q)
                y = _map(c2, q)
                o = out_o[x, y]
                a = out_a[x, y]
                w = out_q[x, y]
                for k in range(5):
                    acc[drop_idx[k], h, 0] += o
                    acc[drop_idx[k], h, 1] += a
                    acc[drop_idx[k], h, 2] += w


@njit(cache=True, parallel=True)
def river_sums(
    boards: Any,
    perms: Any,
    inverse: Any,
    classes: Any,
    noflush: Any,
    flush: Any,
    card_keys: Any,
    threads: int,
) -> Any:  # pragma: no cover - compiled
    """R[B4, h, 0] = Σ over river cards r of (wins − losses) of hole class h on board B4 + r,
    over the 990 dealer hands each; R[B4, h, 1] the same for the ante (wins with a straight or
    better − losses); R[B4, h, 2] wins + losses (int32)."""
    acc = np.zeros((threads, N_B4, classes.shape[0], 3), np.int32)
    for t in prange(threads):
        _scatter_chunk(
            boards, t, threads, perms, inverse, classes, noflush, flush, card_keys, acc[t]
        )
    out = acc[0]
    for t in range(1, threads):
        out += acc[t]
    return out


TURN_FLOPS = 19600  # C(50, 3): the flops beside two hole cards


@njit(cache=True)
def flop_index(c1: int, c2: int, f0: int, f1: int, f2: int) -> int:  # pragma: no cover
    """The place 0 … 19,599 of the flop f0 < f1 < f2 among the C(50, 3) flops that avoid the hole
    cards c1, c2: the colex index of the flop after the cards above each hole card are moved
    down to close the gap (the order `flop_values` walks them in)."""
    lo = c1 if c1 < c2 else c2
    hi = c2 if c1 < c2 else c1
    g0 = f0 - (1 if f0 > lo else 0) - (1 if f0 > hi else 0)
    g1 = f1 - (1 if f1 > lo else 0) - (1 if f1 > hi else 0)
    g2 = f2 - (1 if f2 > lo else 0) - (1 if f2 > hi else 0)
    return g0 + g1 * (g1 - 1) // 2 + g2 * (g2 - 1) * (g2 - 2) // 6


N_STRATEGIES = 4  # optimal (source rule), optimal (common rule), simple (source), simple (common)
NETS = 11  # net per ante −5 … +5, index = net + 5


@njit(cache=True, parallel=True)
def flop_values(classes: Any, acc: Any, simple_rules: Any) -> Any:  # pragma: no cover
    """Per hole class and strategy, summed over every flop, turn, river and dealer hand:

    hist[h, s, net + 5] — how many (flop, turn, river, dealer hand) deals end with that net per
    ante when the player plays the flop bet; turns[h, s] — flops on which the turn is bet;
    rivers[h, s] — (flop, turn) pairs on which the river is bet; flops[h] — flops counted;
    bets[h, s, i] — 1 iff the optimal strategy s (0 source, 1 common rule) bets the turn on the
    i-th flop, i = `flop_index(c1, c2, f0, f1, f2)` of the class representative (c1, c2): the
    turn decision table of `qipai.games.holdem_bonus.strategy`, so bots look it up instead of enumerating.
    Strategies: 0 optimal under the source rule (no turn bet, no river bet), 1 optimal under the
    common rule (river open after a check), 2/3 the simple strategy under each rule.
    """
    comb = binomials()
    n = classes.shape[0]
    hist = np.zeros((n, N_STRATEGIES, NETS), np.int64)
    turns = np.zeros((n, N_STRATEGIES), np.int64)
    rivers = np.zeros((n, N_STRATEGIES), np.int64)
    flops = np.zeros(n, np.int64)
    bets = np.zeros((n, 2, TURN_FLOPS), np.uint8)
    per_deal = 46 * 990
    for h in prange(n):
        c1 = classes[h, 0]
        c2 = classes[h, 1]
        four = np.empty(4, np.int64)
        ro = np.empty(47, np.int64)
        ra = np.empty(47, np.int64)
        rq = np.empty(47, np.int64)
        srv = np.empty(47, np.bool_)
        for f2 in range(52):
            if f2 == c1 or f2 == c2:
                continue
            for f1 in range(f2):
                if f1 == c1 or f1 == c2:
                    continue
                for f0 in range(f1):
                    if f0 == c1 or f0 == c2:
                        continue
                    tb = 0
                    ck = 0
                    m = 0
                    for t in range(52):
                        if t == c1 or t == c2 or t == f0 or t == f1 or t == f2:
                            continue
                        four[0] = f0
                        four[1] = f1
                        four[2] = f2
                        four[3] = t
                        _sort5(four)
                        idx = (
                            comb[four[0], 1]
                            + comb[four[1], 2]
                            + comb[four[2], 3]
                            + comb[four[3], 4]
                        )
                        ro[m] = acc[idx, h, 0]
                        ra[m] = acc[idx, h, 1]
                        rq[m] = acc[idx, h, 2]
                        srv[m] = simple_river(c1, c2, four, simple_rules)
                        best = ro[m] if ro[m] > 0 else 0
                        tb += ro[m] + best
                        ck += best
                        m += 1
                    flops[h] += 1
                    fi = flop_index(c1, c2, f0, f1, f2)
                    bets[h, 0, fi] = 1 if tb > 0 else 0
                    bets[h, 1, fi] = 1 if tb > ck else 0
                    simple_tb = simple_turn(c1, c2, f0, f1, f2, simple_rules)
                    for s in range(N_STRATEGIES):
                        if s == 0:
                            bet_turn = tb > 0
                        elif s == 1:
                            bet_turn = tb > ck
                        else:
                            bet_turn = simple_tb
                        common = s == 1 or s == 3
                        if bet_turn:
                            turns[h, s] += 1
                        for j in range(m):
                            if bet_turn or common:
                                if s < 2:
                                    bet_river = ro[j] > 0
                                else:
                                    bet_river = srv[j]
                            else:
                                bet_river = False
                            if bet_river:
                                rivers[h, s] += 1
                            k = 2 + (1 if bet_turn else 0) + (1 if bet_river else 0)
                            q = rq[j]
                            wins = (ro[j] + q) // 2
                            losses = (q - ro[j]) // 2
                            wins_s = ra[j] + losses
                            hist[h, s, 5 + 1 + k] += wins_s
                            hist[h, s, 5 + k] += wins - wins_s
                            hist[h, s, 5] += per_deal - q
                            hist[h, s, 5 - 1 - k] += losses
    return hist, turns, rivers, flops, bets


@njit(cache=True)
def simple_turn(
    c1: int, c2: int, f0: int, f1: int, f2: int, rules: Any
) -> bool:  # pragma: no cover
    """The simple strategy's turn bet, from the hole cards and the flop (see `strategy.py`).

    Bet the turn with a pair or better that uses a hole card (a pocket pair counts), or four to
    a flush using a hole card; `rules[0]` = 1 also bets an ace or king in the hole."""
    r1, r2 = c1 >> 2, c2 >> 2
    fr0, fr1, fr2 = f0 >> 2, f1 >> 2, f2 >> 2
    if r1 == r2:
        return True
    for r in (r1, r2):
        if r == fr0 or r == fr1 or r == fr2:
            return True
    # four to a flush with at least one hole card of that suit
    for s in range(4):
        cnt = 0
        hole = 0
        for c in (c1, c2):
            if c & 3 == s:
                cnt += 1
                hole += 1
        for c in (f0, f1, f2):
            if c & 3 == s:
                cnt += 1
        if cnt >= 4 and hole > 0:
            return True
    if rules[0] == 1 and (r1 >= 11 or r2 >= 11):  # 11 = K, 12 = A (rank index)
        return True
    return False


@njit(cache=True)
def simple_river(c1: int, c2: int, four: Any, rules: Any) -> bool:  # pragma: no cover
    """The simple strategy's river bet: a pair or better that uses a hole card, or four to a
    flush using a hole card."""
    r1, r2 = c1 >> 2, c2 >> 2
    if r1 == r2:
        return True
    for i in range(4):
        r = four[i] >> 2
        if r == r1 or r == r2:
            return True
    for s in range(4):
        cnt = 0
        hole = 0
        for c in (c1, c2):
            if c & 3 == s:
                cnt += 1
                hole += 1
        for i in range(4):
            if four[i] & 3 == s:
                cnt += 1
        if cnt >= 4 and hole > 0:
            return True
    return False


@njit(cache=True)
def decision_counts(
    hole: Any, board: Any, n_board: int, noflush: Any, flush: Any, card_keys: Any
) -> Any:  # pragma: no cover - compiled
    """Direct enumeration of one decision point: hole + 3 (flop) or 4 (turn) board cards.

    Returns W, Ws, T, L — wins, wins with a straight or better, ties, losses over every card
    still to come and every dealer pair — as an (n_turn, 4) array, one row per possible turn
    card, when n_board = 3 (each row summed over the river and the dealer's hands), or a (1, 4)
    row when n_board = 4. This is the on-demand lookup of `qipai.games.holdem_bonus.strategy` (about two
    million evaluations for a turn decision, 45,540 for a river decision); it shares only the
    evaluator with `river_sums`, which tests compare it with."""
    used = np.zeros(52, np.bool_)
    used[hole[0]] = True
    used[hole[1]] = True
    for i in range(n_board):
        used[board[i]] = True
    unseen = np.empty(52, np.int64)
    nu = 0
    for c in range(52):
        if not used[c]:
            unseen[nu] = c
            nu += 1
    rows = nu if n_board == 3 else 1
    out = np.zeros((rows, 4), np.int64)
    b = np.empty(5, np.int64)
    for i in range(n_board):
        b[i] = board[i]
    for row in range(rows):
        if n_board == 3:
            b[3] = unseen[row]
        for ri in range(nu):
            r = unseen[ri]
            if r == b[3]:
                continue
            b[4] = r
            ps = strength7(hole[0], hole[1], b[0], b[1], b[2], b[3], r, noflush, flush, card_keys)
            for di in range(nu):
                d0 = unseen[di]
                if d0 == b[3] or d0 == r:
                    continue
                for dj in range(di + 1, nu):
                    d1 = unseen[dj]
                    if d1 == b[3] or d1 == r:
                        continue
                    ds = strength7(d0, d1, b[0], b[1], b[2], b[3], r, noflush, flush, card_keys)
                    if ps > ds:
                        out[row, 0] += 1
                        if ps >= STRAIGHT:
                            out[row, 1] += 1
                    elif ps == ds:
                        out[row, 2] += 1
                    else:
                        out[row, 3] += 1
    return out
