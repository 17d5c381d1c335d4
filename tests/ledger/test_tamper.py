"""Every edit that used to pass `qipai audit` (and inserting, deleting or
reordering any record) is caught by `qipai audit --no-replay` — exit code 1 and a line naming
what it found — on SQLite and PostgreSQL; the untouched books pass (the negative control).

Each edit is made as someone with direct access to the database would: past the append-only
triggers, with balances and chain heads adjusted to match where that hides the edit from the older
checks (`tests.ledger.tamper`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import Connection, text
from typer.testing import CliRunner

from qipai.cli import app
from qipai.ledger import Ledger
from tests.ledger.helpers import play_coin
from tests.ledger.tamper import tampering, triggers_dropped

PLAYERS = {"P1": "alice", "P2": "bob"}
runner = CliRunner()


@dataclass
class Books:
    ledger: Ledger
    settled: list[str]
    voided: str
    open_round: str


def cli_db(ledger: Ledger) -> str:
    if ledger.schema is None:
        return ledger.url
    return f"{ledger.url}?options=-csearch_path%3D{ledger.schema}"


@pytest.fixture
def books(funded: Ledger) -> Books:
    settled = [play_coin(funded, {"P1": 100 + i, "P2": 50}, PLAYERS)[0] for i in range(3)]
    voided, _ = play_coin(funded, {"P1": 30}, {"P1": "alice"}, settle=False)
    funded.void_round(voided, "table closed")
    open_round, _ = play_coin(funded, {"P1": 40, "P2": 60}, PLAYERS, settle=False)
    funded.transfer({"house": -5, "wallet:bob": 5}, key="goodwill")
    return Books(funded, settled, voided, open_round)


def audit(ledger: Ledger, *extra: str) -> tuple[int, str]:
    out = runner.invoke(app, ["audit", "--db", cli_db(ledger), "--no-replay", *extra])
    return out.exit_code, out.output


def test_untouched_books_pass(books: Books) -> None:
    code, output = audit(books.ledger)
    assert code == 0, output
    assert "audit OK" in output
    # and with every settled round replayed
    report = books.ledger.audit(replay=False)
    assert report.ok and report.stats["chained_records"] > 20


def _scalar(conn: Connection, sql: str, **params: object) -> object:
    return conn.execute(text(sql), params).scalar_one()


def _fake_tx(
    conn: Connection,
    *,
    key: str,
    kind: str,
    legs: dict[str, int],
    chain: str,
    round_id: str | None = None,
) -> None:
    """A well-formed, balanced transaction with entries, balances moved to match, placed at the
    end of `chain` with a made-up MAC, and the chain's head moved over it."""
    seq = int(_scalar(conn, "SELECT seq FROM chain_heads WHERE chain = :c", c=chain)) + 1  # type: ignore[call-overload]
    mac = "ab" * 32
    conn.execute(
        text(
            "INSERT INTO transactions (key, kind, body_hash, round_id, memo, detail, created_at,"
            " chain, chain_seq, mac) VALUES (:k, :kind, :h, :r, '', '{}', "
            "(SELECT MAX(created_at) FROM transactions), :c, :s, :m)"
        ),
        {"k": key, "kind": kind, "h": "0" * 64, "r": round_id, "c": chain, "s": seq, "m": mac},
    )
    tx = _scalar(conn, "SELECT id FROM transactions WHERE key = :k", k=key)
    for name, amount in legs.items():
        conn.execute(
            text("UPDATE accounts SET balance = balance + :a WHERE name = :n"),
            {"a": amount, "n": name},
        )
        conn.execute(
            text(
                "INSERT INTO entries (tx_id, account_id, amount, balance_after, created_at) "
                "SELECT :t, id, :a, balance, (SELECT MAX(created_at) FROM entries) "
                "FROM accounts WHERE name = :n"
            ),
            {"t": tx, "a": amount, "n": name},
        )
    conn.execute(
        text("UPDATE chain_heads SET seq = :s, mac = :m WHERE chain = :c"),
        {"s": seq, "m": mac, "c": chain},
    )


def _settle_id(conn: Connection, rid: str) -> object:
    return _scalar(conn, "SELECT id FROM transactions WHERE key = :k", k=f"round:{rid}:settle")


Edit = Callable[[Connection, Books], None]


def forged_deposit(conn: Connection, b: Books) -> None:
    _fake_tx(
        conn,
        key="deposit:alice:forged",
        kind="deposit",
        legs={"external": -1_000_000, "wallet:alice": 1_000_000},
        chain="ledger",
    )


def forged_house_transfer(conn: Connection, b: Books) -> None:
    _fake_tx(
        conn,
        key="gift",
        kind="transfer",
        legs={"house:t1": -5_000, "wallet:alice": 5_000},
        chain="ledger",
    )


def second_settlement(conn: Connection, b: Books) -> None:
    rid = b.settled[0]
    _fake_tx(
        conn,
        key=f"round:{rid}:settle:again",
        kind="settle",
        legs={"house:t1": -700, "stack:alice:t1": 700},
        chain="table:t1",
        round_id=rid,
    )


def settlement_edit_and_voided(conn: Connection, b: Books) -> None:
    """+5,000 to alice in a settlement, balanced against the house, and the round called voided
    (a voided round is not replayed)."""
    rid = b.settled[1]
    tx = _settle_id(conn, rid)
    for name, delta in (("stack:alice:t1", 5_000), ("house:t1", -5_000)):
        aid = _scalar(conn, "SELECT id FROM accounts WHERE name = :n", n=name)
        found = conn.execute(
            text("SELECT id FROM entries WHERE tx_id = :t AND account_id = :a"), {"t": tx, "a": aid}
        ).first()
        if found is None:
            conn.execute(
                text(
                    "INSERT INTO entries (tx_id, account_id, amount, balance_after, created_at) "
                    "SELECT :t, :a, :d, 0, created_at FROM transactions WHERE id = :t"
                ),
                {"t": tx, "a": aid, "d": delta},
            )
            eid = _scalar(conn, "SELECT MAX(id) FROM entries")
        else:
            eid = found[0]
            conn.execute(
                text("UPDATE entries SET amount = amount + :d WHERE id = :e"),
                {"d": delta, "e": eid},
            )
        # every later balance of the account, and the account itself, shifted to match
        conn.execute(
            text(
                "UPDATE entries SET balance_after = balance_after + :d "
                "WHERE account_id = :a AND id >= :e"
            ),
            {"d": delta, "a": aid, "e": eid},
        )
        conn.execute(
            text("UPDATE accounts SET balance = balance + :d WHERE id = :a"), {"d": delta, "a": aid}
        )
    conn.execute(text("UPDATE round_ends SET status = 'voided' WHERE round_id = :r"), {"r": rid})


def rewritten_event(conn: Connection, b: Books) -> None:
    conn.execute(
        text(
            "UPDATE round_log SET payload = :p WHERE round_id = :r AND kind = 'event' AND seq = "
            "(SELECT MIN(seq) FROM round_log WHERE round_id = :r AND kind = 'event')"
        ),
        {"p": '{"type": "coin", "heads": true}', "r": b.settled[0]},
    )


def changed_start_balance(conn: Connection, b: Books) -> None:
    """What history shows a player (start, end and net follow from it and the entries)."""
    conn.execute(
        text("UPDATE round_players SET start_balance = start_balance + 1000 WHERE round_id = :r"),
        {"r": b.settled[2]},
    )


def flipped_hold_closure(conn: Connection, b: Books) -> None:
    conn.execute(
        text(
            "UPDATE hold_closures SET status = 'voided', captured = 0 WHERE hold_id = "
            "(SELECT MIN(id) FROM holds WHERE round_id = :r)"
        ),
        {"r": b.settled[0]},
    )


def deleted_hold_closure(conn: Connection, b: Books) -> None:
    conn.execute(
        text(
            "DELETE FROM hold_closures WHERE hold_id = (SELECT MIN(id) FROM holds WHERE round_id = :r)"
        ),
        {"r": b.settled[0]},
    )


def swapped_seed(conn: Connection, b: Books) -> None:
    """The open round's sealed seed replaced by another round's box."""
    conn.execute(
        text("UPDATE rounds SET seed = (SELECT seed FROM rounds WHERE id = :o) WHERE id = :r"),
        {"o": b.settled[0], "r": b.open_round},
    )


def inserted_record(conn: Connection, b: Books) -> None:
    """An action slipped into a finished round's journal, at the end of its table's chain."""
    seq = int(_scalar(conn, "SELECT seq FROM chain_heads WHERE chain = 'table:t1'")) + 1  # type: ignore[call-overload]
    conn.execute(
        text(
            "INSERT INTO round_log (round_id, seq, kind, seat, payload, created_at, chain, "
            "chain_seq, mac) VALUES (:r, 99, 'action', 'P1', '{\"type\": \"bet\"}', "
            "(SELECT MAX(created_at) FROM round_log), 'table:t1', :s, :m)"
        ),
        {"r": b.settled[0], "s": seq, "m": "cd" * 32},
    )
    conn.execute(
        text("UPDATE chain_heads SET seq = :s, mac = :m WHERE chain = 'table:t1'"),
        {"s": seq, "m": "cd" * 32},
    )


def unchained_record(conn: Connection, b: Books) -> None:
    conn.execute(
        text(
            "INSERT INTO round_log (round_id, seq, kind, seat, payload, created_at) "
            "VALUES (:r, 99, 'action', 'P1', '{}', (SELECT MAX(created_at) FROM round_log))"
        ),
        {"r": b.settled[0]},
    )


def deleted_record(conn: Connection, b: Books) -> None:
    conn.execute(
        text(
            "DELETE FROM round_log WHERE id = (SELECT MIN(id) FROM round_log WHERE round_id = :r)"
        ),
        {"r": b.settled[1]},
    )


def reordered_records(conn: Connection, b: Books) -> None:
    rows = conn.execute(
        text("SELECT id, chain_seq FROM round_log WHERE round_id = :r ORDER BY chain_seq LIMIT 2"),
        {"r": b.settled[0]},
    ).all()
    (a, sa), (c, sc) = rows
    conn.execute(text("UPDATE round_log SET chain_seq = -1 WHERE id = :i"), {"i": a})
    conn.execute(text("UPDATE round_log SET chain_seq = :s WHERE id = :i"), {"s": sa, "i": c})
    conn.execute(text("UPDATE round_log SET chain_seq = :s WHERE id = :i"), {"s": sc, "i": a})


def moved_to_other_chain(conn: Connection, b: Books) -> None:
    conn.execute(
        text("UPDATE transactions SET chain = 'ledger' WHERE key = :k"),
        {"k": f"round:{b.voided}:void"},
    )


def deleted_transaction(conn: Connection, b: Books) -> None:
    """A whole settlement gone from the middle of its table's chain: its entries, hold
    closures and round end too, and the balances moved back to match."""
    rid = b.settled[1]
    tx = _settle_id(conn, rid)
    for aid, amount in conn.execute(
        text("SELECT account_id, amount FROM entries WHERE tx_id = :t"), {"t": tx}
    ).all():
        conn.execute(
            text("UPDATE accounts SET balance = balance - :a WHERE id = :i"),
            {"a": amount, "i": aid},
        )
        conn.execute(
            text(
                "UPDATE entries SET balance_after = balance_after - :a "
                "WHERE account_id = :i AND tx_id > :t"
            ),
            {"a": amount, "i": aid, "t": tx},
        )
    for table in ("entries", "hold_closures", "round_ends"):
        conn.execute(text(f"DELETE FROM {table} WHERE tx_id = :t"), {"t": tx})
    conn.execute(text("DELETE FROM transactions WHERE id = :t"), {"t": tx})


def reordered_transactions(conn: Connection, b: Books) -> None:
    """Two wallet transactions of the ledger chain swap places."""
    (a, sa), (c, sc) = conn.execute(
        text(
            "SELECT id, chain_seq FROM transactions WHERE chain = 'ledger' ORDER BY chain_seq LIMIT 2"
        )
    ).all()
    conn.execute(text("UPDATE transactions SET chain_seq = -1 WHERE id = :i"), {"i": a})
    conn.execute(text("UPDATE transactions SET chain_seq = :s WHERE id = :i"), {"s": sa, "i": c})
    conn.execute(text("UPDATE transactions SET chain_seq = :s WHERE id = :i"), {"s": sc, "i": a})


def void_without_reason(conn: Connection, b: Books) -> None:
    conn.execute(text("UPDATE round_ends SET reason = '' WHERE round_id = :r"), {"r": b.voided})
    conn.execute(
        text("UPDATE transactions SET memo = '' WHERE key = :k"), {"k": f"round:{b.voided}:void"}
    )


def void_kept_the_refund(conn: Connection, b: Books) -> None:
    """The void returns 10 less of the 30 it held; the 10 go to the house (balanced)."""
    tx = _scalar(conn, "SELECT id FROM transactions WHERE key = :k", k=f"round:{b.voided}:void")
    stack = _scalar(conn, "SELECT id FROM accounts WHERE name = 'stack:alice:t1'")
    conn.execute(
        text("UPDATE entries SET amount = amount - 10 WHERE tx_id = :t AND account_id = :a"),
        {"t": tx, "a": stack},
    )
    house = _scalar(conn, "SELECT id FROM accounts WHERE name = 'house:t1'")
    conn.execute(
        text(
            "INSERT INTO entries (tx_id, account_id, amount, balance_after, created_at) "
            "SELECT :t, :a, 10, 0, created_at FROM transactions WHERE id = :t"
        ),
        {"t": tx, "a": house},
    )


def settled_round_reopened(conn: Connection, b: Books) -> None:
    """A settled round's end removed: it looks open (as if still to be voided and refunded)."""
    conn.execute(text("DELETE FROM round_ends WHERE round_id = :r"), {"r": b.settled[2]})


def changed_hold_amount(conn: Connection, b: Books) -> None:
    conn.execute(
        text("UPDATE holds SET amount = amount + 1 WHERE id = (SELECT MIN(id) FROM holds)")
    )


def changed_round_player(conn: Connection, b: Books) -> None:
    """Alice's seat in a round shown as bob's (the history players see)."""
    conn.execute(
        text("UPDATE round_players SET user_id = 'bob' WHERE round_id = :r AND seat = 'P1'"),
        {"r": b.settled[0]},
    )


def rewritten_reveal(conn: Connection, b: Books) -> None:
    conn.execute(
        text(
            "UPDATE seed_reveals SET seed = :s WHERE seed_commitment = "
            "(SELECT seed_commitment FROM rounds WHERE id = :r)"
        ),
        {"s": "11" * 32, "r": b.settled[0]},
    )


CASES: list[tuple[Edit, str]] = [
    (forged_deposit, "chain ledger breaks at record {n_ledger} (transaction"),
    (forged_house_transfer, "'gift'): its MAC does not match"),
    (second_settlement, "has 2 settlement transactions, not 1"),
    (settlement_edit_and_voided, "'round:{settled1}:settle'): its MAC does not match"),
    (rewritten_event, "(journal record "),
    (changed_start_balance, "(round {settled2} (header)): its MAC does not match"),
    (flipped_hold_closure, "is recorded voided by a settle transaction"),
    (deleted_hold_closure, "still open in settled round {settled0}"),
    (swapped_seed, "(round {open_round} (header)): its MAC does not match"),
    (inserted_record, "journal record 99 of round {settled0}): its MAC does not match"),
    (unchained_record, "journal record 99 of round {settled0} is in no chain"),
    (deleted_record, "is missing"),
    (reordered_records, "chain table:t1 breaks at record"),
    (moved_to_other_chain, "void'"),
    (deleted_transaction, "chain table:t1: record 19 is missing (18 is followed by 20"),
    (reordered_transactions, "chain ledger breaks at record 1 (transaction"),
    (void_without_reason, "voided round {voided} has no reason"),
    (void_kept_the_refund, "not the refund of its holds"),
    (settled_round_reopened, "round {settled2} is open but has 1 settlement"),
    (changed_hold_amount, "its MAC does not match"),
    (changed_round_player, "(round {settled0} (header)): its MAC does not match"),
    (rewritten_reveal, "(seed reveal"),
]


@pytest.mark.parametrize(("edit", "expect"), CASES, ids=[c[0].__name__ for c in CASES])
def test_audit_names_every_edit(books: Books, edit: Edit, expect: str) -> None:
    ledger = books.ledger
    n_ledger = (
        int(next(v for c, (v, _) in ledger.audit(replay=False).heads.items() if c == "ledger")) + 1
    )
    with tampering(ledger) as conn:
        edit(conn, books)
    code, output = audit(ledger)
    want = expect.format(
        n_ledger=n_ledger,
        settled0=books.settled[0],
        settled1=books.settled[1],
        settled2=books.settled[2],
        open_round=books.open_round,
        voided=books.voided,
    )
    assert code == 1, output
    assert want in output, output


def test_the_edits_used_to_pass_the_older_checks(books: Books) -> None:
    """Without the chains, the balanced edits pass every other check: the MAC is what catches
    them (a forged deposit adds up; a settlement edit balanced against the house adds up). A
    later round's header may contradict it too, when that round staked from the
    edited stack (`audit.check_start_balances`): not counted here."""
    ledger = books.ledger
    with tampering(ledger) as conn:
        forged_deposit(conn, books)
        settlement_edit_and_voided(conn, books)
    report = ledger.audit(replay=False)
    not_chain = [
        v
        for v in report.violations
        if "MAC" not in v
        and "chain" not in v
        and "settlement" not in v
        and "voided" not in v
        and "header says" not in v
    ]
    assert not_chain == [], not_chain
    assert any("MAC does not match" in v for v in report.violations)


def test_dropped_triggers_are_reported(books: Books) -> None:
    with triggers_dropped(books.ledger, "round_log"):
        code, output = audit(books.ledger)
    assert code == 1 and "append-only trigger round_log_append_only" in output, output


def test_deleting_the_newest_records_is_caught_against_earlier_heads(
    books: Books, tmp_path: Path
) -> None:
    """A chain cut short (its newest records deleted, its head moved back) is still a valid
    chain; the heads printed earlier show it."""
    ledger = books.ledger
    heads = tmp_path / "heads.txt"
    out = runner.invoke(app, ["audit", "--db", cli_db(ledger), "--no-replay", "--heads"])
    assert out.exit_code == 0, out.output
    heads.write_text(out.output)
    assert "table:t1 " in out.output and "ledger " in out.output
    assert audit(ledger, "--expect-heads", str(heads))[0] == 0
    with tampering(ledger) as conn:  # the open round's last journal record, the newest of t1
        last = conn.execute(
            text(
                "SELECT id, chain_seq FROM round_log WHERE chain = 'table:t1' "
                "ORDER BY chain_seq DESC LIMIT 1"
            )
        ).one()
        top = _scalar(conn, "SELECT MAX(chain_seq) FROM transactions WHERE chain = 'table:t1'")
        assert last[1] > top  # (it is the newest record of the chain)
        previous = conn.execute(
            text(
                "SELECT chain_seq, mac FROM round_log WHERE chain = 'table:t1' AND chain_seq = :s"
            ),
            {"s": last[1] - 1},
        ).one()
        conn.execute(text("DELETE FROM round_log WHERE id = :i"), {"i": last[0]})
        conn.execute(
            text("UPDATE chain_heads SET seq = :s, mac = :m WHERE chain = 'table:t1'"),
            {"s": previous[0], "m": previous[1]},
        )
    assert audit(ledger)[0] == 0  # a shorter chain is a valid chain...
    code, output = audit(ledger, "--expect-heads", str(heads))
    assert code == 1 and "records were deleted" in output, output  # ...but not the one it was


def test_a_settled_round_shows_its_chain_head(books: Books) -> None:
    ledger = books.ledger
    rid, round_ = play_coin(ledger, {"P1": 20}, {"P1": "alice"}, settle=False)
    tx = ledger.settle_round(rid, round_.result())
    assert tx.head is not None and tx.head["chain"] == "table:t1" and len(tx.head["mac"]) == 64
    assert ledger.round(rid)["chain_head"] == tx.head
    # a player who kept it can check later that the books still contain that very record
    kept = {"table:t1": (int(tx.head["seq"]), str(tx.head["mac"]))}
    assert ledger.audit(replay=False, expect_heads=kept).ok
    forged = {"table:t1": (int(tx.head["seq"]), "00" * 32)}
    assert not ledger.audit(replay=False, expect_heads=forged).ok


APPEND_ONLY_EDITS = [
    "UPDATE transactions SET memo = 'x'",
    "DELETE FROM entries",
    "UPDATE round_ends SET status = 'voided'",
    "DELETE FROM round_log",
    "UPDATE hold_closures SET captured = 0",
    "UPDATE round_players SET start_balance = 0",
    "TRUNCATE seed_reveals CASCADE",
    "DROP TRIGGER round_log_append_only ON round_log",
    "ALTER TABLE rounds DISABLE TRIGGER ALL",
    "CREATE TABLE shadow (id integer)",
]


@pytest.mark.parametrize("sql", APPEND_ONLY_EDITS)
def test_the_application_role_cannot_change_the_books(books: Books, sql: str) -> None:
    """PostgreSQL: the card room's role (the one the ledger runs as) is refused every UPDATE,
    DELETE and TRUNCATE of an append-only table and every change of the schema — by the
    database's privileges, before any trigger."""
    ledger = books.ledger
    if ledger.dialect != "postgresql":
        pytest.skip("roles are PostgreSQL's")
    from sqlalchemy.exc import ProgrammingError

    with ledger.engine.connect() as conn:
        assert conn.execute(text("SELECT current_user")).scalar_one() == "qipai_app"
        with pytest.raises(ProgrammingError, match=r"permission denied|must be owner"):
            conn.execute(text(sql))
        conn.rollback()
    assert audit(books.ledger)[0] == 0


def test_audit_names_an_application_role_that_could_change_the_books(books: Books) -> None:
    """`qipai audit --app-role R` checks a role's rights: the owner role and a superuser are
    reported, the card room's role passes."""
    ledger = books.ledger
    if ledger.dialect != "postgresql":
        pytest.skip("roles are PostgreSQL's")
    assert audit(ledger, "--app-role", "qipai_app")[0] == 0
    code, output = audit(ledger, "--app-role", "qipai_owner")
    assert code == 1 and "application role 'qipai_owner' owns transactions" in output, output
    code, output = audit(ledger, "--app-role", "postgres")
    assert code == 1 and "application role 'postgres' is a superuser" in output, output
