"""The shipped templates' countdowns are docs/rules/common.md#silence-defaults (RULES.md
"countdown lengths"): sized for a person on a phone, not for a bot — bid for banker 8 s, bet 12 s (Pok Deng's several
spots 15 s), Niu Niu's swap 10 s, each Hold'em Bonus decision 12 s, a Tien Gow turn 15 s."""

from __future__ import annotations

from typing import Any

import pytest

from qipai.authority import games
from qipai.authority.templates import shipped_templates

# game -> {config field: seconds}
LENGTHS: dict[str, dict[str, float]] = {
    "pokdeng": {"betting_s": 15},
    "paigow": {"bid_seconds": 8, "bet_seconds": 12},
    "niuniu": {"swap_s": 10, "bid_s": 8, "bet_s": 12},
    "holdem-bonus": {"betting_s": 12, "decision_s": 12},
    "tiengow": {"turn_seconds": 15},
}


def _config(body: dict[str, Any]) -> dict[str, Any]:
    return dict(games.parse_config(body["game"], body["settings"]).to_json())


@pytest.mark.parametrize("game", sorted(LENGTHS))
def test_every_shipped_template_of_the_game_has_the_rules_countdowns(game: str) -> None:
    bodies = [b for b in shipped_templates() if b["game"] == game]
    assert bodies, f"no shipped template of {game}"
    for body in bodies:
        config = _config(body)
        for field, seconds in LENGTHS[game].items():
            assert config[field] == seconds, (body["id"], field, config[field])
