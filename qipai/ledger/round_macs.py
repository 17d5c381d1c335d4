"""The MACs of some rounds' records checked without walking their whole chains: each record of
the rounds (header, journal records, transactions, reveals: `records.load(conn, round_ids)`)
must sit at its position in the chain it belongs in and carry HMAC(key, MAC of the record before
it in that chain ‖ its contents) (`qipai.ledger.chain`). What `qipai verify ROUND` checks of one
round and what crash recovery checks of every open round before resuming it; `qipai audit`
recomputes every chain whole (`audit.check_chains`), which finds all of this and more (a
deletion between two rounds)."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import Connection, select

from qipai.ledger import chain as chain_mod
from qipai.ledger import records as records_mod
from qipai.ledger.schema import round_log, rounds, seed_reveals, transactions

_CHAINED = (transactions, rounds, round_log, seed_reveals)


def _previous_macs(conn: Connection, wanted: set[tuple[str, int]]) -> dict[tuple[str, int], str]:
    """The MAC of the record at each (chain, position) asked for, from every chained table."""
    if not wanted:
        return {}
    chains = sorted({c for c, _ in wanted})
    positions = sorted({s for _, s in wanted})
    found: dict[tuple[str, int], str] = {}
    for table in _CHAINED:
        for chain, seq, mac in conn.execute(
            select(table.c.chain, table.c.chain_seq, table.c.mac).where(
                table.c.chain.in_(chains), table.c.chain_seq.in_(positions)
            )
        ):
            at = (str(chain), int(seq))
            if at in wanted:
                # two records at one position: the chain is broken whichever is taken
                found.setdefault(at, str(mac))
    return found


def findings(conn: Connection, key: bytes, round_ids: Collection[str]) -> dict[str, list[str]]:
    """Round id -> what is wrong with its records' MACs (a round that is fine is absent)."""
    found = records_mod.load(conn, round_ids)
    mine = {
        (str(r.chain), int(r.seq)): r.mac
        for r in found
        if r.chain is not None and r.seq is not None and r.mac is not None
    }
    wanted = {
        (str(r.chain), int(r.seq) - 1)
        for r in found
        if r.chain is not None and r.seq is not None and int(r.seq) > 1
    }
    previous = {**_previous_macs(conn, wanted - set(mine)), **{k: str(v) for k, v in mine.items()}}
    out: dict[str, list[str]] = {}
    for record in sorted(found, key=lambda r: (r.order, str(r.chain), int(r.seq or 0))):
        problem = _problem(key, record, previous)
        if problem is None:
            continue
        for rid in _rounds_named(record, round_ids):
            out.setdefault(rid, []).append(problem)
    return out


def _problem(
    key: bytes, record: records_mod.Record, previous: dict[tuple[str, int], str]
) -> str | None:
    if record.chain is None or record.seq is None or record.mac is None:
        return f"{record.label} is in no chain (it has no MAC)"
    if record.chain != record.home:
        return f"{record.label} is in chain {record.chain} but belongs in {record.home}"
    seq = int(record.seq)
    before = chain_mod.GENESIS if seq == 1 else previous.get((record.chain, seq - 1))
    if before is None:
        return f"{record.label}: record {seq - 1} of chain {record.chain}, before it, is missing"
    if chain_mod.mac(key, before, record.build(record.chain, seq)) != record.mac:
        return (
            f"{record.label}: its MAC does not match its contents and the record before it "
            f"(chain {record.chain}, record {seq})"
        )
    return None


def _rounds_named(record: records_mod.Record, round_ids: Collection[str]) -> list[str]:
    wanted = set(round_ids)
    return [r for r in record.rounds if r in wanted]


__all__ = ["findings"]
