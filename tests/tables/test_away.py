"""Away and waiting (docs/rules/common.md#away-seats): a seat silent for a whole
round while disconnected, or for two rounds in a row while connected, is marked away; it is dealt
no further rounds; it is stood up with its stack returned after the table's grace time unless its
player comes back; a seat that comes back plays again from the next round."""

from __future__ import annotations

from helpers import TOY, Inbox, fresh_ledger, make_table, total_money

from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import ManualClock
from qipai.tables.table import Table
from qipai.tables.terms import default_terms

GRACE = 60.0


def three_at_a_table(grace: float = GRACE) -> tuple[Table, ManualClock, Inbox, LedgerAdapter]:
    """alice and carol listen and play; bob sat down and closed his browser."""
    table, ledger, clock, inbox = make_table(
        ledger=fresh_ledger(), terms=default_terms(TOY, away_grace_s=grace)
    )
    for p in ("alice", "bob", "carol"):
        ledger.deposit(p, 1000, f"dep:{p}")
        table.sit(p, p.title(), 100)
    table.connect("alice")
    table.connect("carol")
    return table, clock, inbox, ledger


def play_a_round(table: Table, clock: ManualClock, players: tuple[str, ...]) -> None:
    """Start a round, let `players` act and the countdowns act for everyone else."""
    for _ in range(50):
        clock.advance(0.5)
        table.tick()
        if table.round is not None:
            break
    assert table.round is not None
    number = table.number
    for p in players:
        seat = table.seating.seat_of(p)
        if seat in table.round.seat_ids():
            table.act(p, {"type": "bet", "amount": 1}, f"{p}-{number}-bet")
    for _ in range(200):
        if table.round is None or table.number != number:
            break
        for p in players:
            seat = table.seating.seat_of(p)
            if table.round is not None and seat in table.round.awaiting():
                table.act(p, {"type": "stand"}, f"{p}-{number}-stand")
        clock.advance(1)
        table.tick()
    assert table.last_result is not None and table.last_result["number"] == number


def test_a_disconnected_silent_seat_is_away_after_one_round_and_dealt_no_more() -> None:
    table, clock, inbox, ledger = three_at_a_table()
    bob = table.seating.seat_of("bob")
    play_a_round(table, clock, ("alice", "carol"))
    state = table.seating.seats[bob]  # type: ignore[index]
    assert state.away
    # the table tells everyone, and the public view shows it
    assert {"type": "away", "table": "t1", "seat": bob} in inbox.to("alice")
    seats = {s["seat"]: s for s in inbox.last_state("carol")["table"]["seats"]}
    assert seats[bob]["away"] is True and seats[bob]["away_until"] is not None
    for _ in range(3):  # bob is dealt no further round, and nobody waits for his countdown
        play_a_round(table, clock, ("alice", "carol"))
        assert bob not in {s for s, _, _ in table.last_record.seats}  # type: ignore[union-attr]
    assert total_money(ledger) == 3000


def test_an_away_seat_is_stood_up_after_the_grace_time_with_its_stack_returned() -> None:
    table, clock, inbox, ledger = three_at_a_table(grace=30.0)
    bob = table.seating.seat_of("bob")
    play_a_round(table, clock, ("alice", "carol"))
    assert table.seating.seats[bob].away  # type: ignore[index]
    stack = ledger.stack("bob", "t1")
    away_since = table.seating.seats[bob].away_since  # type: ignore[index]
    assert away_since is not None
    # the table wakes itself for the deadline (no outside event needed)
    wake = table.next_wakeup()
    assert wake is not None and wake <= away_since + 30.0
    while clock.now() < away_since + 30.0:
        clock.advance(1)
        table.tick()
        if table.round is not None:  # alice and carol play on meanwhile
            for p in ("alice", "carol"):
                seat = table.seating.seat_of(p)
                if seat in table.round.awaiting():
                    kind = "bet" if table.round.phase == "betting" else "stand"
                    table.act(p, {"type": kind, "amount": 1}, f"{p}-{clock.now()}")
    for _ in range(40):  # stood up at once, or after the round it is part of (it is not)
        if table.seating.seat_of("bob") is None:
            break
        clock.advance(1)
        table.tick()
    assert table.seating.seat_of("bob") is None
    assert ledger.wallet("bob") == 900 + stack
    assert ledger.stack("bob", "t1") == 0
    left = [m for m in inbox.to("bob") if m["type"] == "left"]
    assert left and "away" in left[-1]["reason"] and left[-1]["cashed_out"] == stack
    assert total_money(ledger) == 3000


def test_a_seat_that_comes_back_plays_again_from_the_next_round() -> None:
    table, clock, _inbox, _ledger = three_at_a_table()
    bob = table.seating.seat_of("bob")
    play_a_round(table, clock, ("alice", "carol"))
    assert table.seating.seats[bob].away  # type: ignore[index]
    play_a_round(table, clock, ("alice", "carol"))
    assert bob not in {s for s, _, _ in table.last_record.seats}  # type: ignore[union-attr]
    table.connect("bob")  # his browser is back before the grace time
    assert not table.seating.seats[bob].away  # type: ignore[index]
    if table.round is not None:  # a running round is not his: he waits for the next one
        assert bob not in table.round.seat_ids()
    play_a_round(table, clock, ("alice", "bob", "carol"))
    assert bob in {s for s, _, _ in table.last_record.seats}  # type: ignore[union-attr]
    clock.advance(GRACE * 2)
    table.tick()
    assert table.seating.seat_of("bob") == bob  # not stood up: he came back


def test_a_connected_seat_is_away_after_two_silent_rounds_not_one() -> None:
    table, clock, _inbox, _ledger = three_at_a_table()
    table.connect("bob")  # listening, but silent
    bob = table.seating.seat_of("bob")
    play_a_round(table, clock, ("alice", "carol"))
    assert not table.seating.seats[bob].away  # type: ignore[index]
    play_a_round(table, clock, ("alice", "carol"))
    assert table.seating.seats[bob].away  # type: ignore[index]


def test_acting_resets_the_count_of_silent_rounds() -> None:
    table, clock, _inbox, _ledger = three_at_a_table()
    table.connect("bob")
    bob = table.seating.seat_of("bob")
    for players in (("alice", "carol"), ("alice", "bob", "carol"), ("alice", "carol")):
        play_a_round(table, clock, players)
        assert not table.seating.seats[bob].away  # type: ignore[index]


def test_a_table_left_with_away_seats_says_so_while_it_waits() -> None:
    """Two seats at a two-player game, one away: the table waits and says what for."""
    ledger = fresh_ledger()
    table, ledger, clock, inbox = make_table(ledger=ledger)
    for p in ("alice", "bob"):
        ledger.deposit(p, 1000, f"dep:{p}")
        table.sit(p, p.title(), 100)
    table.connect("alice")
    play_a_round(table, clock, ("alice",))
    assert table.seating.seats[table.seating.seat_of("bob") or ""].away
    clock.advance(5)
    table.tick()
    assert table.round is None
    info = table.public_info()
    assert (info["status"], info["status_reason"]) == ("waiting", "1 of 2 players (1 away)")
    state = inbox.last_state("alice")
    assert state["table"]["status_reason"] == "1 of 2 players (1 away)"
    detail = {"code": "players_away", "n": 1, "of": 2, "away": 1}
    assert state["table"]["status_detail"] == detail  # for clients to translate
    assert state["next_round_in"] is None  # no countdown to a round that cannot start
    n = len(inbox.to("alice"))
    for _ in range(10):
        clock.advance(1)
        table.tick()
    assert len(inbox.to("alice")) == n  # said once, not every second
    table.connect("bob")  # he is back: the table deals again
    for _ in range(5):
        clock.advance(1)
        table.tick()
    assert table.round is not None and len(table.round.seat_ids()) == 2


def test_the_away_mark_survives_a_restart() -> None:
    from qipai.tables.ports import MemoryTableRepo

    table, clock, _inbox, ledger = three_at_a_table()
    assert isinstance(table.repo, MemoryTableRepo)
    bob = table.seating.seat_of("bob")
    play_a_round(table, clock, ("alice", "carol"))
    assert table.seating.seats[bob].away  # type: ignore[index]
    fresh, _, _, _ = make_table(ledger=ledger, repo=table.repo, clock=clock)
    fresh.restore_layout(table.repo.tables["t1"])
    assert fresh.seating.seats[bob].away  # type: ignore[index]
    assert fresh.seating.seats[bob].away_since == table.seating.seats[bob].away_since  # type: ignore[index]
