"""`qipai advise holdem-bonus HOLE [--board …] [--mode source|common]`: the optimal decision
with the hole cards (and 0, 3 or 4 board cards) and, where it is computed on demand, the exact
expected net per ante of both choices — from the code of the hint and the optimal bot
(`strategy.py`, `strategy_exact.py`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from qipai.analysis.advise import dump, ratio
from qipai.core.cards import parse_cards
from qipai.core.errors import InvalidInput
from qipai.core.spec import AdviceRequest
from qipai.games.holdem_bonus.strategy import FOLD_CLASSES, Rule, river_decision, turn_decision
from qipai.games.holdem_bonus.strategy_exact import class_of


def advise(request: AdviceRequest) -> str:
    """The decision for these hole cards on this board under the `mode` rule (source by
    default); InvalidInput for bad cards, a bad board size or an unknown rule."""
    request.refuse("holdem-bonus", "seen")
    mode = request.mode
    if mode not in (None, "source", "common"):
        raise InvalidInput(f"unknown rule {mode!r}; expected source or common", field="mode")
    rule: Rule = "common" if mode == "common" else "source"
    hole = parse_cards(request.cards)
    if len(hole) != 2:
        raise InvalidInput(f"Hold'em Bonus advice takes the two hole cards, got {len(hole)}")
    shown = parse_cards(request.board) if request.board else []
    if len(set(hole) | set(shown)) != len(hole) + len(shown):
        raise InvalidInput("a card appears twice among the hole and board cards")
    out: dict[str, Any] = {
        "game": "holdem-bonus",
        "rule": rule,
        "hole": [str(c) for c in hole],
        "board": [str(c) for c in shown],
    }
    if not shown:
        start = class_of(hole[0].id, hole[1].id)
        play = start not in FOLD_CLASSES[rule]
        ev = _flop_ev(start, rule)
        out |= {"decision": "flop", "class": start, "action": "play" if play else "fold"}
        out["ev"] = (
            None
            if ev is None
            else {
                "play": float(ev),
                "play_exact": ratio(ev),
                "fold": -1,
                "fold_exact": ratio(Fraction(-1)),
            }
        )
    elif len(shown) in (3, 4):
        decision = (
            turn_decision(hole, shown, rule) if len(shown) == 3 else river_decision(hole, shown)
        )
        out |= {"decision": "turn" if len(shown) == 3 else "river", "action": decision.action}
        out["ev"] = {
            "bet": float(decision.ev_bet),
            "bet_exact": ratio(decision.ev_bet),
            "check": float(decision.ev_check),
            "check_exact": ratio(decision.ev_check),
        }
    else:
        raise InvalidInput(f"a decision is made with 0, 3 or 4 board cards, not {len(shown)}")
    if request.as_json:
        return dump(out)
    head = f"Hold'em Bonus ({rule} rule), {' '.join(c.pretty for c in hole)}"
    if shown:
        head += f" on {' '.join(c.pretty for c in shown)}"
    lines = [head, f"{out['decision']} decision: {out['action'].upper()}"]
    ev_out = out["ev"]
    if ev_out is None:
        lines.append(
            "(the flop EVs come from the full enumeration: run `qipai rtp holdem-bonus` once)"
        )
    elif "play" in ev_out:
        lines.append(f"expected net per ante of all main bets: play {ev_out['play']:+.6f}, fold -1")
    else:
        lines.append(
            "expected net per ante of all main bets from the start of the hand: "
            f"bet {ev_out['bet']:+.6f}, check {ev_out['check']:+.6f}"
        )
    return "\n".join(lines)


def _flop_ev(start: str, rule: str) -> Fraction | None:
    """The exact EV of playing on with this starting class, from the enumeration's cache (None
    when it has not been built: it is not worth minutes of CPU to one advice line)."""
    from qipai.games.holdem_bonus.strategy_exact import (
        UNIT,
        cache_path,
        load_or_compute,
        start_classes,
    )

    if not cache_path().exists():
        return None
    sums = load_or_compute()
    h = next(i for i, c in enumerate(start_classes()) if c.name == start)
    s = 0 if rule == "source" else 1
    total = int(sums.flops[0]) * UNIT
    return Fraction(sum((i - 5) * int(sums.hist[h, s, i]) for i in range(11)), total)
