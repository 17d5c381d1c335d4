"""The exact swap advisor for Swap Niu Niu (docs/rules/niuniu.md#swap-advisor, flow step 2).

For a four-card hand and the cards the player can see, `advise` gives, for each of the 16 ways to
choose the cards to swap, the probability of every hand type and the expected hand multiplier —
exactly, as fractions, by counting every possible set of replacement cards plus fifth card.

Why the count is over the unseen cards only: replacements are dealt from the deck in seat order
and the fifth card after all swaps, so which physical cards a seat receives depends on the other
seats' swaps. But from one player's point of view every card it cannot see (the undealt deck and
the other seats' hidden hands alike) is equally likely to be any unseen card, and so the k
replacements plus the fifth card are a uniformly random (k+1)-card subset of the unseen cards.
Discarded cards are out of play and are not unseen.

The hand type depends on ranks only, so the enumeration runs over rank multisets of the new
cards, each weighted by how many card subsets realise it (Π C(unseen of rank r, taken of rank r));
this is the full enumeration of card subsets, grouped — at most 6,188 groups per choice instead of
up to 1,712,304 subsets, which keeps the worst case to a few milliseconds.

What the ranking maximises: the player's money. Each choice's `expected_net` is its expected net
result against the banker per unit of stake (base × banker multiple × own multiple), after the
table's commission: Σ_t P(final type t) · v[t], with v[t] the exact value of type t against the
banker's final-type distribution under the same money-optimal swap (`qipai.games.niuniu.analysis.
money_values`, docs/rtp.md section 2). The multiples only scale the stake, so the best swap is the
same whatever they turn out to be. Ranking by the expected hand multiplier instead ("keep the
biggest multiplier in reach") ignores what the banker holds and that a loss pays the banker's
multiplier: it picks a money-losing swap on about a quarter of hands, so it is kept only as a
labelled alternative (`by="multiplier"`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from math import comb
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from qipai.core.cards import Card, parse_cards, standard_deck
from qipai.core.errors import InvalidInput
from qipai.core.spec import AdviceRequest
from qipai.games.niuniu.config import NiuniuConfig
from qipai.games.niuniu.hands import MULTIPLIER_ARRAY, HandType, niu_rank, rank_type_table

N_TYPES = len(HandType)
_COMB = np.array([[comb(n, k) for k in range(6)] for n in range(5)], dtype=np.int64)


@dataclass(frozen=True)
class SwapChoice:
    """One way to swap: which cards go, which stay, and the exact distribution of the result."""

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    outcomes: int  # equally likely (k+1)-card subsets of the unseen cards
    counts: tuple[int, ...]  # per HandType value: how many of those subsets give that type
    # Expected net against the banker per unit of stake (see the module docstring).
    expected_net: Fraction = Fraction(0)

    @property
    def expected_multiplier(self) -> Fraction:
        total = sum(int(MULTIPLIER_ARRAY[t]) * n for t, n in enumerate(self.counts))
        return Fraction(total, self.outcomes)

    def probability(self, kind: HandType) -> Fraction:
        return Fraction(self.counts[kind], self.outcomes)

    def probabilities(self) -> dict[HandType, Fraction]:
        return {HandType(t): Fraction(n, self.outcomes) for t, n in enumerate(self.counts)}

    def to_json(self) -> dict[str, Any]:
        """Numbers as numbers; exact values as {numerator, denominator} ratios."""
        return {
            "discard": [str(c) for c in self.discard],
            "keep": [str(c) for c in self.keep],
            "expected_net": float(self.expected_net),
            "expected_net_exact": ratio_json(self.expected_net),
            "expected_multiplier": float(self.expected_multiplier),
            "expected_multiplier_exact": ratio_json(self.expected_multiplier),
            "outcomes": self.outcomes,
            "types": {
                HandType(t).name.lower(): {"count": n, "probability": n / self.outcomes}
                for t, n in enumerate(self.counts)
                if n
            },
        }


def ratio_json(value: Fraction) -> dict[str, int]:
    """An exact ratio as JSON numbers (a string would be text to parse)."""
    return {"numerator": value.numerator, "denominator": value.denominator}


Objective = Literal["money", "multiplier"]


def type_values(commission: str | Fraction | None = None) -> tuple[Fraction, ...]:
    """The money value of each final hand type at this commission (decimal string or Fraction;
    default the rules' 4 %): `qipai.games.niuniu.analysis.money_values`. Computed once per rate (a
    few seconds of CPU; the server warms the default rate up at start)."""
    from qipai.games.niuniu.analysis import money_values

    rate = None if commission is None else Fraction(commission)
    return money_values(rate)


@functools.cache
def _multisets(size: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """All rank multisets of `size` cards (≤ 4 of a rank): per-rank multiplicities (M, 13) and
    each multiset's partial table index for ranks placed in the last `size` positions."""
    rows: list[list[int]] = []
    tails: list[int] = []
    for ranks in combinations_with_replacement(range(13), size):
        mult = [0] * 13
        for r in ranks:
            mult[r] += 1
        if max(mult) > 4:
            continue
        rows.append(mult)
        tail = 0
        for r in ranks:
            tail = tail * 13 + r
        tails.append(tail)
    return np.array(rows, dtype=np.int64), np.array(tails, dtype=np.int64)


def _counts_for(
    keep: Sequence[Card], unseen_by_rank: npt.NDArray[np.int64]
) -> tuple[int, tuple[int, ...]]:
    """Exact type counts when `keep` is completed by 5 − len(keep) uniformly random unseen cards."""
    size = 5 - len(keep)
    mult, tails = _multisets(size)
    # Subsets realising each multiset: Π_r C(unseen of rank r, m_r); zero when not enough cards.
    weights = _COMB[unseen_by_rank[None, :], mult].prod(axis=1)
    head = 0
    for card in keep:
        head = head * 13 + (niu_rank(card) - 1)
    index = head * 13**size + tails
    kinds = rank_type_table()[index].astype(np.int64)
    counts = np.zeros(N_TYPES, dtype=np.int64)
    np.add.at(counts, kinds, weights)
    total = comb(int(unseen_by_rank.sum()), size)
    if int(counts.sum()) != total:  # pragma: no cover - a broken table would show here
        raise AssertionError("advisor counts do not add up to the number of card subsets")
    return total, tuple(int(n) for n in counts)


def advise(
    hand: Sequence[Card],
    seen: Iterable[Card] = (),
    commission: str | Fraction | None = None,
    by: Objective = "money",
) -> list[SwapChoice]:
    """All 16 swap choices for a four-card hand, best first: by the expected net against the
    banker at the table's `commission` (`by="money"`, the hint), or by the expected hand
    multiplier (`by="multiplier"`, the labelled alternative).

    `seen` are other cards the player knows are not in the deck (none in a normal round: other
    seats' cards are hidden until the reveal). Ties in expectation rank the choice that swaps
    fewer cards first, so "keep everything" wins a tie.
    """
    if by not in ("money", "multiplier"):
        raise InvalidInput(f"unknown objective {by!r}; expected money or multiplier")
    cards = list(hand)
    if len(cards) != 4:
        raise InvalidInput(f"the swap advisor takes the four cards of a hand, got {len(cards)}")
    known = cards + list(seen)
    if len(set(known)) != len(known):
        raise InvalidInput("a card appears twice among the hand and the seen cards")
    unseen = [c for c in standard_deck() if c not in set(known)]
    if len(unseen) < 5:
        raise InvalidInput("fewer than five unseen cards remain")
    by_rank = np.zeros(13, dtype=np.int64)
    for card in unseen:
        by_rank[niu_rank(card) - 1] += 1
    values = type_values(commission)
    choices: list[SwapChoice] = []
    for k in range(5):
        for discard in combinations(range(4), k):
            keep = tuple(c for i, c in enumerate(cards) if i not in discard)
            total, counts = _counts_for(keep, by_rank)
            net = sum((v * n for v, n in zip(values, counts, strict=True)), Fraction(0)) / total
            choices.append(SwapChoice(tuple(cards[i] for i in discard), keep, total, counts, net))

    def score(c: SwapChoice) -> Fraction:
        return c.expected_net if by == "money" else c.expected_multiplier

    order = sorted(
        range(len(choices)), key=lambda i: (-score(choices[i]), len(choices[i].discard), i)
    )
    return [choices[i] for i in order]


def best_swap(
    hand: Sequence[Card], seen: Iterable[Card] = (), commission: str | Fraction | None = None
) -> SwapChoice:
    """The swap with the highest expected net against the banker (fewest cards on a tie)."""
    return advise(hand, seen, commission)[0]


def fifth_card_counts(hand: Sequence[Card], seen: Iterable[Card] = ()) -> SwapChoice:
    """The no-swap choice: the exact type distribution over the fifth card alone."""
    return next(c for c in advise(hand, seen) if not c.discard)


def hint(
    hand: Sequence[Card],
    seen: Iterable[Card] = (),
    top: int = 16,
    commission: str | Fraction | None = None,
) -> dict[str, Any]:
    """JSON-ready advice for a client: the money-best choice, the `top` choices ranked by money,
    and the multiplier-best choice as a labelled alternative."""
    ranked = advise(hand, seen, commission)
    by_multiplier = min(
        ranked, key=lambda c: (-c.expected_multiplier, len(c.discard), ranked.index(c))
    )
    return {
        "objective": "money",
        "unit": "expected net against the banker per unit of base × banker multiple × own "
        "multiple, after the commission",
        "best": ranked[0].to_json(),
        "choices": [
            {
                "discard": [str(c) for c in choice.discard],
                "expected_net": float(choice.expected_net),
                "expected_multiplier": float(choice.expected_multiplier),
            }
            for choice in ranked[:top]
        ],
        "by_multiplier": {
            "label": "highest expected hand multiplier (ignores the banker's hand)",
            "discard": [str(c) for c in by_multiplier.discard],
            "expected_net": float(by_multiplier.expected_net),
            "expected_multiplier": float(by_multiplier.expected_multiplier),
        },
    }


def format_table(choices: Sequence[SwapChoice]) -> str:
    """A plain-text table of ranked choices for the `qipai advise niuniu` command."""
    groups: list[tuple[str, tuple[HandType, ...]]] = [
        ("no bull", (HandType.NO_BULL,)),
        ("bull 1-6", tuple(HandType(n) for n in range(1, 7))),
        ("bull 7-9", (HandType.BULL_7, HandType.BULL_8, HandType.BULL_9)),
        ("bull-bull", (HandType.BULL_BULL,)),
        ("x4/x5", (HandType.FOUR_ROYALS, HandType.FIVE_ROYALS, HandType.BOMB, HandType.FIVE_SMALL)),
    ]
    # ASCII headers keep the columns aligned in any terminal; the legend below names them in zh.
    header = f"{'#':>2}  {'swap':<14}{'keep':<14}{'E[net]':>9}{'E[mult]':>9}" + "".join(
        f"{name:>10}" for name, _ in groups
    )
    lines = [header]
    for n, choice in enumerate(choices, 1):
        discard = " ".join(c.pretty for c in choice.discard) or "-"
        keep = " ".join(c.pretty for c in choice.keep) or "-"
        cells = "".join(
            f"{float(sum(choice.probability(t) for t in kinds)):>10.4f}" for _, kinds in groups
        )
        lines.append(
            f"{n:>2}  {discard:<14}{keep:<14}{float(choice.expected_net):>+9.4f}"
            f"{float(choice.expected_multiplier):>9.4f}{cells}"
        )
    lines.append(
        "no bull = 无牛 (x1); bull 1-6 = 牛一…牛六 (x1); bull 7-9 = 牛七…牛九 (x2); "
        "bull-bull = 牛牛 (x3); x4/x5 = 四花牛, 五花牛, 四炸 (x4), 五小牛 (x5)"
    )
    return "\n".join(lines)


def advise_command(cards: str, seen: str = "", as_json: bool = False) -> str:
    """The text `qipai advise niuniu CARDS` prints (InvalidInput for bad cards): the 16 choices
    ranked by expected net against the banker at the rules' 4 % commission."""
    hand = parse_cards(cards)
    seen_cards = parse_cards(seen) if seen else []
    ranked = advise(hand, seen_cards)
    alt = min(ranked, key=lambda c: (-c.expected_multiplier, len(c.discard)))
    if as_json:
        return json.dumps(
            {
                "game": "niuniu",
                "hand": [str(c) for c in hand],
                "objective": "money",
                "commission": ratio_json(Fraction(NiuniuConfig().commission)),
                "choices": [c.to_json() for c in ranked],
                "by_multiplier": alt.to_json(),
            },
            ensure_ascii=False,
            indent=2,
        )
    unseen = 52 - 4 - len(seen_cards)
    title = (
        f"Swap advice for {' '.join(c.pretty for c in hand)} — exact over {unseen} unseen cards, "
        "ranked by E[net] = expected net against the banker per unit of base × banker multiple × "
        "own multiple (after the 4 % commission); E[mult] = expected hand multiplier, then the "
        "probability of each group of types"
    )
    alt_text = " ".join(c.pretty for c in alt.discard) or "nothing"
    footer = (
        f"Alternative (ignores the banker's hand): the highest E[mult] swaps {alt_text}, "
        f"E[net] {float(alt.expected_net):+.4f}."
    )
    return title + "\n" + format_table(ranked) + "\n" + footer


def command(request: AdviceRequest) -> str:
    """`qipai advise niuniu CARDS [--seen CARDS] [--json]` (GameSpec.advise): the four cards
    held and the cards seen; a board or a mode is refused by name, not ignored."""
    request.refuse("niuniu", "board", "mode")
    return advise_command(request.cards, request.seen, request.as_json)
