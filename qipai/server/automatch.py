"""自动配桌 (automatch) with many people at once (docs/scaling.md "Seating").

Where a person goes: the table of the same template where they already sit (unless they sit
there alone with bots and a livelier table has a free seat: they move there), else the liveliest
table of the template with a free seat — one with people first, else one waiting with bots alone
(reused, so a player who comes back never leaves a trail of bot tables behind) — else a new
table with bots (`opening.open_with_bots`). A player who is not seated and whose wallet holds
less than the template's minimum buy-in (or who asks for less) is refused (`Funds`,
`BuyInRange`) before any table is chosen or opened. What runs side by side:

* **Joining a table runs outside any room-wide lock.** The seat is reserved by the table
  itself: `Table.sit` takes the first free seat under the table's lock and refuses with
  `SeatTaken` when there is none, so two people who pick the same last seat at once never both
  get it (nor more people than seats); the one refused chooses again. (Nakama and Colyseus
  reserve seats the same way: a compare-and-set on the match's free places.) A table belongs to
  one table host under its lease, and every buy-in and layout save is fenced by the lease's
  epoch, so two processes never seat people at the same table either: the one that is not the
  owner is refused (`table_moved`) and its person is seated elsewhere.
* **Opening a table goes through the caller's gate** (`opening`; the authority's lets a few
  openings run side by side and counts them toward the room's table cap, one at a time without
  a gate), and the choice is made again inside it, so that a person who waited there joins a
  table opened meanwhile instead of opening another.
* **One automatch per person at a time** (a lock per person, striped): the same person asking
  twice at once is never seated twice.
"""

from __future__ import annotations

import contextlib
import threading
import zlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from qipai.fairness import check_client_seed
from qipai.tables import games as games_mod
from qipai.tables import seating as rules
from qipai.tables.errors import (
    Funds,
    GameInProgress,
    HostDraining,
    NotSeated,
    SeatTaken,
    TableClosed,
    TableMoved,
    TableSuspended,
)
from qipai.tables.terms import TableTerms, default_terms

if TYPE_CHECKING:
    from qipai.server.room import Room
    from qipai.tables.table import Table

Gate = Callable[[], AbstractContextManager[None]]
"""Held while a new table is opened (the caller checks the room's cap inside it)."""

ATTEMPTS = 32
"""Choices made again (inside the gate) when the chosen seat went to someone else meanwhile."""

_STRIPES = [threading.Lock() for _ in range(64)]
_OPEN = threading.Lock()
_GONE = (SeatTaken, TableClosed, TableMoved, TableSuspended)
"""Refusals of a chosen table that mean: choose again (the seat or the table went)."""


def _person_lock(player: str) -> threading.Lock:
    return _STRIPES[zlib.crc32(player.encode()) % len(_STRIPES)]


@contextlib.contextmanager
def _one_at_a_time() -> Iterator[None]:
    with _OPEN:
        yield


@dataclass(frozen=True)
class Choice:
    """Where the person goes: stay at `here`, or go to `target` (leaving `here` first), or
    (both None but `here`) open a new table."""

    here: Table | None = None
    target: Table | None = None
    stay: bool = False


def choose(room: Room, player: str, game: TableTerms | str) -> Choice:
    """The liveliest table for `player` (module docstring), as the tables are now."""

    def same(t: Table) -> bool:
        if t.lost or t.status().state in ("suspended", "closed") or t.terms.private:
            return False
        if isinstance(game, str):
            return t.game.name == game
        return (t.terms.template_id, t.terms.template_version) == (
            game.template_id,
            game.template_version,
        ) and t.terms.game == game.game

    tables = [t for t in list(room.tables.values()) if same(t)]
    current = [t for t in tables if t.seating.seat_of(player)]
    candidates = [t for t in tables if t.seating.free_seats() and not t.seating.seat_of(player)]
    candidates.sort(
        key=lambda t: (
            -len(t.seating.humans()),
            -len(t.seating.seats) + len(t.seating.free_seats()),
        )
    )
    if current:
        here = current[0]
        better = [t for t in candidates if len(t.seating.humans()) > len(here.seating.humans()) - 1]
        if not better or len(here.seating.humans()) > 1:
            return Choice(here=here, stay=True)
        return Choice(here=here, target=better[0])
    if candidates:  # with people first (the sort), else a table waiting with bots alone
        return Choice(target=candidates[0])
    return Choice()


def automatch(
    room: Room,
    player: str,
    name: str,
    game: TableTerms | str,
    buy_in: int,
    client_seed: str | None = None,
    opening: Gate | None = None,
) -> Table:
    """Seat `player` by automatch (module docstring); `opening` guards opening a table."""
    if not room.accepting:
        raise HostDraining("this table host is being drained; find a table elsewhere")
    if client_seed is not None:
        check_client_seed(client_seed)  # refused before anything changes
    if isinstance(game, str):
        games_mod.get(game)
    gate = opening or _one_at_a_time
    with _person_lock(player):
        choice = choose(room, player, game)
        if choice.stay and choice.here is not None:
            return _stay(choice.here, player, client_seed)
        if choice.here is None:  # a seated player's stack moves with them: `sit` checks it
            _affordable(room, player, game, buy_in)
        if choice.target is not None:  # optimistic: the table's lock decides the seat
            seated = _join(room, choice, player, name, buy_in, client_seed)
            if seated is not None:
                return seated
        with gate():
            for _ in range(ATTEMPTS):
                choice = choose(room, player, game)  # someone may have opened one meanwhile
                if choice.stay and choice.here is not None:
                    return _stay(choice.here, player, client_seed)
                if choice.target is None:
                    return _open(room, player, name, game, buy_in, client_seed)
                seated = _join(room, choice, player, name, buy_in, client_seed)
                if seated is not None:
                    return seated
    raise SeatTaken("the tables filled up while you were being seated; try again")


def _affordable(room: Room, player: str, game: TableTerms | str, buy_in: int) -> None:
    """Refuse, before any table is joined or opened, a buy-in outside the template's range and a
    wallet that cannot pay the template's minimum buy-in (docs/rules/common.md#buy-in)."""
    terms = game if isinstance(game, TableTerms) else default_terms(games_mod.get(game))
    wallet = room.ledger.wallet(player)
    if wallet < terms.min_buy_in:
        raise Funds(
            f"your wallet holds {wallet}, less than this table's minimum buy-in of "
            f"{terms.min_buy_in}: deposit before joining a table"
        )
    rules.check_buy_in(terms, 0, buy_in)
    if buy_in > wallet:
        raise Funds(f"your wallet holds {wallet}, less than the buy-in of {buy_in}")


def _taken(table: Table, client_seed: str | None) -> str | None:
    """Automatch chooses the table, so a seed is given only to one that takes seeds (a table
    with client seeds off refuses one at `sit`); its state says `client_seeds_enabled`."""
    return client_seed if table.terms.client_seeds else None


def _stay(here: Table, player: str, client_seed: str | None) -> Table:
    if client_seed is not None and here.terms.client_seeds:
        here.set_client_seed(player, client_seed)
    return here


def _join(
    room: Room,
    choice: Choice,
    player: str,
    name: str,
    buy_in: int,
    client_seed: str | None,
) -> Table | None:
    here, target = choice.here, choice.target
    assert target is not None
    if here is not None:
        try:
            here.leave(player)
        except GameInProgress:
            return here  # docs/rules/paigow.md#the-game: not between a game's two rounds
        except NotSeated:
            pass
    try:
        target.sit(player, name, buy_in, client_seed=_taken(target, client_seed))
    except _GONE:
        return None  # the seat (or the table) went to someone else: choose again
    if (
        target.terms.bot_policy
        and target.seating.free_seats()
        and len(target.seating.humans()) == 1
    ):
        # alone (the others left meanwhile): bots in all but one seat, so another person can
        # still join
        for _ in range(max(0, len(target.seating.free_seats()) - 1)):
            target.add_bot()
        if len(target.eligible()) < target.game.min_players:
            target.fill_with_bots()
    room.wake(target.id)
    return target


def _open(
    room: Room,
    player: str,
    name: str,
    game: TableTerms | str,
    buy_in: int,
    client_seed: str | None,
) -> Table:
    from qipai.server.opening import open_with_bots

    terms = game if isinstance(game, TableTerms) else default_terms(games_mod.get(game))
    _affordable(room, player, game, buy_in)  # refused before a table is opened for nobody
    table = open_with_bots(room, terms)
    table.money.cache.setdefault(player, 0)  # a new table: nobody has a stack at it yet
    try:
        # the table's first commitment was drawn after the seed came, and the player was not
        # shown it: the seed skips that unit and enters the next (docs/fairness.md, "Which
        # commitment a seed meets"), so the server never draws a seed the client seed meets
        # knowing it before the player could see the commitment and change it
        table.sit(
            player,
            name,
            buy_in,
            client_seed=_taken(table, client_seed),
            seed_after=table.units.next_commitment,
        )
    except BaseException:
        with contextlib.suppress(Exception):  # its bots stood up and cashed out
            room.close(table.id)
        raise
    room.wake(table.id)
    return table


__all__ = ["ATTEMPTS", "Choice", "Gate", "automatch", "choose"]
