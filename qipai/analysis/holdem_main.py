"""Hold'em Bonus main bets: exact win/tie/loss counts for every decision point (numba kernels).

The player's net on the main bets (RULES.md §3) is linear in the bets: with ante 1, flop 2 and
turn/river bets t, r ∈ {0, 1}, a win pays 2 + t + r (+1 when the player's hand is a straight or
better), a tie pushes and a loss costs 3 + t + r. So every decision depends only on the counts
W (wins), Ws (wins with a straight or better), T (ties) and L (losses) over the unseen cards:
a river bet is worth making exactly when W > L at that point.

`flop_counts` enumerates, for each given flop (in practice one per suit-isomorphism class, with
its multiplicity as weight) and every hole pair, every turn card, river card and dealer pair.
Per full board it evaluates all two-card hands from the remaining cards once with the project's
evaluator (`qipai.poker.kernels.strength7`), sorts them by strength (radix sort) and counts for
each hand the disjoint dealer hands below / equal to it by inclusion–exclusion on per-card
counts — O(hands) per board instead of O(hands²). For each (hole, flop) it returns

    0..3  W, Ws, T, L summed over turn, river and dealer (all 47·46·990 endings),
    4..7  the same counts restricted to the (turn card) branches where the river bet is made
          optimally (W > L after that turn card),
    8..11 the same restricted to the branches where the simple strategy's river rule bets,
    12    1 when the simple strategy's turn rule bets.

The kernel takes the deck as an array of card ids so that the tests can run the same code on a
reduced deck against brute force.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from qipai.poker.kernels import strength5, strength6, strength7, strength_from_key
from qipai.poker.tables import BASE7, FLUSH_BITS, RANK_MASK, SUIT_SHIFT

N_FIELDS = 13
STRAIGHT = 4  # Category.STRAIGHT: the ante wins only with a straight or better (RULES.md §3)
SHIFT = 12  # categories.CATEGORY_SHIFT


@njit(cache=True, inline="always")
def pair_id(a: int, b: int) -> int:
    """Index 0..1325 of the unordered pair {a, b} of card ids 0..51 (a != b)."""
    if a > b:
        a, b = b, a
    return b * (b - 1) // 2 + a


@njit(cache=True)
def _board_only_category(cards: Any, n: int) -> int:
    """Category of a 3- or 4-card board on its own (high card, pair, two pair, trips, quads)."""
    counts = np.zeros(13, np.int64)
    for i in range(n):
        counts[cards[i] >> 2] += 1
    pairs = 0
    best = 0
    for r in range(13):
        if counts[r] > best:
            best = counts[r]
        if counts[r] == 2:
            pairs += 1
    if best == 4:
        return 7
    if best == 3:
        return 3
    if pairs == 2:
        return 2
    if pairs == 1:
        return 1
    return 0


@njit(cache=True)
def simple_turn_bet(
    h0: int, h1: int, f0: int, f1: int, f2: int, noflush: Any, flush: Any, card_keys: Any
) -> bool:
    """The simple strategy's turn bet (after the flop): bet with an ace in the hole, with a
    hand the hole cards improve beyond the flop alone (a pair or better that uses a hole card),
    or with four to a flush holding a hole card of that suit; otherwise check."""
    if (h0 >> 2) == 12 or (h1 >> 2) == 12:
        return True
    cat = strength5(h0, h1, f0, f1, f2, noflush, flush, card_keys) >> SHIFT
    board = np.array([f0, f1, f2])
    if cat > _board_only_category(board, 3):
        return True
    suits = np.zeros(4, np.int64)
    for c in (h0, h1, f0, f1, f2):
        suits[c & 3] += 1
    for s in range(4):  # noqa: SIM110 - numba has no any() over generators
        if suits[s] >= 4 and ((h0 & 3) == s or (h1 & 3) == s):
            return True
    return False


@njit(cache=True)
def simple_river_bet(
    h0: int,
    h1: int,
    b0: int,
    b1: int,
    b2: int,
    b3: int,
    noflush: Any,
    flush: Any,
    card_keys: Any,
) -> bool:
    """The simple strategy's river bet (after the turn card): bet with a pair or better that
    uses a hole card (the six cards beat the four board cards' own category); otherwise check."""
    cat = strength6(h0, h1, b0, b1, b2, b3, noflush, flush, card_keys) >> SHIFT
    board = np.array([b0, b1, b2, b3])
    return cat > _board_only_category(board, 4)


@njit(cache=True, inline="always")
def _radix_order(strength: Any, n: int, order: Any, tmp: Any, count: Any) -> None:
    """`order[:n]` = indices 0..n-1 sorted by 16-bit `strength` (two stable 8-bit passes)."""
    count[:] = 0
    for i in range(n):
        count[strength[i] & 255] += 1
    total = 0
    for k in range(256):
        c = count[k]
        count[k] = total
        total += c
    for i in range(n):
        k = strength[i] & 255
        tmp[count[k]] = i
        count[k] += 1
    count[:] = 0
    for i in range(n):
        count[(strength[i] >> 8) & 255] += 1
    total = 0
    for k in range(256):
        c = count[k]
        count[k] = total
        total += c
    for i in range(n):
        j = tmp[i]
        k = (strength[j] >> 8) & 255
        order[count[k]] = j
        count[k] += 1


@njit(cache=True)
def rank_board(
    board: Any,
    rest: Any,
    n_rest: int,
    noflush: Any,
    flush: Any,
    card_keys: Any,
    ha: Any,
    hb: Any,
    strength: Any,
    order: Any,
    tmp: Any,
    count: Any,
    wins: Any,
    ties: Any,
) -> int:
    """For a full 5-card board and the `n_rest` remaining cards: every two-card hand (ha, hb),
    its strength, and its wins / ties against the dealer hands disjoint from it. Returns the
    number of hands; the losses are C(n_rest - 2, 2) - wins - ties."""
    n = 0
    key_board = 0
    cards = np.zeros(7, np.int64)
    for i in range(5):
        key_board += card_keys[board[i]]
        cards[2 + i] = board[i]
    # Without a flush the strength depends on the ranks only: look each rank pair up once per
    # board (the big table's random reads dominate otherwise).
    by_ranks = np.full(169, -1, np.int64)
    for i in range(n_rest):
        a = rest[i]
        key_a = key_board + card_keys[a]
        cards[0] = a
        for j in range(i + 1, n_rest):
            b = rest[j]
            ha[n] = a
            hb[n] = b
            key = key_a + card_keys[b]
            if ((key >> SUIT_SHIFT) + 0x3333) & FLUSH_BITS:
                cards[1] = b
                strength[n] = strength_from_key(key, 7, cards, noflush, flush)
            else:
                slot = (a >> 2) * 13 + (b >> 2)
                if by_ranks[slot] < 0:
                    by_ranks[slot] = noflush[BASE7 + (key & RANK_MASK)]
                strength[n] = by_ranks[slot]
            n += 1
    _radix_order(strength, n, order, tmp, count)
    lt_card = np.zeros(52, np.int64)
    eq_card = np.zeros(52, np.int64)
    lt_total = 0
    i = 0
    while i < n:
        s = strength[order[i]]
        j = i
        while j < n and strength[order[j]] == s:
            k = order[j]
            eq_card[ha[k]] += 1
            eq_card[hb[k]] += 1
            j += 1
        g = j - i
        for m in range(i, j):
            k = order[m]
            a = ha[k]
            b = hb[k]
            # disjoint hands below: all below, minus those holding a, minus those holding b
            wins[k] = lt_total - lt_card[a] - lt_card[b]
            # disjoint hands equal: the hand itself holds both a and b (added back once)
            ties[k] = g - eq_card[a] - eq_card[b] + 1
        for m in range(i, j):
            k = order[m]
            lt_card[ha[k]] += 1
            lt_card[hb[k]] += 1
            eq_card[ha[k]] = 0
            eq_card[hb[k]] = 0
        lt_total += g
        i = j
    return n


@njit(cache=True, parallel=True)
def flop_counts(
    deck: Any, flops: Any, noflush: Any, flush: Any, card_keys: Any
) -> npt.NDArray[np.int32]:
    """Counts (see the module docstring) of shape (len(flops), 1326, N_FIELDS).

    Each full board flop + {x, y} is ranked once and credited to both branches (turn x, river y)
    and (turn y, river x), halving the work."""
    n_deck = deck.shape[0]
    n_flops = flops.shape[0]
    out = np.zeros((n_flops, 1326, N_FIELDS), np.int32)
    n_rest = n_deck - 5
    n_dealer = (n_rest - 2) * (n_rest - 3) // 2
    max_hands = n_rest * (n_rest - 1) // 2
    for fi in prange(n_flops):
        f0 = flops[fi, 0]
        f1 = flops[fi, 1]
        f2 = flops[fi, 2]
        in_flop = np.zeros(52, np.bool_)
        in_flop[f0] = True
        in_flop[f1] = True
        in_flop[f2] = True
        board = np.zeros(5, np.int64)
        board[0] = f0
        board[1] = f1
        board[2] = f2
        rest = np.zeros(n_deck, np.int64)
        ha = np.zeros(max_hands, np.int64)
        hb = np.zeros(max_hands, np.int64)
        strength = np.zeros(max_hands, np.int64)
        order = np.zeros(max_hands, np.int64)
        tmp = np.zeros(max_hands, np.int64)
        count = np.zeros(256, np.int64)
        wins = np.zeros(max_hands, np.int64)
        ties = np.zeros(max_hands, np.int64)
        # per (turn card, hole pair), summed over river cards: W, Ws, T, L
        river = np.zeros((52, 1326, 4), np.int32)
        acc = out[fi]
        for xi in range(n_deck):
            x = deck[xi]
            if in_flop[x]:
                continue
            board[3] = x
            for yi in range(xi + 1, n_deck):
                y = deck[yi]
                if in_flop[y]:
                    continue
                board[4] = y
                m = 0
                for ci in range(n_deck):
                    c = deck[ci]
                    if not in_flop[c] and c != x and c != y:
                        rest[m] = c
                        m += 1
                nh = rank_board(
                    board,
                    rest,
                    m,
                    noflush,
                    flush,
                    card_keys,
                    ha,
                    hb,
                    strength,
                    order,
                    tmp,
                    count,
                    wins,
                    ties,
                )
                for k in range(nh):
                    p = pair_id(ha[k], hb[k])
                    w = wins[k]
                    ws = w if (strength[k] >> SHIFT) >= STRAIGHT else 0
                    tie = ties[k]
                    loss = n_dealer - w - tie
                    river[x, p, 0] += w
                    river[x, p, 1] += ws
                    river[x, p, 2] += tie
                    river[x, p, 3] += loss
                    river[y, p, 0] += w
                    river[y, p, 1] += ws
                    river[y, p, 2] += tie
                    river[y, p, 3] += loss
        # every turn card and hole pair disjoint from it: decide the river bet, accumulate
        for ti in range(n_deck):
            t = deck[ti]
            if in_flop[t]:
                continue
            for ai in range(n_deck):
                a = deck[ai]
                if in_flop[a] or a == t:
                    continue
                for bi in range(ai + 1, n_deck):
                    b = deck[bi]
                    if in_flop[b] or b == t:
                        continue
                    p = pair_id(a, b)
                    r = river[t, p]
                    for q in range(4):
                        acc[p, q] += r[q]
                    if r[0] > r[3]:
                        for q in range(4):
                            acc[p, 4 + q] += r[q]
                    if simple_river_bet(a, b, f0, f1, f2, t, noflush, flush, card_keys):
                        for q in range(4):
                            acc[p, 8 + q] += r[q]
        for ai in range(n_deck):
            a = deck[ai]
            if in_flop[a]:
                continue
            for bi in range(ai + 1, n_deck):
                b = deck[bi]
                if in_flop[b]:
                    continue
                if simple_turn_bet(a, b, f0, f1, f2, noflush, flush, card_keys):
                    acc[pair_id(a, b), 12] = 1
    return out


@njit(cache=True)
def state_counts(
    hole: Any, board: Any, n_board: int, deck: Any, noflush: Any, flush: Any, card_keys: Any
) -> Any:
    """Direct enumeration for one decision point: hole + 3 or 4 board cards.

    Returns an (n_turn, 4) array of W, Ws, T, L, one row per next board card when n_board = 3
    (each row summed over the river and the dealer's hands), or a (1, 4) row when n_board = 4.
    Used by the strategy lookup (per decision, milliseconds) and as an independent check.
    """
    n_deck = deck.shape[0]
    used = np.zeros(52, np.bool_)
    used[hole[0]] = True
    used[hole[1]] = True
    for i in range(n_board):
        used[board[i]] = True
    unseen = np.zeros(n_deck, np.int64)
    nu = 0
    for i in range(n_deck):
        if not used[deck[i]]:
            unseen[nu] = deck[i]
            nu += 1
    rows = nu if n_board == 3 else 1
    out = np.zeros((rows, 4), np.int64)
    for row in range(rows):
        b = np.zeros(5, np.int64)
        for i in range(n_board):
            b[i] = board[i]
        if n_board == 3:
            b[3] = unseen[row]
        for ri in range(nu):
            r = unseen[ri]
            if r == b[3] or (n_board == 3 and r == unseen[row]):
                continue
            b[4] = r
            ps = strength7(
                hole[0], hole[1], b[0], b[1], b[2], b[3], b[4], noflush, flush, card_keys
            )
            for di in range(nu):
                d0 = unseen[di]
                if d0 == b[3] or d0 == r:
                    continue
                for dj in range(di + 1, nu):
                    d1 = unseen[dj]
                    if d1 == b[3] or d1 == r:
                        continue
                    ds = strength7(d0, d1, b[0], b[1], b[2], b[3], b[4], noflush, flush, card_keys)
                    if ps > ds:
                        out[row, 0] += 1
                        if (ps >> SHIFT) >= STRAIGHT:
                            out[row, 1] += 1
                    elif ps == ds:
                        out[row, 2] += 1
                    else:
                        out[row, 3] += 1
    return out
