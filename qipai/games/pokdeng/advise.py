"""`qipai advise pokdeng [--mode classic|banker-player]`: Pok Deng has no decision after the
deal (every draw is fixed by the rules), so the advice is the exact return of each bet of the
table's mode, best first (`GameSpec.rtp`, the figures the table shows)."""

from __future__ import annotations

from qipai.analysis.advise import dump, ratio
from qipai.core.errors import InvalidInput
from qipai.core.spec import AdviceRequest


def advise(request: AdviceRequest) -> str:
    """The bets of the `mode` (the rules' default when none) by exact return."""
    from qipai.games.pokdeng.spec import SPEC

    request.refuse("pokdeng", "board", "seen")
    if request.cards:
        raise InvalidInput(
            "Pok Deng has no decision after the deal (every draw is fixed by the rules): "
            "give no cards",
            field="cards",
        )
    config = SPEC.parse_config({"mode": request.mode} if request.mode else {})
    bets = sorted((b for b in SPEC.rtp(config) if b.rtp is not None), key=lambda b: -(b.rtp or 0))
    rows = [
        {"bet": b.bet, "label": dict(b.label), "rtp": float(b.rtp), "rtp_exact": ratio(b.rtp)}
        for b in bets
        if b.rtp is not None
    ]
    if request.as_json:
        return dump({"game": "pokdeng", "mode": config.mode, "bets": rows})
    lines = [f"Pok Deng ({config.mode}): no decision after the deal; bets by exact return"]
    lines += [f"  {b.bet:<8} {float(b.rtp or 0) * 100:.4f} %" for b in bets]
    return "\n".join(lines)
