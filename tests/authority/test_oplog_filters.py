"""The operator log filtered by kind (an action's family), operator and time, and paged to its
first row, on SQLite and PostgreSQL (docs/operators.md#operator-log)."""

from __future__ import annotations

from qipai.authority import Authority
from qipai.authority.oplog import SYSTEM, Actor
from tests.authority.conftest import Clock, both_backends

pytestmark = both_backends

ROWS = [  # (operator, action, target), ten seconds apart
    ("olga", "table.suspend", "t1"),
    ("ivan", "round.void", "r1"),
    ("olga", "table.resume", "t1"),
    ("system", "table.close", "t2"),
    ("olga", "table_x.note", "t3"),
]


def write(authority: Authority, clock: Clock) -> None:
    for i, (who, action, target) in enumerate(ROWS):
        if i:
            clock.advance(10)
        actor = SYSTEM if who == "system" else Actor(who, "operator")
        authority.log.append(actor, action, target, f"reason {i}")


def test_filters_by_kind_operator_and_time(authority: Authority, clock: Clock) -> None:
    start = clock()
    write(authority, clock)
    log = authority.log
    actions = [e["action"] for e in log.entries(kind="table", limit=500)]
    assert actions == [a for _, a, _ in reversed(ROWS) if a.split(".")[0] == "table"]
    assert log.entries(kind="tabl_", limit=500) == []  # a LIKE wildcard is taken literally
    assert log.entries(kind="table_x", limit=500)[0]["action"] == "table_x.note"
    olga = log.entries(actor="olga", limit=500)
    assert {e["actor"] for e in olga} == {"olga"} and len(olga) == 3
    window = log.entries(since=start + 10, until=start + 30, limit=500)
    assert [e["at"] - start for e in window] == [20.0, 10.0]
    both = log.entries(actor="olga", kind="table", since=start + 1, limit=500)
    assert [e["action"] for e in both] == ["table.resume"]
    assert log.kinds() == ["round", "table", "table_x"]


def test_pages_reach_the_first_row(authority: Authority, clock: Clock) -> None:
    write(authority, clock)
    everything = [e["id"] for e in authority.log.entries(limit=500)]
    for limit in (1, 2, 3, len(everything)):
        seen: list[int] = []
        before = None
        while True:
            page = authority.log.entries(before_id=before, limit=limit)
            if not page:
                break
            seen += [e["id"] for e in page]
            before = page[-1]["id"]
        assert seen == everything, limit
