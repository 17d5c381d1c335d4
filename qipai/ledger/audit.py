"""The checker behind `qipai audit`: every record is where its chain says and carries the MAC
of its contents; money is never created, lost or overdrawn; nothing derived disagrees with the
records; and (with `--replay`) every settled round's money matches a replay of its journal.

Checks (each violation is one line of the report, naming the record):
* chains (`qipai.ledger.chain`): every chained row has a position and a MAC; positions run 1, 2,
  3… without gap or repeat; each MAC is HMAC(key, previous MAC ‖ the record) — the first record
  whose MAC does not match is named (an edit, an insertion, a deletion or a reordering breaks
  it); each record is in the chain it belongs to; the writers' heads (`chain_heads`) equal the
  chains' last records; heads printed earlier (`--expect-heads`) are still in their chains;
* every transaction's entries sum to zero; every account's balance equals the sum of its entries,
  and each entry's `balance_after` equals the previous entry's plus its amount;
* no account that must stay non-negative is (or ever was) negative;
* only deposits, withdrawals and their reversals touch the outside world, and the sum of all
  accounts equals deposits minus withdrawals;
* holds: each hold account holds exactly its open holds (holds without a closure); each hold's
  authorization moved exactly its amount; each closure agrees with the transaction that made it
  (capture/settlement captured, void released); no round that ended has an open hold;
* rounds: a settled round has exactly one settlement and no void; a voided round exactly one void
  (with its reason) and no settlement, and that void returned exactly the holds it closed; a
  settlement moved exactly what its recorded result says (without replaying);
* the append-only triggers exist on every table that carries meaning; on PostgreSQL the
  application role can neither UPDATE nor DELETE those tables nor change the schema;
* with `--replay` (the default): every settled round replays to the money it moved
  (`verify.verify_round`).

The report also gives, as their own lines, the house's result at the tables, its result from
bot play, the jackpot pools' movements and the operators' adjustments (docs/operators.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, and_, func, not_, select, text, true

from qipai.ledger import accounts as acct
from qipai.ledger import chain as chain_mod
from qipai.ledger import jackpot
from qipai.ledger import records as records_mod
from qipai.ledger import terms as terms_mod
from qipai.ledger.accounts import EXTERNAL
from qipai.ledger.schema import (
    APPEND_ONLY,
    NEVER_DELETED,
    WRITER_CHECKED_REFERENCES,
    accounts,
    chain_heads,
    entries,
    hold_closures,
    hold_is_open,
    holds,
    round_ends,
    round_players,
    rounds,
    transactions,
)

if TYPE_CHECKING:
    from qipai.ledger.api import Ledger
    from qipai.ledger.verify import TermsCheck

Only = Sequence[str] | None
"""Which rounds a per-round check looks at (None: every round)."""


@dataclass
class AuditReport:
    """Violations found (empty when the ledger is sound) and the totals that were checked."""

    violations: list[str] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)
    house: dict[str, Any] = field(default_factory=dict)
    """The house's side: result at the tables, from bot play, jackpot pools, adjustments."""
    heads: dict[str, tuple[int, str]] = field(default_factory=dict)
    """Each chain's last record (seq, mac), as recomputed."""

    @property
    def ok(self) -> bool:
        return not self.violations

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "violations": self.violations,
            "stats": self.stats,
            "house": self.house,
            "heads": {c: {"seq": s, "mac": m} for c, (s, m) in sorted(self.heads.items())},
        }

    def house_lines(self) -> list[str]:
        h = self.house
        if not h:
            return []
        out = [f"house result at the tables: {h['tables']}"]
        out += [f"  table {t}: {v}" for t, v in sorted(h["by_table"].items())]
        bots = h["bots"]
        out.append(
            f"house result from bot play: {bots['result']} (bankroll {bots['bankroll']}, "
            f"{bots['at_tables']} still at tables)"
        )
        jp = h["jackpot"]
        out.append(
            f"jackpot from the house: funding {jp['funding']} (house-jackpot {jp['fund']}), "
            f"seed {jp['seed']}, top-ups {jp['top_ups']}"
        )
        for pool, p in sorted(jp["pools"].items()):
            out.append(
                f"  jackpot pool {pool}: funding {p['funding']}, seed {p['seed']}, "
                f"top-ups {p['top_ups']}, contributions {p['contributions']}, "
                f"awards {p['awards']}, balance {p['balance']}"
            )
        adj = h["adjustments"]
        out.append(f"operator adjustments: {adj['count']} (reversals {adj['reversals']})")
        return out

    def lines(self) -> list[str]:
        out = [f"{k}: {v}" for k, v in self.stats.items()]
        out += self.house_lines()
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

    check_references(conn, report)
    _check_conservation(conn, report)
    _check_holds(conn, report)


def check_references(conn: Connection, report: AuditReport) -> None:
    """Every reference that PostgreSQL no longer checks with a foreign key (the writer's
    statement does, migration 0004; SQLite still has the keys) names a row that exists."""
    for table, column, parent, parent_column in WRITER_CHECKED_REFERENCES:
        rows = conn.execute(
            text(
                f"SELECT c.{column} FROM {table} c WHERE c.{column} IS NOT NULL AND NOT EXISTS "
                f"(SELECT 1 FROM {parent} p WHERE p.{parent_column} = c.{column}) "
                f"ORDER BY c.{column} LIMIT 21"
            )
        ).all()
        missing = sorted({str(r[0]) for r in rows})
        if missing:
            shown = ", ".join(missing[:20]) + (" …" if len(rows) > 20 else "")
            report.violations.append(f"{table}.{column} names {parent} that do not exist: {shown}")


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
        .where(hold_is_open())
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

    names = records_mod.account_names(conn)
    legs: dict[int, dict[str, int]] = {}
    for tx_id, aid, amount in conn.execute(
        select(entries.c.tx_id, entries.c.account_id, entries.c.amount)
    ):
        legs.setdefault(int(tx_id), {})[names[int(aid)]] = int(amount)
    txs = {
        int(i): (str(k), r)
        for i, k, r in conn.execute(
            select(transactions.c.id, transactions.c.kind, transactions.c.round_id)
        )
    }
    # each authorizing transaction moved exactly its holds' amounts, from each hold's source to
    # its hold account (one hold, or a round's stakes: one hold per seat)
    opened: dict[int, list[Any]] = {}
    for row in conn.execute(select(holds).order_by(holds.c.id)).mappings():
        opened.setdefault(int(row["authorize_tx"]), []).append(row)
    for tx_id, rows in opened.items():
        want: dict[str, int] = {}
        for row in rows:
            src, dst = names[int(row["source_account_id"])], names[int(row["hold_account_id"])]
            want[src] = want.get(src, 0) - int(row["amount"])
            want[dst] = want.get(dst, 0) + int(row["amount"])
        if legs.get(tx_id, {}) != {k: v for k, v in want.items() if v}:
            what = ", ".join(
                f"{r['amount']} from {names[int(r['source_account_id'])]} "
                f"to {names[int(r['hold_account_id'])]}"
                for r in rows
            )
            ids = ", ".join(str(r["id"]) for r in rows)
            report.violations.append(f"hold {ids}'s authorization did not move exactly {what}")
        if len(rows) > 1 and (
            txs.get(tx_id, ("?", None))[0] != chain_mod.STAKES
            or len({r["seat"] for r in rows}) != len(rows)
        ):
            report.violations.append(
                f"transaction {tx_id} opened {len(rows)} holds but is not a round's stakes "
                "(one hold per seat)"
            )
    hold_rows = {int(r["id"]): r for r in conn.execute(select(holds)).mappings()}
    allowed = {
        "settle": "captured",
        "capture": "captured",
        "void": "voided",
        "void_round": "voided",
        "withdraw": "captured",  # a withdrawal request's hold paid out
    }
    for row in conn.execute(select(hold_closures)).mappings():
        hold = hold_rows.get(int(row["hold_id"]))
        kind, round_id = txs.get(int(row["tx_id"]), ("?", None))
        if hold is None:
            continue  # (the foreign key makes this impossible)
        if allowed.get(kind) != row["status"]:
            report.violations.append(
                f"hold {row['hold_id']} is recorded {row['status']} by a {kind} transaction"
            )
        if int(row["captured"]) > int(hold["amount"]) or (
            row["status"] == "voided" and int(row["captured"]) != 0
        ):
            report.violations.append(
                f"hold {row['hold_id']} closure captured {row['captured']} of {hold['amount']}"
            )
        if kind in ("settle", "void_round") and round_id != hold["round_id"]:
            report.violations.append(
                f"hold {row['hold_id']} of round {hold['round_id']} was closed by round "
                f"{round_id}'s {kind}"
            )


def _check_stale_holds(conn: Connection, report: AuditReport, only: Only = None) -> None:
    query = (
        select(holds.c.id, round_ends.c.round_id, round_ends.c.status)
        .join(round_ends, round_ends.c.round_id == holds.c.round_id)
        .where(hold_is_open())
    )
    if only is not None:
        query = query.where(holds.c.round_id.in_(only))
    stale = conn.execute(query).all()
    report.violations += [f"hold {h} is still open in {s} round {r}" for h, r, s in stale]


def check_start_balances(conn: Connection, report: AuditReport, only: Only = None) -> None:
    """A round's header says what each player's stack held when it opened (MACed, and what
    players' history shows as their balance before the round); for every seat that staked at
    the opening, that is what the stack held just before its stake left it: the stake's entry
    (in the round's stakes transaction, or in the seat's own `hold` transaction of a round
    written before migration 0005) has balance after − amount = the header's start balance. A
    seat that staked nothing at the opening moved no money then, so has no entry to check."""
    stake_tx = and_(
        transactions.c.id == holds.c.authorize_tx,
        transactions.c.round_id == round_players.c.round_id,
        (transactions.c.kind == chain_mod.STAKES)
        | (
            transactions.c.key
            == "round:" + round_players.c.round_id + ":seat:" + round_players.c.seat + ":stake"
        ),
    )
    wrong = conn.execute(
        select(
            round_players.c.round_id,
            round_players.c.seat,
            round_players.c.start_balance,
            entries.c.balance_after - entries.c.amount,
        )
        .select_from(round_players)
        .join(accounts, accounts.c.name == round_players.c.account)
        .join(
            holds,
            and_(
                holds.c.round_id == round_players.c.round_id,
                holds.c.seat == round_players.c.seat,
                holds.c.source_account_id == accounts.c.id,
            ),
        )
        .join(transactions, stake_tx)
        .join(
            entries,
            # `+ 0`: reach the entry through its transaction (ix_entries_tx, a few rows), never
            # through its account — SQLite (no statistics) otherwise scanned every entry of the
            # stack for each of its rounds: quadratic (2,000 rounds 17 s, now linear)
            and_(entries.c.tx_id == transactions.c.id, entries.c.account_id + 0 == accounts.c.id),
        )
        .where(round_players.c.start_balance != entries.c.balance_after - entries.c.amount)
        .where(true() if only is None else round_players.c.round_id.in_(only))
        .order_by(round_players.c.round_id, round_players.c.seat)
        .limit(50)
    ).all()
    report.violations += [
        f"round {r} seat {seat}: its header says the stack held {start} at the opening, "
        f"but it held {held} before the stake"
        for r, seat, start, held in wrong
    ]


def check_round_facts(conn: Connection, report: AuditReport, only: Only = None) -> None:
    """Every check of a round's own facts (`only`: of these rounds; None: of every round): its
    end and the transactions that made it, its settlement against its recorded result, its
    holds, its players' start balances and the terms it was dealt under. `qipai audit` runs it
    over every round in its snapshot, `qipai verify ROUND` over one (with the round's MACs,
    `round_macs`, where the audit recomputes whole chains)."""
    _check_rounds(conn, report, only)
    _check_stale_holds(conn, report, only)
    check_start_balances(conn, report, only)
    check_round_terms(conn, report, only)


def check_round_terms(conn: Connection, report: AuditReport, only: Only = None) -> None:
    """A round's terms hash (`meta.terms_hash`, taken by the ledger from the settings it was
    dealt under when it opened, `qipai.ledger.terms`) is recomputed from the settings its header
    records; and the hash its terms claimed (`meta.config_hash`, the template's) must be that
    same hash: a template edited in the database deals its new settings under the old claim.
    A round written before rounds recorded `terms_hash` is checked by its claim alone."""
    query = select(rounds.c.id, rounds.c.config, rounds.c.meta).order_by(rounds.c.id)
    if only is not None:
        query = query.where(rounds.c.id.in_(only))
    for rid, config, meta in conn.execute(query):
        problem = terms_mod.problem(config, meta)
        if problem is not None:
            report.violations.append(f"round {rid}: {problem}")


def _check_rounds(conn: Connection, report: AuditReport, only: Only = None) -> None:
    from qipai.core.protocol import Posting, RoundResult
    from qipai.ledger.book import settlement_legs

    def of(query: Any, column: Any) -> Any:
        return query if only is None else query.where(column.in_(only))

    per_round: dict[str, dict[str, list[int]]] = {}
    for tx_id, kind, round_id in conn.execute(
        of(
            select(transactions.c.id, transactions.c.kind, transactions.c.round_id).where(
                and_(
                    transactions.c.round_id.is_not(None),
                    transactions.c.kind.in_(["settle", "void_round"]),
                )
            ),
            transactions.c.round_id,
        )
    ):
        per_round.setdefault(str(round_id), {}).setdefault(str(kind), []).append(int(tx_id))
    ends = {
        str(r["round_id"]): r
        for r in conn.execute(of(select(round_ends), round_ends.c.round_id)).mappings()
    }
    all_rounds = {str(r) for (r,) in conn.execute(of(select(rounds.c.id), rounds.c.id))}
    names = records_mod.account_names(conn)
    legs: dict[int, dict[str, int]] = {}
    for tx_id, aid, amount in conn.execute(
        select(entries.c.tx_id, entries.c.account_id, entries.c.amount).where(
            entries.c.tx_id.in_(of(select(round_ends.c.tx_id), round_ends.c.round_id))
        )
    ):
        legs.setdefault(int(tx_id), {})[names[int(aid)]] = int(amount)
    kinds = {
        int(i): (str(k), str(m), r)
        for i, k, m, r in conn.execute(
            select(
                transactions.c.id, transactions.c.kind, transactions.c.memo, transactions.c.round_id
            ).where(transactions.c.id.in_(of(select(round_ends.c.tx_id), round_ends.c.round_id)))
        )
    }
    closed_by: dict[int, list[Any]] = {}
    for row in conn.execute(
        select(
            hold_closures.c.tx_id,
            holds.c.amount,
            holds.c.source_account_id,
            holds.c.hold_account_id,
        )
        .join(holds, holds.c.id == hold_closures.c.hold_id)
        .where(hold_closures.c.tx_id.in_(of(select(round_ends.c.tx_id), round_ends.c.round_id)))
    ):
        closed_by.setdefault(int(row[0]), []).append(row)
    for round_id in sorted(all_rounds | set(per_round)):
        found = per_round.get(round_id, {})
        settles, voids = found.get("settle", []), found.get("void_round", [])
        end = ends.get(round_id)
        status = "open" if end is None else str(end["status"])
        if status == "settled":
            if len(settles) != 1:
                report.violations.append(
                    f"settled round {round_id} has {len(settles)} settlement transactions, not 1"
                )
            if voids:
                report.violations.append(f"settled round {round_id} also has a void transaction")
        elif status == "voided":
            if settles:
                report.violations.append(
                    f"voided round {round_id} has {len(settles)} settlement transaction(s)"
                )
            if len(voids) != 1:
                report.violations.append(
                    f"voided round {round_id} has {len(voids)} void transactions, not 1"
                )
        elif settles or voids:
            report.violations.append(
                f"round {round_id} is open but has {len(settles)} settlement and {len(voids)} void "
                "transaction(s)"
            )
        if end is None:
            continue
        tx_id = int(end["tx_id"])
        kind, memo, tx_round = kinds.get(tx_id, ("?", "", None))
        want = {"settled": "settle", "voided": "void_round"}[status]
        if kind != want or tx_round != round_id:
            report.violations.append(
                f"round {round_id} ended {status} by transaction {tx_id}, a {kind} of "
                f"round {tx_round}"
            )
            continue
        moved = legs.get(tx_id, {})
        released: dict[str, int] = {}
        for _, amount, src, dst in closed_by.get(tx_id, []):
            released[names[int(dst)]] = released.get(names[int(dst)], 0) - int(amount)
            released[names[int(src)]] = released.get(names[int(src)], 0) + int(amount)
        released = {k: v for k, v in released.items() if v}
        if status == "voided":
            if not (end["reason"] or "").strip() or not memo.strip():
                report.violations.append(f"voided round {round_id} has no reason")
            if moved != released:
                report.violations.append(
                    f"voided round {round_id}'s void moved {moved}, not the refund of its holds "
                    f"{released}"
                )
            continue
        try:
            data = end["result"] or {}
            result = RoundResult(
                tuple(
                    Posting(str(p["account"]), int(p["amount"]), str(p.get("memo", "")))
                    for p in data.get("postings", [])
                ),
                data.get("details", {}),
            )
            mapping = dict(end["accounts"] or {})

            class _H:
                def __init__(self, amount: int, src: int, dst: int) -> None:
                    self.amount, self.account, self.hold_account = amount, names[src], names[dst]

            expected = settlement_legs(
                result,
                mapping,
                [_H(int(a), int(s), int(d)) for _, a, s, d in closed_by.get(tx_id, [])],
            )
        except Exception as exc:
            report.violations.append(
                f"settled round {round_id}'s recorded result is unreadable: {exc}"
            )
            continue
        if expected != moved:
            diff = {
                k: (expected.get(k, 0), moved.get(k, 0))
                for k in sorted(set(expected) | set(moved))
                if expected.get(k, 0) != moved.get(k, 0)
            }
            report.violations.append(
                f"settled round {round_id}'s settlement does not move what its result says "
                f"(expected, moved): {diff}"
            )


def check_chains(
    conn: Connection,
    mac_key: bytes,
    report: AuditReport,
    expect: dict[str, tuple[int, str]] | None = None,
) -> None:
    """Recompute every chain; name the first broken record of each."""
    found = records_mod.load(conn)
    chains: dict[str, list[records_mod.Record]] = {}
    for record in found:
        if record.chain is None or record.seq is None or record.mac is None:
            report.violations.append(f"{record.label} is in no chain (it has no MAC)")
            continue
        if record.chain != record.home:
            report.violations.append(
                f"{record.label} is in chain {record.chain} but belongs in {record.home}"
            )
        chains.setdefault(record.chain, []).append(record)
    report.stats["chains"] = len(chains)
    report.stats["chained_records"] = sum(len(v) for v in chains.values())
    for chain, items in sorted(chains.items()):
        items.sort(key=lambda r: int(r.seq or 0))
        previous, expected_seq = chain_mod.GENESIS, 1
        macs: dict[int, str] = {}
        last = (0, chain_mod.GENESIS)
        for record in items:
            seq = int(record.seq or 0)
            if seq < expected_seq:
                report.violations.append(
                    f"chain {chain}: two records at position {seq}: {record.label} repeats it"
                )
                break
            if seq > expected_seq:
                report.violations.append(
                    f"chain {chain}: record {expected_seq} is missing "
                    f"({expected_seq - 1} is followed by {seq}, {record.label})"
                )
                break
            value = chain_mod.mac(mac_key, previous, record.build(chain, seq))
            if value != record.mac:
                report.violations.append(
                    f"chain {chain} breaks at record {seq} ({record.label}): its MAC does not "
                    "match its contents and the record before it"
                )
                break
            macs[seq] = value
            previous, expected_seq, last = value, seq + 1, (seq, value)
        report.heads[chain] = last
        if expect is not None and chain in expect:
            want_seq, want_mac = expect[chain]
            if want_seq > last[0] and len(macs) == len(items):
                report.violations.append(
                    f"chain {chain} ends at record {last[0]}, but record {want_seq} was its head "
                    "before: records were deleted"
                )
            elif want_seq in macs and macs[want_seq] != want_mac:
                report.violations.append(
                    f"chain {chain}: record {want_seq} is not the one it was (its MAC differs "
                    "from the head printed before): the chain was rewritten"
                )
    for chain in sorted(set(expect or {}) - set(chains)):
        report.violations.append(f"chain {chain} is gone (it had {expect[chain][0]} records)")  # type: ignore[index]
    stored = {
        str(c): (int(s), str(m))
        for c, s, m in conn.execute(
            select(chain_heads.c.chain, chain_heads.c.seq, chain_heads.c.mac)
        )
    }
    for chain in sorted(set(stored) | set(chains)):
        have = stored.get(chain)
        if have is None:
            report.violations.append(f"chain {chain} has records but no head")
        elif chain not in chains:
            report.violations.append(
                f"chain {chain}'s head says {have[0]} records, but it has none"
            )
        elif have != report.heads[chain] and len(chains[chain]) == report.heads[chain][0]:
            report.violations.append(
                f"chain {chain}'s head says record {have[0]}, but its last record is "
                f"{report.heads[chain][0]}: records were deleted or the head was changed"
            )


def check_triggers(conn: Connection, report: AuditReport) -> None:
    if conn.dialect.name == "postgresql":
        present = {
            str(n)
            for (n,) in conn.execute(
                text(
                    "SELECT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                    "JOIN pg_namespace n ON n.oid = c.relnamespace "
                    "WHERE n.nspname = current_schema() AND NOT t.tgisinternal AND t.tgenabled <> 'D'"
                )
            )
        }
        wanted = {f"{t}_append_only" for t in APPEND_ONLY}
    else:
        present = {
            str(n)
            for (n,) in conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'trigger'"))
        }
        wanted = {f"{t}_append_only_{v}" for t in APPEND_ONLY for v in ("update", "delete")}
    for name in sorted(wanted - present):
        report.violations.append(f"append-only trigger {name} is missing (or disabled)")
    for name in sorted({f"{t}_no_delete" for t in NEVER_DELETED} - present):
        report.violations.append(
            f"trigger {name} is missing (or disabled): its rows can be deleted"
        )


def check_privileges(conn: Connection, report: AuditReport, role: str | None) -> None:
    """PostgreSQL: the application role may not UPDATE/DELETE append-only tables, own them or
    create in their schema (migrations run as a separate owner role)."""
    if conn.dialect.name != "postgresql":
        return
    who = role or str(conn.execute(text("SELECT current_user")).scalar_one())
    exists = conn.execute(text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": who}).first()
    if exists is None:
        report.violations.append(f"application role {who!r} does not exist")
        return
    superuser = conn.execute(
        text("SELECT rolsuper FROM pg_roles WHERE rolname = :r"), {"r": who}
    ).scalar_one()
    if superuser:
        report.violations.append(
            f"application role {who!r} is a superuser: it can change every append-only table "
            "(run the card room as a role without the owner's rights)"
        )
        return
    schema = conn.execute(text("SELECT current_schema()")).scalar_one()
    refused = [(t, p) for t in NEVER_DELETED for p in ("DELETE", "TRUNCATE")]
    refused += [(t, p) for t in APPEND_ONLY for p in ("UPDATE", "DELETE", "TRUNCATE")]
    for table, privilege in refused:
        if conn.execute(
            text("SELECT has_table_privilege(:r, :t, :p)"),
            {"r": who, "t": f"{schema}.{table}", "p": privilege},
        ).scalar_one():
            report.violations.append(f"application role {who!r} may {privilege} {table}")
    for table in APPEND_ONLY:
        owner = conn.execute(
            text(
                "SELECT tableowner FROM pg_tables WHERE schemaname = current_schema() AND tablename = :t"
            ),
            {"t": table},
        ).scalar()
        if owner == who:
            report.violations.append(
                f"application role {who!r} owns {table} (it could drop its triggers)"
            )
    if conn.execute(
        text("SELECT has_schema_privilege(:r, current_schema(), 'CREATE')"), {"r": who}
    ).scalar_one():
        report.violations.append(f"application role {who!r} may change the schema (CREATE)")


def _pool_rounds(conn: Connection) -> dict[str, str]:
    """round id → the pool its settlement posted to, for every settled round that did."""
    out: dict[str, str] = {}
    for rid, used in conn.execute(
        select(round_ends.c.round_id, round_ends.c.accounts).where(round_ends.c.status == "settled")
    ):
        for name in (used or {}).values() if isinstance(used, dict) else ():
            if str(name).startswith(acct.JACKPOT_PREFIX):
                out[str(rid)] = str(name)[len(acct.JACKPOT_PREFIX) :]
    return out


def _round_results(
    conn: Connection, round_ids: list[str]
) -> dict[str, tuple[str, dict[str, Any] | None]]:
    """round id → (its table, its result's details), for the rounds named."""
    out: dict[str, tuple[str, dict[str, Any] | None]] = {}
    for i in range(0, len(round_ids), 500):
        chunk = round_ids[i : i + 500]
        for rid, table_id, result in conn.execute(
            select(rounds.c.id, rounds.c.table_id, round_ends.c.result)
            .join(round_ends, round_ends.c.round_id == rounds.c.id, isouter=True)
            .where(rounds.c.id.in_(chunk))
        ):
            out[str(rid)] = (str(table_id), (result or {}).get("details"))
    return out


def house_report(conn: Connection) -> dict[str, Any]:
    """The house's side of the books, by what moved it (docs/operators.md): each table's play
    result (its house, commission and rounding accounts, without the jackpot seed and top-ups
    posted from them), the bots' result, and the jackpot's funding, seed, top-ups,
    contributions and awards (`qipai.ledger.jackpot`)."""
    balances = {
        str(n): int(b) for n, b in conn.execute(select(accounts.c.name, accounts.c.balance))
    }
    by_table: dict[str, int] = {}
    for name, bal in balances.items():
        spec = acct.parse(name)
        if spec.kind in acct.SPLIT and name not in (acct.BOTS, acct.JACKPOT_FUND):
            key = spec.table_id or "(no table)"
            by_table[key] = by_table.get(key, 0) + bal
    bot_stacks = {
        str(n)
        for (n,) in conn.execute(
            select(accounts.c.name)
            .join(entries, entries.c.account_id == accounts.c.id)
            .join(transactions, transactions.c.id == entries.c.tx_id)
            .where(and_(transactions.c.kind == "bot_buy_in", accounts.c.kind == "stack"))
            .distinct()
        )
    }
    at_tables = sum(balances.get(s, 0) + balances.get(acct.hold_account(s), 0) for s in bot_stacks)
    pools: dict[str, dict[str, int]] = {}
    for name, bal in balances.items():
        if name.startswith(acct.JACKPOT_PREFIX):
            pools[name[len(acct.JACKPOT_PREFIX) :]] = {
                **dict.fromkeys(jackpot.TERMS, 0),
                "balance": bal,
            }
    # every round whose settlement posted to a pool (its accounts say so even when the pool's
    # entries cancel out, an award topped up exactly by the house), with its net entry
    moved: dict[tuple[str, str], int] = {
        (pool_id, rid): 0 for rid, pool_id in _pool_rounds(conn).items() if pool_id in pools
    }
    for kind, name, round_id, amount in conn.execute(
        select(transactions.c.kind, accounts.c.name, transactions.c.round_id, entries.c.amount)
        .join(entries, entries.c.tx_id == transactions.c.id)
        .join(accounts, accounts.c.id == entries.c.account_id)
        .where(accounts.c.kind == "jackpot")
    ):
        pool_id = str(name)[len(acct.JACKPOT_PREFIX) :]
        if kind == "fund_pool":
            pools[pool_id]["funding"] += int(amount)
        elif round_id is None:  # no round's (a correction): in or out
            pools[pool_id]["contributions" if int(amount) >= 0 else "awards"] += abs(int(amount))
        else:
            pool_round = (pool_id, str(round_id))
            moved[pool_round] = moved.get(pool_round, 0) + int(amount)
    results = _round_results(conn, sorted({r for _, r in moved}))
    seed_total = top_up_total = 0
    for (pool_id, round_id), amount in moved.items():
        table_id, details = results.get(round_id, (None, None))
        split = jackpot.round_pool(details, amount)
        p = pools[pool_id]
        p["seed"] += split.seed
        p["top_ups"] += split.top_ups
        p["contributions"] += split.contributions
        p["awards"] += split.awards
        seed_total += split.seed
        top_up_total += split.top_ups
        if table_id is not None and split.seed + split.top_ups:
            # posted from the table's house account, but the jackpot's cost, not the table's play
            by_table[table_id] = by_table.get(table_id, 0) + split.seed + split.top_ups
    contributions_paid = conn.execute(
        select(func.count()).select_from(transactions).where(transactions.c.kind == "adjustment")
    ).scalar_one()
    reversals = conn.execute(
        select(func.count())
        .select_from(transactions)
        .where(and_(transactions.c.kind == "reversal", transactions.c.detail.is_not(None)))
    ).scalar_one()
    return {
        "tables": sum(by_table.values()),
        "by_table": by_table,
        "bots": {
            "bankroll": balances.get(acct.BOTS, 0),
            "at_tables": at_tables,
            "result": balances.get(acct.BOTS, 0) + at_tables,
        },
        "jackpot": {
            "fund": balances.get(acct.JACKPOT_FUND, 0),
            "funding": -balances.get(acct.JACKPOT_FUND, 0),
            "seed": seed_total,
            "top_ups": top_up_total,
            "pools": pools,
        },
        "adjustments": {"count": int(contributions_paid), "reversals": int(reversals)},
    }


def audit(
    ledger: Ledger,
    *,
    replay: bool = True,
    expect_heads: dict[str, tuple[int, str]] | None = None,
    app_role: str | None = None,
    terms: TermsCheck | None = None,
    also: Callable[[Connection], list[str]] | None = None,
) -> AuditReport:
    """Run every check; `replay=False` skips replaying the settled rounds (faster); `terms`:
    every round's template terms against their seals (the authority's); `also`: more findings
    (the operator log's, the templates'), all read in the same snapshot."""
    from qipai.ledger.verify import verify_round

    report = AuditReport()

    def books(conn: Connection) -> list[str]:
        check_chains(conn, ledger.keys.mac_key, report, expect_heads)
        check_books(conn, report)
        check_round_facts(conn, report)
        check_triggers(conn, report)
        check_privileges(conn, report, app_role)
        if terms is not None:
            for round_id, problems in sorted(terms(conn, None).items()):
                report.violations += [f"round {round_id}: {p}" for p in problems]
        if also is not None:
            report.violations += also(conn)
        report.house = house_report(conn)
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
                select(round_ends.c.round_id)
                .where(round_ends.c.status == "settled")
                .order_by(round_ends.c.closed_at)
            )
        ]

    settled = ledger._snapshot(books)  # one consistent snapshot: no false finding during play
    report.stats["settled_rounds"] = len(settled)
    if replay:
        from qipai.ledger.errors import KeyMismatch

        for round_id in settled:
            try:
                result = verify_round(ledger, round_id, records=False)
            except KeyMismatch as exc:  # one round's seal: a finding, and the audit goes on
                report.violations.append(f"round {round_id}: sealed seed: {exc.message}")
                continue
            for check in result.checks:
                if not check.ok:
                    report.violations.append(f"round {round_id}: {check.name}: {check.detail}")
        report.stats["rounds_replayed"] = len(settled)
    return report


def read_heads(text_: str) -> dict[str, tuple[int, str]]:
    """Heads as `qipai audit --heads` prints them: `<chain> <seq> <mac>` per line (or its JSON)."""
    stripped = text_.strip()
    if stripped.startswith("{"):
        import json

        data = json.loads(stripped)
        data = data.get("heads", data)
        return {str(c): (int(v["seq"]), str(v["mac"])) for c, v in data.items()}
    out: dict[str, tuple[int, str]] = {}
    for n, line in enumerate(stripped.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 3 or not parts[1].isdigit() or len(parts[2]) != 64:
            raise ValueError(f"line {n} is not '<chain> <seq> <mac>': {line!r}")
        out[parts[0]] = (int(parts[1]), parts[2])
    return out


def heads_text(heads: dict[str, tuple[int, str]]) -> str:
    return "\n".join(f"{c} {s} {m}" for c, (s, m) in sorted(heads.items()))
