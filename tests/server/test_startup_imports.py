"""One process on SQLite starts without what only other modes use: no Alembic (nor its Mako
and Pygments) when the database is already at its heads, no Redis and no HTTP forwarding
without a cluster (docs/scaling.md "Start-up")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
from qipai.server.app import create_app
create_app(sys.argv[1])
print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))
"""


def loaded_when_serving(db: Path) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(db)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_an_existing_sqlite_room_imports_no_migration_tool_and_no_cluster(tmp_path: Path) -> None:
    db = tmp_path / "room.db"
    first = loaded_when_serving(db)  # creates the database: migrating needs Alembic
    assert "alembic" in first
    again = loaded_when_serving(db)
    assert not again & {"alembic", "mako", "pygments", "redis", "httpx"}, again


def test_the_migration_heads_are_alembics() -> None:
    from alembic.script import ScriptDirectory

    from qipai.ledger.db import alembic_config, head_revisions

    assert head_revisions() == frozenset(ScriptDirectory.from_config(alembic_config()).get_heads())
