"""San Gong's spec: found by the registry, its facts, and every capability of the game contract
(qipai/core/spec.py, docs/adding-a-game.md) declared from this folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from qipai.core.errors import InvalidInput
from qipai.games import registry
from qipai.games.sangong import fairness
from qipai.games.sangong import spec as spec_module
from qipai.games.sangong.env import SangongEncoder
from qipai.games.sangong.spec import SPEC

FOLDER = Path(__file__).resolve().parents[1]


def test_the_registry_finds_it() -> None:
    assert registry.get("sangong") is SPEC
    assert SPEC.to_json()["title"] == {"en": "San Gong", "zh": "抢庄三公"}
    assert SPEC.default_bot() == "sensible"
    assert SPEC.make_bot("random").name == "random"


def test_every_capability_is_declared_from_this_folder() -> None:
    assert SPEC.missing_capabilities() == []
    assert SPEC.encoder_type() is SangongEncoder
    assert SPEC.deal_description() is fairness.DESCRIPTION
    assert SPEC.package_name == "qipai.games.sangong" and SPEC.folder == FOLDER
    assert [p.name for p in SPEC.examples()] == [
        "capped-banker.json",
        "six-seats-own-multipliers.json",
        "worked-example.json",
    ]
    assert (FOLDER / "verify_deal.py").is_file()
    assert SPEC.turnover is None  # the turnover is the stakes (reports.py)
    assert SPEC.advise is None  # no `qipai advise`: the only decisions are the bid and the bet
    assert SPEC.bets_of({}, {}) == []
    # the one-folder layout's own list of capabilities is gone: the spec is the only one
    assert not hasattr(spec_module, "CAPABILITIES")


def test_the_tools_answer_through_the_spec() -> None:
    assert [r.bet for r in SPEC.rtp()] == ["player"]
    with pytest.raises(InvalidInput, match="no rtp modes"):
        SPEC.analysis("classic")


def test_pay_table_shows_the_table_settings() -> None:
    table = SPEC.pay_table({"multipliers": {"three_of_a_kind": 7}, "commission": "0.04"})
    assert table["hands"][0] == {
        "type": "three_of_a_kind",
        "label": {"zh": "三条", "en": "three of a kind"},
        "multiplier": 7,
    }
    assert table["commission"]["rate"] == "0.04"
    assert [c["seconds"] for c in table["countdowns"]] == [8.0, 12.0, 8.0]
    assert table["min_buy_in"] == 4 * 100 * 7
