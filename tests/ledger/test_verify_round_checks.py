"""`qipai verify ROUND` runs every per-round check `qipai audit` runs (`verify.round_checks`:
the round's records' MACs and its facts, `audit.check_round_facts`): each edit of a stored
round that the audit catches (`tests/ledger/test_tamper.py`) is caught by verifying that round
too — exit code 1 and the failed check named — on SQLite and PostgreSQL; an untouched round
passes (the negative control)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from qipai.cli import app
from qipai.games import PACKAGES
from tests.ledger import test_tamper as t
from tests.ledger.tamper import tampering

runner = CliRunner()

PER_ROUND_CHECKS = ("FAIL records' MACs", "FAIL round's ledger facts")

# each edit of test_tamper.py that touches one round's records, and that round
CASES: list[tuple[t.Edit, str]] = [
    (t.second_settlement, "settled0"),
    (t.settlement_edit_and_voided, "settled1"),
    (t.rewritten_event, "settled0"),
    (t.changed_start_balance, "settled2"),
    (t.flipped_hold_closure, "settled0"),
    (t.deleted_hold_closure, "settled0"),
    (t.swapped_seed, "open_round"),
    (t.inserted_record, "settled0"),
    (t.unchained_record, "settled0"),
    (t.deleted_record, "settled1"),
    (t.reordered_records, "settled0"),
    (t.moved_to_other_chain, "voided"),
    (t.deleted_transaction, "settled1"),
    (t.void_without_reason, "voided"),
    (t.void_kept_the_refund, "voided"),
    (t.settled_round_reopened, "settled2"),
    (t.changed_round_player, "settled0"),
    (t.rewritten_reveal, "settled0"),
]


def _round(books: t.Books, which: str) -> str:
    if which.startswith("settled"):
        return books.settled[int(which[-1])]
    return str(getattr(books, which))


def verify(books: t.Books, round_id: str) -> tuple[int, str]:
    out = runner.invoke(app, ["verify", round_id, "--db", t.cli_db(books.ledger)])
    return out.exit_code, out.output


@pytest.fixture(autouse=True)
def coin_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(PACKAGES, "coin", "tests.ledger.coin_game")
    yield


@pytest.fixture
def books(funded: t.Ledger) -> t.Books:
    return t.books.__wrapped__(funded)  # type: ignore[attr-defined]


def test_untouched_rounds_pass_every_per_round_check(books: t.Books) -> None:
    for round_id in [*books.settled, books.voided]:
        code, output = verify(books, round_id)
        assert code == 0, output
        assert not any(c in output for c in PER_ROUND_CHECKS), output
    report = books.ledger.verify_round(books.open_round)  # open: not settled yet, but sound
    assert [c.name for c in report.checks if not c.ok] == ["settled"], report.lines()


@pytest.mark.parametrize(("edit", "which"), CASES, ids=[c[0].__name__ for c in CASES])
def test_verify_catches_each_edit_the_audit_catches(
    books: t.Books, edit: t.Edit, which: str
) -> None:
    round_id = _round(books, which)
    with tampering(books.ledger) as conn:
        edit(conn, books)
    code, output = verify(books, round_id)
    assert code == 1, output
    assert any(c in output for c in PER_ROUND_CHECKS), output
    code, output = t.audit(books.ledger)
    assert code == 1, output  # (and the audit, as before)
