"""Pok Deng: exact return of every bet of both modes from a full shoe (docs/rules/pokdeng.md#return-to-player).

Each position's two cards and the banker's two cards are, before the deal, a uniformly random
choice of four cards of the shoe (the burn card and the other positions do not change the
distribution of one position against the banker, by exchangeability), so one enumeration serves
P1–P5 alike. Hands are enumerated as multisets of the 52 card faces with card-removal weights in
integers: 1,378 player hands × 1,378 banker hands. Every hand is evaluated by the game's own
`hands.evaluate`; hands are then grouped into classes of equal evaluation (points, rank, suited,
pair, double) and the game's own payout functions settle one representative per class pair.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from qipai.analysis.distribution import BetFigures, from_weights
from qipai.analysis.report import Report, Table
from qipai.core.cards import Card
from qipai.core.spec import BetReturn

Classes = tuple[list[Any], npt.NDArray[np.int64], npt.NDArray[np.int64]]

_ORDER = ("win 2x", "win 1x", "tie", "lose 1x", "lose 2x", "win 11:1", "lose")


def _hand_key(hand: Any) -> tuple[int, int, bool, bool, bool]:
    """Everything a Pok Deng payout may read from a hand, apart from the cards themselves."""
    return (hand.points, hand.rank, hand.suited, hand.pair, hand.double)


@lru_cache(maxsize=4)
def hand_classes(decks: int) -> tuple[list[Any], npt.NDArray[np.int64]]:
    """Representative hands per class and the joint card-removal weight matrix by class.

    Returns (representatives, W) where W[i, j] counts the ways (unordered cards within each hand,
    distinct physical cards) to deal player class i and banker class j from `decks` decks.
    """
    from qipai.games.pokdeng.hands import evaluate

    faces = [(i, j) for i in range(52) for j in range(i, 52)]
    keys: dict[tuple[int, int, bool, bool, bool], int] = {}
    reps: list[Any] = []
    cls = np.empty(len(faces), np.int64)
    counts = np.zeros((len(faces), 52), np.int64)
    for h, (i, j) in enumerate(faces):
        hand = evaluate(Card.from_id(i), Card.from_id(j))
        key = _hand_key(hand)
        if key not in keys:
            keys[key] = len(reps)
            reps.append(hand)
        cls[h] = keys[key]
        counts[h, i] += 1
        counts[h, j] += 1
    first = np.array([i for i, _ in faces])
    second = np.array([j for _, j in faces])
    same = first == second
    # Ways to take the player's hand from the full shoe.
    w1 = np.where(same, decks * (decks - 1) // 2, decks * decks).astype(np.int64)
    # Ways to take the banker's hand once the player's cards are gone: n' = decks - used.
    left = decks - counts  # (hands, 52)
    a = left[:, first]  # (player hand, banker hand) → copies left of the banker's first face
    b = left[:, second]
    w2 = np.where(same[None, :], a * (a - 1) // 2, a * b)
    joint = w1[:, None] * w2
    onehot = np.zeros((len(faces), len(reps)), np.int64)
    onehot[np.arange(len(faces)), cls] = 1
    by_class = onehot.T @ joint @ onehot
    return reps, by_class


def _label(outcome: str, multiple: int) -> str:
    return "tie" if outcome == "tie" else f"{outcome} {multiple}x"


def analyse(mode: str = "classic", decks: int = 8, config: Any = None) -> Report:
    """Every bet of one mode: outcome probabilities, return, house edge, sd (exact). `config`
    (a PokDengConfig) gives the pay rates, pair odds, mode and decks of a table; without it the
    rules' defaults."""
    from qipai.games.pokdeng.config import PokDengConfig
    from qipai.games.pokdeng.payout import banker_player_side, classic_position

    if config is None:
        config = PokDengConfig(mode=mode, decks=decks)  # type: ignore[arg-type]
    mode, decks = config.mode, config.decks
    reps, weights = hand_classes(decks)
    rates = config.rates
    # An amount that makes every pay rate a whole number of units, so no rounding enters.
    unit = 1
    for r in rates:
        unit = unit * r.denominator // _gcd(unit, r.denominator)
    amount = 100 * unit
    bets: dict[str, dict[tuple[str, Fraction], int]] = defaultdict(lambda: defaultdict(int))
    n = len(reps)
    for i in range(n):
        for j in range(n):
            w = int(weights[i, j])
            if not w:
                continue
            player, banker = reps[i], reps[j]
            if mode == "classic":
                returned, outcome, multiple = classic_position(amount, player, banker)
                net = Fraction(returned - 2 * amount, amount)
                bets["Pn"][_label(outcome, multiple), net] += w
            else:
                for name, mine, other in (("Pn", player, banker), ("Bn", banker, player)):
                    returned, outcome, multiple, _ = banker_player_side(amount, mine, other, rates)
                    net = Fraction(returned - 2 * amount, amount)
                    bets[name][_label(outcome, multiple), net] += w
            pair = "win 11:1" if player.pair else "lose"
            net = Fraction(config.pair_odds) if player.pair else Fraction(-1)
            bets["pair"][pair.replace("11", str(config.pair_odds)), net] += w
    figures: list[BetFigures] = []
    notes = {
        "Pn": "player position n beats the banker; the same for P1–P5",
        "Bn": "the banker beats position n; the same for B1–B5",
        "pair": "Pn pair (and B pair): the position's two cards are of one rank",
    }
    for name in ("Pn", "Bn", "pair"):
        if name in bets:
            label = "Pn pair / B pair" if name == "pair" and mode != "classic" else name
            label = "Pn pair" if name == "pair" and mode == "classic" else label
            figures.append(from_weights(label, bets[name], notes[name], _ORDER))
    return Report(
        game="pokdeng",
        title=f"Pok Deng, {mode} mode, {decks}-deck shoe",
        settings={
            "mode": mode,
            "decks": decks,
            "rates": [str(r) for r in rates],
            "pair_odds": config.pair_odds,
        },
        bets=tuple(figures),
        tables=(rank_table(decks),),
        notes=(
            "Per unit staked (the hold taken for a 2x loss is not a stake). Off the top of a full "
            "shoe: the exact average over all deals; the cut card does not change it.",
        ),
    )


def rank_table(decks: int) -> Table:
    """Probability of each rank value for one two-card hand off the top of the shoe."""
    from qipai.games.pokdeng.hands import evaluate, rank_text

    weights: dict[tuple[str, bool], int] = defaultdict(int)
    for i in range(52):
        for j in range(i, 52):
            hand = evaluate(Card.from_id(i), Card.from_id(j))
            w = decks * (decks - 1) // 2 if i == j else decks * decks
            weights[rank_text(hand.rank), hand.double] += w
    total = sum(weights.values())
    rows = sorted(weights.items(), key=lambda kv: (-float(kv[0][0]), not kv[0][1]))
    return Table(
        "Two-card hand rank values",
        ("rank", "double", "probability"),
        tuple((r, "yes" if d else "no", Fraction(w, total)) for (r, d), w in rows),
    )


def best_bet(reports: list[Report]) -> tuple[str, str, Fraction]:
    """The bet with the highest return to player over the given reports: (mode, bet, rtp)."""
    return max(
        ((str(r.settings["mode"]), b.bet, b.rtp) for r in reports for b in r.bets),
        key=lambda t: t[2],
    )


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def rtp_for(config: Any) -> list[BetReturn]:
    """The exact return of every bet of a Pok Deng table with these settings (GameSpec.rtp)."""
    from qipai.core.spec import label

    report = analyse(config=config)
    labels = {
        "Pn": label("闲位 P1–P5", "position P1–P5"),
        "Bn": label("庄位 B1–B5", "banker bet B1–B5"),
        "pair": label("对子", "pair bets"),
    }
    keys = {"Pn": "player", "Bn": "banker"}
    out = []
    for figures in report.bets:
        name = "pair" if "pair" in figures.bet else figures.bet
        key = keys.get(name, "pair")
        note = "per unit staked, off the top of a full shoe (the cut card does not change it)"
        if config.mode == "banker-player" and key != "pair":
            note += (
                "; for bets whose pay is a whole number of minor units (the fraction of a "
                "0.95:1 pay on other amounts goes to the rounding account)"
            )
        out.append(BetReturn(key, labels[name], figures.rtp, None, note))
    return out


def par(config: Any, options: Mapping[str, Any] | None = None) -> Any:
    """The PAR sheet of a Pok Deng table (qipai.analysis.par; GameSpec.par): every bet of its
    mode, exact. It takes no PAR-only options: the table's settings are all there is."""
    from qipai.analysis.par import sheet

    report = analyse(config=config)
    return sheet(
        "pokdeng",
        report.title,
        report.settings,
        report.bets,
        notes=report.notes,
    )
