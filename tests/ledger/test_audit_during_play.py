"""The audit reads one consistent snapshot (`Ledger._snapshot`: PostgreSQL REPEATABLE READ READ
ONLY, SQLite one read transaction), so an audit run while tables play reports nothing: every
chain's records and its head, every round and its end, every account and its entries are read
as of one moment. Threads settle rounds at three tables (and move money in the wallets' chain)
while the audit runs again and again; every run must pass, on SQLite and PostgreSQL. Before,
PostgreSQL read the heads after the records under READ COMMITTED and found "records were deleted
or the head was changed" while tables played."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from qipai.ledger import Ledger
from tests.ledger.helpers import play_coin

TABLES = ("t1", "t2", "t3")
ROUNDS = 6


def test_the_audit_finds_nothing_while_rounds_settle(ledger: Ledger) -> None:
    for table in TABLES:
        for user in (f"a-{table}", f"b-{table}"):
            ledger.create_user(user)
            ledger.deposit(user, 100_000, f"seed-{user}")
            ledger.buy_in(user, table, 10_000, f"seed-{user}")

    def play(table: str) -> int:
        players = {"P1": f"a-{table}", "P2": f"b-{table}"}
        for i in range(ROUNDS):
            play_coin(ledger, {"P1": 100 + i, "P2": 50}, players, table=table)
            ledger.deposit(f"a-{table}", 1, f"tip-{table}-{i}")  # the shared ledger chain too
        return ROUNDS

    findings: list[str] = []
    audits = 0
    with ThreadPoolExecutor(max_workers=len(TABLES)) as pool:
        played = [pool.submit(play, t) for t in TABLES]
        while audits < 3 or not all(f.done() for f in played):  # (bounded by the players)
            report = ledger.audit(replay=False)
            findings += report.violations
            audits += 1
        assert sum(f.result() for f in played) == ROUNDS * len(TABLES)
    assert findings == [], findings[:5]
    final = ledger.audit(replay=False)
    assert final.ok and final.stats["rounds"] == ROUNDS * len(TABLES)
