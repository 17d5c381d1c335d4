"""The evaluator's tables: the fresh build matches the recorded checksum; the disk cache."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from qipai.poker import tables as tables_mod
from qipai.poker.tables import TABLES_CRC32, build_tables, card_keys, checksum


@pytest.mark.slow
def test_fresh_build_matches_recorded_checksum() -> None:
    noflush, flush = build_tables()
    assert checksum(noflush, flush) == TABLES_CRC32


def test_loaded_tables_pass_their_checksum() -> None:
    t = tables_mod.tables()
    assert checksum(t.noflush, t.flush) == TABLES_CRC32
    assert not t.noflush.flags.writeable


def test_cache_round_trip_and_corrupt_file_refused(tmp_path: Path) -> None:
    t = tables_mod.tables()
    path = tmp_path / "sub" / "tables.npz"
    assert tables_mod._load(path) is None  # missing
    tables_mod._save(path, t.noflush, t.flush)
    loaded = tables_mod._load(path)
    assert loaded is not None
    assert np.array_equal(loaded[0], t.noflush) and np.array_equal(loaded[1], t.flush)
    # A changed entry fails the checksum; a truncated file fails to load.
    bad = t.noflush.copy()
    bad[123] ^= 1
    tables_mod._save(path, bad, t.flush)
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
