"""The table runtime on a virtual clock: countdowns, defaults exactly once, the timer race,
duplicate action ids, journaling before broadcast, settlement, bots, reconnection, recovery."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import Inbox, fresh_ledger, journal, make_table, seat_two, total_money
from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.protocol import HOUSE_ACCOUNTS
from qipai.tables.ports import JournalEntry, ManualClock, MemoryTableRepo


def test_round_starts_and_settles_with_conservation() -> None:
    table, ledger, _clock, _inbox = make_table()
    seat_two(table, ledger)
    table.tick()
    assert table.round is not None
    assert ledger.stack("alice", "t1") == 0  # the whole stack is held for the round
    assert table.act("alice", {"type": "bet", "amount": 5}, "c1")["type"] == "ack"
    assert table.act("bob", {"type": "bet", "amount": 7}, "c2")["type"] == "ack"
    assert table.round.phase == "swap"
    table.act("alice", {"type": "stand"}, "c3")
    table.act("bob", {"type": "swap"}, "c4")
    assert table.round is None and table.last_result is not None
    nets = table.last_result["nets"]
    assert sorted(nets.values()) in ([-7, 7], [-5, 5])
    assert ledger.stack("alice", "t1") + ledger.stack("bob", "t1") == 200
    assert total_money(ledger) == 2000
    # the round's deal unit has ended: its seed is revealed and matches the commitment
    revealed = table.units.reveals[-1]
    from qipai.core.rng import verify

    assert revealed.seed_hex is not None and verify(revealed.seed_hex, revealed.commitment)


def test_the_result_message_says_when_the_next_round_starts() -> None:
    table, ledger, _clock, inbox = make_table()
    seat_two(table, ledger)
    table.tick()
    table.act("alice", {"type": "bet", "amount": 5}, "c1")
    table.act("bob", {"type": "bet", "amount": 7}, "c2")
    table.act("alice", {"type": "stand"}, "c3")
    table.act("bob", {"type": "swap"}, "c4")
    state = inbox.last_state("alice")
    assert state["result"] is not None and state["round"]["finished"]
    assert state["next_round_in"] == pytest.approx(table.timing.between_rounds)
    # the events name who acted (the toy game's `seat`), never more than type and seat
    assert all(set(e) == {"type", "seat"} for e in state["events"])


def test_default_applied_exactly_once_on_expiry() -> None:
    table, ledger, clock, _ = make_table()
    seat_two(table, ledger)
    table.tick()
    table.act("alice", {"type": "bet", "amount": 3}, "a1")
    clock.advance(9.9)
    table.tick()
    assert table.round is not None and table.round.phase == "betting"
    clock.advance(0.2)
    table.tick()
    table.tick()
    assert table.round.phase == "swap"
    assert [e.seat for e in table.round.log].count(None) == 1
    assert table.round.view(None)["bets"] == {"A": 3, "B": 1}


@pytest.mark.parametrize("delay", [9.99, 10.0, 10.01])
def test_late_action_racing_the_timer_is_applied_or_refused_never_both(delay: float) -> None:
    table, ledger, clock, _ = make_table()
    seat_two(table, ledger)
    table.tick()
    table.act("alice", {"type": "bet", "amount": 3}, "a1")
    clock.advance(delay)  # the timer is due, but tick() has not run yet
    reply = table.act("bob", {"type": "bet", "amount": 8}, "b1")
    table.tick()
    assert table.round is not None
    log = table.round.log
    bets = table.round.view(None)["bets"]
    expiries = [e for e in log if e.seat is None]
    if reply["type"] == "ack":
        assert bets["B"] == 8 and not expiries
        assert delay < 10.0
    else:
        assert reply["code"] == "illegal_action" or reply["code"] == "wrong_phase"
        assert bets["B"] == 1 and len(expiries) == 1
        assert not any(e.seat == "B" for e in log)


def test_duplicate_client_ids_are_ignored() -> None:
    table, ledger, _clock, _inbox = make_table()
    seat_two(table, ledger)
    table.tick()
    first = table.act("alice", {"type": "bet", "amount": 4}, "same")
    again = table.act("alice", {"type": "bet", "amount": 4}, "same")
    assert first == {"type": "ack", "client_id": "same", "duplicate": False}
    assert again == {"type": "ack", "client_id": "same", "duplicate": True}
    assert table.round is not None and len(table.round.log) == 1
    assert len(journal(ledger, table.record.round_id)) == 1  # type: ignore[union-attr]


def test_a_client_id_is_one_players_own() -> None:
    """De-duplication is per player: another player's action with an id someone else used
    is applied (ids are chosen by each client, so two players' ids may well meet)."""
    table, ledger, _clock, _inbox = make_table()
    seat_two(table, ledger)
    table.tick()
    assert table.act("alice", {"type": "bet", "amount": 4}, "1")["duplicate"] is False
    assert table.act("bob", {"type": "bet", "amount": 5}, "1")["duplicate"] is False
    assert table.act("alice", {"type": "bet", "amount": 4}, "1")["duplicate"] is True
    assert table.round is not None and len(table.round.log) == 2
    assert len(journal(ledger, table.record.round_id)) == 2  # type: ignore[union-attr]


def test_invalid_actions_get_typed_errors_and_change_nothing() -> None:
    table, ledger, _clock, _inbox = make_table()
    seat_two(table, ledger)
    table.tick()
    assert table.round is not None
    before = table.round.view(None)
    for player, action, code in [
        ("alice", {"type": "bet", "amount": 0}, "illegal_action"),
        ("alice", {"type": "bet", "amount": "x"}, "invalid_input"),
        ("alice", {"type": "swap"}, "wrong_phase"),
        ("alice", {"nope": 1}, "invalid_input"),
        ("carol", {"type": "bet", "amount": 1}, "not_seated"),
    ]:
        reply = table.act(player, action, None)
        assert reply["type"] == "error" and reply["code"] == code, reply
    assert table.round.view(None) == before and table.round.log == []


def test_no_player_can_act_for_another_seat() -> None:
    table, ledger, _clock, _ = make_table()
    seat_two(table, ledger)
    table.tick()
    table.act("alice", {"type": "bet", "amount": 2}, None)
    table.act("bob", {"type": "bet", "amount": 2}, None)
    assert table.round is not None and table.round.awaiting() == ["A"]
    reply = table.act("bob", {"type": "stand"}, None)
    assert reply["code"] == "out_of_turn"


def test_every_action_is_journaled_before_it_is_broadcast() -> None:
    table, ledger, clock, _inbox = make_table()
    seat_two(table, ledger)
    table.tick()
    journal_sizes: list[int] = []
    real_send = table.send

    def spy(player: str, message: dict[str, Any]) -> None:
        if table.record is not None:
            journal_sizes.append(len(journal(ledger, table.record.round_id)))
            assert journal_sizes[-1] == len(table.round.log)  # type: ignore[union-attr]
        real_send(player, message)

    table.send = spy
    table.act("alice", {"type": "bet", "amount": 2}, None)
    clock.advance(11)
    table.tick()
    assert journal_sizes and max(journal_sizes) == 2


def test_bots_fill_seats_and_play_a_whole_round() -> None:
    table, ledger, clock, _inbox = make_table()
    ledger.deposit("alice", 1000, "d")
    table.sit("alice", "Alice", 100)
    table.connect("alice")
    table.fill_with_bots()
    assert not table.seating.free_seats()
    table.tick()
    assert table.round is not None and len(table.round.seats) == 3
    table.act("alice", {"type": "bet", "amount": 10}, None)
    for _ in range(40):
        clock.advance(1.0)
        table.tick()
        if table.round is None:
            break
    assert table.last_result is not None and table.round is None
    assert sum(table.last_result["nets"].values()) == 0


def test_bots_due_together_are_each_journaled_before_applied_and_heard_in_one_message() -> None:
    """Both bots of the betting phase are due at the same moment: each bet is journaled before
    the round takes it (journal first: at each write the round does not have it yet), and the
    one state message that tells of both comes after both were journaled."""
    table, ledger, clock, inbox = make_table()
    ledger.deposit("alice", 1000, "d")
    table.sit("alice", "Alice", 100)
    table.connect("alice")
    table.fill_with_bots()
    table.tick()
    assert table.round is not None and table.record is not None
    rid = table.record.round_id
    writes: list[tuple[JournalEntry, ...]] = []
    applied_at_write: list[int] = []
    real_append = ledger.append

    def spy_append(round_id: str, *entries: JournalEntry) -> None:
        writes.append(entries)
        applied_at_write.append(len(table.round.log))  # type: ignore[union-attr]
        real_append(round_id, *entries)

    heard: list[int] = []
    real_send = table.send

    def spy_send(player: str, message: dict[str, Any]) -> None:
        heard.append(len(journal(ledger, rid)))
        real_send(player, message)

    ledger.append = spy_append  # type: ignore[method-assign]
    table.send = spy_send
    before = len(inbox.to("alice"))
    clock.advance(1.0)  # bot_delay: both bots think for exactly this long
    table.tick()
    assert [[e.seat for e in w] for w in writes] == [["B"], ["C"]]
    assert [e.seq for w in writes for e in w] == [1, 2]
    assert applied_at_write == [0, 1]  # each bet journaled before the round took it
    assert heard == [2]  # one message, after both bets were journaled
    state = inbox.to("alice")[before:]
    assert len(state) == 1
    assert sorted(e["seat"] for e in state[0]["events"] if e["type"] == "bet") == ["B", "C"]
    assert table.round.awaiting() == ["A"]  # the countdown and the person are unaffected
    assert table.timers.deadline_at is not None


def test_bot_tables_without_humans_do_not_run() -> None:
    table, _ledger, clock, _ = make_table()
    table.fill_with_bots()
    clock.advance(5)
    table.tick()
    assert table.round is None


def test_reconnection_gets_the_private_view_back() -> None:
    table, ledger, clock, inbox = make_table()
    seat_two(table, ledger)
    table.tick()
    table.disconnect("alice")
    table.act("bob", {"type": "bet", "amount": 2}, None)
    clock.advance(4)
    table.tick()
    n = len(inbox.to("alice"))
    table.connect("alice")
    state = inbox.to("alice")[n]
    assert state["type"] == "state"
    assert state["you"]["seat"] == "A"
    assert state["round"]["view"]["cards"]["A"] is not None  # own card back
    assert state["round"]["view"]["cards"]["B"] is None  # never the other's
    assert 5.9 <= state["round"]["time_left"] <= 6.0
    assert state["legal"][0]["type"] == "bet"
    # a disconnected player is played by the defaults
    clock.advance(6.1)
    table.tick()
    assert table.round is not None and table.round.view(None)["bets"]["A"] == 1


def test_leaving_mid_round_cashes_out_after_settlement() -> None:
    table, ledger, clock, _ = make_table()
    seat_two(table, ledger)
    table.tick()
    assert table.leave("alice") is None
    assert table.seating.seat_of("alice") == "A"
    for _ in range(5):
        clock.advance(11)
        table.tick()
    assert table.seating.seat_of("alice") is None
    assert ledger.stack("alice", "t1") == 0
    assert 900 <= ledger.wallet("alice") <= 1010


def test_one_seat_per_player() -> None:
    table, ledger, _clock, _ = make_table()
    ledger.deposit("alice", 1000, "d")
    assert table.sit("alice", "A", 100) == "A"
    assert table.sit("alice", "A", 100) == "A"
    assert ledger.wallet("alice") == 900
    assert len(table.seating.humans()) == 1


def test_recovery_resumes_an_open_round_with_the_same_deal() -> None:
    ledger, repo, clock = fresh_ledger(), MemoryTableRepo(), ManualClock()
    table, _, _, _inbox = make_table(ledger=ledger, repo=repo, clock=clock)
    seat_two(table, ledger)
    table.tick()
    table.act("alice", {"type": "bet", "amount": 6}, "x1")
    assert table.round is not None
    cards = table.round.view(None)
    before = dict(table.round.cards)  # type: ignore[attr-defined]
    # "crash": a new table object built only from the repo and the ledger's journal
    fresh, _, _, _inbox2 = make_table(ledger=ledger, repo=repo, clock=clock)
    fresh.restore_layout(repo.tables["t1"])
    [open_round] = ledger.open_rounds()
    assert fresh.recover(open_round) == "resumed"
    assert fresh.round is not None
    assert dict(fresh.round.cards) == before  # type: ignore[attr-defined]
    assert fresh.round.view(None) == cards
    assert fresh.act("alice", {"type": "bet", "amount": 6}, "x1")["duplicate"] is True
    fresh.act("bob", {"type": "bet", "amount": 1}, None)
    for _ in range(3):
        clock.advance(6)
        fresh.tick()
    assert fresh.last_result is not None
    assert fresh.last_result["round_id"] == open_round.record.round_id
    assert ledger.round_info(open_round.record.round_id)["status"] == "settled"  # type: ignore[index]
    assert total_money(ledger) == 2000


def test_recovery_voids_what_cannot_be_rebuilt_and_releases_holds() -> None:
    ledger, repo, clock = fresh_ledger(), MemoryTableRepo(), ManualClock()
    table, _, _, _ = make_table(ledger=ledger, repo=repo, clock=clock)
    seat_two(table, ledger)
    table.tick()
    assert table.record is not None
    ledger.append(table.record.round_id, JournalEntry(1, "A", {"type": "bet", "amount": 99}, None))
    fresh, _, _, _ = make_table(ledger=ledger, repo=repo, clock=clock)
    [open_round] = ledger.open_rounds()
    assert fresh.recover(open_round) == "voided"
    assert ledger.stack("alice", "t1") == 100 and ledger.stack("bob", "t1") == 100
    assert ledger.open_rounds() == []


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["alice", "bob", "tick"]), st.integers(0, 12), st.floats(0, 6)),
        max_size=40,
    )
)
def test_random_schedules_keep_money_and_journal_consistent(
    steps: list[tuple[str, int, float]],
) -> None:
    table, ledger, clock, inbox = make_table()
    seat_two(table, ledger)
    for who, amount, wait in steps:
        clock.advance(wait)
        if who == "tick":
            table.tick()
        else:
            kind = ["bet", "stand", "swap"][amount % 3]
            table.act(who, {"type": kind, "amount": amount}, f"{who}{amount}{wait}")
        assert total_money(ledger) == 2000
        if table.record is not None:
            seqs = [e["seq"] for e in journal(ledger, table.record.round_id)]
            assert seqs == sorted(seqs) and len(seqs) == table.journal.count
        if table.round is not None:
            assert len(table.round.log) == table.journal.count
    for player in ("alice", "bob"):
        for message in inbox.to(player):
            assert set(message) >= {"type"}
    assert all(a not in HOUSE_ACCOUNTS for a in ("alice", "bob"))
    assert isinstance(Inbox, type)


def test_event_names_carry_the_acting_seat_only() -> None:
    from qipai.core.protocol import Event
    from qipai.tables.messages import _event_name

    # Pok Deng names its actor `player`; the amounts stay out of the message.
    assert _event_name(Event("bets", {"player": "S1", "totals": {"P1": 100}})) == {
        "type": "bets",
        "seat": "S1",
    }
    assert _event_name(Event("deal", {"cards": ["As"]})) == {"type": "deal", "seat": None}


@pytest.mark.parametrize("commits", [True, False])
def test_tile_commitments_follow_the_game_spec_not_the_game_name(commits: bool) -> None:
    """`GameSpec.commits_tiles` decides whether a round's tiles are committed (docs/fairness.md,
    "Tien Gow's tile commitment"): Tien Gow's rules under another name still commit."""
    import dataclasses

    from qipai.games.tiengow.spec import SPEC

    game = dataclasses.replace(SPEC, name="tiengow-renamed", commits_tiles=commits)
    table, ledger, _clock, _inbox = make_table(game=game)
    for p in ("alice", "bob", "carol", "dave"):
        ledger.deposit(p, 100_000, f"dep:{p}")
        table.sit(p, p.title(), table.terms.min_buy_in)
    table.tick()
    assert table.round is not None and table.record is not None
    info = ledger.round_info(table.record.round_id)
    assert info is not None
    assert (table.tiles is not None) is commits
    assert ("tiles_root" in info["meta"]) is commits
    snap = table.snapshot()
    assert (snap.tiles is not None) is commits
