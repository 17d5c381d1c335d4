"""A table drives a sequence of rounds of one game in time: the thin orchestrator.

`Table` owns the lock and the order of steps; each job is a part with one job:

* state: `seating.py` (seats, listeners, away seats, the seating rules), `money.py` (table
  stacks, buy-ins, cash-outs, house bots), `units.py` (deal units, seeds, commitments, reveals,
  client seeds), `timers.py` (countdowns, bots' thinking time, the next round, back-off),
  `journal.py` (journal position, pending events, client ids), `layout.py` (what survives a
  restart);
* flows: `seat_flows.py` (sit, stand up, leave, away, client seeds), `rounds.py` (start and
  finish a round, its two ledger writes), `play.py` (actions, bot moves and defaults, journal
  first), `containment.py` (suspend, resume, close, hand over, lose), `recovery.py` (an open
  round rebuilt from its journal);
* what is told: `lobby.py` (status, public facts, the typed snapshot) and `messages.py` (each
  client's messages from that snapshot only).

Everything happens under one lock and in one order: before any action is looked at, an overdue
countdown is expired first. A late action racing the timer is therefore either applied (it came
first) or judged against the state after the default (and refused if no longer legal) — never
both, and the default is applied exactly once.

Journal first: every action, default on silence and bot move is checked by the round, journaled,
and only then applied; a failed journal write refuses the action and leaves the round as it
was. Containment: any exception in a tick, a recovery or a settlement suspends this table alone
(`containment.suspend`): its open round ends by the interrupted-game policy, its deal unit ends
and is revealed, and the table waits for an operator to resume or close it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.protocol import JSON, Event, Round
from qipai.core.rng import Rng, new_seed
from qipai.fairness import TilesCommitment
from qipai.tables import containment, layout, lobby, play, recovery, rounds, seat_flows
from qipai.tables.actions import JournalUnavailable
from qipai.tables.containment import MOVED_MESSAGE, moved_if_lease_lost
from qipai.tables.errors import (
    BotsNotAllowed,
    BuyInRange,
    Funds,
    GameInProgress,
    NotSeated,
    SeatTaken,
    TableClosed,
    TableError,
    TableMoved,
    TableSuspended,
)
from qipai.tables.games import Game
from qipai.tables.journal import Journal
from qipai.tables.messages import Listeners, Shared, StateMessage, next_seq
from qipai.tables.money import TableMoney
from qipai.tables.ports import Clock, LeaseLost, LedgerPort, OpenRound, RoundRecord, TableRepo
from qipai.tables.seating import Seating, SeatState
from qipai.tables.snapshot import TableSnapshot
from qipai.tables.status import TableStatus
from qipai.tables.terms import TableTerms, default_terms
from qipai.tables.timers import Timers, Timing
from qipai.tables.units import DealUnits, Reveal
from qipai.tables.versions import VersionCache

Send = Callable[[str, JSON], None]

__all__ = [
    "MOVED_MESSAGE",
    "BotsNotAllowed",
    "BuyInRange",
    "Funds",
    "GameInProgress",
    "NotSeated",
    "Reveal",
    "SeatState",
    "SeatTaken",
    "Table",
    "TableClosed",
    "TableError",
    "TableMoved",
    "TableSuspended",
    "Timing",
]


class Table:
    """One table of one game. All public methods are thread-safe and never block on I/O
    other than the ledger's own transactions."""

    MAX_JOURNAL_RETRIES = 8

    def __init__(
        self,
        table_id: str,
        game: Game,
        ledger: LedgerPort,
        clock: Clock,
        *,
        repo: TableRepo | None = None,
        name: str = "",
        config: Mapping[str, Any] | None = None,
        terms: TableTerms | None = None,
        owner: str | None = None,
        timing: Timing | None = None,
        send: Send | None = None,
        seed_source: Callable[[], bytes] = new_seed,
    ) -> None:
        self.id = table_id
        self.game = game
        self.ledger = ledger
        self.clock = clock
        self.repo = repo
        self.name = name or f"{game.title.get('en', game.name)} {table_id[:4]}"
        if terms is None:
            terms = default_terms(game, config)
        elif terms.game != game.name:
            raise InvalidInput(f"terms for {terms.game!r} given to a {game.name!r} table")
        self.terms = terms
        # a newer version of the template the table moves to at its next deal-unit boundary
        # (`moves.py`, asked for by an operator)
        self.pending_terms: TableTerms | None = None
        self.owner = owner
        self.config = terms.config
        self.timing = timing or Timing()
        self.send: Send = send or (lambda player, message: None)
        self.lock = threading.RLock()
        # the parts
        self.seating = Seating(tuple(game.seat_ids))
        self.money = TableMoney(ledger, table_id)
        self.units = DealUnits(game.reveal_seed, seed_source)
        self.timers = Timers(self.timing)
        self.timers.next_start_at = clock.now()
        self.saver = layout.LayoutSaver(repo, table_id)
        self.journal = Journal(ledger, table_id)
        self.versions = VersionCache()  # each seat's last state version (`versions.py`)
        self.listeners = Listeners(table_id)  # what each listener last got, for deltas
        # the running round and what the table remembers of the last ones
        self.round: Round[Any] | None = None
        self.record: RoundRecord | None = None
        self.last_round: Round[Any] | None = None
        self.last_record: RoundRecord | None = None
        self.number = 0
        self.numbered: str | None = None  # the id of the round numbered `self.number`
        self.last_result: JSON | None = None
        self.results: list[JSON] = []
        self.client_seed_of: dict[str, str] = {}  # player -> the client seed they set
        # player -> the commitment whose unit their seed must not enter: a seed that came
        # before that commitment was drawn (automatch opening a table for the player) goes to
        # the unit after it (docs/fairness.md, "Which commitment a seed meets")
        self.seed_after: dict[str, str] = {}
        # a game that commits to its tiles (`GameSpec.commits_tiles`): the running game's
        # commitment, and each seat's openings of the last game
        self.tiles: TilesCommitment | None = None
        self.openings: dict[str, JSON] = {}
        self.bot_rng = Rng(seed_source(), "bots")
        self.bots: dict[str, Any] = {}  # seat -> its bot (made at its first move)
        self.unit_unsaved = False  # a unit began for a round whose opening failed
        self.journal_failures = 0  # consecutive failed journal writes of ticks
        # status
        self.suspension: str | None = None  # the reason, while suspended
        self.closed = False
        self.lost = False  # another process owns the table now: this one stopped for it
        self._shown: tuple[TableStatus, bool] | None = None  # what the last broadcast told
        self.alone_since: float | None = clock.now()  # no person seated since (None: one is)

    # ----- seats (`seat_flows.py`) -------------------------------------------------------------
    @moved_if_lease_lost
    def sit(
        self,
        player: str,
        name: str,
        buy_in: int,
        seat: str | None = None,
        key: str = "",
        client_seed: str | None = None,
        seed_after: str | None = None,
    ) -> str:
        """Seat a player (one seat per player per table) and move `buy_in` from the wallet.
        `client_seed` (docs/fairness.md) is the player's client seed for the deal units that
        start while they sit (refused, `ClientSeedsOff`, where the table's client seeds are
        off); `seed_after`: a commitment drawn after the seed came, whose unit it skips."""
        with self.lock:
            containment.require_open(self)
            return seat_flows.sit(self, player, name, buy_in, seat, key, client_seed, seed_after)

    @moved_if_lease_lost
    def add_bot(self, level: str | None = None, seat: str | None = None) -> str:
        """Fill a free seat with a bot of the game (house money from the bot bankroll)."""
        with self.lock:
            containment.require_open(self)
            return seat_flows.add_bot(self, level, seat)

    def eligible(self) -> list[SeatState]:
        """The seats the next round would be dealt to (bots topped up first)."""
        with self.lock:
            return seat_flows.eligible(self)

    def fill_with_bots(self, level: str | None = None) -> list[str]:
        with self.lock:
            return [self.add_bot(level) for _ in list(self.seating.free_seats())]

    @moved_if_lease_lost
    def leave(self, player: str) -> int | None:
        """Stand up and cash out now, or after the running round (or game) if in it."""
        with self.lock:
            return seat_flows.leave(self, player)

    @moved_if_lease_lost
    def stand_up_locked(self, player: str) -> bool:
        """A locked player's seat stands up now, or once its round (or game) is over."""
        with self.lock:
            return seat_flows.stand_up_locked(self, player)

    @moved_if_lease_lost
    def remove_bot(self, seat: str) -> None:
        with self.lock:
            seat_flows.remove_bot(self, seat)

    @moved_if_lease_lost
    def set_client_seed(self, player: str, seed: str, commitment: str | None = None) -> JSON:
        """A seated player's client seed for the next deal unit (docs/fairness.md); the reply
        names the commitment it will meet (`seat_flows.set_client_seed`)."""
        with self.lock:
            return seat_flows.set_client_seed(self, player, seed, commitment)

    def client_seed_note(self, player: str) -> JSON | None:
        """Which commitment `player`'s client seed meets (`lobby.seed_note`)."""
        with self.lock:
            return lobby.seed_note(self, player)

    def connect(self, player: str) -> None:
        """A client subscribed: send it the full private state (reconnection included)."""
        with self.lock:
            seat_flows.listen(self, player)
            if not play.release_if_due(self, everyone_back=True):  # (which tells everyone)
                self.send(player, self.state_of(player))

    def state_of(self, player: str) -> StateMessage:
        """`player`'s whole state now, to start from afresh (on subscribe): later states of
        the table go to them as deltas from it too."""
        with self.lock:
            snap = lobby.snapshot(self)
            return self.listeners.stamp(snap, player, [], False, Shared(snap), next_seq(), False)

    def listen(self, player: str) -> None:
        """A client of `player` listens to the table (an away seat of theirs is back)."""
        with self.lock:
            seat_flows.listen(self, player)
            play.release_if_due(self, everyone_back=True)

    def disconnect(self, player: str) -> None:
        with self.lock:
            self.seating.connected.discard(player)
            self.listeners.forget(player)

    # ----- moves (`play.py`) --------------------------------------------------------------------
    def act(
        self,
        player: str,
        action: Mapping[str, Any],
        client_id: str | None = None,
        version: str | None = None,
    ) -> JSON:
        """A player's action. Returns the reply for that client: an ack or a typed error.

        Journal first: the action is made canonical, checked by the round, journaled, and only
        then applied; any refusal (including a failed journal write) changes nothing. An action
        whose state `version` is not current is refused as stale (`play.require_current`)."""
        with self.lock:
            return play.act(self, player, action, client_id, version)

    def catch_up(self) -> None:
        """Apply a countdown that ran out but was not yet expired (the room's scheduler is
        behind under load), so that a state built now never offers actions whose time is up."""
        with self.lock:
            if self.suspension is None and not self.closed:
                try:
                    play.expire_if_due(self)
                except JournalUnavailable:
                    pass  # the next tick retries
                except Exception as exc:
                    containment.fail(self, "countdown", exc)

    # ----- time ---------------------------------------------------------------------------------
    def next_wakeup(self) -> float | None:
        """When `tick` next has something to do (None: only an outside event can wake it)."""
        with self.lock:
            if self.suspension is not None or self.closed or self.lost:
                return None
            self.timers.extra = self._housekeeping_due()
            return self.timers.next_wakeup()

    def _housekeeping_due(self) -> float | None:
        """The next away seat to stand up, or the abandoned deal unit to reveal."""
        times = []
        away = self.seating.next_away_deadline(self.terms.away_grace_s)
        if away is not None:
            times.append(away)
        if self.round is None and self.units.running and self.alone_since is not None:
            times.append(self.alone_since + self.terms.idle_reveal_s)
        return min(times) if times else None

    def tick(self) -> None:
        """Do everything that is due: stand up away seats, end an abandoned deal unit, then
        step (settle again, expire a countdown, let bots act, start a round) until idle.

        Never raises: a failure suspends this table (and only this table)."""
        with self.lock:
            if self.suspension is not None or self.closed or self.lost:
                return
            try:
                self._housekeeping()
                for _ in range(1000):
                    if not self.step():
                        break
            except LeaseLost:
                containment.lose(self)
                return
            except JournalUnavailable as exc:
                # the database refused a write: nothing changed; try again a little later, and
                # give up (suspend) only if it keeps failing
                if not self.retry_later():
                    containment.fail(self, "journal", exc.__cause__ or exc)
                return
            except Exception as exc:
                containment.fail(self, "tick", exc)
                return
            self.journal_failures = 0
            if self._told() != self._shown:
                self.broadcast()  # e.g. it now waits for players: say so, once

    def retry_later(self) -> bool:
        """A write failed and changed nothing: the tick tries again after a back-off (False:
        it failed too often, the caller suspends the table)."""
        self.journal_failures += 1
        if self.journal_failures > self.MAX_JOURNAL_RETRIES:
            return False
        self.timers.retry_at = self.clock.now() + min(30.0, 0.25 * 2**self.journal_failures)
        return True

    def _housekeeping(self) -> None:
        now = self.clock.now()
        seat_flows.stand_up_away(self, now)
        if self.seating.humans():
            self.alone_since = None
        elif self.alone_since is None:
            self.alone_since = now
        if (
            self.round is None
            and self.units.running
            and self.alone_since is not None
            and now >= self.alone_since + self.terms.idle_reveal_s
        ):
            # docs/fairness.md: an abandoned unit ends and is revealed; the next player gets a new one
            self.end_unit()
            self.units.carry_context = {}
            self.save()
            self.broadcast()

    def step(self) -> bool:
        """One due thing, in this order: settle a finished round again, expire the countdown,
        let the due bots move, start the next round. False: nothing was due."""
        now = self.clock.now()
        if now < self.timers.retry_at:
            return False
        if self.round is not None and self.round.finished:  # its settlement failed: again
            rounds.finish(self, [])
            return True
        if play.release_if_due(self):
            return True
        if play.expire_if_due(self):
            return True
        due_bots = self.timers.due_bots(now)
        if due_bots:
            play.bots_act(self, due_bots)
            return True
        if self.round is None and self.timers.start_due(now):
            started = rounds.start(self)
            if started is None:
                return False
            play.after_change(self, started)
            return True
        return False

    def wake(self) -> None:
        """A seat changed: a waiting table may be able to start a round now."""
        with self.lock:
            if self.suspension is not None or self.closed:
                return
            if self.round is None and self.timers.next_start_at is None:
                self.timers.next_start_at = self.clock.now() + 0.5

    # ----- containment (`containment.py`) -------------------------------------------------------
    def lose(self) -> None:
        """Another process took this table over: stop at once, write nothing more."""
        with self.lock:
            containment.lose(self)

    def hand_over(self) -> bool:
        """Stop here between rounds for another host (a drain); False while a round runs."""
        with self.lock:
            return containment.hand_over(self)

    def suspend(self, reason: str) -> None:
        """Stop the table (the open round by the interrupted-game policy). Never raises."""
        with self.lock:
            containment.suspend(self, reason)

    def resume(self) -> None:
        """An operator's decision: the suspended table plays again (from a new deal unit)."""
        with self.lock:
            containment.resume(self)

    def close(self, reason: str = "closed by the operator") -> None:
        """Close for good: the open round interrupted, every seat cashed out."""
        with self.lock:
            containment.close(self, reason)

    # ----- crash recovery (`recovery.py`) -------------------------------------------------------
    def recover(self, open_round: OpenRound) -> str:
        """Resume an open round from its journal (same seed, same deal), or suspend the table.

        Returns "resumed", "settled" (the journal already held the last action), "voided" (it
        could not be rebuilt: the table is suspended, every stake returned) or "suspended" (it
        was rebuilt but could not go on, e.g. its settlement failed)."""
        with self.lock:
            return recovery.resume(self, open_round)

    def remember_client_ids(self, items: list[tuple[str, str]]) -> None:
        """Client ids journaled at this table before a restart (oldest first): a repeat is
        acknowledged as a duplicate and never applied again (docs/protocol.md)."""
        with self.lock:
            self.journal.remember_all(items)

    # ----- persistence (`layout.py`) ------------------------------------------------------------
    def layout(self) -> JSON:
        """What survives a restart."""
        with self.lock:
            return layout.build(self)

    def restore_layout(self, data: Mapping[str, Any]) -> None:
        """Restore a saved layout (and the last settlement's chain head from the ledger)."""
        with self.lock:
            layout.restore(self, data)

    def save(self) -> None:
        """Persist the layout if it changed since the last save (a database write saved)."""
        with self.lock:
            if self.repo is not None and not self.lost:
                data = layout.build(self)
                self.saver.save(data, layout.canonical(data))

    # ----- what the world is told (`lobby.py`, `messages.py`) -----------------------------------
    def public_info(self) -> JSON:
        """The lobby's view of the table: no cards, no seeds of running deal units."""
        with self.lock:
            return lobby.public_info(self)

    def held_stack(self, player: str) -> int:
        """A player's table stack including what the running round holds for them."""
        return lobby.held_stack(self, player)

    def status(self) -> TableStatus:
        return lobby.status(self)

    def wait_reason(self) -> str | None:
        """What the table waits for before it can deal (None: it can deal, or it is dealing)."""
        return lobby.wait_reason(self)

    def snapshot(self) -> TableSnapshot:
        """The typed, read-only facts every message of this moment is built from."""
        with self.lock:
            return lobby.snapshot(self)

    def _told(self) -> tuple[TableStatus, bool]:
        return lobby.status(self), self.round is None and self.timers.next_start_at is not None

    def broadcast(self, events: list[Event] | None = None, finished: bool = False) -> None:
        """Send every listener its state after a change (one snapshot shared by all)."""
        with self.lock:
            self._shown = self._told()
            if not self.seating.connected:
                return
            snap = lobby.snapshot(self)
            shared = Shared(snap)  # one public view for every spectator, one history
            seq = next_seq()
            for player in list(self.seating.connected):
                message = self.listeners.stamp(snap, player, events or [], finished, shared, seq)
                self.send(player, message)

    # ----- services for the parts ----------------------------------------------------------------
    def stand_up(self, seat: str, reason: str | None = None) -> int:
        """Cash the seat out and free it (`seat_flows.stand_up`)."""
        with self.lock:
            return seat_flows.stand_up(self, seat, reason)

    def end_unit(self) -> None:
        """The running deal unit ended: show its seed (unless the game keeps seeds hidden)."""
        with self.lock:
            self.units.end(self.ledger.reveal)
