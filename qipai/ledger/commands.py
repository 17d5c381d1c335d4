"""What `qipai verify` and `qipai audit` do, as functions returning (output text, exit code).

Exit codes: 0 = everything checked out, 1 = a violation or failed check, 2 = bad input (unknown
round, unreachable database)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError

from qipai.ledger.api import Ledger
from qipai.ledger.errors import LedgerError
from qipai.ledger.verify import TermsCheck


def _open(db: str | None) -> Ledger:
    return Ledger.open(db)


def verify_command(round_id: str, db: str | None, as_json: bool) -> tuple[str, int]:
    """Replay one round from the journal and report seed, deal, result and money checks."""
    try:
        ledger = _open(db)
    except LedgerError as exc:
        return f"error: {exc.message}", 2
    except (SQLAlchemyError, ValueError, OSError) as exc:
        return f"error: cannot open the database: {exc}", 2
    try:
        report = ledger.verify_round(round_id, terms=terms_check(ledger))
    except LedgerError as exc:
        return f"error: {exc.message}", 2
    finally:
        ledger.close()
    text = json.dumps(report.to_json(), indent=2) if as_json else "\n".join(report.lines())
    return text, 0 if report.ok else 1


def audit_command(
    db: str | None,
    as_json: bool,
    replay: bool = True,
    *,
    heads: bool = False,
    expect_heads: str | None = None,
    app_role: str | None = None,
) -> tuple[str, int]:
    """Check every ledger invariant and recompute every chain; exit code 1 on any violation.

    `heads`: print only the chains' heads (`<chain> <seq> <mac>` lines, or JSON), to keep and
    check later with `expect_heads` (a file of such lines): deleting the newest records of a
    chain leaves a shorter valid chain, which only an earlier head shows."""
    from pathlib import Path

    from qipai.ledger.audit import heads_text, read_heads

    expected = None
    if expect_heads is not None:
        try:
            expected = read_heads(Path(expect_heads).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            return f"error: cannot read the heads file {expect_heads}: {exc}", 2
    try:
        ledger = _open(db)
    except LedgerError as exc:
        return f"error: {exc.message}", 2
    except (SQLAlchemyError, ValueError, OSError) as exc:
        return f"error: cannot open the database: {exc}", 2
    try:
        report = ledger.audit(
            replay=replay,
            expect_heads=expected,
            app_role=app_role,
            terms=terms_check(ledger),
            also=operator_log_check(ledger),
        )
    finally:
        ledger.close()
    if heads:
        if as_json:
            text = json.dumps(report.to_json()["heads"], indent=2)
        else:
            text = heads_text(report.heads)
        if not report.ok:
            text += "\n" + "\n".join(f"# VIOLATION: {v}" for v in report.violations)
        return text, 0 if report.ok else 1
    text = json.dumps(report.to_json(), indent=2) if as_json else "\n".join(report.lines())
    return text, 0 if report.ok else 1


def terms_check(ledger: Ledger) -> TermsCheck | None:
    """The template seals of rounds' terms (`authority.seals.round_findings`) where the
    database has sealed templates (None: a bare ledger)."""
    from sqlalchemy import inspect

    if not inspect(ledger.engine).has_table("template_seals"):
        return None
    from qipai.authority import seals

    key = ledger.keys.template_key

    def check(conn: Connection, round_ids: Sequence[str] | None) -> dict[str, list[str]]:
        return seals.round_findings(conn, key, round_ids)

    return check


def operator_log_check(ledger: Ledger) -> Callable[[Connection], list[str]] | None:
    """The operator log checked under its key (HMAC chain and head: docs/security.md) and every
    template version against its seal, read in the audit's snapshot (None: a bare ledger)."""
    from sqlalchemy import inspect

    from qipai.authority.oplog import OperatorLog

    if not inspect(ledger.engine).has_table("ops_log"):
        return None
    log = OperatorLog(ledger.engine, key=ledger.keys.oplog_key)
    sealed = inspect(ledger.engine).has_table("template_seals")
    key = ledger.keys.template_key

    def check(conn: Connection) -> list[str]:
        out = [f"operator log: {p}" for p in log.verify_in(conn)]
        if sealed:
            from qipai.authority import seals

            found = seals.findings(conn, key)
            out += [f"template {t} version {v}: {what}" for (t, v), what in sorted(found.items())]
        return out

    return check


def migrate_command(db: str | None, app_role: str | None) -> tuple[str, int]:
    """Migrate (and seal a database written before the chains); exit 2 on failure."""
    try:
        ledger = Ledger.open(db, app_role=app_role)
    except LedgerError as exc:
        return f"error: {exc.message}", 2
    except (SQLAlchemyError, ValueError, OSError) as exc:
        return f"error: cannot migrate the database: {exc}", 2
    try:
        from sqlalchemy import text

        with ledger.engine.connect() as conn:
            heads = sorted(
                str(v) for (v,) in conn.execute(text("SELECT version_num FROM alembic_version"))
            )
        granted = (
            f"; privileges granted to {app_role}"
            if app_role and ledger.dialect == "postgresql"
            else ""
        )
        return f"database at {', '.join(heads)} (key id {ledger.keys.key_id}){granted}", 0
    finally:
        ledger.close()
