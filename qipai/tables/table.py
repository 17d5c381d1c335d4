"""A table drives a sequence of rounds of one game in time: the thin orchestrator.

Its parts each have one job: `seating.py` (who sits where, who listens, who is away),
`money.py` (table stacks, buy-ins, cash-outs, the house's bots), `units.py` (deal units, seeds,
commitments, reveals, client seeds), `timers.py` (countdowns, bots' thinking time, the next
round), `actions.py` (journal first), `interrupt.py` (the interrupted-game policy), `layout.py`
(what survives a restart), `snapshot.py` + `messages.py` (what each client hears).

Everything happens under one lock and in one order: before any action is looked at, an overdue
countdown is expired first. A late action racing the timer is therefore either applied (it came
first) or judged against the state after the default (and refused if no longer legal) — never
both, and the default is applied exactly once.

Journal first: every action, default on silence and bot move is checked by the round, journaled,
and only then applied; a failed journal write refuses the action and leaves the round as it
was. Containment: any exception in a tick, a recovery or a settlement suspends this table alone
(`suspend`): its open round ends by the interrupted-game policy, its deal unit ends and is
revealed, and the table waits for an operator to resume or close it.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, Concatenate, ParamSpec, TypeVar

from qipai.core.errors import GameError, InvalidInput, WrongPhase
from qipai.core.protocol import JSON, Event, Round, Seat
from qipai.core.rng import Rng, new_seed
from qipai.fairness import (
    check_client_seed,
    seat_openings,
)
from qipai.tables import actions as journal_first
from qipai.tables import bots as table_bots
from qipai.tables import interrupt, lobby, recovery, rounds
from qipai.tables import layout as layout_mod
from qipai.tables import seating as seating_mod
from qipai.tables import units as units_mod
from qipai.tables.actions import JournalUnavailable
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
from qipai.tables.money import TableMoney
from qipai.tables.ports import (
    Clock,
    InsufficientFunds,
    LeaseLost,
    LedgerPort,
    OpenRound,
    RoundRecord,
    TableRepo,
)
from qipai.tables.seating import Seating, SeatState
from qipai.tables.snapshot import TableSnapshot
from qipai.tables.status import TableStatus
from qipai.tables.terms import TableTerms, default_terms
from qipai.tables.timers import Timers, Timing
from qipai.tables.units import DealUnits, Reveal

Send = Callable[[str, JSON], None]
log = logging.getLogger("qipai.tables")

__all__ = [
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


P = ParamSpec("P")
R = TypeVar("R")
MOVED_MESSAGE = "the table is run by another server now; reconnect"


def _moved_if_lease_lost(
    method: Callable[Concatenate[Table, P], R],
) -> Callable[Concatenate[Table, P], R]:
    """A seat's money or layout write refused by the lease fence (another host took the table
    over while the request waited): this table stops here and the caller gets `TableMoved`
    (409 `table_moved`), never the raw `LeaseLost`. A table already lost refuses at once."""

    @functools.wraps(method)
    def wrapped(self: Table, /, *args: P.args, **kwargs: P.kwargs) -> R:
        if self.lost:
            raise TableMoved(MOVED_MESSAGE)
        try:
            return method(self, *args, **kwargs)
        except LeaseLost:
            self.lose()
            raise TableMoved(MOVED_MESSAGE) from None

    return wrapped


class Table:
    """One table of one game. All public methods are thread-safe and never block on I/O
    other than the ledger's own transactions."""

    MAX_JOURNAL_RETRIES = 8
    CLIENT_IDS_KEPT = Journal.CLIENT_IDS_KEPT

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
        self.saver = layout_mod.LayoutSaver(repo, table_id)
        self.journal = Journal(ledger, table_id)
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
        self.tiles: Any = None  # Tien Gow: the running game's tile commitment
        self.openings: dict[str, JSON] = {}  # Tien Gow: each seat's openings of the last game
        self.bot_rng = Rng(seed_source(), "bots")
        self._bots: dict[str, Any] = {}
        self._unit_unsaved = False  # a unit began for a round whose opening failed
        self._journal_failures = 0  # consecutive failed journal writes of ticks
        # status
        self.suspension: str | None = None  # the reason, while suspended
        self.closed = False
        self.lost = False  # another process owns the table now: this one stopped for it
        self._shown: tuple[TableStatus, bool] | None = None  # what the last broadcast told
        self.alone_since: float | None = clock.now()  # no person seated since (None: one is)

    # ----- the parts, by their old names (the server and tests read them) ---------------------
    @property
    def seats(self) -> dict[str, SeatState]:
        return self.seating.seats

    @property
    def connected(self) -> set[str]:
        return self.seating.connected

    @property
    def reveals(self) -> list[Reveal]:
        return self.units.reveals

    @property
    def carry_seed(self) -> bytes | None:
        return self.units.carry_seed

    @property
    def carry_context(self) -> JSON:
        return self.units.carry_context

    @property
    def journal_count(self) -> int:
        return self.journal.count

    @property
    def client_ids(self) -> OrderedDict[tuple[str, str], None]:
        return self.journal.client_ids

    @property
    def deadline_at(self) -> float | None:
        return self.timers.deadline_at

    @property
    def next_start_at(self) -> float | None:
        return self.timers.next_start_at

    @property
    def bot_due(self) -> dict[str, float]:
        return self.timers.bot_due

    @property
    def config_json(self) -> JSON:
        return dict(self.terms.config_json)

    @property
    def _stacks(self) -> dict[str, int]:
        return self.money.cache

    def ledger_stack(self, player: str) -> int:
        return self.money.stack(player)

    def seat_of(self, player: str) -> str | None:
        return self.seating.seat_of(player)

    def humans(self) -> list[str]:
        return self.seating.humans()

    def free_seats(self) -> list[str]:
        return self.seating.free_seats()

    def bound_seats(self) -> frozenset[str]:
        return self.units.bound_seats()

    # ----- seating --------------------------------------------------------------------------
    @_moved_if_lease_lost
    def sit(
        self,
        player: str,
        name: str,
        buy_in: int,
        seat: str | None = None,
        key: str = "",
        client_seed: str | None = None,
    ) -> str:
        """Seat a player (one seat per player per table) and move `buy_in` from the wallet.
        `client_seed` (docs/fairness.md) is the player's client seed for the deal units that
        start while they sit (ignored where the table's client seeds are off)."""
        with self.lock:
            self._require_open()
            if client_seed is not None:
                check_client_seed(client_seed)
            existing = self.seat_of(player)
            if existing is not None:
                state = self.seats[existing]
                state.leaving = False
                self._take_client_seed(player, client_seed)
                if self.seating.back(player) is not None:
                    self._save()
                self._broadcast_state([])
                return existing
            seat = seating_mod.free_seat(self.seating, seat)
            seating_mod.check_buy_in(self.terms, self.ledger_stack(player), buy_in)
            if buy_in > 0:
                try:
                    self.money.buy_in(player, buy_in, key or f"buyin:{uuid.uuid4().hex}")
                except InsufficientFunds as exc:
                    raise Funds(str(exc)) from None
            self.seating.place(SeatState(seat, player, name))
            self._take_client_seed(player, client_seed)
            self.alone_since = None
            self._save()
            self.wake()
            self._broadcast_state([])
            return seat

    def _take_client_seed(self, player: str, seed: str | None) -> None:
        if seed is not None and self.terms.client_seeds:
            self.client_seed_of[player] = seed

    def _require_open(self) -> None:
        if self.lost:
            raise TableMoved(MOVED_MESSAGE)
        if self.closed:
            raise TableClosed("the table is closed")
        if self.suspension is not None:
            raise TableSuspended(f"the table is suspended: {self.suspension}")

    @_moved_if_lease_lost
    def add_bot(self, level: str | None = None, seat: str | None = None) -> str:
        """Fill a free seat with a bot of the game (house money from the bot bankroll)."""
        with self.lock:
            self._require_open()
            free = self.free_seats()
            if not free:
                raise SeatTaken("the table is full")
            seat = seat or free[0]
            level = seating_mod.bot_level(self.game, self.terms, level)
            player = f"bot.{self.id}.{seat}"
            self._fund_bot(player)
            self.seating.place(SeatState(seat, player, f"{level} bot {seat}", bot=level))
            self._save()
            self.wake()
            self._broadcast_state([])
            return seat

    def fill_with_bots(self, level: str | None = None) -> list[str]:
        with self.lock:
            return [self.add_bot(level) for _ in list(self.free_seats())]

    def _fund_bot(self, player: str) -> None:
        self.money.fund_bot(player, *seating_mod.bot_stack(self.game, self.terms))

    def _refuse_mid_game(self, seat: str) -> None:
        if self.round is None and seat in self.bound_seats():
            raise GameInProgress(
                "the game has a second round on the same tiles; "
                "you may stand up once it is over (docs/rules/paigow.md#the-game)"
            )

    @_moved_if_lease_lost
    def leave(self, player: str) -> int | None:
        """Stand up and cash out now, or after the running round if the player is in it (after
        the game's last round for a game of several rounds on one seed, such as Pai Gow)."""
        with self.lock:
            seat = self.seat_of(player)
            if seat is None:
                raise NotSeated("you are not seated at this table")
            self._refuse_mid_game(seat)
            if self.record is not None and any(p == player for _, p, _ in self.record.seats):
                self.seats[seat].leaving = True
                self._save()
                self._broadcast_state([])
                return None
            return self._stand_up(seat)

    @_moved_if_lease_lost
    def remove_bot(self, seat: str) -> None:
        with self.lock:
            state = self.seats.get(seat)
            if state is None or state.bot is None:
                raise InvalidInput(f"seat {seat!r} holds no bot")
            self._refuse_mid_game(seat)
            if self.record is not None and any(s == seat for s, _, _ in self.record.seats):
                state.leaving = True
            else:
                self._stand_up(seat)
            self._broadcast_state([])

    def _stand_up(self, seat: str, reason: str | None = None) -> int:
        state = self.seats[seat]
        assert state.player is not None
        amount = self.money.cash_out(state.player, bot=state.bot is not None)
        message: JSON = {"type": "left", "table": self.id, "cashed_out": amount}
        if reason is not None:
            message["reason"] = reason
        self.send(state.player, message)
        self.seating.free(seat)
        self._bots.pop(seat, None)
        self.client_seed_of.pop(state.player, None)  # a running unit keeps its own copy
        if not self.humans() and self.alone_since is None:
            self.alone_since = self.clock.now()
        self._save()
        return amount

    def connect(self, player: str) -> None:
        """A client subscribed: send it the full private state (reconnection included)."""
        with self.lock:
            self.listen(player)
            self._send_state(player, [])

    def listen(self, player: str) -> None:
        """A client of `player` listens to the table: an away seat of theirs is back (docs/rules/common.md
        "Decision (away)": it plays again from the next round)."""
        with self.lock:
            self.connected.add(player)
            if self.seating.back(player) is not None:
                self._save()
                self.wake()
                self._broadcast_state([])

    def catch_up(self) -> None:
        """Apply a countdown that ran out but was not yet expired (the room's scheduler is
        behind under load), so that a state built now never offers actions whose time is up."""
        with self.lock:
            if self.suspension is None and not self.closed:
                try:
                    self._expire_if_due()
                except JournalUnavailable:
                    pass  # the next tick retries
                except Exception as exc:
                    self._fail("countdown", exc)

    def disconnect(self, player: str) -> None:
        with self.lock:
            self.connected.discard(player)

    @_moved_if_lease_lost
    def set_client_seed(self, player: str, seed: str) -> JSON:
        """A seated player's client seed (docs/fairness.md): it enters the next deal unit that
        starts while the player is seated (the running unit keeps the seeds it started with)."""
        with self.lock:
            if self.seat_of(player) is None:
                raise NotSeated("sit down first: a client seed belongs to a seat")
            if not self.terms.client_seeds:
                raise InvalidInput("this table does not take client seeds")
            self.client_seed_of[player] = check_client_seed(seed)
            return {"client_seed": self.client_seed_of[player], "applies": "next deal unit"}

    # ----- time -----------------------------------------------------------------------------
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
        """Do everything that is due: expire a countdown, let bots act, start a round, stand
        up away seats, end an abandoned deal unit.

        Never raises: a failure suspends this table (and only this table)."""
        with self.lock:
            if self.suspension is not None or self.closed or self.lost:
                return
            try:
                self._housekeeping()
                for _ in range(1000):
                    if not self._step():
                        break
            except LeaseLost:
                self.lose()
                return
            except JournalUnavailable as exc:
                # the database refused a write: nothing changed; try again a little later, and
                # give up (suspend) only if it keeps failing
                if not self._retry_later():
                    self._fail("journal", exc.__cause__ or exc)
                return
            except Exception as exc:
                self._fail("tick", exc)
                return
            self._journal_failures = 0
            if self._told() != self._shown:
                self._broadcast_state([])  # e.g. it now waits for players: say so, once

    def _retry_later(self) -> bool:
        """A write failed and changed nothing: the tick tries again after a back-off (False:
        it failed too often, the caller suspends the table)."""
        self._journal_failures += 1
        if self._journal_failures > self.MAX_JOURNAL_RETRIES:
            return False
        self.timers.retry_at = self.clock.now() + min(30.0, 0.25 * 2**self._journal_failures)
        return True

    def _housekeeping(self) -> None:
        now = self.clock.now()
        for state in self.seating.away_expired(now, self.terms.away_grace_s):
            if self.record is not None and any(s == state.seat for s, _, _ in self.record.seats):
                state.leaving = True  # dealt into the running round: after it
            elif state.seat not in self.bound_seats():
                self._stand_up(state.seat, "away for longer than the table's grace time")
                self._broadcast_state([])
        if self.humans():
            self.alone_since = None
        elif self.alone_since is None:
            self.alone_since = now
        if (
            self.round is None
            and self.units.running
            and self.alone_since is not None
            and now >= self.alone_since + self.terms.idle_reveal_s
        ):
            # issue 17: an abandoned unit ends and is revealed; the next player gets a new one
            self._end_unit()
            self.units.carry_context = {}
            self._save()
            self._broadcast_state([])

    def _step(self) -> bool:
        now = self.clock.now()
        if now < self.timers.retry_at:
            return False
        if self.round is not None and self.round.finished:  # its settlement failed: again
            self._finish([])
            return True
        if self._expire_if_due():
            return True
        due_bots = self.timers.due_bots(now)
        if due_bots:
            self._bots_act(due_bots)
            return True
        if self.round is None and self.timers.start_due(now):
            return self._try_start()
        return False

    def _expire_if_due(self) -> bool:
        if self.round is None or not self.timers.expired(self.clock.now()):
            return False
        self._journal(None, {"type": "expire"}, None)  # the default is journaled first
        events = self.round.expire()
        self.journal.heard(events)
        self._after_change(events, force_timer=True)
        return True

    # ----- who plays ------------------------------------------------------------------------
    def eligible(self) -> list[SeatState]:
        bound = self.bound_seats()
        if bound:  # the game's next round is dealt to the same seats, whatever they ask
            return [s for s in self.seats.values() if s.seat in bound and s.player is not None]
        out = []
        for s in self.seats.values():
            if not lobby.playable(self, s):
                continue
            if s.bot:
                self._fund_bot(s.player or "")
            out.append(s)
        return out

    def wait_reason(self) -> str | None:
        """What the table waits for before it can deal (None: it can deal, or it is dealing)."""
        return lobby.wait_reason(self)

    def wait_detail(self) -> JSON | None:
        """`wait_reason` as data for clients to translate (`lobby.wait_detail`)."""
        return lobby.wait_detail(self)

    def status(self) -> TableStatus:
        return lobby.status(self)

    def _stand_up_short_stacks(self) -> None:
        """docs/rules/common.md#buy-in "Decision (buy-in)": before each deal, a person whose stack fell below the
        minimum buy-in is stood up and its stack returned to its wallet (not during a game of
        several rounds on one deal, whose seats are bound)."""
        if self.bound_seats():
            return
        low = self.terms.min_buy_in
        for state in list(self.seats.values()):
            if state.player and not state.bot and self.ledger_stack(state.player) < low:
                self._stand_up(state.seat, f"your stack is below the table's minimum of {low}")

    # ----- rounds ---------------------------------------------------------------------------
    def _try_start(self) -> bool:
        self._stand_up_short_stacks()
        if self.wait_reason() is not None:
            self.timers.next_start_at = None  # woken again by a seat change
            return False
        players = self.eligible()
        if not self.bound_seats() and (
            len(players) < self.game.min_players or not any(not s.bot for s in players)
        ):
            self.timers.next_start_at = None
            return False
        seats = [Seat(s.seat, self.ledger_stack(s.player or "")) for s in players]
        context = dict(self.units.carry_context)
        if "pool" in self.game.context_keys:
            context["pool"] = self.ledger.pool(self.terms.pool_id)
        new_unit = not self.units.running
        if new_unit:
            self.units.begin(self._client_seeds(players))
        try:
            try:
                round_ = self.game.round_type.start(
                    self.config, seats, Rng(self.units.key()), context
                )
            except GameError:
                if new_unit:
                    raise
                # the deal unit cannot go on with these seats (someone left): a fresh one
                self._end_unit()
                self.units.begin(self._client_seeds(players))
                context, new_unit = {}, True
                round_ = self.game.round_type.start(
                    self.config, seats, Rng(self.units.key()), context
                )
        except GameError as exc:
            self.timers.next_start_at = None  # wait for a seat change rather than retry
            for player in list(self.connected):
                self.send(player, {"type": "error", "code": exc.code, "message": exc.message})
            return False
        self.number += 1
        tiles = self._commit_tiles(round_)
        record = rounds.opening_record(self, players, seats, context, tiles)
        holds = {p: stack for _, p, stack in record.seats}
        try:
            self.ledger.open_round(record, holds)
        except Exception as exc:
            self.number -= 1  # not opened: the table is as before (the unit stays begun)
            self._unit_unsaved = self._unit_unsaved or new_unit
            failure = journal_first.retry_or_raise(exc, "the round could not be opened")
            if failure is exc:
                raise
            raise failure from exc
        self.money.held(holds)
        self.units.add_round(record.round_id)
        self.numbered = record.round_id
        self.round, self.record = round_, record
        self.tiles = tiles
        self.journal.new_round()
        self.timers.next_start_at = None
        self.timers.forget_phase()
        if new_unit or self._unit_unsaved:  # a new deal unit's commitment is kept at once
            self._save()
            self._unit_unsaved = False
        # Otherwise only the round counter and the unit's list of rounds changed: they are saved
        # when the round ends (one database write per round less); `recover` rebuilds both.
        self._after_change(
            [Event("round_started", {"round_id": record.round_id, "number": self.number})]
        )
        return True

    def _client_seeds(self, players: list[SeatState]) -> dict[str, str]:
        return units_mod.client_seeds(self.terms, self.client_seed_of, players)

    def _commit_tiles(self, round_: Round[Any]) -> Any:
        return units_mod.commit_tiles(self.game, self.units.key(), round_)

    def act(self, player: str, action: Mapping[str, Any], client_id: str | None = None) -> JSON:
        """A player's action. Returns the reply for that client: an ack or a typed error.

        Journal first: the action is made canonical, checked by the round, journaled, and only
        then applied; any refusal (including a failed journal write) changes nothing."""
        with self.lock:
            try:
                self._require_open()
                if client_id is not None:
                    journal_first.storable_text(client_id, "client_id")
                self._expire_if_due()
                if client_id is not None and self.journal.seen(client_id, player):
                    return {"type": "ack", "client_id": client_id, "duplicate": True}
                seat = self.seat_of(player)
                if seat is None:
                    raise NotSeated("you are not seated at this table")
                if self.round is None or self.record is None:
                    raise WrongPhase("no round is running; the next one starts soon")
                if seat not in self.round.seat_ids():
                    raise WrongPhase("you are not in this round; you play from the next one")
                taken = journal_first.canonical(self.game, action)
                journal_first.check(self.round, seat, taken)
                self._journal(seat, taken, client_id)
            except GameError as exc:
                return {"type": "error", "client_id": client_id, **exc.to_json()}
            except LeaseLost:
                self.lose()
                return {"type": "error", "client_id": client_id, **self._moved_error()}
            except Exception as exc:  # the expiry before the action failed in its settlement
                self._fail("action", exc)
                return {"type": "error", "client_id": client_id, **self._suspended_error()}
            if client_id is not None:
                self.journal.remember(client_id, player)
            if self.seating.back(player) is not None:
                self._save()
            try:
                events = self.round.act(seat, taken)
                self.journal.heard(events)
                self._after_change(events)
            except JournalUnavailable:  # the settlement could not be written: the tick retries
                self._retry_later()
            except Exception as exc:  # journaled but not applied, or its settlement failed
                self._fail("action", exc)
            return {"type": "ack", "client_id": client_id, "duplicate": False}

    def _moved_error(self) -> dict[str, str]:
        return TableMoved(MOVED_MESSAGE).to_json()

    def _suspended_error(self) -> dict[str, str]:
        return TableSuspended(f"the table is suspended: {self.suspension}").to_json()

    def _bots_act(self, seats: list[str]) -> None:
        """The bots whose thinking time is over move, in order, each journaled before it is
        applied; all of them are heard in one state message."""
        events: list[Event] = []
        moved = False
        for seat in seats:
            if self.round is None or self.round.finished:
                break
            produced = self._bot_move(seat)
            if produced is None:
                continue
            moved = True
            events += produced
            if not self.round.finished:
                self._update_timers()  # as if each move were heard at once (countdowns, bots)
        if moved:
            self._after_change(events)

    def _bot_move(self, seat: str) -> list[Event] | None:
        """One bot's move, journaled then applied, or None if it has none to make."""
        if self.round is None or seat not in self.round.awaiting():
            return None
        state = self.seats.get(seat)
        if state is None or state.bot is None:
            return None
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = self.game.make_bot(state.bot)
        action = table_bots.next_move(self.game, bot, self.round, seat, self.bot_rng)
        if action is None:
            return None
        self._journal(seat, action, None)
        produced = self.round.act(seat, action)
        self.journal.heard(produced)
        return produced

    def _journal(self, seat: str | None, action: JSON, client_id: str | None) -> None:
        """Journal one action durably BEFORE it is applied (`journal.py`)."""
        assert self.record is not None
        self.journal.append(self.record.round_id, seat, action, client_id)

    def _after_change(self, events: list[Event], force_timer: bool = False) -> None:
        round_ = self.round
        assert round_ is not None
        if round_.finished:
            self.timers.round_over()
            self._finish(events)
            return
        self._update_timers(force_timer)
        self._broadcast_state(events)

    def _update_timers(self, force_timer: bool = False) -> None:
        assert self.round is not None
        bots = [s.seat for s in self.seats.values() if s.bot]
        self.timers.changed(self.round, bots, self.clock.now(), force_timer)

    def _finish(self, events: list[Event]) -> None:
        round_, record = self.round, self.record
        assert round_ is not None and record is not None
        result = round_.result()
        nets = rounds.seat_nets(result, record)
        nxt = round_.next_round()
        events = [*self.journal.finish_events, *events]
        kept = (
            self.units.carry_context,
            self.last_result,
            self.results,
            {k: dataclasses.replace(v) for k, v in self.seats.items()},
            list(self.journal.pending),
        )
        # What the next round continues from is saved with the settlement (in its transaction
        # when the ledger keeps the layouts, else BEFORE settling): a crash leaves the round open
        # (so it is replayed and settled again, idempotently) and never a settled round whose
        # shoe position the table has forgotten (a repeated deal).
        self.units.carry_context = dict(nxt.context)
        unit_ends = not nxt.reuse_seed
        self.last_result = {"round_id": record.round_id, "number": record.number, "nets": nets}
        self.results = [*self.results, self.last_result][-30:]
        newly_away = self._note_silence(round_, record)
        reveal = self.game.reveal_seed and unit_ends
        events_left = self.journal.take_pending()
        ended_seed = self.units.carry_seed
        if unit_ends:
            self.units.carry_seed = None  # the layout saved with the settlement says so
        try:
            head = rounds.settle(self, record, result, reveal, events_left)
        except Exception as exc:  # not settled: the table is exactly as it was
            self.units.carry_seed = ended_seed
            self.units.carry_context, self.last_result, self.results = kept[:3]
            self.seating.seats.update(kept[3])
            self.journal.pending = kept[4]
            self.journal.finish_events = events
            failure = journal_first.retry_or_raise(exc, "the round could not be settled")
            if failure is exc:
                raise
            raise failure from exc
        self.journal.finish_events = []
        if head is not None:  # the settlement's chain head, shown with the result (issue 16)
            self.last_result["chain_head"] = head
        self.money.settled(record, nets)
        self._announce_away(newly_away)
        if unit_ends:
            self.units.carry_seed = ended_seed
            self._end_unit()
        if self.tiles is not None:
            game_round: Any = round_  # a Tien Gow round (the only game with tile commitments)
            self.openings = {
                seat: seat_openings(game_round, self.tiles, seat) for seat in round_.seat_ids()
            }
            self.tiles = None
        self.last_round, self.last_record = round_, record
        self.round, self.record = None, None
        # set before the broadcast so the result message says when the next round starts, and
        # again after the stand-ups below (which may reschedule the table)
        next_start = self.clock.now() + self.timing.between_rounds
        self.timers.next_start_at = next_start
        self._broadcast_state(events, finished=True)
        self.timers.forget_phase()
        bound = self.bound_seats()
        for state in list(self.seats.values()):
            if state.player and state.leaving and state.seat not in bound:
                self._stand_up(state.seat)
        self.timers.next_start_at = next_start
        self._save()

    def _note_silence(self, round_: Round[Any], record: RoundRecord) -> list[SeatState]:
        """docs/rules/common.md "Decision (away)": count the rounds each person sat through in silence
        (the seats newly away are announced once the round is settled)."""
        acted = {e.seat for e in round_.log if e.seat is not None}
        dealt = {seat: seat in acted for seat, _, _ in record.seats}
        return self.seating.round_played(dealt, self.clock.now())

    def _announce_away(self, states: list[SeatState]) -> None:
        for state in states:
            message = {"type": "away", "table": self.id, "seat": state.seat}
            for player in list(self.connected):
                self.send(player, message)

    def _end_unit(self) -> None:
        """The running deal unit ended: show its seed (unless the game keeps seeds hidden)."""
        self.units.end(self.ledger.reveal)

    def wake(self) -> None:
        """A seat changed: a waiting table may be able to start a round now."""
        with self.lock:
            if self.suspension is not None or self.closed:
                return
            if self.round is None and self.timers.next_start_at is None:
                self.timers.next_start_at = self.clock.now() + 0.5

    # ----- containment ----------------------------------------------------------------------
    def lose(self) -> None:
        """Another process took this table over (our lease lapsed): stop at once, write nothing
        more for it (every write would be refused anyway), tell the listeners to reconnect."""
        with self.lock:
            if self.lost:
                return
            log.warning("table %s: lease lost, another process runs it now", self.id)
            self.lost = True
            self.timers.stop()
            for player in list(self.connected):
                self._quietly(
                    functools.partial(self.send, player, {"type": "error", **self._moved_error()})
                )

    def hand_over(self) -> bool:
        """Stop here between rounds so that another host takes the table over (an operator's
        drain): the layout is saved and the table does nothing more in this process. False
        (nothing changed) while a round runs, its settlement is pending or a write fails."""
        with self.lock:
            if self.lost:
                return True
            if self.round is not None or self.record is not None:
                return False
            self._save()
            self.lost = True
            self.timers.stop()
            return True

    def _fail(self, where: str, exc: BaseException) -> None:
        """Something raised in this table's tick, recovery or settlement: suspend it alone."""
        if isinstance(exc, LeaseLost) or isinstance(exc.__cause__, LeaseLost):
            self.lose()
            return
        log.error("table %s: %s failed, suspending it", self.id, where, exc_info=exc)
        self.suspend(f"{where} failed: {type(exc).__name__}: {exc}"[:300])

    def suspend(self, reason: str) -> None:
        """Stop the table: its open round ends by the interrupted-game policy (`interrupt.py`),
        its deal unit ends (the seed is revealed where the game reveals seeds), no round starts
        until an operator resumes it. Players may stand up. Never raises."""
        with self.lock:
            if self.closed or self.lost:
                return
            self.suspension = reason or "suspended"
            self.timers.stop()
            try:
                self._interrupt(self.suspension)
            except Exception:  # the ledger itself fails: the round stays open for `resume`
                log.exception("table %s: the interrupted round could not be closed", self.id)
            self._quietly(self._save)
            self._quietly(lambda: self._broadcast_state([]))

    def resume(self) -> None:
        """An operator's decision: the suspended table plays again (from a new deal unit)."""
        with self.lock:
            if self.closed:
                raise TableClosed("the table is closed")
            if self.suspension is None:
                return
            if self.record is not None:  # the interruption could not be settled before
                self._interrupt(self.suspension)
            self.suspension = None
            self._journal_failures = 0
            self.timers.retry_at = 0.0
            self.timers.next_start_at = self.clock.now()
            self._save()
            self._broadcast_state([])

    def close(self, reason: str = "closed by the operator") -> None:
        """Close for good: the open round ends by the interrupted-game policy, the deal unit
        ends, every seat is stood up and cashed out. Raises if the ledger refuses (nothing is
        then marked closed, and closing again retries)."""
        with self.lock:
            if self.closed:
                return
            self.timers.stop()
            self._interrupt(reason)
            self._end_unit()
            for state in list(self.seats.values()):
                if state.player:
                    self._stand_up(state.seat, "the table closed")
            self.closed = True
            self.suspension = None
            self._save()
            self._broadcast_state([])

    def _quietly(self, work: Callable[[], object]) -> None:
        try:
            work()
        except Exception:
            log.exception("table %s: cleanup step failed", self.id)

    def _interrupt(self, reason: str) -> None:
        """End the open round by the interrupted-game policy: every stake returned, and what a
        player had already won paid by the house (`interrupt.py`). Then the deal unit ends."""
        record = self.record
        if record is None:
            return
        players = {seat: player for seat, player, _ in record.seats}
        pay = interrupt.payouts(self.round, players)
        self.ledger.void_round(record.round_id, f"interrupted: {reason}"[:300])
        for player, amount in sorted(pay.items()):
            self.ledger.pay_interrupted(record.round_id, self.id, player, amount, reason)
        self.money.moved()
        self.last_round, self.last_record = self.round, record
        self.round, self.record = None, None
        self.tiles = None
        self.journal.pending = []
        self.timers.forget_phase()
        self._end_unit()  # a void ends its deal unit: the next round has a new seed
        self.units.carry_context = {}
        for state in list(self.seats.values()):
            if state.player and state.leaving:
                self._quietly(functools.partial(self._stand_up, state.seat))

    # ----- crash recovery -------------------------------------------------------------------
    def recover(self, open_round: OpenRound) -> str:
        """Resume an open round from its journal (same seed, same deal), or suspend the table.

        Returns "resumed", "settled" (the journal already held the last action), "voided" (it
        could not be rebuilt: the table is suspended, every stake returned) or "suspended" (it
        was rebuilt but could not go on, e.g. its settlement failed)."""
        with self.lock:
            record = recovery.numbered(open_round.record, self.number, self.numbered)
            try:
                round_ = recovery.rebuild(self.game, self.units, open_round)
            except Exception as exc:  # cannot rebuild: the table is suspended, the round voided
                self.record, self.round = record, None
                self.suspend(
                    f"round {record.round_id} could not be resumed: {type(exc).__name__}: {exc}"[
                        :300
                    ]
                )
                return "voided" if self.record is None else "suspended"
            self.round, self.record = round_, record
            self.tiles = self._commit_tiles(round_)  # the salts derive from the key
            self.number = max(self.number, record.number)
            self.numbered = record.round_id
            self.journal.count = len(open_round.entries)
            for client_id, player in recovery.client_ids(open_round):
                self.journal.remember(client_id, player)
            self.timers.next_start_at = None
            self.timers.forget_phase()
            self.timers.deadline_at = None
            was_finished = round_.finished
            try:
                self._after_change([Event("resumed", {"round_id": record.round_id})])
            except JournalUnavailable:  # the database is busy: the tick settles it later
                self._retry_later()
                return "resumed"
            except Exception as exc:  # e.g. its settlement fails: this table alone stops
                self._fail("recovery", exc)
                return "suspended"
            return "settled" if was_finished else "resumed"

    def remember_client_ids(self, items: list[tuple[str, str]]) -> None:
        """Client ids journaled at this table before a restart (oldest first): a repeat is
        acknowledged as a duplicate and never applied again (docs/protocol.md)."""
        with self.lock:
            self.journal.remember_all(items)

    # ----- persistence ----------------------------------------------------------------------
    def layout(self) -> JSON:
        """What survives a restart (`layout.py`)."""
        return layout_mod.build(self)

    def restore_snapshot(self, data: Mapping[str, Any]) -> None:
        """Restore a saved layout (the name predates `layout`)."""
        with self.lock:
            layout_mod.restore(self, data)
            self._restore_chain_head()

    def _restore_chain_head(self) -> None:
        """The layout saved with a settlement (in its transaction, or just before it) cannot hold
        that settlement's chain head — its MAC is made in the settlement's transaction — so a
        recovered table reads it back from the ledger: the first state message after a restart
        shows it too (issue 16). Only the last result: the earlier ones were saved with theirs."""
        last = self.last_result
        if not isinstance(last, dict) or last.get("chain_head") or not last.get("round_id"):
            return
        info = self.ledger.round_info(str(last["round_id"]))
        head = None if info is None else info.get("chain_head")
        if head:
            self.last_result = {**last, "chain_head": head}
            if self.results and self.results[-1] is last:
                self.results[-1] = self.last_result

    restore_layout = restore_snapshot

    def _layout(self) -> tuple[JSON, str]:
        data = self.layout()
        return data, layout_mod.canonical(data)

    def save_now(self) -> None:
        """Persist the layout now (the room's stop)."""
        with self.lock:
            self._save()

    def _save(self) -> None:
        """Persist the layout if it changed since the last save (a database write saved)."""
        if self.repo is not None and not self.lost:
            data, text = self._layout()
            self.saver.save(data, text)

    # ----- what clients see -----------------------------------------------------------------
    def public_info(self) -> JSON:
        """The lobby's view of the table: no cards, no seeds of running deal units."""
        with self.lock:
            return lobby.public_info(self)

    def _stack(self, player: str) -> int:
        """A player's table stack including what the running round holds for them."""
        return lobby.held_stack(self, player)

    def snapshot(self) -> TableSnapshot:
        """The typed, read-only facts every message of this moment is built from."""
        with self.lock:
            return lobby.snapshot(self)

    def _told(self) -> tuple[TableStatus, bool]:
        return self.status(), self.round is None and self.timers.next_start_at is not None

    def _broadcast_state(self, events: list[Event], finished: bool = False) -> None:
        from qipai.tables.messages import state_for

        self._shown = self._told()
        if not self.connected:
            return
        snap = self.snapshot()
        for player in list(self.connected):
            self.send(player, state_for(snap, player, events, finished))

    def _send_state(self, player: str, events: list[Event], finished: bool = False) -> None:
        from qipai.tables.messages import state_for

        self.send(player, state_for(self.snapshot(), player, events, finished))
