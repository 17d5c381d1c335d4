"""The test vectors of docs/fairness.md are what the engines deal (so the document cannot drift
from the code), and what the specification's implementations compute."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from qipai.core.rng import Rng
from qipai.fairness import tiles_commitment, unit_key, verify_openings
from qipai.fairness.deal import compute_deal
from qipai.fairness.keys import unit_key_message
from tests.fairness.engine_deal import engine_deal
from tests.fairness.test_verify_deal import verify_deal
from tests.fairness.units import GAMES

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"


def vectors() -> list[dict[str, Any]]:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)\n```", text, re.S)
    out = [json.loads(b) for b in blocks]
    return [v for v in out if isinstance(v, dict) and "vector" in v]


VECTORS = vectors()
GAME_VECTORS = [v for v in VECTORS if "game" in v]


def test_every_game_and_primitive_has_vectors() -> None:
    names = {v["vector"] for v in VECTORS}
    assert {"stream", "stream-nested", "below", "shuffle", "unit-key", "unit-key-off"} <= names
    assert {v["game"] for v in GAME_VECTORS} == set(GAMES)
    assert any(v["client_seeds"] for v in GAME_VECTORS)
    assert any(not v["client_seeds"] for v in GAME_VECTORS)
    # the cases an outsider gets wrong: a voided round of a unit with client seeds, and a
    # round whose unit began before someone sat down (their seed is not in its key)
    assert any(v.get("status") == "voided" and v["client_seeds"] for v in GAME_VECTORS)
    assert any(set(v.get("seated", [])) - set(v["client_seeds"]) for v in GAME_VECTORS)
    assert any(v["vector"].startswith("tiengow-tiles") for v in VECTORS)


@pytest.mark.parametrize("v", [v for v in VECTORS if v["vector"].startswith("stream")], ids=str)
def test_stream_vectors(v: dict[str, Any]) -> None:
    data = bytes.fromhex(v["bytes"])
    assert Rng(bytes.fromhex(v["key"]), v["label"]).next_bytes(len(data)) == data


def test_integer_and_shuffle_vectors() -> None:
    (below,) = [v for v in VECTORS if v["vector"] == "below"]
    rng = Rng(bytes.fromhex(below["key"]), below["label"])
    assert [rng.randbelow(n) for n in below["bounds"]] == below["values"]
    (shuffle,) = [v for v in VECTORS if v["vector"] == "shuffle"]
    items = list(range(shuffle["n"]))
    Rng(bytes.fromhex(shuffle["key"]), shuffle["label"]).shuffle(items)
    assert items == shuffle["result"]


def test_key_vectors_and_the_worked_message() -> None:
    for v in VECTORS:
        if v["vector"].startswith("unit-key"):
            assert unit_key(bytes.fromhex(v["seed"]), v["client_seeds"]).hex() == v["key"]
            if "message" in v:
                assert unit_key_message(v["client_seeds"]).hex() == v["message"]
            # the verifier written from docs/fairness.md alone agrees
            key = verify_deal.unit_key(bytes.fromhex(v["seed"]), v["client_seeds"])
            assert key.hex() == v["key"]
    # seat ids that sort differently as text and as numbers: byte order ("10" before "9")
    (nine_ten,) = [v for v in VECTORS if v["vector"] == "unit-key-seats-9-10"]
    message = bytes.fromhex(nine_ten["message"])
    assert message.index(b"\x02" + b"10") < message.index(b"\x01" + b"9")
    text = DOC.read_text(encoding="utf-8")
    (example,) = re.findall(r"give the message\n`([0-9a-f ]+)`", text)
    assert unit_key_message({"E": "alice-7", "S": "b0b"}).hex(" ") == example


@pytest.mark.parametrize("v", GAME_VECTORS, ids=lambda v: v["vector"])
def test_game_vectors_are_the_engines_deal(v: dict[str, Any]) -> None:
    key = unit_key(bytes.fromhex(v["seed"]), v["client_seeds"])
    assert key.hex() == v["key"]
    engine = engine_deal(v["game"], key, v["inputs"])
    assert engine == {name: v["deal"][name] for name in engine}
    assert compute_deal(v["game"], key, v["inputs"]) == v["deal"]
    assert verify_deal.GAMES[v["game"]][0](key, v["inputs"]) == v["deal"]


def test_tiengow_tile_vector() -> None:
    (v,) = [v for v in VECTORS if v["vector"].startswith("tiengow-tiles")]
    c = tiles_commitment(bytes.fromhex(v["key"]), v["tiles"])
    assert list(c.leaves) == v["leaves"] and c.root == v["root"]
    assert [s.hex() for s in c.salts[: len(v["salts"])]] == v["salts"]
    assert [o.to_json() for o in c.openings(o["position"] for o in v["openings"])] == v["openings"]
    assert verify_openings(v["root"], v["leaves"], v["openings"]) == []
    deal = next(g for g in GAME_VECTORS if g["key"] == v["key"])
    assert deal["deal"]["tiles"] == v["tiles"] and deal["deal"]["tiles_root"] == v["root"]


def test_cut_behind_has_one_meaning() -> None:
    """`cut_behind` is the [lo, hi] range wherever it appears (the setting, the inputs); the
    count drawn from it is the deal's `behind_cut` (docs/fairness.md, Pok Deng)."""
    for v in GAME_VECTORS:
        if v["game"] != "pokdeng":
            continue
        lo, hi = v["inputs"]["cut_behind"]
        assert "cut_behind" not in v["deal"]
        assert lo <= v["deal"]["behind_cut"] <= hi
        assert compute_deal("pokdeng", bytes.fromhex(v["key"]), v["inputs"]) == v["deal"]
