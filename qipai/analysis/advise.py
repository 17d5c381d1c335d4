"""`qipai advise GAME …`: the best decision for a player, per game, as text or JSON.

Each game's advice comes from the code that drives its hint and its best bot, so the command,
the browser and the bots cannot disagree:

* Niu Niu — the 16 swaps ranked by expected money against the banker (`games/niuniu/advisor.py`).
* Hold'em Bonus — play/fold with the hole cards, bet/check on the turn and river with the exact
  expected net of both choices (`analysis/strategy.py`, the hint's and the optimal bot's code).
* Pai Gow — bids and bets come before the tiles, so the advice is the exact expectation of each
  side for the coming round given the tiles already shown (`bots/paigow.pairing_odds`).
* Pok Deng — no decision after the deal (every draw is fixed); the advice is the exact return
  of each bet at the table's settings, best first.

JSON numbers are numbers and exact values are {numerator, denominator} ratios, never strings.
Tien Gow has no exact advisor (its best bot plays by sampled rollouts), so it is refused with a
clear message rather than answered with a guess.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from qipai.core.errors import InvalidInput


def ratio(value: Fraction) -> dict[str, int]:
    """An exact ratio as JSON numbers."""
    return {"numerator": value.numerator, "denominator": value.denominator}


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)


def _refuse_extra(game: str, **given: str | None) -> None:
    extra = [name for name, value in given.items() if value]
    if extra:
        raise InvalidInput(f"{game} advice takes no --{', --'.join(extra)}")


def niuniu(cards: str, seen: str, board: str, mode: str | None, as_json: bool) -> str:
    from qipai.games.niuniu.advisor import advise_command

    _refuse_extra("niuniu", board=board, mode=mode)
    return advise_command(cards, seen, as_json)


def holdem_bonus(cards: str, seen: str, board: str, mode: str | None, as_json: bool) -> str:
    """Hole cards (and 0, 3 or 4 board cards): the optimal decision and, where it is computed
    on demand, the exact expected net per ante of both choices."""
    from qipai.games.holdem_bonus.strategy_exact import class_of
    from qipai.games.holdem_bonus.strategy import FOLD_CLASSES, Rule, river_decision, turn_decision
    from qipai.core.cards import parse_cards

    _refuse_extra("holdem-bonus", seen=seen)
    rule: Rule = "common" if mode == "common" else "source"
    if mode not in (None, "source", "common"):
        raise InvalidInput(f"unknown rule {mode!r}; expected source or common")
    hole = parse_cards(cards)
    if len(hole) != 2:
        raise InvalidInput(f"Hold'em Bonus advice takes the two hole cards, got {len(hole)}")
    shown = parse_cards(board) if board else []
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
    if as_json:
        return _dump(out)
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


def paigow(cards: str, seen: str, board: str, mode: str | None, as_json: bool) -> str:
    """Tiles shown so far (round 1's eight, for round 2): each side's exact expectation per
    unit of A·X·Y for the coming round at the default table (5 % commission, ties to the
    banker), and what that means for the bid and the bet."""
    from collections import Counter

    from qipai.games.paigow.bots import pairing_odds
    from qipai.core.money import to_rate
    from qipai.core.tiles import full_set, parse_tiles
    from qipai.games.paigow.config import PaigowConfig

    _refuse_extra("paigow", board=board, mode=mode)
    shown = parse_tiles(" ".join(t for t in (cards, seen) if t)) if (cards or seen) else []
    left = Counter(full_set())
    for t in shown:
        if left[t] <= 0:
            raise InvalidInput(f"tile {t} is shown more often than the set holds it")
        left[t] -= 1
    unseen = sorted(left.elements())
    config = PaigowConfig()
    odds = pairing_odds(unseen, config.high_nine)
    rate = to_rate(config.commission)
    to_banker = config.tie_policy == "banker"
    player = odds.player * (1 - rate) - odds.banker - (odds.equal if to_banker else 0)
    banker_gross = odds.banker + (odds.equal if to_banker else 0) - odds.player
    out = {
        "game": "paigow",
        "shown": [str(t) for t in shown],
        "unseen": len(unseen),
        "p_banker_stronger": ratio(odds.banker),
        "p_player_stronger": ratio(odds.player),
        "p_equal": ratio(odds.equal),
        "player_expectation": float(player),
        "player_expectation_exact": ratio(player),
        "banker_gross_per_pairing": float(banker_gross),
        "banker_gross_per_pairing_exact": ratio(banker_gross),
        "advice": "bet the lowest multiple (a player's expectation is never positive); bid "
        "for banker only if its expectation after commission on its net is positive",
    }
    if as_json:
        return _dump(out)
    return "\n".join(
        [
            f"Pai Gow, {len(shown)} tiles shown, {len(unseen)} unseen (default table: "
            f"{float(rate) * 100:g} % commission, equal hands to the banker)",
            f"P(banker stronger) {float(odds.banker):.6f}, P(player stronger) "
            f"{float(odds.player):.6f}, P(equal) {float(odds.equal):.6f}",
            f"player's expectation per unit of A·X·Y: {float(player):+.6f} ({player})",
            f"banker per pairing before commission: {float(banker_gross):+.6f}",
            "advice: " + str(out["advice"]),
        ]
    )


def pokdeng(cards: str, seen: str, board: str, mode: str | None, as_json: bool) -> str:
    """No decision after the deal: the exact return of each bet of the table's mode."""
    from qipai.games.registry import get

    _refuse_extra("pokdeng", board=board, seen=seen)
    if cards:
        raise InvalidInput(
            "Pok Deng has no decision after the deal (every draw is fixed by the rules): "
            "give no cards"
        )
    game = get("pokdeng")
    config = game.parse_config({"mode": mode} if mode else {})
    bets = [b for b in game.rtp(config) if b.rtp is not None]
    rows = [
        {"bet": b.bet, "label": dict(b.label), "rtp": float(b.rtp), "rtp_exact": ratio(b.rtp)}
        for b in sorted(bets, key=lambda b: -(b.rtp or 0))
        if b.rtp is not None
    ]
    if as_json:
        return _dump({"game": "pokdeng", "mode": config.mode, "bets": rows})
    lines = [f"Pok Deng ({config.mode}): no decision after the deal; bets by exact return"]
    lines += [
        f"  {b.bet:<8} {float(b.rtp or 0) * 100:.4f} %"
        for b in sorted(bets, key=lambda b: -(b.rtp or 0))
    ]
    return "\n".join(lines)


ADVISORS: dict[str, Callable[[str, str, str, str | None, bool], str]] = {
    "niuniu": niuniu,
    "holdem-bonus": holdem_bonus,
    "paigow": paigow,
    "pokdeng": pokdeng,
}


def advise(
    game: str,
    cards: str,
    seen: str = "",
    board: str = "",
    mode: str | None = None,
    as_json: bool = False,
) -> str:
    """The advice text (or JSON) for one game; InvalidInput for bad input or a game without."""
    if game == "tiengow":
        raise InvalidInput(
            "Tien Gow has no exact advisor: its strong bot decides by sampled rollouts "
            "(qipai/bots/tiengow.py), which is not advice we can state exactly"
        )
    if game not in ADVISORS:
        raise InvalidInput(f"no advisor for game {game!r}; expected one of {', '.join(ADVISORS)}")
    return ADVISORS[game](cards, seen, board, mode, as_json)
