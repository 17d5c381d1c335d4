"""The round inspector (docs/operators.md): a journaled round replayed step by step for an operator, its
settlement postings, and its verification (seed vs commitment, replay, MAC chain).

The replay rebuilds the round from its journal exactly as `qipai verify` does
(`qipai.ledger.verify.replay_round`: the deal's key from the seed and the client seeds), then
records after the deal and after each journaled action the view of **every** seat and of a
spectator — what each seat's player saw at that moment. Operators see all of them; the console
draws them with the player's own table renderers.
"""

from __future__ import annotations

from typing import Any

from qipai.core.protocol import RecordedAction, Seat
from qipai.ledger import Ledger


def unit_in_play(ledger: Ledger, record: dict[str, Any]) -> bool:
    """Whether the round's deal unit may still deal (docs/security.md, "Who reads what, when"):
    its seed, its replay and every seat's cards are shown to no role until it ended.

    A unit ended when its seed was revealed (`seed_reveals`: its last round finished, or it was
    abandoned, voided, suspended or closed: docs/fairness.md). A game whose seeds players never
    see (`reveal_seed` False, Tien Gow) deals one round per unit and is never revealed: its unit
    ended when no round of its commitment is open. An unknown game counts as in play."""
    if record.get("seed_revealed"):
        return False
    if record.get("status") == "open":
        return True
    from qipai.core.errors import GameError
    from qipai.tables import games

    try:
        reveals = games.get(str(record["game"])).reveal_seed
    except GameError:
        return True
    if reveals:
        return True  # an unrevealed unit of a game that reveals: its shoe goes on
    return ledger.commitment_open(str(record["seed_commitment"]))


def shown(ledger: Ledger, record: dict[str, Any]) -> dict[str, Any]:
    """The round as the back office may see it now: its seed withheld while its unit is in play
    (`seed_withheld` says so)."""
    live = unit_in_play(ledger, record)
    return {**record, "seed": None if live else record["seed"], "seed_withheld": live}


MAX_STEPS = 2_000
"""A round's journal is bounded by its game; this bounds what one reply carries."""


def _views(round_: Any) -> dict[str, Any]:
    seats = [s.id for s in round_.seats]
    return {
        "phase": round_.phase,
        "finished": bool(round_.finished),
        "awaiting": list(round_.awaiting()) if not round_.finished else [],
        "spectator": round_.view(None),
        "views": {seat: round_.view(seat) for seat in seats},
    }


def replay_steps(record: dict[str, Any]) -> dict[str, Any]:
    """Every step of a round (`Ledger.round(include_seed=True)`): step 0 is the deal, then one
    step per journaled action (seat None: the countdown ran out). An action the engine refuses
    on replay ends the steps with `error` (the journal and the engine disagree)."""
    from qipai.fairness import round_key
    from qipai.games import game_package

    package = game_package(record["game"])
    config = package.CONFIG.from_json(record["config"])
    seats = [Seat.from_json(s) for s in record["seats"]]
    actions = [
        RecordedAction(e["seat"], e["payload"]) for e in record["log"] if e["kind"] == "action"
    ]
    from qipai.core.rng import Rng

    round_ = package.ROUND.start(config, seats, Rng(round_key(record)), record["context"])
    steps = [{"index": 0, "seat": None, "action": None, **_views(round_)}]
    error = None
    for i, entry in enumerate(actions[:MAX_STEPS], start=1):
        try:
            if entry.seat is None:
                round_.expire()
            else:
                round_.act(entry.seat, entry.action)
        except Exception as exc:
            error = f"step {i}: {type(exc).__name__}: {exc}"
            break
        steps.append(
            {"index": i, "seat": entry.seat, "action": dict(entry.action), **_views(round_)}
        )
    users = {p["seat"]: p["user_id"] for p in record.get("players") or []}
    return {
        "round_id": record["round_id"],
        "game": record["game"],
        "table_id": record["table_id"],
        "seats": [{"seat": s.id, "user_id": users.get(s.id), "stack": s.stack} for s in seats],
        "steps": steps,
        "truncated": len(actions) > MAX_STEPS,
        "error": error,
    }


def settlement(ledger: Ledger, record: dict[str, Any]) -> list[dict[str, Any]]:
    """The ledger entries of every transaction of the round (open, settle or void), in order."""
    from sqlalchemy import select

    from qipai.ledger.schema import accounts, entries, transactions

    def work(conn: Any) -> list[dict[str, Any]]:
        rows = conn.execute(
            select(
                transactions.c.id,
                transactions.c.kind,
                transactions.c.memo,
                accounts.c.name,
                entries.c.amount,
                entries.c.balance_after,
            )
            .join(entries, entries.c.tx_id == transactions.c.id)
            .join(accounts, accounts.c.id == entries.c.account_id)
            .where(transactions.c.round_id == record["round_id"])
            .order_by(entries.c.id)
        ).all()
        return [
            {
                "tx_id": int(r[0]),
                "kind": str(r[1]),
                "memo": str(r[2]),
                "account": str(r[3]),
                "amount": int(r[4]),
                "balance_after": int(r[5]),
            }
            for r in rows
        ]

    found: list[dict[str, Any]] = ledger._read(work)
    return found


def chain_check(ledger: Ledger, record: dict[str, Any]) -> dict[str, Any]:
    """Recompute the MACs of the round's table chain from its first record to its last: the
    round's own records (header, journal, settlement) must carry the MAC their contents and the
    record before them give."""
    from qipai.ledger import chain as chain_mod
    from qipai.ledger import records as records_mod

    home = chain_mod.table_chain(str(record["table_id"]))

    def work(conn: Any) -> list[Any]:
        return [r for r in records_mod.load(conn) if r.chain == home]

    items = sorted(ledger._read(work), key=lambda r: int(r.seq or 0))
    previous, expected = chain_mod.GENESIS, 1
    mine = 0
    rid = str(record["round_id"])
    for rec in items:
        seq = int(rec.seq or 0)
        if seq != expected:
            return {"ok": False, "chain": home, "detail": f"record {expected} is missing"}
        value = chain_mod.mac(ledger.keys.mac_key, previous, rec.build(home, seq))
        if value != rec.mac:
            return {
                "ok": False,
                "chain": home,
                "detail": f"chain breaks at record {seq} ({rec.label})",
            }
        if rid in rec.label or rec.key == rid:
            mine += 1
        previous, expected = value, seq + 1
    return {
        "ok": True,
        "chain": home,
        "records": len(items),
        "head": {"seq": expected - 1, "mac": previous},
        "detail": f"{len(items)} records of {home} recomputed; the round's are among them",
        "round_records": mine,
    }


def verify(ledger: Ledger, round_id: str) -> dict[str, Any]:
    """`qipai verify ROUND_ID` and the round's chain, as one report (`ok`: all passed)."""
    from qipai.ledger.commands import terms_check

    report = ledger.verify_round(round_id, terms=terms_check(ledger)).to_json()
    record = ledger.round(round_id, include_seed=True)
    chain = chain_check(ledger, record)
    report["checks"].append({"check": "MAC chain", "ok": chain["ok"], "detail": chain["detail"]})
    report["ok"] = bool(report["ok"]) and bool(chain["ok"])
    report["chain"] = chain
    report["seed"] = record["seed"]
    report["seed_commitment"] = record["seed_commitment"]
    return report


def verify_shown(ledger: Ledger, round_id: str) -> dict[str, Any]:
    """`verify` as the back office may see it: every check runs (the key opens the sealed seed
    inside the server), but the seed of a unit in play is not in the answer."""
    report = verify(ledger, round_id)
    live = unit_in_play(ledger, ledger.round(round_id))
    if live:
        report["seed"] = None
    report["seed_withheld"] = live
    return report


ENTRIES_PAGE_MAX = 500
"""The most entries one page of an account's statement carries (`entries_page`)."""


def entries_page(
    ledger: Ledger, account: str, *, limit: int = 100, before: int | None = None
) -> dict[str, Any]:
    """One page of an account's entries, newest first, each with the running balance after it
    and its `entry_id`; `before` (an `entry_id`, the previous page's `next`) pages further
    back, with no upper bound on how far. `next` is None on the last page. A keyset on the
    entries' ids: a page costs the same however deep it is, and entries posted meanwhile never
    shift a page."""
    limit = max(1, min(int(limit), ENTRIES_PAGE_MAX))
    rows = ledger.statement(account, limit + 1, before)
    page = rows[:limit]
    more = len(rows) > limit
    return {"entries": page, "next": page[-1]["entry_id"] if more and page else None}


__all__ = [
    "ENTRIES_PAGE_MAX",
    "chain_check",
    "entries_page",
    "replay_steps",
    "settlement",
    "shown",
    "unit_in_play",
    "verify",
    "verify_shown",
]
