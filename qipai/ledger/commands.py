"""What `qipai verify` and `qipai audit` do, as functions returning (output text, exit code).

Exit codes: 0 = everything checked out, 1 = a violation or failed check, 2 = bad input (unknown
round, unreachable database)."""

from __future__ import annotations

import json

from sqlalchemy.exc import SQLAlchemyError

from qipai.ledger.api import Ledger
from qipai.ledger.errors import LedgerError


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
        report = ledger.verify_round(round_id)
    except LedgerError as exc:
        return f"error: {exc.message}", 2
    finally:
        ledger.close()
    text = json.dumps(report.to_json(), indent=2) if as_json else "\n".join(report.lines())
    return text, 0 if report.ok else 1


def audit_command(db: str | None, as_json: bool, replay: bool = True) -> tuple[str, int]:
    """Check every ledger invariant; exit code 1 on any violation."""
    try:
        ledger = _open(db)
    except LedgerError as exc:
        return f"error: {exc.message}", 2
    except (SQLAlchemyError, ValueError, OSError) as exc:
        return f"error: cannot open the database: {exc}", 2
    try:
        report = ledger.audit(replay=replay)
    finally:
        ledger.close()
    text = json.dumps(report.to_json(), indent=2) if as_json else "\n".join(report.lines())
    return text, 0 if report.ok else 1
