"""Hold'em Bonus bots: a random player and a rule-of-thumb player (`qipai.bots.base.Bot`).

`optimal` (the card room's default) is `SensibleBot` playing the exact optimal strategy of
`qipai.games.holdem_bonus.strategy`. All read only `round.view(seat)` and the legal actions. In the
betting phase they bet their own box and confirm in one action (`"done": true`); in a decision
phase they answer for one awaiting box per call (the table asks again while the seat is
awaited).

`SensibleBot(strategy=...)` plays by a strategy function when given one — e.g. the optimal
strategy lookup of `qipai.games.holdem_bonus.strategy` — with the signature of `Strategy`:
`strategy(phase, hole, board) -> bool` (True = make the bet of that phase: "flop", "turn" or
"river"; False = fold or check), where `hole` is the box's two cards and `board` the community
cards shown (0, 3 or 4 of them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from qipai.core.cards import ACE, Card, parse_cards
from qipai.core.protocol import ActionSpec
from qipai.core.rng import Rng
from qipai.poker import Category, category_of, evaluate

Strategy = Callable[[str, Sequence[Card], Sequence[Card]], bool]

_BET = {"flop": "flop", "turn": "turn", "river": "river"}
_DECLINE = {"flop": "fold", "turn": "check", "river": "check"}


def _spec(legal: Sequence[ActionSpec], kind: str) -> Mapping[str, Any] | None:
    return next((s.options for s in legal if s.type == kind), None)


def _awaiting_box(view: Mapping[str, Any], legal: Sequence[ActionSpec]) -> tuple[str, str] | None:
    """(phase, box) of the first box this seat must decide now."""
    phase = view.get("phase")
    if phase not in _BET:
        return None
    spec = _spec(legal, _BET[phase])
    if not spec:
        return None
    return phase, next(iter(spec["boxes"]))


def _box_cards(view: Mapping[str, Any], box: str) -> list[Card]:
    for b in view["boxes"]:
        if b["box"] == box and b["cards"]:
            return parse_cards(b["cards"])
    return []


def _own_empty_box(view: Mapping[str, Any], bet: Mapping[str, Any]) -> str | None:
    """The seat's own box when it may still be bet on and holds no bet yet (else None)."""
    me = view.get("me") or {}
    box = me.get("id")
    if box in bet["boxes"] and not me.get("boxes"):
        return str(box)
    return None


def _bet(box: str, ante: int, bonus: int, pool: bool) -> dict[str, Any]:
    """The whole bet on one box (docs/rules/holdem-bonus.md#bets), and done betting."""
    return {"type": "bet", "box": box, "ante": ante, "bonus": bonus, "pool": pool, "done": True}


class RandomBot:
    """Bets a random ante (maybe bonus and pool) on its box, then decides at random."""

    name = "random"

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng
    ) -> dict[str, Any]:
        bet = _spec(legal, "bet")
        if bet is not None:
            box = _own_empty_box(view, bet)
            if box is not None:
                low, high = bet["ante"]["min"], bet["ante"]["max"]
                cap = min(high, bet["available"] // 7)  # room for 5x ante + bonus + pool
                if cap >= low and rng.randbelow(4):
                    ante = low + rng.randbelow(min(cap, 5 * low) - low + 1)
                    bonus = ante if rng.randbelow(2) else 0
                    return _bet(box, ante, bonus, bool(bet.get("pool")) and bool(rng.randbelow(2)))
            return {"type": "done"}
        found = _awaiting_box(view, legal)
        if found is None:
            return {"type": "done"}
        phase, box = found
        kind = _BET[phase] if rng.randbelow(2) else _DECLINE[phase]
        return {"type": kind, "box": box}


def rule_of_thumb(phase: str, hole: Sequence[Card], board: Sequence[Card]) -> bool:
    """A simple, sound-looking way to play (not optimal; see `qipai.analysis` for that).

    Flop: play every hand except unpaired offsuit cards both below 8 (small gapped junk folds).
    Turn and river: bet when the hole cards improve the board to a pair or better, or with a
    four-card flush draw; otherwise check.
    """
    a, b = hole
    if phase == "flop":
        return a.rank == b.rank or a.suit == b.suit or max(a.rank, b.rank) >= 8
    if len(board) < 3:
        return False
    mine = category_of(evaluate([*hole, *board]))
    on_board = _board_category(board)
    if mine >= Category.PAIR and mine > on_board:
        return True
    if mine == on_board == Category.PAIR and max(a.rank, b.rank) == ACE:
        return True  # ace kicker over a paired board
    suits = [c.suit for c in [*hole, *board]]
    return any(suits.count(s) >= 4 and s in (a.suit, b.suit) for s in range(4))


def _board_category(board: Sequence[Card]) -> Category:
    ranks = [c.rank for c in board]
    top = max(ranks.count(r) for r in ranks)
    pairs = sum(1 for r in set(ranks) if ranks.count(r) == 2)
    if top >= 3:
        return Category.THREE_OF_A_KIND
    if pairs >= 2:
        return Category.TWO_PAIR
    return Category.PAIR if pairs else Category.HIGH_CARD


class SensibleBot:
    """Bets the minimum ante on its own box (no side bets by default) and plays by `strategy`
    (the rule of thumb above unless another strategy function is given)."""

    name = "sensible"

    def __init__(
        self,
        strategy: Strategy | None = None,
        bonus: bool = False,
        pool: bool = False,
        ante_multiple: int = 1,
    ) -> None:
        self.strategy: Strategy = strategy or rule_of_thumb
        self.bonus = bonus
        self.pool = pool
        self.ante_multiple = max(1, ante_multiple)

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng
    ) -> dict[str, Any]:
        bet = _spec(legal, "bet")
        if bet is not None:
            box = _own_empty_box(view, bet)
            if box is not None:
                ante = min(bet["ante"]["min"] * self.ante_multiple, bet["ante"]["max"])
                pool = bet.get("pool") or 0
                cost = 5 * ante + (ante if self.bonus else 0) + (pool if self.pool else 0)
                if cost <= bet["available"]:
                    return _bet(box, ante, ante if self.bonus else 0, bool(self.pool and pool))
            return {"type": "done"}
        found = _awaiting_box(view, legal)
        if found is None:
            return {"type": "done"}
        phase, box = found
        hole = _box_cards(view, box)
        board = parse_cards(view.get("board") or [])
        play = self.strategy(phase, hole, board)
        return {"type": _BET[phase] if play else _DECLINE[phase], "box": box}


def optimal_bot() -> SensibleBot:
    """The card room's default Hold'em Bonus bot: the exact optimal strategy of the analysis
    (`qipai.games.holdem_bonus.strategy`, docs/rules/holdem-bonus.md#differences's source rule, as the game implements it). Its turn
    choices are read from the full enumeration's cached table (`strategy.turn_bet`, µs each) so
    bots do not load the server's event loop; without the cache they are computed (~9 ms each)."""
    from qipai.games.holdem_bonus.strategy import optimal_strategy

    bot = SensibleBot(strategy=optimal_strategy("source"))
    bot.name = "optimal"
    return bot


# Levels, weakest first; a table's default is the last one (`GameInfo.default_bot`).
BOTS: dict[str, Callable[[], Any]] = {
    "random": RandomBot,
    "sensible": SensibleBot,  # the rule of thumb above
    "optimal": optimal_bot,
}
