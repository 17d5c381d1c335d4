"""The evaluator's tables: the fresh build matches the recorded checksum; the disk cache."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from qipai.poker import tables as tables_mod
from qipai.poker.tables import TABLES_CRC32, build_tables, card_keys, checksum


@pytest.mark.slow
def test_fresh_build_matches_recorded_checksum() -> None:
    assert checksum(build_tables()) == TABLES_CRC32


def test_loaded_tables_pass_their_checksum() -> None:
    t = tables_mod.tables()
    assert checksum(vars(t)) == TABLES_CRC32
    assert not t.noflush.flags.writeable


def test_cache_round_trip_and_corrupt_file_refused(tmp_path: Path) -> None:
    t = tables_mod.tables()
    path = tmp_path / "sub" / "tables.npz"
    assert tables_mod._load(path) is None  # missing
    arrays = {k: v for k, v in vars(t).items() if k != "card_keys"}
    tables_mod._save(path, arrays)
    loaded = tables_mod._load(path)
    assert loaded is not None
    assert all(np.array_equal(loaded[k], v) for k, v in arrays.items())
    # A changed entry fails the checksum; a truncated file fails to load.
    bad = t.compact.copy()
    bad[123] ^= 1
    tables_mod._save(path, {**arrays, "compact": bad})
    assert tables_mod._load(path) is None
    path.write_bytes(path.read_bytes()[:1000])
    assert tables_mod._load(path) is None


def test_cache_dir_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("QIPAI_CACHE_DIR", str(tmp_path))
    assert tables_mod.cache_dir() == tmp_path


def test_card_keys_pack_rank_key_and_suit_counter() -> None:
    keys = card_keys()
    assert keys[0] == 1 << 32  # 2c: rank key 0, clubs counter
    assert keys[51] == tables_mod.RANK_KEYS[12] + (1 << 44)  # As: spades counter


@pytest.mark.parametrize("n", [5, 6, 7])
def test_compact_table_matches_the_dense_one_for_every_rank_multiset(n: int) -> None:
    from qipai.poker.build import plain_keys

    t = tables_mod.tables()
    keys = plain_keys(n)
    base = {5: tables_mod.BASE5, 6: tables_mod.BASE6, 7: tables_mod.BASE7}[n]
    rowbase = {5: tables_mod.ROWBASE5, 6: tables_mod.ROWBASE6, 7: tables_mod.ROWBASE7}[n]
    slots = keys + t.offsets[rowbase + (keys >> tables_mod.ROW_SHIFT)]
    assert len(np.unique(slots)) == len(keys)  # a perfect hash: no two keys share a slot
    assert slots.min() >= 0 and slots.max() < len(t.compact)
    assert np.array_equal(t.compact[slots], t.noflush[base + keys])
