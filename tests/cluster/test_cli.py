"""`qipai serve --processes N` / `--redis` on SQLite is refused with a clear message (the
embedded database is served by one process alone), before anything starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from qipai.cli import app
from qipai.cluster.settings import ClusterSettings


@pytest.mark.parametrize("flags", [["--processes", "2"], ["--redis", "redis://127.0.0.1:6379/0"]])
def test_more_than_one_process_on_sqlite_is_refused(tmp_path: Path, flags: list[str]) -> None:
    db = tmp_path / "room.db"
    result = CliRunner().invoke(app, ["serve", "--db", str(db), *flags])
    assert result.exit_code == 2
    assert "needs PostgreSQL" in result.output and "one process alone" in result.output
    assert not db.exists()  # nothing was started


def test_a_lease_is_renewed_well_before_it_lapses() -> None:
    assert ClusterSettings().lease_ttl_s == 3.0 and ClusterSettings().renew_s == 1.0
    with pytest.raises(ValidationError, match="renew_s must be at most half"):
        ClusterSettings(lease_ttl_s=3.0, renew_s=2.0)
