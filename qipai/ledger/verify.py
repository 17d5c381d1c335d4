"""Re-verify a journaled round: the revealed seed matches its commitment, replaying the recorded
actions from that seed rebuilds the same deal and result, and the money the ledger moved equals a
fresh settlement of the replay (docs/rules/common.md#reproducibility "Common to every game": replaying the log gives the same
cards, the same results and the same money movements)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from qipai.core.protocol import RecordedAction, RoundResult, Seat
from qipai.core.rng import verify as verify_seed
from qipai.ledger import holds as holds_mod
from qipai.ledger.book import settlement_legs
from qipai.ledger.posting import load_tx

if TYPE_CHECKING:
    from qipai.ledger.api import Ledger


@dataclass(frozen=True)
class Check:
    """One verification step and what it found."""

    name: str
    ok: bool
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"check": self.name, "ok": self.ok, "detail": self.detail}


@dataclass
class VerifyReport:
    """The outcome of `verify_round`: every check, and `ok` only when all of them passed."""

    round_id: str
    game: str
    status: str
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    def add(self, name: str, ok: bool, detail: str = "") -> bool:
        self.checks.append(Check(name, ok, detail))
        return ok

    def to_json(self) -> dict[str, Any]:
        return {
            "round_id": self.round_id,
            "game": self.game,
            "status": self.status,
            "ok": self.ok,
            "checks": [c.to_json() for c in self.checks],
        }

    def lines(self) -> list[str]:
        head = (
            f"round {self.round_id} ({self.game}, {self.status}): {'OK' if self.ok else 'FAILED'}"
        )
        return [head] + [
            f"  {'ok  ' if c.ok else 'FAIL'} {c.name}" + (f": {c.detail}" if c.detail else "")
            for c in self.checks
        ]


def _normal(data: Any) -> Any:
    """JSON round-trip, so that tuples and lists (and int keys) compare as stored."""
    return json.loads(json.dumps(data, sort_keys=True, default=str))


def replay_round(record: dict[str, Any]) -> Any:
    """Rebuild the round object from a journal record (`Ledger.round(include_seed=True)`):
    the deal's stream key is the server seed combined with the round's client seeds, if any
    (`qipai.fairness.round_key`, deal-spec/1)."""
    from qipai.fairness import round_key
    from qipai.games import game_package

    package = game_package(record["game"])
    config = package.CONFIG.from_json(record["config"])
    seats = [Seat.from_json(s) for s in record["seats"]]
    actions = [
        RecordedAction(e["seat"], e["payload"]) for e in record["log"] if e["kind"] == "action"
    ]
    return package.ROUND.replay(config, seats, round_key(record), actions, record["context"])


TermsCheck = Callable[[Connection, Sequence[str] | None], dict[str, list[str]]]
"""Round ids (None: every round) -> what is wrong with the template terms each was dealt under
(the authority's `seals.round_findings`: the ledger does not read templates)."""


def round_checks(
    ledger: Ledger, round_id: str, report: VerifyReport, terms: TermsCheck | None = None
) -> None:
    """Every per-round check `qipai audit` runs, on one round and in one read: its records'
    MACs (`round_macs`; the audit recomputes whole chains), its facts (`audit.check_round_facts`:
    end, settlement, holds, start balances, terms hash) and, given `terms`, its template's seal."""
    from qipai.ledger import round_macs
    from qipai.ledger.audit import AuditReport, check_round_facts

    def work(conn: Connection) -> tuple[list[str], list[str], list[str] | None]:
        macs = round_macs.findings(conn, ledger.keys.mac_key, [round_id]).get(round_id, [])
        facts = AuditReport()
        check_round_facts(conn, facts, [round_id])
        sealed = None if terms is None else terms(conn, [round_id]).get(round_id, [])
        return macs, facts.violations, sealed

    macs, facts, sealed = ledger._read(work)
    report.add("records' MACs", not macs, "; ".join(macs) or "header, journal and transactions")
    report.add("round's ledger facts", not facts, "; ".join(facts) or "as qipai audit checks them")
    if sealed is not None:
        report.add("template seal", not sealed, "; ".join(sealed) or "terms as sealed")


def verify_round(
    ledger: Ledger, round_id: str, *, records: bool = True, terms: TermsCheck | None = None
) -> VerifyReport:
    """Check one round: with `records` every per-round check `qipai audit` runs
    (`round_checks`), then replay it from the journal and check seed, deal, result and money.
    `records=False` is the replay alone (the audit, which checked the rest over everything).

    UnknownRound propagates (the CLI turns it into a one-line error)."""
    from qipai.ledger.errors import KeyMismatch

    try:
        record = ledger.round(round_id, include_seed=True)
    except KeyMismatch as exc:  # the sealed seed was swapped or the key differs: a finding
        if not records:
            raise
        plain = ledger.round(round_id)
        report = VerifyReport(round_id, plain["game"], plain["status"])
        round_checks(ledger, round_id, report, terms)
        report.add("sealed seed opens", False, exc.message)
        return report
    report = VerifyReport(round_id, record["game"], record["status"])
    if records:
        round_checks(ledger, round_id, report, terms)
    report.add(
        "seed matches commitment",
        verify_seed(record["seed"], record["seed_commitment"]),
        f"sha256(seed) = {record['seed_commitment']}",
    )
    try:
        round_ = replay_round(record)
    except Exception as exc:
        report.add("replay", False, f"{type(exc).__name__}: {exc}")
        return report
    n_actions = sum(1 for e in record["log"] if e["kind"] == "action")
    if record["status"] == "open":
        report.add("replay", True, f"{n_actions} actions replayed; round still open")
        report.add("settled", False, "the round is not settled yet")
        return report
    if record["status"] == "voided":
        report.add("replay", True, f"{n_actions} actions replayed; round voided, no settlement")
        return report
    if not report.add("replay finished", bool(round_.finished), f"phase {round_.phase!r}"):
        return report
    fresh: RoundResult = round_.result()
    stored = record["result"] or {}
    report.add(
        "deal and result match the replay",
        _normal(fresh.to_json()) == _normal(stored),
        "" if _normal(fresh.to_json()) == _normal(stored) else "recorded result differs",
    )
    report.add("money", *_money(ledger, record, fresh))
    return report


def _money(ledger: Ledger, record: dict[str, Any], fresh: RoundResult) -> tuple[bool, str]:
    """Compare the settlement transaction's entries with a fresh settlement of the replay."""
    tx_id = record["settlement_tx"]
    if tx_id is None:
        return False, "settled round has no settlement transaction"
    mapping: dict[str, str] = dict(record["accounts"] or {})
    missing = sorted({p.account for p in fresh.postings} - set(mapping))
    if missing:
        return False, f"replayed postings to accounts never settled: {missing}"

    def work(conn: Any) -> tuple[dict[str, int], list[holds_mod.Hold]]:
        tx = load_tx(conn, tx_id)
        captured = [h for h in holds_mod.of_round(conn, record["round_id"]) if h.close_tx == tx_id]
        return {e.account: e.amount for e in tx.entries}, captured

    actual, captured = ledger._read(work)
    expected = settlement_legs(fresh, mapping, captured)
    if actual == expected:
        return True, f"{len(actual)} ledger entries equal a fresh settlement"
    diff = {
        k: (expected.get(k, 0), actual.get(k, 0))
        for k in sorted(set(actual) | set(expected))
        if expected.get(k, 0) != actual.get(k, 0)
    }
    return False, f"(expected, recorded) differ: {diff}"


__all__ = ["Check", "TermsCheck", "VerifyReport", "replay_round", "round_checks", "verify_round"]
