"""`qipai operator add/list/reset/disable`: the one-time password it prints signs in (setup
stage only), and bad input is a one-line error with exit code 2."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from qipai.authority import Authority
from qipai.cli import app
from qipai.ledger import Ledger


def test_operator_commands(tmp_path: Path) -> None:
    db = str(tmp_path / "ops.sqlite3")
    runner = CliRunner()
    added = runner.invoke(app, ["operator", "add", "olga", "--db", db])
    assert added.exit_code == 0, added.output
    password = added.output.strip().splitlines()[-1]
    auditor = runner.invoke(app, ["operator", "add", "audrey", "--role", "auditor", "--db", db])
    assert auditor.exit_code == 0
    again = runner.invoke(app, ["operator", "add", "olga", "--db", db])
    assert again.exit_code == 2 and "exists" in again.output
    bad = runner.invoke(app, ["operator", "add", "olga2", "--role", "king", "--db", db])
    assert bad.exit_code == 2 and "role" in bad.output
    listed = runner.invoke(app, ["operator", "list", "--db", db])
    assert "olga" in listed.output and "must change password" in listed.output
    assert "auditor" in listed.output
    with Ledger.open(db) as ledger:
        login = Authority(ledger.engine, ledger=ledger).operators.login("olga", password)
        assert login["stage"] == "setup"
    reset = runner.invoke(app, ["operator", "reset", "olga", "--reason", "lost", "--db", db])
    assert reset.exit_code == 0
    new_password = reset.output.strip().splitlines()[-1]
    assert new_password != password
    off = runner.invoke(app, ["operator", "disable", "olga", "--db", db])
    assert (
        off.exit_code == 0
        and "disabled" in runner.invoke(app, ["operator", "list", "--db", db]).output
    )
    missing = runner.invoke(app, ["operator", "reset", "nobody", "--db", db])
    assert missing.exit_code == 2 and "no operator" in missing.output
    with Ledger.open(db) as ledger:
        log = Authority(ledger.engine, ledger=ledger).log  # keyed: the ledger's key
        actions = [r["action"] for r in reversed(log.entries())]
        assert actions == [
            "operator.add",
            "operator.add",
            "login",
            "operator.reset",
            "operator.disable",
        ]
        assert log.verify() == []
