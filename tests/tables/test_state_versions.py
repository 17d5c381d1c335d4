"""docs/protocol.md, "State versions": an action is bound to the state it was built from.

For every game of the registry: an action built from round N's state and sent during round
N+1 is refused as `stale_action` naming the round now running, and changes nothing (money,
journal, round); the same action resent in round N after its ack was lost is a duplicate, not a
second move, and stays one after the round moved on."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from helpers import Inbox, fresh_ledger, total_money

from qipai.core.protocol import JSON
from qipai.core.rng import Rng
from qipai.games import registry
from qipai.tables import games, versions
from qipai.tables.ports import ManualClock, MemoryTableRepo
from qipai.tables.table import Table, Timing

GAMES = sorted(registry.available())


class Setup:
    def __init__(self, game: str) -> None:
        self.info = games.get(game)
        self.ledger, self.clock, self.inbox = fresh_ledger(), ManualClock(), Inbox()
        seeds = Rng(b"state-versions" + game.encode(), "seeds")
        self.table = Table(
            "t1",
            self.info,
            self.ledger,
            self.clock,
            repo=MemoryTableRepo(),
            timing=Timing(bot_delay=0.5, between_rounds=1.0),
            send=self.inbox,
            seed_source=lambda: seeds.next_bytes(32),
        )
        level = "random" if "random" in self.info.bot_levels else self.info.bot_levels[0]
        stack = max(
            self.table.terms.min_buy_in,
            min(self.info.default_buy_in, self.table.terms.max_buy_in),
        )
        self.ledger.deposit("ann", 10 * stack, "d-ann")
        self.table.sit("ann", "ann", stack)
        self.table.connect("ann")
        self.table.fill_with_bots(level)
        self.brain = self.info.make_bot(level)
        self.rng = Rng(b"ann-chooses-her-moves", "choices")

    def until(self, done: Any, steps: int = 5000) -> None:
        for _ in range(steps):
            if done():
                return
            self.clock.advance(0.25)
            self.table.tick()
        raise AssertionError("the table never got there")

    def ann_to_move(self) -> bool:
        round_, seat = self.table.round, self.table.seating.seat_of("ann")
        return (
            round_ is not None
            and seat in round_.awaiting()
            and bool(round_.legal_actions(seat))
            and bool(self.inbox.last_state("ann")["legal"])
        )

    def choice(self) -> JSON:
        round_, seat = self.table.round, self.table.seating.seat_of("ann")
        assert round_ is not None and seat is not None
        action: JSON = self.brain.choose(round_.view(seat), round_.legal_actions(seat), self.rng)
        return action

    def books(self) -> tuple[Any, ...]:
        """Everything an action could change: balances, the round and its journal."""
        record = self.table.record
        return (
            self.ledger.ledger.balances(),
            None if record is None else record.round_id,
            pickle.dumps(self.table.round),
            self.table.journal.count,
            None if record is None else self.ledger.round_info(record.round_id),
            len(self.table.results),
        )


def in_round(setup: Setup, round_id: str) -> bool:
    return setup.table.record is not None and setup.table.record.round_id == round_id


@pytest.mark.parametrize("game", GAMES)
def test_an_action_of_round_n_sent_in_round_n_plus_1_is_stale(game: str) -> None:
    s = Setup(game)
    money = total_money(s.ledger)
    s.until(s.ann_to_move)
    built_from = s.inbox.last_state("ann")
    action = s.choice()
    round_n = built_from["round"]["round_id"]
    assert built_from["version"] == versions.current(s.table, s.table.seating.seat_of("ann"))
    # ann's click is held up by the network; her countdown's default plays for her
    s.until(lambda: s.table.record is not None and s.table.record.round_id != round_n)
    s.until(s.ann_to_move)  # round N+1 is where her old bet would have landed
    now = s.table.record
    assert now is not None
    before = s.books()
    reply = s.table.act("ann", action, "late-1", built_from["version"])
    assert reply["type"] == "error" and reply["code"] == "stale_action", reply
    assert reply["round_id"] == now.round_id and round_n not in reply["message"]
    assert reply["version"] == s.inbox.last_state("ann")["version"]
    assert s.books() == before
    assert total_money(s.ledger) == money
    # the refusal took nothing: the same client id with the current version is a new action
    fresh = s.table.act("ann", s.choice(), "late-1", s.inbox.last_state("ann")["version"])
    assert fresh == {"type": "ack", "client_id": "late-1", "duplicate": False}


@pytest.mark.parametrize("game", GAMES)
def test_a_resend_after_a_lost_ack_is_a_duplicate_in_its_round_and_after(game: str) -> None:
    s = Setup(game)
    s.until(s.ann_to_move)
    state = s.inbox.last_state("ann")
    round_n = state["round"]["round_id"]
    action = s.choice()
    first = s.table.act("ann", action, "bet-1", state["version"])
    assert first == {"type": "ack", "client_id": "bet-1", "duplicate": False}
    taken = s.books()
    again = s.table.act("ann", action, "bet-1", state["version"])  # the ack was lost
    assert again == {"type": "ack", "client_id": "bet-1", "duplicate": True}
    assert s.books() == taken
    s.until(lambda: not in_round(s, round_n))
    s.until(s.ann_to_move)
    later = s.books()
    assert s.table.act("ann", action, "bet-1", state["version"])["duplicate"] is True
    assert s.books() == later
    entries = [
        e
        for e in s.ledger.round_info(round_n)["log"]  # type: ignore[index]
        if e["kind"] == "action" and e.get("client_id") == "bet-1"
    ]
    assert len(entries) == 1


@pytest.mark.parametrize("game", GAMES)
def test_another_seats_move_leaves_my_version_alone(game: str) -> None:
    """A version changes with the seat's own legal actions, not with every move at the table,
    so a player is never refused because someone else moved at the same time."""
    s = Setup(game)
    s.until(s.ann_to_move)
    seat = s.table.seating.seat_of("ann")
    mine = s.inbox.last_state("ann")["version"]
    round_ = s.table.round
    assert round_ is not None
    legal = [a.to_json() for a in round_.legal_actions(seat)]  # type: ignore[arg-type]
    assert mine == versions.state_version(
        s.table.record.round_id,
        round_.phase,
        seat,
        legal,  # type: ignore[union-attr]
    )
    assert versions.round_of(mine) == s.table.record.round_id  # type: ignore[union-attr]


def test_a_malformed_version_is_told_from_a_well_formed_one() -> None:
    good = versions.state_version("0" * 32, "bet", "A", [])
    assert versions.well_formed(good)
    assert versions.well_formed(versions.state_version(None, None, None, []))
    for bad in ("", "x", "abc", good + "0", good.replace(".", ":"), 5, None, ["a"]):
        assert not versions.well_formed(bad)


@pytest.mark.parametrize("game", GAMES)
def test_every_state_of_every_game_speaks_the_message_schema(game: str) -> None:
    """The typed fairness block, `round.tiles`, `version` and the rest, as every game's table
    sends them (docs/schema/messages.server.json), over a round and into the next."""
    from qipai.core.messages import SCHEMAS

    s = Setup(game)
    s.until(s.ann_to_move)
    first = s.table.record.round_id  # type: ignore[union-attr]
    s.until(lambda: not in_round(s, first))
    s.until(lambda: s.table.round is not None and bool(s.inbox.last_state("ann")["legal"]))
    server = SCHEMAS["messages.server"]
    states = [m for m in s.inbox.to("ann") if m["type"] == "state"]
    assert len(states) > 3
    for message in states:
        server.validate_python({**message, "table_id": "t1"})
