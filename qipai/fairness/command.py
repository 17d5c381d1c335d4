"""What `qipai verify` does, as functions returning (output text, exit code).

* `qipai verify ROUND_ID [--db …]` (the operator, with the database): the ledger's checks
  (`Ledger.verify_round`: seed, replay, result, money), then the deal printed and checked by the
  specification from the round's export (`export_round(record, operator=True)`).
* `qipai verify --offline FILE` (anyone): the deal of a round exported by the API
  (`GET /api/rounds/{id}`'s body, or `-` for stdin), with no database.

Exit codes: 0 every check passed, 1 a check failed, 2 bad input (unknown round, unreadable file,
not an export, unreachable database).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from qipai.core.errors import GameError
from qipai.fairness.check import DealCheck, check_export
from qipai.fairness.export import export_round


def _registered() -> set[str]:
    from qipai.games import registry

    return set(registry.available())


def verify_round_command(round_id: str, db: str | None, as_json: bool) -> tuple[str, int]:
    """The ledger's verification of one round, then its deal by the specification."""
    from sqlalchemy.exc import SQLAlchemyError

    from qipai.ledger.api import Ledger
    from qipai.ledger.errors import KeyMismatch, LedgerError

    try:
        ledger = Ledger.open(db)
    except (SQLAlchemyError, ValueError, OSError) as exc:
        return f"error: cannot open the database: {exc}", 2
    try:
        from qipai.ledger.commands import terms_check

        report = ledger.verify_round(round_id, terms=terms_check(ledger))
        try:
            record: dict[str, Any] | None = ledger.round(round_id, include_seed=True)
        except KeyMismatch:  # its sealed seed does not open: the report says so
            record = None
    except LedgerError as exc:
        return f"error: {exc.message}", 2
    finally:
        ledger.close()
    if record is None or record["game"] not in _registered():
        # a seed that does not open, or a game no longer installed: the ledger's checks
        text = json.dumps(report.to_json(), indent=2) if as_json else "\n".join(report.lines())
        return text, 0 if report.ok else 1
    problem = ""
    try:
        deal: DealCheck | None = check_export(export_round(record, operator=True))
    except GameError as exc:
        deal, problem = None, exc.message
    except (KeyError, TypeError, ValueError) as exc:  # a journal that does not replay
        deal, problem = None, f"{type(exc).__name__}: {exc}"
    ok = report.ok and deal is not None and deal.ok
    if as_json:
        body: dict[str, Any] = {
            "ok": ok,
            "ledger": report.to_json(),
            "deal": deal.to_json() if deal is not None else {"ok": False, "error": problem},
        }
        return json.dumps(body, indent=2), 0 if ok else 1
    lines = report.lines()
    lines.append("deal (docs/fairness.md, deal-spec/1):")
    lines += (
        ["  " + line for line in deal.text().splitlines()]
        if deal is not None
        else [f"  FAIL the deal cannot be rebuilt: {problem}"]
    )
    return "\n".join(lines), 0 if ok else 1


def verify_offline_command(source: str, as_json: bool) -> tuple[str, int]:
    """The deal of an exported round (a file path, or `-` for stdin), without any database."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        return f"error: cannot read {source}: {exc.strerror}", 2
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        return f"error: invalid JSON in {source}: {exc.msg} at line {exc.lineno}", 2
    try:
        deal = check_export(document)
    except GameError as exc:
        return f"error: {exc.message}", 2
    out = json.dumps(deal.to_json(), indent=2) if as_json else deal.text()
    return out, 0 if deal.ok else 1


__all__ = ["verify_offline_command", "verify_round_command"]
