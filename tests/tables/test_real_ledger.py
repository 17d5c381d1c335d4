"""The table runtime on the real ledger (SQLite): a round settles, a crash resumes or voids."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import TOY, Inbox, fresh_ledger

from qipai.core.rng import Rng
from qipai.ledger import Ledger
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import JournalEntry, ManualClock, MemoryTableRepo
from qipai.tables.table import Table, Timing


def make(path: Path, repo: MemoryTableRepo, clock: ManualClock) -> tuple[Table, LedgerAdapter]:
    ledger = LedgerAdapter(Ledger.open(str(path)))
    table = Table("tbl1", TOY, ledger, clock, repo=repo, timing=Timing(1.0, 3.0), send=Inbox())
    return table, ledger


def test_round_settles_into_the_ledger_and_resumes_after_a_crash(tmp_path: Path) -> None:
    repo, clock = MemoryTableRepo(), ManualClock()
    table, ledger = make(tmp_path / "l.db", repo, clock)
    for p in ("alice", "bob"):
        ledger.deposit(p, 1000, f"dep-{p}")
        table.sit(p, p, 100)
    table.tick()
    assert table.record is not None
    first = table.record.round_id
    assert ledger.stack("alice", "tbl1") == 0
    table.act("alice", {"type": "bet", "amount": 4}, "a-1")
    # crash: a new process would see only the database and the saved table layout
    again, ledger2 = make(tmp_path / "l.db", repo, clock)
    again.restore_layout(repo.tables["tbl1"])
    [open_round] = ledger2.open_rounds()
    assert open_round.record.round_id == first
    assert again.recover(open_round) == "resumed"
    assert again.round is not None and again.round.view(None)["bets"] == {"A": 4}
    assert again.act("alice", {"type": "bet", "amount": 4}, "a-1")["duplicate"] is True
    again.act("bob", {"type": "bet", "amount": 2}, "b-1")
    for _ in range(3):
        clock.advance(6)
        again.tick()
    info = ledger2.round_info(first)
    assert info is not None and info["status"] == "settled"
    assert info["seed"] is not None  # revealed once the round ended
    nets = sorted(p["net"] for p in info["players"])
    assert nets in ([-4, 4], [-2, 2])
    assert sum(ledger2.ledger.balances().values()) == 0  # double entry: every account sums to 0


def test_unrebuildable_round_is_voided_with_holds_released(tmp_path: Path) -> None:
    repo, clock = MemoryTableRepo(), ManualClock()
    table, ledger = make(tmp_path / "l.db", repo, clock)
    for p in ("alice", "bob"):
        ledger.deposit(p, 1000, f"dep-{p}")
        table.sit(p, p, 100)
    table.tick()
    assert table.record is not None
    ledger.append(table.record.round_id, JournalEntry(1, "A", {"type": "bet", "amount": 999}, None))
    again, ledger2 = make(tmp_path / "l.db", repo, clock)
    [open_round] = ledger2.open_rounds()
    assert again.recover(open_round) == "voided"
    assert ledger2.stack("alice", "tbl1") == 100 and ledger2.stack("bob", "tbl1") == 100
    assert ledger2.open_rounds() == []


def test_cached_stacks_always_equal_the_ledger(tmp_path: Path) -> None:
    """The table keeps stacks cached across open/settle (adjusted, not re-read); every cached
    figure must equal the ledger's own at every moment, for a real game too."""
    from qipai.tables import games

    for game, humans in (("toy", ("alice", "bob")), ("pokdeng", ("carol",))):
        clock = ManualClock()
        ledger = LedgerAdapter(Ledger.open(str(tmp_path / f"{game}.db")))
        info = TOY if game == "toy" else games.get(game)
        table = Table(game, info, ledger, clock, timing=Timing(0.5, 1.0), send=Inbox())
        for p in humans:
            ledger.deposit(p, 100_000, f"dep-{p}")
            table.sit(p, p, info.default_buy_in if game != "toy" else 100)
        if game != "toy":
            table.fill_with_bots()
        checked = 0
        bot, rng = info.make_bot(info.default_bot()), Rng(b"cached-stacks-test-seed-32bytes!")
        for _ in range(400):
            clock.advance(0.5)
            table.tick()
            # the people play (the game's bot chooses for them): silent seats would go away
            for p in humans:
                seat = table.seating.seat_of(p)
                if table.round is None or seat not in table.round.awaiting():
                    continue
                legal = table.round.legal_actions(seat)
                if legal:
                    table.act(p, bot.choose(table.round.view(seat), legal, rng), None)
            for player, cached in list(table.money.cache.items()):
                assert cached == ledger.stack(player, game), (game, player, table.record)
                checked += 1
            if len(table.results) >= 4:
                break
        assert len(table.results) >= 4 and checked > 0


@pytest.mark.parametrize("sit_during_round", [False, True])
def test_recovery_numbers_a_round_whose_start_was_not_saved(
    tmp_path: Path, sit_during_round: bool
) -> None:
    """A round that goes on with the same shoe is not saved when it starts (its number and its
    place in the shoe's round list are saved when it ends): after a crash the open round keeps
    its number and shoe, whether or not the layout was saved during it (someone sat down)."""
    from qipai.tables import games

    info = games.get("pokdeng")
    ledger = LedgerAdapter(Ledger.open(str(tmp_path / "pd.db")))
    repo, clock = MemoryTableRepo(), ManualClock()

    def make() -> Table:
        return Table("pd", info, ledger, clock, repo=repo, timing=Timing(0.5, 1.0), send=Inbox())

    table = make()
    for p in ("alice", "bob"):
        ledger.deposit(p, 1_000_000, f"d-{p}")
    table.sit("alice", "alice", 100_000)
    table.connect("alice")  # silent but listening: away only after two silent rounds
    table.add_bot()
    for _ in range(200):  # play until a round runs on with the previous round's shoe
        clock.advance(0.5)
        table.tick()
        if table.record is not None and table.number >= 2 and table.units.carry_seed is not None:
            break
    record = table.record
    assert record is not None and table.units.carry_seed is not None
    saved = repo.tables["pd"]
    assert saved["numbered"] != record.round_id  # the start of this round was not saved
    if sit_during_round:
        table.sit("bob", "bob", 100_000)
        assert repo.tables["pd"]["numbered"] == record.round_id
    fresh = make()
    fresh.restore_layout(repo.tables["pd"])
    [open_round] = ledger.open_rounds()
    assert fresh.recover(open_round) == "resumed"
    assert fresh.record is not None and fresh.record.number == record.number == fresh.number
    assert fresh.units.reveals[-1].commitment == record.commitment
    assert fresh.units.reveals[-1].rounds == table.units.reveals[-1].rounds
    # nobody came back: after the return grace the countdown starts again in full
    # (docs/rules/common.md#countdowns), and its defaults finish the round
    clock.advance(60)
    fresh.tick()
    clock.advance(60)
    fresh.tick()
    assert fresh.last_result is not None and fresh.last_result["number"] == record.number


def test_the_result_message_carries_the_settlement_chain_head() -> None:
    """Each settled round's state message shows its place in the books' chain, so a
    player's own history can later contradict a rewrite (`qipai audit --expect-heads`)."""
    from helpers import make_table, seat_two

    table, ledger, _clock, inbox = make_table()
    seat_two(table, ledger)
    table.tick()
    assert table.record is not None
    rid = table.record.round_id
    table.act("alice", {"type": "bet", "amount": 5}, "c1")
    table.act("bob", {"type": "bet", "amount": 7}, "c2")
    table.act("alice", {"type": "stand"}, "c3")
    table.act("bob", {"type": "swap"}, "c4")
    state = inbox.last_state("alice")
    assert state["result"] is not None and state["result"]["round_id"] == rid
    head = state["result"]["chain_head"]
    assert head == ledger.ledger.round(rid)["chain_head"]
    assert head["chain"] == "table:t1" and len(head["mac"]) == 64
    assert inbox.last_state("bob")["result"]["chain_head"] == head
    kept = {head["chain"]: (int(head["seq"]), str(head["mac"]))}
    assert ledger.ledger.audit(replay=False, expect_heads=kept).ok


def test_moving_one_stack_reads_no_other_stack_again() -> None:
    """A bot topped up, a person buying in or cashing out moves that one stack: the table's
    other cached stacks are not read from the ledger again (each read is a database round
    trip on the table's thread), and the moved stack is what the ledger says."""
    from qipai.tables.money import TableMoney

    ledger = fresh_ledger()
    for player in ("alice", "bob"):
        ledger.deposit(player, 1000, f"d-{player}")
    money = TableMoney(ledger, "t-money")
    money.buy_in("alice", 300, "b-alice")
    money.buy_in("bob", 200, "b-bob")
    assert (money.stack("alice"), money.stack("bob"), money.stack("bot.t-money.C")) == (300, 200, 0)
    reads: list[str] = []
    stack = ledger.stack

    def counted(player: str, table_id: str) -> int:
        reads.append(player)
        return stack(player, table_id)

    ledger.stack = counted  # type: ignore[method-assign]
    money.fund_bot("bot.t-money.C", 500, 100)
    assert money.stack("bot.t-money.C") == 500 == stack("bot.t-money.C", "t-money")
    money.cash_out("bob", bot=False)
    money.buy_in("bob", 50, "b-bob-2")
    assert money.stack("alice") == 300 and money.stack("bob") == 50
    assert reads.count("alice") == 0 and reads.count("bot.t-money.C") == 0
