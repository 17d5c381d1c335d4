"""The specification's deal (qipai.fairness.deal) is the engines' deal, unit by unit."""

from __future__ import annotations

import json
from typing import Any

import pytest

from qipai.core.cards import Shoe
from qipai.core.rng import Rng
from qipai.fairness import export_round
from qipai.fairness.check import check_export
from qipai.fairness.deal import card_order, compute_deal, tile_order
from qipai.fairness.tiles import tiles_commitment
from qipai.games.paigow.round import game_shuffle
from qipai.games.pokdeng.round import shoe_cards
from tests.fairness.units import GAMES, Unit, make_unit

UNITS = 12


def _engine_order(unit: Unit) -> list[str]:
    """The shuffled cards/tiles as the engine holds them."""
    r: Any = unit.round
    if unit.game == "pokdeng":
        return [str(c) for c in shoe_cards(Rng(unit.key), r.config)[0]]
    if unit.game == "paigow":
        return [str(t) for t in game_shuffle(Rng(unit.key))]
    if unit.game == "holdem-bonus":
        return [str(c) for c in r._deck]
    if unit.game == "niuniu":
        return [str(c) for c in r._deck]
    return [str(t) for t in r.deck]


def test_starting_orders() -> None:
    assert card_order()[:6] == ["2c", "2d", "2h", "2s", "3c", "3d"]
    assert card_order()[-1] == "As" and len(card_order(8)) == 416
    assert tile_order() == [
        "6-6",
        "6-6",
        "1-1",
        "1-1",
        "4-4",
        "4-4",
        "1-3",
        "1-3",
        "5-5",
        "5-5",
        "3-3",
        "3-3",
        "2-2",
        "2-2",
        "5-6",
        "5-6",
        "4-6",
        "4-6",
        "1-6",
        "1-6",
        "1-5",
        "1-5",
        "3-6",
        "4-5",
        "2-6",
        "3-5",
        "2-5",
        "3-4",
        "1-4",
        "2-3",
        "2-4",
        "1-2",
    ]


@pytest.mark.parametrize("game", GAMES)
def test_the_specification_deals_what_the_engine_dealt(game: str) -> None:
    seen_client_seeds = False
    for n in range(UNITS):
        unit = make_unit(game, n)
        export = json.loads(json.dumps(export_round(unit.record, operator=True)))
        deal = compute_deal(game, unit.key, export["inputs"])
        order = deal.get("shoe") or deal.get("deck") or deal.get("tiles")
        assert order == _engine_order(unit)
        check = check_export(export)
        assert check.ok, check.text()
        assert check.deal == deal
        assert any("as dealt" in name for name, _, _ in check.checks) or game == "holdem-bonus"
        seen_client_seeds |= bool(export["client_seeds"])
    assert seen_client_seeds


def test_pokdeng_shoe_and_cut_are_the_core_shoes() -> None:
    unit = make_unit("pokdeng", 3)
    deal = compute_deal("pokdeng", unit.key, {"decks": 8, "cut_behind": [52, 104]})
    shoe = Shoe(Rng(unit.key), 8, (52, 104))
    assert deal["shoe"] == [str(c) for c in shoe.cards]
    assert deal["behind_cut"] == shoe.behind_cut and deal["cut_index"] == shoe.cut_index


def test_a_mismatch_is_reported() -> None:
    unit = make_unit("paigow", 1)
    export = export_round(unit.record, operator=True)
    seat = next(iter(export["dealt"]["hands"]))
    export["dealt"]["hands"][seat] = ["6-6", "6-6"]
    check = check_export(export)
    assert not check.ok
    assert any(not ok and seat in name for name, ok, _ in check.checks)
    export = export_round(unit.record, operator=True)
    export["commitment"] = "00" * 32
    assert not check_export(export).ok
    export = export_round(unit.record, operator=True)
    export["client_seeds"] = {"E": "someone-else"}
    assert not check_export(export).ok


def test_tiengow_players_verify_openings_without_the_seed() -> None:
    unit = make_unit("tiengow", 2)
    record = dict(unit.record, seed_revealed=True)
    root = tiles_commitment(unit.key, unit.round.deck).root  # type: ignore[attr-defined]
    record["meta"] = {**record["meta"], "tiles_root": root}
    for seat in ("E", "S", "W", "N"):
        export = export_round(record, seat)
        assert export["seed"] is None and export["dealt"] is None
        assert export["seed_policy"] == "operator_only"
        check = check_export(json.loads(json.dumps(export)))
        assert check.ok, check.text()
        assert len(export["tiles"]["openings"]) >= 8
    record["meta"]["tiles_root"] = "00" * 32
    assert not check_export(export_round(record, "E")).ok


def test_unrevealed_seeds_stay_out_of_the_export() -> None:
    unit = make_unit("pokdeng", 0)
    record = dict(unit.record, seed_revealed=False)
    export = export_round(record, "S1")
    assert export["seed"] is None
    assert unit.record["seed"] not in json.dumps(export)
    assert export_round(record, operator=True)["seed"] == unit.record["seed"]
