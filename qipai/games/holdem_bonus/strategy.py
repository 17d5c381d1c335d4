"""The Hold'em Bonus optimal strategy as a lookup for bots and the browser's hint.

* Flop decision (play 2x or fold) by the two hole cards: the 169-class table below, the result
  of the full exact enumeration (`holdem_strategy_exact`; a slow test checks it against the
  cached result).
* Turn decision (bet 1x or check, after the flop) and river decision (bet 1x or check, after
  the turn card): computed exactly on demand by enumerating every remaining board card and every
  dealer pair with the project's evaluator (`holdem_kernels.decision_counts`) — about a million
  evaluations (~9 ms) for a turn decision, 45,540 for a river decision — and cached per decision
  point. The rule is the same the full enumeration uses: river bet iff wins exceed losses; turn
  bet iff the summed value of betting (including the river option it keeps open under the
  source rule) beats checking.
* Bots need only the turn *choice*, not its EVs: `turn_bet` reads it from the full
  enumeration's table (`Sums.turn_bets`: every class representative × flop × rule, one bit
  each) when its cache file exists — a suit permutation takes the hole to its class
  representative and the flop along with it (the decision is suit-symmetric) — and falls back
  to the exact on-demand computation otherwise. A slow test checks the two agree.

`rule` is "source" (docs/rules/holdem-bonus.md#differences: a turn check gives up the river bet; the game as implemented)
or "common" (the river bet stays open after a turn check).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

import numpy as np

from qipai.core.cards import Card, parse_cards
from qipai.core.errors import InvalidInput
from qipai.games.holdem_bonus.strategy_exact import class_of, start_classes

Rule = Literal["source", "common"]

# Starting hands to fold at the flop decision, per rule (every other class plays): the folds of
# `qipai rtp holdem-bonus` (`holdem_report.preflop_table`), checked by tests/analysis (slow).
FOLD_CLASSES: dict[str, frozenset[str]] = {
    "source": frozenset({"32o", "42o", "52o", "62o", "72o"}),
    "common": frozenset({"32o", "42o", "52o", "62o", "72o"}),
}


@dataclass(frozen=True)
class Decision:
    """The optimal choice at one decision point and the exact expected net (per unit ante, of
    all main bets from the start of the hand) of betting and of not betting."""

    bet: bool
    ev_bet: Fraction
    ev_check: Fraction

    @property
    def action(self) -> str:
        return "bet" if self.bet else "check"


def _ids(cards: Sequence[Card | int], n: int, what: str) -> tuple[int, ...]:
    ids = []
    for c in cards:
        if isinstance(c, Card):
            ids.append(c.id)
        elif isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 52:
            ids.append(c)
        else:
            raise InvalidInput(f"not a card: {c!r}")
    if len(ids) != n:
        raise InvalidInput(f"{what}: expected {n} cards, got {len(ids)}")
    return tuple(ids)


def _distinct(*groups: tuple[int, ...]) -> None:
    flat = [c for g in groups for c in g]
    if len(set(flat)) != len(flat):
        raise InvalidInput("the same card appears twice")


def _check_rule(rule: str) -> None:
    if rule not in ("source", "common"):
        raise InvalidInput(f"rule {rule!r}: expected source or common")


def flop_decision(hole: Sequence[Card | int], rule: Rule = "source") -> bool:
    """True to play (flop bet of 2x the ante), False to fold, for two hole cards."""
    _check_rule(rule)
    h = _ids(hole, 2, "hole")
    _distinct(h)
    return class_of(*h) not in FOLD_CLASSES[rule]


def _counts(hole: tuple[int, ...], board: tuple[int, ...]) -> np.ndarray:
    from qipai.games.holdem_bonus.analysis_kernels import decision_counts
    from qipai.poker.tables import tables

    t = tables()
    return decision_counts(  # type: ignore[no-any-return]
        np.array(hole, np.int64),
        np.array(board, np.int64),
        len(board),
        t.noflush,
        t.flush,
        t.card_keys,
    )


@lru_cache(maxsize=4096)
def _turn(hole: tuple[int, ...], flop: tuple[int, ...], rule: str) -> Decision:
    rows = _counts(hole, flop)
    w, ws, _t, lo = (int(x) for x in rows.sum(axis=0))
    n = int(rows[:, [0, 2, 3]].sum())
    base = 2 * w + ws - 3 * lo
    river_gain = int(np.maximum(rows[:, 0] - rows[:, 3], 0).sum())
    if rule == "source":
        check = base
        bet = base + (w - lo) + river_gain
    else:
        check = base + river_gain
        bet = check + (w - lo)
    return Decision(bet > check, Fraction(bet, n), Fraction(check, n))


def turn_decision(
    hole: Sequence[Card | int], flop: Sequence[Card | int], rule: Rule = "source"
) -> Decision:
    """After the flop: bet the turn (1x) or check, with hole + three board cards."""
    _check_rule(rule)
    h, f = _ids(hole, 2, "hole"), _ids(flop, 3, "flop")
    _distinct(h, f)
    return _turn(tuple(sorted(h)), tuple(sorted(f)), rule)


_CLASS_INDEX = {c.name: i for i, c in enumerate(start_classes())}
_REP_CARDS = [c.cards for c in start_classes()]


def to_representative(
    hole: tuple[int, ...], flop: tuple[int, ...]
) -> tuple[int, tuple[int, int, int]]:
    """(index of the hole's starting class in `start_classes()`, the flop carried by the suit
    permutation that takes the hole to that class's representative, sorted).

    The permutation sends the hole's suits to the representative's: a pair's two suits to the
    representative's two (either order: both cards have the same rank), a suited hand's suit to
    the representative's, an offsuit hand's higher card's suit and lower card's suit to the
    representative's higher and lower cards' suits; the suits left over go to the ones left
    over in order. Hand strengths, hence every decision, are unchanged by permuting suits."""
    c1, c2 = hole
    h = _CLASS_INDEX[class_of(c1, c2)]
    r1, r2 = _REP_CARDS[h]
    if (c1 >> 2) < (c2 >> 2):
        c1, c2 = c2, c1  # the higher rank first, as the representative's cards
    perm = [-1, -1, -1, -1]
    perm[c1 & 3] = r1 & 3
    perm[c2 & 3] = r2 & 3  # a suited hand: the same suit, the same target
    free = [s for s in range(4) if s not in perm]
    for s in range(4):
        if perm[s] < 0:
            perm[s] = free.pop(0)
    f0, f1, f2 = sorted((c & ~3) | perm[c & 3] for c in flop)
    return h, (f0, f1, f2)


@lru_cache(maxsize=1)
def _turn_table() -> np.ndarray | None:
    """The packed turn decision table of the cached full enumeration, loaded once (None: no
    cache file; `turn_bet` then computes on demand). Clear with `_turn_table.cache_clear()`."""
    from qipai.games.holdem_bonus.strategy_exact import load_turn_bets

    return load_turn_bets()


def turn_bet(hole: Sequence[Card | int], flop: Sequence[Card | int], rule: Rule = "source") -> bool:
    """The optimal turn choice alone (True = bet 1x), for bots: a table lookup (microseconds)
    when the full enumeration's cache exists, else `turn_decision(...).bet` (milliseconds)."""
    _check_rule(rule)
    h, f = _ids(hole, 2, "hole"), _ids(flop, 3, "flop")
    _distinct(h, f)
    table = _turn_table()
    if table is None:
        return _turn(tuple(sorted(h)), tuple(sorted(f)), rule).bet
    from qipai.games.holdem_bonus.analysis_kernels import flop_index

    cls, (f0, f1, f2) = to_representative(h, f)
    r1, r2 = _REP_CARDS[cls]
    i = flop_index(r1, r2, f0, f1, f2)
    return bool((table[cls, 0 if rule == "source" else 1, i >> 3] >> (7 - (i & 7))) & 1)


@lru_cache(maxsize=16384)
def _river(hole: tuple[int, ...], board: tuple[int, ...], turn_bet: bool) -> Decision:
    w, ws, _t, lo = (int(x) for x in _counts(hole, board)[0])
    n = w + _t + lo
    base = 2 * w + ws - 3 * lo + (w - lo if turn_bet else 0)
    return Decision(w > lo, Fraction(base + w - lo, n), Fraction(base, n))


def river_decision(
    hole: Sequence[Card | int], board: Sequence[Card | int], turn_bet: bool = True
) -> Decision:
    """After the turn card: bet the river (1x) or check, with hole + four board cards.

    The choice does not depend on the turn bet (the bets add linearly); `turn_bet` only enters
    the expected nets reported. Under the source rule the river bet exists only after a turn bet."""
    h, b = _ids(hole, 2, "hole"), _ids(board, 4, "board")
    _distinct(h, b)
    return _river(tuple(sorted(h)), tuple(sorted(b)), turn_bet)


def advise(
    hole: Sequence[Card | int],
    board: Sequence[Card | int] = (),
    rule: Rule = "source",
    turn_bet: bool = True,
) -> str:
    """One word for the decision at hand: 'play'/'fold' (no board), 'bet'/'check' (3 or 4)."""
    if len(board) == 0:
        return "play" if flop_decision(hole, rule) else "fold"
    if len(board) == 3:
        return turn_decision(hole, board, rule).action
    if len(board) == 4:
        return river_decision(hole, board, turn_bet).action
    raise InvalidInput(f"a decision is made with 0, 3 or 4 board cards, not {len(board)}")


def optimal_strategy(
    rule: Rule = "source",
) -> Callable[[str, Sequence[Card], Sequence[Card]], bool]:
    """The optimal strategy as a bot's strategy function (`qipai.games.holdem_bonus.bots.Strategy`:
    `fn(phase, hole, board) -> bool`, True = make that phase's bet), e.g.
    `SensibleBot(strategy=optimal_strategy("source"))` at a table playing the source rule."""
    _check_rule(rule)

    def play(phase: str, hole: Sequence[Card], board: Sequence[Card]) -> bool:
        if phase == "flop":
            return flop_decision(hole, rule)
        if phase == "turn":
            return turn_bet(hole, board, rule)
        if phase == "river":
            return river_decision(hole, board).bet
        raise InvalidInput(f"unknown phase {phase!r}: expected flop, turn or river")

    return play


def hint(view: Mapping[str, Any], rule: Rule = "source") -> dict[str, Any] | None:
    """The optimal choice for each of the viewer's own boxes awaiting a decision, for the
    browser's hint, or None when none awaits. Reads only `view` (`HoldemBonusRound.view(seat)`),
    so it can say nothing the player may not see: the box's own hole cards and the board shown.

    Returns {"rule", "boxes": [{"box", "phase", "action": "play"|"fold"|"bet"|"check", "ev":
    {"bet": x, "check": y} | None}, …]}: `ev` holds the exact expected nets of all main bets per
    unit ante, rounded to 4 places for display (the flop decision is the 169-class table, whose
    EVs are in `qipai rtp holdem-bonus`, so it carries none here).
    """
    phase = view.get("phase")
    me = view.get("me") or {}
    if phase not in ("flop", "turn", "river") or not me:
        return None
    mine = set(me.get("boxes") or ())
    board = parse_cards(view.get("board") or [])
    advice: list[dict[str, Any]] = []
    for box in view.get("boxes") or ():
        if box.get("box") not in mine or box.get("awaiting") != phase or not box.get("cards"):
            continue
        hole = parse_cards(box["cards"])
        ev: dict[str, float] | None = None
        if phase == "flop":
            action = "play" if flop_decision(hole, rule) else "fold"
        else:
            made_turn_bet = bool((box.get("bets") or {}).get("turn"))
            decision = (
                turn_decision(hole, board, rule)
                if phase == "turn"
                else river_decision(hole, board, turn_bet=made_turn_bet)
            )
            action = decision.action
            ev = {
                "bet": round(float(decision.ev_bet), 4),
                "check": round(float(decision.ev_check), 4),
            }
        advice.append({"box": box["box"], "phase": phase, "action": action, "ev": ev})
    return {"rule": rule, "boxes": advice} if advice else None
