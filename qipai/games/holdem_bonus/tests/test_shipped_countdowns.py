"""The shipped templates' countdowns are docs/rules/common.md#countdowns (sized for a person on
a phone, not for a bot): bet 12 s, each flop / turn / river decision 12 s."""

from __future__ import annotations

from qipai.authority import games
from qipai.authority.templates import shipped_templates

LENGTHS = {"betting_s": 12, "decision_s": 12}


def test_every_shipped_template_has_the_rules_countdowns() -> None:
    bodies = [b for b in shipped_templates() if b["game"] == "holdem-bonus"]
    assert bodies, "no shipped template"
    for body in bodies:
        config = dict(games.parse_config(body["game"], body["settings"]).to_json())
        for field, seconds in LENGTHS.items():
            assert config[field] == seconds, (body["id"], field, config[field])
