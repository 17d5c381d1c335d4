"""Journal first, by fault injection at every write point of every game of the
registry: a round's start (`open_round`), a player's action, a default on silence and a bot's
move (`append`), and the finish (`settle_round`).

For each game a reference run counts the round writes of two rounds; then, for every one of those
writes in turn, a fresh run makes exactly that write fail (the database is unavailable). At the
moment of the failure the round's whole state is kept; once the operation that asked for the
write has returned, the round must be exactly as it was (nothing applied that is not journaled),
the table must not have been suspended for a passing failure, and it must go on to settle both
rounds with the money conserved and every journaled action in the round's log."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from helpers import fresh_ledger, total_money

from qipai.core.rng import Rng
from qipai.tables import games
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import ManualClock, MemoryTableRepo
from qipai.tables.table import Table, Timing

GAMES = sorted(games.available())
WRITES = ("open_round", "append", "settle_round")
ROUNDS = 2


class Faults:
    """Counts the table's round writes; the `fail_at`-th one raises (nothing is written)."""

    def __init__(self, ledger: LedgerAdapter, fail_at: int | None) -> None:
        self.ledger, self.fail_at, self.count = ledger, fail_at, 0
        self.points: list[str] = []
        self.kept: bytes | None = None  # the round's state when the write failed
        self.table: Table | None = None
        for name in WRITES:
            setattr(ledger, name, self._wrap(name, getattr(ledger, name)))

    def _wrap(self, name: str, real: Any) -> Any:
        def write(*args: Any, **kw: Any) -> Any:
            self.count += 1
            self.points.append(name)
            if self.count == self.fail_at:
                assert self.table is not None
                self.kept = state_of(self.table)
                raise OSError(f"database unavailable ({name})")
            return real(*args, **kw)

        return write


def state_of(table: Table) -> bytes:
    """Everything a round holds (None between rounds) and what the table journaled of it."""
    return pickle.dumps((table.round, table.journal.count))


def seat_people(game: str, ledger: LedgerAdapter, table: Table) -> list[str]:
    info = games.get(game)
    stack = max(table.terms.min_buy_in, min(info.default_buy_in, table.terms.max_buy_in))
    people = ["ann", "ben"][: max(1, min(2, len(info.seat_ids) - 1))]
    for p in people:
        ledger.deposit(p, 10 * stack, f"d-{p}")
        table.sit(p, p, stack)
        table.connect(p)  # listening: their silence is not "away"
    table.fill_with_bots("random" if "random" in info.bot_levels else info.bot_levels[0])
    return people


def play(game: str, fail_at: int | None, rounds: int = ROUNDS) -> Faults:
    ledger, clock = fresh_ledger(), ManualClock()
    seeds = Rng(b"journal-faults" + game.encode(), "seeds")
    table = Table(
        "t1",
        games.get(game),
        ledger,
        clock,
        repo=MemoryTableRepo(),
        timing=Timing(bot_delay=0.5, between_rounds=1.0),
        seed_source=lambda: seeds.next_bytes(32),
    )
    faults = Faults(ledger, fail_at)
    faults.table = table
    people = seat_people(game, ledger, table)
    money = total_money(ledger)
    info = games.get(game)
    brains = {
        p: info.make_bot("random" if "random" in info.bot_levels else info.bot_levels[0])
        for p in people
    }
    rng = Rng(b"people-choose-their-moves", "choices")
    for step in range(3000):
        if len(table.results) >= rounds:
            break
        before, number = faults.count, table.number
        acted = False
        if table.round is not None:
            for p in people:
                seat = table.seating.seat_of(p)
                round_ = table.round
                if round_ is None or seat not in round_.awaiting() or rng.randbelow(3) == 0:
                    continue  # sometimes silent: the countdown's default acts for them
                legal = round_.legal_actions(seat)
                if not legal:
                    continue
                choice = brains[p].choose(round_.view(seat), legal, rng)
                reply = table.act(p, choice, f"{p}-{step}")
                if faults.kept is not None and faults.count >= (faults.fail_at or 0) > before:
                    check_unchanged(table, faults, reply, number)
                acted = True
                break
        if not acted:
            clock.advance(0.5)
            table.tick()
            if faults.kept is not None and faults.count >= (faults.fail_at or 0) > before:
                check_unchanged(table, faults, None, number)
        assert table.suspension is None, table.suspension
        assert total_money(ledger) == money
        if table.round is not None and table.record is not None:
            assert len(table.round.log) == table.journal.count
            logged = ledger.round_info(table.record.round_id)
            assert logged is not None
            actions = [e for e in logged["log"] if e["kind"] == "action"]
            assert len(actions) == table.journal.count
    assert len(table.results) >= rounds, f"{game}: only {len(table.results)} rounds"
    assert ledger.open_rounds() == [] or table.round is not None
    assert total_money(ledger) == money
    return faults


def check_unchanged(table: Table, faults: Faults, reply: Any, number: int) -> None:
    """The operation whose write failed has returned: the round is exactly as it was then (and
    a round that could not be opened was not counted)."""
    point = faults.points[(faults.fail_at or 1) - 1]
    if reply is not None and point != "settle_round":
        assert reply["type"] == "error" and reply["code"] == "journal_unavailable", reply
    # (an action that finished the round was journaled and is acknowledged: its finish waits)
    if point == "open_round":
        assert table.round is None and table.record is None and table.number == number
    if point != "settle_round":
        assert state_of(table) == faults.kept, f"the round changed after a failed {point}"
    else:  # the finished round is kept, unsettled, until the settlement can be written
        assert table.round is not None and table.round.finished
        assert state_of(table) == faults.kept
    faults.kept = b"checked"


_REFERENCE: dict[tuple[str, int], list[str]] = {}


def reference(game: str, rounds: int = ROUNDS) -> list[str]:
    if (game, rounds) not in _REFERENCE:
        _REFERENCE[game, rounds] = play(game, None, rounds).points
    return _REFERENCE[game, rounds]


def sample(points: list[str]) -> list[int]:
    """The round's opening, its settlement, and one action half-way."""
    appends = [k for k, p in enumerate(points, 1) if p == "append"]
    return sorted(
        {appends[len(appends) // 2]} | {k for k, p in enumerate(points, 1) if p != "append"}
    )


def each_write_fails_in_turn(game: str, which: list[int], rounds: int) -> None:
    points = reference(game, rounds)
    assert {"open_round", "append", "settle_round"} <= set(points), points
    for k in which:
        faults = play(game, k, rounds)
        assert faults.kept == b"checked", f"{game}: write {k} ({points[k - 1]}) never failed"


@pytest.mark.parametrize("game", GAMES)
def test_a_failed_write_changes_nothing_and_the_table_plays_on(game: str) -> None:
    """One round of each game: its opening, one action and its settlement fail in turn."""
    each_write_fails_in_turn(game, sample(reference(game, 1)), 1)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_write_point_of_every_game(game: str) -> None:
    """Two rounds of each game: every one of their writes fails in turn."""
    each_write_fails_in_turn(game, list(range(1, len(reference(game)) + 1)), ROUNDS)
