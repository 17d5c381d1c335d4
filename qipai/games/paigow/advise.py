"""`qipai advise paigow [TILES] [--seen TILES]`: bids and bets come before the tiles, so the
advice is each side's exact expectation for the coming round given the tiles already shown
(round 1's eight, for round 2), from the code of the bots (`bots.pairing_odds`)."""

from __future__ import annotations

from collections import Counter

from qipai.analysis.advise import dump, ratio
from qipai.core.errors import InvalidInput
from qipai.core.money import to_rate
from qipai.core.spec import AdviceRequest
from qipai.core.tiles import full_set, parse_tiles
from qipai.games.paigow.bots import pairing_odds
from qipai.games.paigow.config import PaigowConfig


def advise(request: AdviceRequest) -> str:
    """Each side's exact expectation per unit of A·X·Y for the coming round at the default
    table (5 % commission, ties to the banker), and what that means for the bid and the bet."""
    request.refuse("paigow", "board", "mode")
    given = " ".join(t for t in (request.cards, request.seen) if t)
    shown = parse_tiles(given) if given else []
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
    if request.as_json:
        return dump(out)
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
