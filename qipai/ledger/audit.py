"""The invariant checker behind `qipai audit`: money is never created, lost or overdrawn, and every
settled round's money matches a replay.

Checks (each violation is one line of the report):
* every transaction's entries sum to zero;
* every account's balance equals the sum of its entries, and each entry's `balance_after` equals
  the previous entry's plus its amount (the chain of balances is intact);
* no account that must stay non-negative is (or ever was) negative;
* only deposits, withdrawals and their reversals touch the outside world, and the sum of all
  accounts equals deposits minus withdrawals;
* each hold account holds exactly its open holds, and no settled or voided round has an open hold;
* every settled round replays to the money the ledger recorded (`verify.verify_round`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, and_, func, not_, select

from qipai.ledger.accounts import EXTERNAL
from qipai.ledger.schema import accounts, entries, holds, rounds, transactions

if TYPE_CHECKING:
    from qipai.ledger.api import Ledger


@dataclass
class AuditReport:
    """Violations found (empty when the ledger is sound) and the totals that were checked."""

    violations: list[str] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.violations

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "violations": self.violations, "stats": self.stats}

    def lines(self) -> list[str]:
        out = [f"{k}: {v}" for k, v in self.stats.items()]
        out += [f"VIOLATION: {v}" for v in self.violations]
        out.append("audit OK" if self.ok else f"audit FAILED: {len(self.violations)} violation(s)")
        return out


def check_books(conn: Connection, report: AuditReport) -> None:
    """Every check that is pure SQL over accounts, transactions, entries and holds."""
    unbalanced = conn.execute(
        select(entries.c.tx_id, func.sum(entries.c.amount))
        .group_by(entries.c.tx_id)
        .having(func.sum(entries.c.amount) != 0)
    ).all()
    report.violations += [f"transaction {t} sums to {s}, not 0" for t, s in unbalanced]

    sums = (
        select(entries.c.account_id, func.sum(entries.c.amount).label("total"))
        .group_by(entries.c.account_id)
        .subquery()
    )
    drift = conn.execute(
        select(accounts.c.name, accounts.c.balance, func.coalesce(sums.c.total, 0))
        .select_from(accounts.outerjoin(sums, sums.c.account_id == accounts.c.id))
        .where(accounts.c.balance != func.coalesce(sums.c.total, 0))
    ).all()
    report.violations += [f"account {n} shows {b} but its entries sum to {s}" for n, b, s in drift]

    prev = func.lag(entries.c.balance_after, 1, 0).over(
        partition_by=entries.c.account_id, order_by=entries.c.id
    )
    chain = select(
        entries.c.id,
        entries.c.account_id,
        entries.c.amount,
        entries.c.balance_after,
        prev.label("prev"),
    ).subquery()
    broken = conn.execute(
        select(chain.c.id, accounts.c.name)
        .join(accounts, accounts.c.id == chain.c.account_id)
        .where(chain.c.prev + chain.c.amount != chain.c.balance_after)
        .limit(50)
    ).all()
    report.violations += [f"entry {i} of {n} breaks the balance chain" for i, n in broken]

    negative = conn.execute(
        select(accounts.c.name, accounts.c.balance).where(
            and_(not_(accounts.c.allow_negative), accounts.c.balance < 0)
        )
    ).all()
    report.violations += [f"account {n} is negative: {b}" for n, b in negative]
    went_negative = conn.execute(
        select(func.count())
        .select_from(entries.join(accounts, accounts.c.id == entries.c.account_id))
        .where(and_(not_(accounts.c.allow_negative), entries.c.balance_after < 0))
    ).scalar_one()
    if went_negative:
        report.violations.append(f"{went_negative} entries left a non-negative account below 0")

    _check_conservation(conn, report)
    _check_holds(conn, report)


def _check_conservation(conn: Connection, report: AuditReport) -> None:
    ext = entries.join(accounts, accounts.c.id == entries.c.account_id).join(
        transactions, transactions.c.id == entries.c.tx_id
    )
    by_kind = dict(
        conn.execute(
            select(transactions.c.kind, func.sum(entries.c.amount))
            .select_from(ext)
            .where(accounts.c.name == EXTERNAL)
            .group_by(transactions.c.kind)
        ).all()
    )
    deposits = -int(by_kind.pop("deposit", 0) or 0)
    withdrawals = int(by_kind.pop("withdraw", 0) or 0)
    reversals = -int(by_kind.pop("reversal", 0) or 0)
    for kind, amount in by_kind.items():
        report.violations.append(f"{kind} transactions moved {amount} to or from outside")
    internal = int(
        conn.execute(
            select(func.coalesce(func.sum(accounts.c.balance), 0)).where(
                accounts.c.name != EXTERNAL
            )
        ).scalar_one()
    )
    expected = deposits - withdrawals + reversals
    report.stats.update(deposits=deposits, withdrawals=withdrawals, sum_of_accounts=internal)
    if reversals:
        report.stats["reversed_deposits_withdrawals"] = reversals
    if internal != expected:
        report.violations.append(
            f"sum of all accounts {internal} != deposits - withdrawals {expected}"
        )


def _check_holds(conn: Connection, report: AuditReport) -> None:
    open_sum = (
        select(holds.c.hold_account_id, func.sum(holds.c.amount).label("held"))
        .where(holds.c.status == "open")
        .group_by(holds.c.hold_account_id)
        .subquery()
    )
    wrong = conn.execute(
        select(accounts.c.name, accounts.c.balance, func.coalesce(open_sum.c.held, 0))
        .select_from(accounts.outerjoin(open_sum, open_sum.c.hold_account_id == accounts.c.id))
        .where(
            and_(accounts.c.kind == "hold", accounts.c.balance != func.coalesce(open_sum.c.held, 0))
        )
    ).all()
    report.violations += [
        f"hold account {n} holds {b} but its open holds total {h}" for n, b, h in wrong
    ]
    stale = conn.execute(
        select(holds.c.id, rounds.c.id, rounds.c.status)
        .join(rounds, rounds.c.id == holds.c.round_id)
        .where(and_(holds.c.status == "open", rounds.c.status != "open"))
    ).all()
    report.violations += [f"hold {h} is still open in {s} round {r}" for h, r, s in stale]
    no_tx = conn.execute(
        select(rounds.c.id).where(
            and_(rounds.c.status == "settled", rounds.c.settlement_tx.is_(None))
        )
    ).all()
    report.violations += [f"settled round {r} has no settlement transaction" for (r,) in no_tx]


def audit(ledger: Ledger, *, replay: bool = True) -> AuditReport:
    """Run every check; `replay=False` skips replaying the settled rounds (faster)."""
    from qipai.ledger.verify import verify_round

    report = AuditReport()

    def books(conn: Connection) -> list[str]:
        check_books(conn, report)
        for name, table in (
            ("accounts", accounts),
            ("transactions", transactions),
            ("entries", entries),
            ("rounds", rounds),
        ):
            report.stats[name] = int(
                conn.execute(select(func.count()).select_from(table)).scalar_one()
            )
        return [
            str(r[0])
            for r in conn.execute(
                select(rounds.c.id).where(rounds.c.status == "settled").order_by(rounds.c.opened_at)
            )
        ]

    settled = ledger._read(books)
    report.stats["settled_rounds"] = len(settled)
    if replay:
        for round_id in settled:
            result = verify_round(ledger, round_id)
            for check in result.checks:
                if not check.ok:
                    report.violations.append(f"round {round_id}: {check.name}: {check.detail}")
        report.stats["rounds_replayed"] = len(settled)
    return report
