"""Swap Niu Niu (换牌牛牛) for learning: swaps, bids and bets as action indices.

Actions (`NiuniuEncoder.actions`): 16 swaps first — index k swaps the cards at the positions whose
bits are set in k (bit i = the i-th of the seat's four cards as its view lists them; 0 keeps all)
— then `bid m` for m in 0 (no bid) and the table's `bid_multiples`, then `bet m` for each of
`bet_multiples`. Seats are the table's (A, B, C, D, …) in order; the observation lists them from
the observer on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from qipai.core.errors import InvalidInput
from qipai.core.protocol import JSON, ActionSpec
from qipai.envs.base import Encoder, Segment, Table, Vector
from qipai.envs.batch import BatchEnv, Obs, Reward
from qipai.envs.features import CARDS, cards_one_hot, one_hot, ratio, relative

PHASES = ("swap", "bid", "bet", "finished")
SWAPS = 16
MAX_MULTIPLIER = 5  # 五小牛, the largest hand multiplier


def swap_label(k: int) -> str:
    picked = [str(i + 1) for i in range(4) if k >> i & 1]
    return "swap none" if not picked else "swap cards " + "+".join(picked)


class NiuniuEncoder(Encoder):
    game = "niuniu"
    default_players = 4

    def __init__(self, config: Any, players: int, ladder: Sequence[int] | None = None) -> None:
        super().__init__(config, players, ladder)
        self.bids: tuple[int, ...] = (0, *config.bid_multiples)
        self.bets: tuple[int, ...] = tuple(config.bet_multiples)
        self.actions = (
            *(swap_label(k) for k in range(SWAPS)),
            *(f"bid {m}" if m else "bid 0 (no bid)" for m in self.bids),
            *(f"bet {m}" for m in self.bets),
        )
        self._top_bid = max(self.bids)
        self._top_bet = max(self.bets)
        n = players
        self.segments = (
            Segment("phase", len(PHASES), 0, 1, "one-hot: swap, bid, bet, finished"),
            Segment("my_cards", CARDS, 0, 1, "own cards (4, then 5 at the reveal): 52 flags"),
            Segment(
                "swap_ev",
                SWAPS,
                -1,
                1,
                "swap phase, before confirming, if the table's `hints` is on: the exact expected "
                "net against the banker per unit of stake, after the commission, / 5 (the most a "
                "hand can win or lose per unit) of each swap index — the hint's money objective; "
                "else 0",
            ),
            Segment("swap_confirmed", n, 0, 1, "per seat from me: has confirmed its swap"),
            Segment("swapped", n, 0, 1, "per seat: cards swapped / 4 (public after the swap)"),
            Segment("bid_made", n, 0, 1, "per seat: has bid"),
            Segment("bids", n, 0, 1, "per seat: bid / the highest bid multiple"),
            Segment("banker", n, 0, 1, "one-hot per seat: the banker (once chosen)"),
            Segment("banker_multiple", 1, 0, 1, "the banker's multiple / the highest bid"),
            Segment("bets", n, 0, 1, "per seat: bet / the highest bet multiple"),
            Segment("stacks", n, 0, 1, "per seat: balance at the table / the env's stack"),
            Segment("bias", 1, 0, 1, "always 1"),
        )

    def player_range(self, spec_min: int, spec_max: int) -> tuple[int, int]:
        # The card room's table has four seats; the rules (and the config) allow up to five.
        return self.config.min_seats, self.config.max_seats

    def seat_ids(self, spec_seats: Sequence[str]) -> tuple[str, ...]:
        seats = list(spec_seats)
        while len(seats) < self.players:  # the card room has 4 seats; the rules allow 5
            seats.append(chr(ord(seats[-1]) + 1))
        return tuple(seats[: self.players])

    def _swap_evs(self, view: JSON) -> list[float]:
        hint = (view.get("me") or {}).get("hint")
        out = [0.0] * SWAPS
        if not hint:
            return out
        cards = view["me"]["cards"]
        for choice in hint["choices"]:
            k = sum(1 << cards.index(c) for c in choice["discard"])
            out[k] = float(choice["expected_net"]) / MAX_MULTIPLIER
        return out

    def encode(self, table: Table, seat: str, view: JSON) -> Vector:
        by_id = {s["id"]: s for s in view["seats"]}
        order = [by_id[s] for s in relative([s["id"] for s in view["seats"]], seat)]
        return self.vector(
            {
                "phase": one_hot(PHASES.index(view["phase"]), len(PHASES)),
                "my_cards": cards_one_hot(view["me"]["cards"]),
                "swap_ev": self._swap_evs(view),
                "swap_confirmed": [float(bool(s["swap_confirmed"])) for s in order],
                "swapped": [ratio(s["swapped"], 4) for s in order],
                "bid_made": [float(s["bid"] is not None) for s in order],
                "bids": [ratio(s["bid"], self._top_bid) for s in order],
                "banker": [float(bool(s["is_banker"])) for s in order],
                "banker_multiple": ratio(view.get("banker_multiple"), self._top_bid),
                "bets": [ratio(s["bet"], self._top_bet) for s in order],
                "stacks": [ratio(s["stack"], table.stack) for s in order],
                "bias": 1.0,
            }
        )

    def legal(self, table: Table, seat: str, specs: Sequence[ActionSpec]) -> list[int]:
        out: list[int] = []
        for spec in specs:
            if spec.type == "swap":
                out += range(SWAPS)
            elif spec.type == "bid":
                out += [SWAPS + self.bids.index(m) for m in spec.options["choices"]]
            elif spec.type == "bet":
                base = SWAPS + len(self.bids)
                out += [base + self.bets.index(m) for m in spec.options["choices"]]
        return sorted(out)

    def action(self, table: Table, seat: str, index: int) -> JSON:
        if index < SWAPS:
            cards = table.round.view(seat)["me"]["cards"]
            return {"type": "swap", "cards": [c for i, c in enumerate(cards) if index >> i & 1]}
        index -= SWAPS
        if index < len(self.bids):
            return {"type": "bid", "multiple": self.bids[index]}
        return {"type": "bet", "multiple": self.bets[index - len(self.bids)]}


@njit(cache=True)
def _deal_kernel(seed: int, decks: Any, rank_of: Any) -> None:  # pragma: no cover - compiled
    """Each row of `decks` (n, 18): the first 18 cards of a shuffled deck (partial
    Fisher-Yates); the player's four (0-3) and the banker's four (4-7) sorted by rank, then id."""
    np.random.seed(seed)
    deck = np.empty(52, np.int64)
    for t in range(decks.shape[0]):
        for i in range(52):
            deck[i] = i
        for i in range(18):
            j = i + np.random.randint(52 - i)
            deck[i], deck[j] = deck[j], deck[i]
        for h in range(2):
            for i in range(4):  # insertion sort of 4 by (rank, id)
                for k in range(4 * h + i, 4 * h, -1):
                    a, b = deck[k - 1], deck[k]
                    if rank_of[a] * 64 + a > rank_of[b] * 64 + b:
                        deck[k - 1], deck[k] = b, a
        for i in range(18):
            decks[t, i] = deck[i]


@njit(cache=True)
def _finish_kernel(
    decks: Any, discard: Any, lookup: Any, banker_keep: Any, rank_of: Any, out: Any
) -> None:  # pragma: no cover - compiled
    """Final five cards of the player (out[t, 0]) and the banker (out[t, 1]): kept cards, the
    replacements in seat order (player, then banker), then each one's fifth card."""
    for t in range(decks.shape[0]):
        top = 8
        code = 0
        for i in range(4):
            code = code * 13 + rank_of[decks[t, 4 + i]]
        keep_b = banker_keep[lookup[code]]
        for h in range(2):
            keep = (15 ^ discard[t]) if h == 0 else keep_b
            k = 0
            for i in range(4):
                if keep >> i & 1:
                    out[t, h, k] = decks[t, 4 * h + i]
                    k += 1
            while k < 4:
                out[t, h, k] = decks[t, top]
                top += 1
                k += 1
        out[t, 0, 4] = decks[t, top]
        out[t, 1, 4] = decks[t, top + 1]


class NiuniuBatch(BatchEnv):
    """Swap Niu Niu, one player against the banker at many tables (qipai.envs.batch).

    Observation: the player's four cards (52 flags; `info["cards"]` lists them sorted by rank,
    A … K, then card id). Action k swaps the sorted cards whose bits are set in k (bit i = the
    i-th sorted card; 0 keeps all). The banker swaps by `banker`'s policy (`money` — the hint —
    `multiplier` or `none`, per four-card rank class: `qipai.games.niuniu.analysis.policy_masks`),
    replacements come from the deck in seat order (player first), then each one's fifth card;
    the player's result per unit of stake (multiples 1 × 1) is the game's: the higher hand key
    wins its own multiplier, the player's win less the commission. Exact values (`info["ev"]`)
    are the analysis's: every completion of the four cards counted exactly against the banker's
    final-type distribution under its policy (the population model of docs/rtp.md §2)."""

    game = "niuniu"
    observation_size = CARDS
    actions = tuple(swap_label(k) for k in range(SWAPS))

    def __init__(
        self,
        tables: int,
        commission: str = "0.04",
        banker: str = "money",
        reward: Reward = "result",
        force_play: bool = False,
    ) -> None:
        super().__init__(tables, reward, force_play)
        from fractions import Fraction

        from qipai.games.niuniu import analysis as nn
        from qipai.games.niuniu.hands import MULTIPLIER_ARRAY

        if banker not in nn.POLICIES:
            raise InvalidInput(f"banker policy is one of {', '.join(nn.POLICIES)}, got {banker!r}")
        rate = Fraction(commission)
        if not 0 <= rate < 1:
            raise InvalidInput(f"commission is in [0, 1), got {commission!r}")
        self._keep = 1 - float(rate)
        self._mult = MULTIPLIER_ARRAY.astype(np.float64)
        hands4, _, counts = nn.swap_counts()
        self._lookup = np.full(13**4, -1, np.int64)
        self._lookup[nn._index(hands4)] = np.arange(hands4.shape[0])
        self._banker_keep = np.ascontiguousarray(nn.policy_masks(banker, rate), np.int64)
        _, mult, _ = nn._game()
        g = nn.pair_value(mult, rate)
        dist = {
            "none": [Fraction(int(c), int(nn.type_counts().sum())) for c in nn.type_counts()],
            "multiplier": nn.multiplier_swap()[1],
            "money": nn.optimal_swap(commission=rate)[1],
        }[banker]
        values = np.array([float(sum(g[t][u] * dist[u] for u in range(15))) for t in range(15)])
        keep_ev = (counts @ values) / counts.sum(axis=2)  # (classes, keep mask)
        # by discard mask: discard k keeps 15 ^ k
        self._ev_by_class = keep_ev[:, [15 ^ k for k in range(SWAPS)]]
        self._rank_of = np.array([(i // 4 + 1) % 13 for i in range(52)], np.int64)
        self._decks = np.zeros((tables, 18), np.int64)
        self._class = np.zeros(tables, np.int64)

    def _deal(self) -> None:
        _deal_kernel(self.seed_for_kernel(), self._decks, self._rank_of)
        r = self._rank_of[self._decks[:, :4]]
        code = ((r[:, 0] * 13 + r[:, 1]) * 13 + r[:, 2]) * 13 + r[:, 3]
        self._class = self._lookup[code]

    def _play(self, actions: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        from qipai.games.niuniu.hands import keys_of

        out = np.empty((self.tables, 2, 5), np.int64)
        _finish_kernel(self._decks, actions, self._lookup, self._banker_keep, self._rank_of, out)
        keys = keys_of(out.reshape(-1, 5)).astype(np.int64).reshape(self.tables, 2)
        mine, banker = keys[:, 0], keys[:, 1]
        return np.where(
            mine > banker, self._keep * self._mult[mine // 64], -self._mult[banker // 64]
        )

    @property
    def cards(self) -> npt.NDArray[np.int64]:
        """(tables, 4) the player's card ids, sorted as the action bits count them."""
        return self._decks[:, :4]

    def observe(self) -> Obs:
        obs = np.zeros((self.tables, CARDS), np.float32)
        np.put_along_axis(obs, self._decks[:, :4], 1.0, axis=1)
        return obs

    def action_mask(self) -> npt.NDArray[np.bool_]:
        return np.ones((self.tables, SWAPS), np.bool_)

    def exact_values(self) -> npt.NDArray[np.float64]:
        ev: npt.NDArray[np.float64] = self._ev_by_class[self._class]
        return ev

    def _info(self) -> dict[str, Any]:
        info = super()._info()
        info["cards"] = self.cards.copy()
        return info
