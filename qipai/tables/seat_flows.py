"""The seat flows of a table: sitting down (a person with a buy-in, a bot with house money),
standing up (now, or after the running round or game), listening, client seeds, and the away
rule (docs/rules/common.md#away-seats). `seating.py` keeps the seats and the seating rules; these
flows apply them with the table's money, layout and messages.

The table calls each flow under its lock and in its order (`table.py`).
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from qipai.core.errors import InvalidInput
from qipai.core.protocol import JSON, Round
from qipai.fairness import check_client_seed
from qipai.tables import layout, lobby
from qipai.tables import seating as rules
from qipai.tables.errors import (
    ClientSeedsOff,
    CommitmentMoved,
    Funds,
    GameInProgress,
    NotSeated,
    SeatTaken,
)
from qipai.tables.ports import InsufficientFunds, RoundRecord
from qipai.tables.seating import SeatState

if TYPE_CHECKING:
    from qipai.tables.table import Table


def in_round(table: Table, seat: str) -> bool:
    """Whether `seat` is dealt into the running round (it then stands up after it)."""
    record = table.record
    return record is not None and any(s == seat for s, _, _ in record.seats)


def sit(
    table: Table,
    player: str,
    name: str,
    buy_in: int,
    seat: str | None,
    key: str,
    client_seed: str | None,
    seed_after: str | None = None,
) -> str:
    """Seat a player (one seat per player per table) and move `buy_in` from the wallet; a
    player already seated is back (no longer leaving, no longer away). `seed_after`
    (`take_client_seed`): the commitment whose unit the seed skips."""
    if client_seed is not None:
        check_client_seed(client_seed)
        if not table.terms.client_seeds:
            raise ClientSeedsOff()  # docs/fairness.md: refused, never silently dropped
    seating = table.seating
    existing = seating.seat_of(player)
    if existing is not None:
        seating.seats[existing].leaving = False
        take_client_seed(table, player, client_seed, seed_after)
        if seating.back(player) is not None:
            table.save()
        table.broadcast()
        return existing
    seat = rules.free_seat(seating, seat)
    rules.check_buy_in(table.terms, table.money.stack(player), buy_in)
    key = key or f"buyin:{uuid.uuid4().hex}"
    if buy_in > 0 and table.saver.in_ledger(table.ledger) and not table.lost:
        paid_with_layout(table, SeatState(seat, player, name), buy_in, key, client_seed, seed_after)
        table.wake()
        table.broadcast()
        return seat
    if buy_in > 0:
        try:
            table.money.buy_in(player, buy_in, key)
        except InsufficientFunds as exc:
            raise Funds(str(exc)) from None
    seating.place(SeatState(seat, player, name))
    take_client_seed(table, player, client_seed, seed_after)
    table.alone_since = None
    table.save()
    table.wake()
    table.broadcast()
    return seat


def paid_with_layout(
    table: Table,
    state: SeatState,
    buy_in: int,
    key: str,
    client_seed: str | None,
    seed_after: str | None = None,
) -> None:
    """Take the seat and pay for it in ONE transaction: the buy-in and the layout that seats
    the player (one commit less per person, and never a stack that no saved layout
    seats). Nothing changes if the ledger refuses."""
    player = str(state.player)
    alone_since, seed = table.alone_since, table.client_seed_of.get(player)
    after = table.seed_after.get(player)
    table.seating.place(state)
    take_client_seed(table, player, client_seed, seed_after)
    table.alone_since = None
    data = layout.build(table)
    try:
        table.money.buy_in(player, buy_in, key, layout=data)
    except BaseException as exc:
        table.seating.free(state.seat)
        table.alone_since = alone_since
        if seed is None:
            table.client_seed_of.pop(player, None)
        else:
            table.client_seed_of[player] = seed
        if after is None:
            table.seed_after.pop(player, None)
        else:
            table.seed_after[player] = after
        if isinstance(exc, InsufficientFunds):
            raise Funds(str(exc)) from None
        raise
    table.saver.saved(layout.canonical(data))


def take_client_seed(table: Table, player: str, seed: str | None, after: str | None = None) -> None:
    """Keep `player`'s seed for the next unit that starts. `after`: a commitment drawn after
    the seed came (a table automatch opened for the player): the seed skips that unit and
    enters the one after it, whose commitment the room shows while the first unit runs
    (docs/fairness.md, "Which commitment a seed meets")."""
    if seed is not None and table.terms.client_seeds:
        table.client_seed_of[player] = seed
        if after is None:
            table.seed_after.pop(player, None)
        else:
            table.seed_after[player] = after


def set_client_seed(table: Table, player: str, seed: str, commitment: str | None = None) -> JSON:
    """A seated player's client seed (docs/fairness.md): it enters the next deal unit that
    starts while the player is seated (the running unit keeps the seeds it started with) —
    the unit whose commitment is `next_commitment`, named in the reply. `commitment`, when
    given, is the next commitment the player saw: if that unit has begun meanwhile the seed is
    refused (`CommitmentMoved`), so a seed never meets a server seed drawn after it."""
    if table.seating.seat_of(player) is None:
        raise NotSeated("sit down first: a client seed belongs to a seat")
    if not table.terms.client_seeds:
        raise ClientSeedsOff()
    checked = check_client_seed(seed)
    upcoming = table.units.next_commitment
    if commitment is not None and commitment != upcoming:
        raise CommitmentMoved(upcoming)
    table.client_seed_of[player] = checked
    table.seed_after.pop(player, None)  # set after `upcoming` was drawn: it meets that unit
    return {"client_seed": checked, "applies": "next deal unit", "commitment": upcoming}


def add_bot(table: Table, level: str | None, seat: str | None) -> str:
    """Fill a free seat with a bot of the game (house money from the bot bankroll)."""
    free = table.seating.free_seats()
    if not free:
        raise SeatTaken("the table is full")
    state = bot_state(table, seat or free[0], rules.bot_level(table.game, table.terms, level))
    assert state.player is not None
    fund_bot(table, state.player)
    table.seating.place(state)
    table.save()
    table.wake()
    table.broadcast()
    return state.seat


def bot_state(table: Table, seat: str, level: str) -> SeatState:
    """The seat of a bot of `level` at `table` (its player id is the table's and the seat's)."""
    return SeatState(seat, f"bot.{table.id}.{seat}", f"{level} bot {seat}", bot=level)


def fund_bot(table: Table, player: str) -> None:
    table.money.fund_bot(player, *rules.bot_stack(table.game, table.terms))


def refuse_mid_game(table: Table, seat: str) -> None:
    """docs/rules/paigow.md#the-game: a seat bound to the game's next round stays for it."""
    if table.round is None and seat in table.units.bound_seats():
        raise GameInProgress(
            "the game has a second round on the same tiles; "
            "you may stand up once it is over (docs/rules/paigow.md#the-game)"
        )


def leave(table: Table, player: str) -> int | None:
    """Stand up and cash out now, or after the running round if the player is in it (after
    the game's last round for a game of several rounds on one seed, such as Pai Gow)."""
    seat = table.seating.seat_of(player)
    if seat is None:
        raise NotSeated("you are not seated at this table")
    refuse_mid_game(table, seat)
    if in_round(table, seat):
        table.seating.seats[seat].leaving = True
        table.save()
        table.broadcast()
        return None
    return stand_up(table, seat)


def stand_up_locked(table: Table, player: str) -> bool:
    """The operator locked `player` (docs/operators.md#locking-a-player): their seat stands up now, or,
    if it is in the running round (or bound to the game's next round), when that round (or
    game) ends: its stake is settled by the round like any other, never abandoned, and it is
    dealt nothing further (a leaving seat is not playable). False: not seated here."""
    seat = table.seating.seat_of(player)
    if seat is None:
        return False
    if in_round(table, seat) or seat in table.units.bound_seats():
        table.seating.seats[seat].leaving = True
        table.save()
        table.broadcast()
    else:
        stand_up(table, seat, "account locked by the operator")
        table.broadcast()
    return True


def remove_bot(table: Table, seat: str) -> None:
    state = table.seating.seats.get(seat)
    if state is None or state.bot is None:
        raise InvalidInput(f"seat {seat!r} holds no bot")
    refuse_mid_game(table, seat)
    if in_round(table, seat):
        state.leaving = True
    else:
        stand_up(table, seat)
    table.broadcast()


def stand_up(table: Table, seat: str, reason: str | None = None) -> int:
    """Cash the seat's stack out to its wallet (a bot's to the house), tell its player, free
    the seat. Returns the amount cashed out."""
    state = table.seating.seats[seat]
    assert state.player is not None
    amount = table.money.cash_out(state.player, bot=state.bot is not None)
    message: JSON = {"type": "left", "table": table.id, "cashed_out": amount}
    if reason is not None:
        message["reason"] = reason
    table.send(state.player, message)
    table.seating.free(seat)
    table.bots.pop(seat, None)
    table.client_seed_of.pop(state.player, None)  # a running unit keeps its own copy
    table.seed_after.pop(state.player, None)
    if not table.seating.humans() and table.alone_since is None:
        table.alone_since = table.clock.now()
    table.save()
    return amount


def stand_up_leaving(table: Table) -> None:
    """After a round: the seats that asked to leave stand up (not those bound to the game's
    next round)."""
    bound = table.units.bound_seats()
    for state in list(table.seating):
        if state.player and state.leaving and state.seat not in bound:
            stand_up(table, state.seat)


def stand_up_short_stacks(table: Table) -> None:
    """docs/rules/common.md#buy-in "Decision (buy-in)": before each deal, a person whose stack
    fell below the minimum buy-in is stood up and its stack returned to its wallet (not during
    a game of several rounds on one deal, whose seats are bound)."""
    if table.units.bound_seats():
        return
    low = table.terms.min_buy_in
    for state in list(table.seating):
        if state.player and not state.bot and table.money.stack(state.player) < low:
            stand_up(table, state.seat, f"your stack is below the table's minimum of {low}")


def listen(table: Table, player: str) -> None:
    """A client of `player` listens to the table: an away seat of theirs is back
    (docs/rules/common.md#away-seats: it plays again from the next round)."""
    table.seating.connected.add(player)
    if table.seating.back(player) is not None:
        table.save()
        table.wake()
        table.broadcast()


def eligible(table: Table) -> list[SeatState]:
    """The seats dealt the next round: those bound to the running unit's next round, else
    every playable seat (bots topped up with house money first)."""
    bound = table.units.bound_seats()
    if bound:  # the game's next round is dealt to the same seats, whatever they ask
        return [s for s in table.seating if s.seat in bound and s.player is not None]
    out = []
    for s in table.seating:
        if not lobby.playable(table, s):
            continue
        if s.bot:
            fund_bot(table, s.player or "")
        out.append(s)
    return out


# ----- away (docs/rules/common.md#away-seats) ---------------------------------------------------
def note_silence(table: Table, round_: Round[Any], record: RoundRecord) -> list[SeatState]:
    """Count the rounds each person sat through in silence; returns the seats newly away
    (announced once the round is settled)."""
    acted = {e.seat for e in round_.log if e.seat is not None}
    dealt = {seat: seat in acted for seat, _, _ in record.seats}
    return table.seating.round_played(dealt, table.clock.now())


def announce_away(table: Table, states: list[SeatState]) -> None:
    for state in states:
        message = {"type": "away", "table": table.id, "seat": state.seat}
        for player in list(table.seating.connected):
            table.send(player, message)


def stand_up_away(table: Table, now: float) -> None:
    """Away seats past the table's grace time stand up (after the running round if dealt in;
    not while bound to the game's next round)."""
    for state in table.seating.away_expired(now, table.terms.away_grace_s):
        if in_round(table, state.seat):
            state.leaving = True  # dealt into the running round: after it
        elif state.seat not in table.units.bound_seats():
            stand_up(table, state.seat, "away for longer than the table's grace time")
            table.broadcast()


__all__ = [
    "add_bot",
    "announce_away",
    "bot_state",
    "eligible",
    "fund_bot",
    "in_round",
    "leave",
    "listen",
    "note_silence",
    "paid_with_layout",
    "refuse_mid_game",
    "remove_bot",
    "set_client_seed",
    "sit",
    "stand_up",
    "stand_up_away",
    "stand_up_leaving",
    "stand_up_locked",
    "stand_up_short_stacks",
    "take_client_seed",
]
