"""San Gong's deal made public: the deal description (fairness.py, the spec's `fairness`)
recomputes the engine's deal over many seeds; a journaled round goes through the room's export
and `qipai verify` by the registry; the generated standalone verifier (docs/verify_deal.py, with
this folder's verify_deal.py) agrees and catches a changed hand."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from qipai.core.errors import InvalidInput
from qipai.core.protocol import Seat
from qipai.core.rng import Rng, commitment
from qipai.fairness import deal_meta, export_round, unit_key
from qipai.fairness.check import DealCheck, check_export
from qipai.fairness.deal import compute_deal
from qipai.games import registry
from qipai.games.sangong import fairness
from qipai.games.sangong.config import SangongConfig
from qipai.games.sangong.round import SangongRound

FOLDER = Path(__file__).resolve().parents[1]
SCRIPT = FOLDER.parents[2] / "docs" / "verify_deal.py"
DESCRIPTION = fairness.DESCRIPTION


def _played(seed: int, key: bytes | None = None) -> tuple[bytes, SangongRound, list[Seat]]:
    """A finished round with random seats, stacks and bids (ties and nobody bidding included)."""
    pick = Rng(seed.to_bytes(4, "big") * 8, "test-round")
    n = 2 + pick.randbelow(5)
    seats = [Seat(f"S{i}", pick.choice([0, 500, 10_000, 250_000])) for i in range(n)]
    key = key or seed.to_bytes(4, "big") * 8
    r = SangongRound.start(SangongConfig(max_seats=6, cover_check=False), seats, Rng(key))
    for s in seats:
        bid = pick.choice([0, 0, 1, 2, 4, 4])
        if bid or pick.randbelow(2):
            r.act(s.id, {"type": "bid", "multiple": bid})
    while not r.finished:
        r.expire()
    return key, r, seats


def _checked(deal: dict[str, Any], dealt: dict[str, Any]) -> DealCheck:
    check = DealCheck("sangong")
    DESCRIPTION.compare(check, deal, dealt)
    return check


def test_it_is_the_specs_deal_description() -> None:
    assert registry.get("sangong").deal_description() is DESCRIPTION
    assert DESCRIPTION.streams == ("deck", "banker")


@pytest.mark.parametrize("seed", range(300))
def test_the_recomputed_deal_is_the_engines(seed: int) -> None:
    key, r, seats = _played(seed)
    inputs = DESCRIPTION.inputs(r, r.config, seats, {})
    deal = DESCRIPTION.deal(key, inputs)
    assert deal["deck"] == [str(c) for c in r.deck]
    assert (deal["banker"], deal["banker_by"]) == (r.banker, r.banker_by)
    dealt = DESCRIPTION.dealt(r, key, {}, True)
    assert dealt is not None
    check = _checked(deal, dealt)
    # the banker, the deal order and each seat's three cards, all as recomputed
    assert len(check.checks) == 2 + len(seats) and check.ok


def test_the_lines_print_the_deal() -> None:
    key, r, seats = _played(4)
    lines = DESCRIPTION.lines(DESCRIPTION.deal(key, DESCRIPTION.inputs(r, r.config, seats, {})))
    assert lines[0] == "deck (shuffled): " + " ".join(str(c) for c in r.deck)
    assert lines[1].startswith(f"banker: {r.banker} ({r.banker_by})")
    assert len(lines) == 2 + len(seats)


def test_a_wrong_hand_is_caught() -> None:
    key, r, seats = _played(1)
    deal = DESCRIPTION.deal(key, DESCRIPTION.inputs(r, r.config, seats, {}))
    dealt = DESCRIPTION.dealt(r, key, {}, True)
    assert dealt is not None
    seat = next(iter(dealt["hands"]))
    dealt["hands"][seat] = list(reversed(dealt["hands"][seat]))
    bad = [name for name, ok, _ in _checked(deal, dealt).checks if not ok]
    assert bad == [f"hands {seat} as dealt"]


def test_before_the_banker_only_the_deck_is_decided() -> None:
    seats = [Seat("A", 1), Seat("B", 1)]
    r = SangongRound.start(SangongConfig(), seats, Rng(b"k" * 32))
    inputs = DESCRIPTION.inputs(r, r.config, seats, {})
    assert inputs["bids"] is None and DESCRIPTION.dealt(r, b"k" * 32, {}, True) is None
    deal = DESCRIPTION.deal(b"k" * 32, inputs)
    assert deal["hands"] is None and deal["deck"] == [str(c) for c in r.deck]
    assert DESCRIPTION.lines(deal) == ["deck (shuffled): " + " ".join(deal["deck"])]


@pytest.mark.parametrize(
    "inputs",
    [
        {},
        {"seats": ["A"]},
        {"seats": ["A", "A"]},
        {"seats": list("ABCDEFG")},
        {"seats": ["A", "B"], "bids": {"A": 1}},
        {"seats": ["A", "B"], "bids": {"A": 1, "B": -1}},
        {"seats": ["A", "B"], "bids": {"A": 1, "B": True}},
    ],
)
def test_bad_inputs_are_refused(inputs: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput):
        compute_deal("sangong", b"k" * 32, inputs)


# ----- through the room's export and verifiers -------------------------------------------------
def _record(n: int) -> tuple[dict[str, Any], bytes]:
    """Round n as the ledger returns it with its seed (`Ledger.round(..., include_seed=True)`),
    client seeds on for some seats."""
    seed = bytes([n % 256]) * 32
    client_seeds = {"S0": f"{n:04x}"} if n % 2 else {}
    key = unit_key(seed, client_seeds)
    _, r, seats = _played(n, key)
    return {
        "round_id": f"sangong-{n}",
        "table_id": "t-sangong",
        "game": "sangong",
        "config": r.config.to_json(),
        "seats": [s.to_json() for s in seats],
        "context": {},
        "seed_commitment": commitment(seed),
        "seed": seed.hex(),
        "seed_revealed": True,  # the round is over: its seed is shown (reveal_seed)
        "status": "settled",
        "result": r.result().to_json(),
        "log": [{"kind": "action", "seat": e.seat, "payload": dict(e.action)} for e in r.log],
        "meta": deal_meta(client_seeds),
    }, key


def _standalone() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verify_deal", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def standalone() -> ModuleType:
    """docs/verify_deal.py as written by `qipai docs --write` (this folder's snippet in it)."""
    return _standalone()


@pytest.mark.parametrize("n", range(12))
def test_an_exported_round_verifies_in_qipai_and_standalone(standalone: ModuleType, n: int) -> None:
    record, key = _record(n)
    export = json.loads(json.dumps(export_round(record)))
    assert export["game"] == "sangong" and export["seed"] == record["seed"]
    assert export["dealt"]["hands"] and export["inputs"]["bids"] is not None
    check = check_export(export)
    assert check.ok, check.text()
    assert check.deal == compute_deal("sangong", key, export["inputs"])
    deal, checks, lines = standalone.verify(export)
    assert deal == check.deal
    assert [c[0] for c in checks] == [c[0] for c in check.checks] and all(c[1] for c in checks)
    assert lines[-1].startswith("  ") and any("banker" in line for line in lines)


def test_a_changed_hand_fails_both_verifiers(standalone: ModuleType) -> None:
    record, _ = _record(3)
    export = json.loads(json.dumps(export_round(record)))
    tampered = copy.deepcopy(export)
    seat, cards = next(iter(tampered["dealt"]["hands"].items()))
    tampered["dealt"]["hands"][seat] = [cards[1], cards[0], cards[2]]
    failed = [name for name, ok, _ in check_export(tampered).checks if not ok]
    assert failed == [f"hands {seat} as dealt"]
    _, checks, _ = standalone.verify(tampered)
    assert [name for name, ok, _ in checks if not ok] == failed


@pytest.mark.parametrize("seed", range(0, 300, 3))
def test_the_standalone_deal_agrees(standalone: ModuleType, seed: int) -> None:
    key, r, seats = _played(seed)
    inputs = DESCRIPTION.inputs(r, r.config, seats, {})
    assert standalone.GAMES["sangong"][0](key, inputs) == fairness.sangong_deal(key, inputs)
    lines = standalone.GAMES["sangong"][1](standalone.GAMES["sangong"][0](key, inputs))
    assert lines[0].startswith("deck: ") and len(lines) == 2 + len(seats)


def test_the_snippet_uses_the_standard_library_only() -> None:
    snippet = (FOLDER / "verify_deal.py").read_text(encoding="utf-8")
    assert "import" not in snippet  # the host's helpers only (qipai/fairness/standalone/)
    assert 'GAMES["sangong"] = (sangong, describe_sangong, compare_sangong)' in snippet
    assert snippet.strip() in SCRIPT.read_text(encoding="utf-8")
