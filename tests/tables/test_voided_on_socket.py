"""A round interrupted by the interrupted-game policy (a suspended or closed table) ends on the
socket: its last state says `phase: "voided"`, `finished: true`, offers nothing, and an action
built before is refused as stale (docs/protocol.md) — never `betting` and unfinished for ever."""

from __future__ import annotations

from helpers import make_table, seat_two


def test_a_suspended_round_ends_as_voided_on_the_socket() -> None:
    table, ledger, _clock, inbox = make_table()
    seat_two(table, ledger)
    table.tick()
    before = inbox.last_state("alice")
    assert before["round"]["phase"] == "betting" and before["legal"]
    table.suspend("the operator stopped the table")
    for player in ("alice", "bob"):
        after = inbox.last_state(player)
        assert after["round"]["round_id"] == before["round"]["round_id"]
        assert after["round"]["phase"] == "voided" and after["round"]["finished"] is True
        assert after["legal"] == [] and after["round"]["awaiting"] == []
    reply = table.act("alice", {"type": "bet", "amount": 3}, "late", before["version"])
    assert reply["type"] == "error" and reply["code"] in ("table_suspended", "stale_action")
