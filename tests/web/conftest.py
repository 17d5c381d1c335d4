"""The golden views fixture: real state messages of every game, written for the vitest tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import golden


@pytest.fixture(scope="session")
def golden_views(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory of `<game>.json` golden views from the real engine (tests/web/golden.py)."""
    directory = tmp_path_factory.mktemp("golden")
    golden.write(directory)
    return directory
