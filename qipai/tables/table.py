"""A table drives a sequence of rounds of one game in time.

It owns the seats (one per player), buys players in from their wallet and cashes them out, runs
each phase's countdown on an injectable clock, applies the rules' defaults exactly once when a
countdown runs out, lets bots act for bot seats, journals every action before anyone hears of it,
settles each finished round into the ledger in one transaction and starts the next round.

Everything happens under one lock and in one order: before any action is looked at, an overdue
countdown is expired first. A late action racing the timer is therefore either applied (it came
first) or judged against the state after the default (and refused if no longer legal) — never
both, and the default is applied exactly once.

Clients hear only what `round.view(seat)` and the events addressed to them say (`messages.py`).

Journal first (`actions.py`): every action, default on silence and bot move is checked by the
round, journaled, and only then applied; a failed journal write refuses the action and leaves the
round as it was. Containment: any exception in a tick, a recovery or a settlement suspends this
table alone (`suspend`): its open round ends by the interrupted-game policy (`interrupt.py`), its
deal unit ends and is revealed, and the table waits for an operator to resume or close it.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from qipai.core.errors import GameError, InvalidInput, WrongPhase
from qipai.core.protocol import JSON, Event, RecordedAction, Round, Seat
from qipai.core.rng import Rng, commitment, new_seed
from qipai.tables import actions as journal_first
from qipai.tables import interrupt
from qipai.tables.actions import JournalUnavailable
from qipai.tables.games import Game
from qipai.tables.ports import (
    Clock,
    InsufficientFunds,
    JournalEntry,
    LedgerPort,
    OpenRound,
    RoundRecord,
    TableRepo,
)
from qipai.tables.status import CLOSED, PLAYING, TableStatus, suspended, waiting
from qipai.tables.terms import TableTerms, default_terms

Send = Callable[[str, JSON], None]
log = logging.getLogger("qipai.tables")

# A layout saved before layouts named the round they count last: they were saved when each
# round started, so an open round is the one they count.
_LEGACY = "-legacy-"


class TableError(GameError):
    """A refusal by the table itself (not seated, seat taken, not enough money…)."""

    code = "table_error"


class NotSeated(TableError):
    code = "not_seated"


class SeatTaken(TableError):
    code = "seat_taken"


class Funds(TableError):
    code = "insufficient_funds"


class BuyInRange(TableError):
    """RULES.md "Decision (buy-in)": a seat's stack is within the table's buy-in range."""

    code = "buy_in_out_of_range"


class BotsNotAllowed(TableError):
    code = "bots_not_allowed"


class TableSuspended(TableError):
    code = "table_suspended"


class TableClosed(TableError):
    code = "table_closed"


class GameInProgress(TableError):
    """RULES.md §2: a Pai Gow game is two rounds; nobody may leave between them."""

    code = "game_in_progress"


@dataclass(frozen=True)
class Timing:
    """Pauses in seconds: bots' thinking time and the break between rounds."""

    bot_delay: float = 0.8
    between_rounds: float = 4.0
    countdown_scale: float = 1.0


@dataclass
class SeatState:
    seat: str
    player: str | None = None
    name: str = ""
    bot: str | None = None
    leaving: bool = False

    def to_json(self) -> JSON:
        return {
            "seat": self.seat,
            "player": self.player,
            "name": self.name,
            "bot": self.bot,
            "leaving": self.leaving,
        }


@dataclass
class Reveal:
    """A deal unit's fairness data: the commitment shown before, the seed once the unit ends
    (`ended` with no seed: a game whose seeds are never shown to players, see
    `GameInfo.reveal_seed`)."""

    commitment: str
    seed_hex: str | None
    rounds: list[str] = field(default_factory=list)
    ended: bool = False

    def to_json(self) -> JSON:
        return {
            "commitment": self.commitment,
            "seed": self.seed_hex,
            "rounds": list(self.rounds),
            "ended": self.ended or self.seed_hex is not None,
        }


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
        self.owner = owner
        self.config_json: JSON = dict(terms.config_json)
        self.config = terms.config
        self.suspension: str | None = None  # the reason, while suspended
        self.closed = False
        # what the last broadcast told: the status, and whether a next round was announced
        self._shown: tuple[TableStatus, bool] | None = None
        self._unjournaled: list[Event] = []  # events journaled with the next write
        self._journal_failures = 0  # consecutive failed journal writes of ticks
        self._retry_at = 0.0  # after a failed journal write, the tick waits until then
        self.timing = timing or Timing()
        self.send: Send = send or (lambda player, message: None)
        self.seed_source = seed_source
        self.seats: dict[str, SeatState] = {s: SeatState(s) for s in game.seat_ids}
        self.connected: set[str] = set()
        self.lock = threading.RLock()
        self.round: Round[Any] | None = None
        self.last_round: Round[Any] | None = None
        self.last_record: RoundRecord | None = None
        self.record: RoundRecord | None = None
        self.deadline_at: float | None = None
        self._awaiting: tuple[str, ...] = ()
        self._phase: str | None = None
        self.bot_due: dict[str, float] = {}
        self.next_start_at: float | None = clock.now()
        self.carry_seed: bytes | None = None
        self.carry_context: JSON = {}
        self.number = 0
        self.reveals: list[Reveal] = []
        self.last_result: JSON | None = None
        self.results: list[JSON] = []
        self.client_ids: OrderedDict[str, str] = OrderedDict()
        self.bot_rng = Rng(seed_source(), "bots")
        self._bots: dict[str, Any] = {}
        self.journal_count = 0
        self._stacks: dict[str, int] = {}
        self._saved: str | None = None
        self._numbered: str | None = None  # the id of the round numbered `self.number`

    # ----- stacks (cached: every message shows them, the ledger changes them only here) -----
    def ledger_stack(self, player: str) -> int:
        cached = self._stacks.get(player)
        if cached is None:
            cached = self._stacks[player] = self.ledger.stack(player, self.id)
        return cached

    def _money_moved(self) -> None:
        self._stacks.clear()

    def _stacks_held(self, holds: Mapping[str, int]) -> None:
        """`open_round` moved each player's hold off their stack: adjust the cache in place
        rather than re-reading every stack from the ledger (one read per seat per round)."""
        for player, amount in holds.items():
            if player in self._stacks:
                self._stacks[player] -= amount

    def _stacks_settled(self, record: RoundRecord, nets: Mapping[str, int]) -> None:
        """`settle_round` released each player's hold and posted their net to their stack."""
        for seat, player, held in record.seats:
            if player in self._stacks:
                self._stacks[player] += held + nets.get(seat, 0)

    # ----- seating --------------------------------------------------------------------------
    def seat_of(self, player: str) -> str | None:
        for s in self.seats.values():
            if s.player == player:
                return s.seat
        return None

    def humans(self) -> list[str]:
        return [s.player for s in self.seats.values() if s.player and not s.bot]

    def free_seats(self) -> list[str]:
        return [s.seat for s in self.seats.values() if s.player is None]

    def sit(
        self, player: str, name: str, buy_in: int, seat: str | None = None, key: str = ""
    ) -> str:
        """Seat a player (one seat per player per table) and move `buy_in` from the wallet."""
        with self.lock:
            self._require_open()
            existing = self.seat_of(player)
            if existing is not None:
                self.seats[existing].leaving = False
                self._broadcast_state([])
                return existing
            free = self.free_seats()
            if not free:
                raise SeatTaken("the table is full")
            if seat is None:
                seat = free[0]
            if seat not in self.seats:
                raise InvalidInput(f"no seat {seat!r} at this table")
            if self.seats[seat].player is not None:
                raise SeatTaken(f"seat {seat} is taken")
            self._check_buy_in(player, buy_in)
            if buy_in > 0:
                try:
                    self.ledger.buy_in(player, self.id, buy_in, key or f"buyin:{uuid.uuid4().hex}")
                except InsufficientFunds as exc:
                    raise Funds(str(exc)) from None
                finally:
                    self._money_moved()
            self.seats[seat] = SeatState(seat, player, name)
            self._save()
            self.wake()
            self._broadcast_state([])
            return seat

    def _require_open(self) -> None:
        if self.closed:
            raise TableClosed("the table is closed")
        if self.suspension is not None:
            raise TableSuspended(f"the table is suspended: {self.suspension}")

    def _check_buy_in(self, player: str, buy_in: int) -> None:
        """RULES.md "Decision (buy-in)": the stack a player sits with is within the table's
        range (what is already on the table counts: a player standing up in mid-round keeps it)."""
        if not isinstance(buy_in, int) or isinstance(buy_in, bool) or buy_in < 0:
            raise InvalidInput("the buy-in is a whole number of minor units, at least 0")
        low, high = self.terms.min_buy_in, self.terms.max_buy_in
        total = self.ledger_stack(player) + buy_in
        if total < low or (buy_in > 0 and total > high):
            raise BuyInRange(
                f"the buy-in at this table is {low} to {high}; you would sit with {total}"
            )

    def add_bot(self, level: str | None = None, seat: str | None = None) -> str:
        """Fill a free seat with a bot of the game (house money, a fresh buy-in)."""
        with self.lock:
            self._require_open()
            free = self.free_seats()
            if not free:
                raise SeatTaken("the table is full")
            seat = seat or free[0]
            if not self.terms.bot_policy:
                raise BotsNotAllowed("this table allows no bots")
            if level is None:
                level = self.game.default_bot()
                if level not in self.terms.bot_policy:
                    level = self.terms.bot_policy[-1]
            if level not in self.game.bot_levels:
                raise InvalidInput(f"unknown bot level {level!r}")
            if level not in self.terms.bot_policy:
                raise BotsNotAllowed(
                    f"bots of level {level!r} are not allowed here; "
                    f"allowed: {', '.join(self.terms.bot_policy)}"
                )
            player = f"bot.{self.id}.{seat}"
            self._fund_bot(player)
            self.seats[seat] = SeatState(seat, player, f"{level} bot {seat}", bot=level)
            self._save()
            self.wake()
            self._broadcast_state([])
            return seat

    def fill_with_bots(self, level: str | None = None) -> list[str]:
        with self.lock:
            return [self.add_bot(level) for _ in list(self.free_seats())]

    def _fund_bot(self, player: str) -> None:
        stack = self.ledger_stack(player)
        want = min(max(self.game.default_buy_in, 2 * self.terms.min_buy_in), self.terms.max_buy_in)
        if stack < max(want // 2, self.terms.min_buy_in):
            key = f"botfund.{self.id}.{uuid.uuid4().hex}"
            self.ledger.deposit(player, want - stack, key)
            self.ledger.buy_in(player, self.id, want - stack, key + ".buyin")
            self._money_moved()

    def bound_seats(self) -> frozenset[str]:
        """Seats that must play the next round of the running game (its deal unit goes on with
        exactly these seats: Pai Gow round 2 gets `{"round": 2, "seats": [...]}` from round 1).
        Empty when the next round may be dealt to whoever is seated."""
        seats = self.carry_context.get("seats") if self.carry_seed is not None else None
        return frozenset(str(s) for s in seats) if isinstance(seats, list | tuple) else frozenset()

    def _refuse_mid_game(self, seat: str) -> None:
        if self.round is None and seat in self.bound_seats():
            raise GameInProgress(
                "the game has a second round on the same tiles; "
                "you may stand up once it is over (RULES.md §2)"
            )

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
        amount = self.ledger.cash_out(state.player, self.id, f"cashout.{uuid.uuid4().hex}")
        self._money_moved()
        message: JSON = {"type": "left", "table": self.id, "cashed_out": amount}
        if reason is not None:
            message["reason"] = reason
        self.send(state.player, message)
        self.seats[seat] = SeatState(seat)
        self._bots.pop(seat, None)
        self._save()
        return amount

    def connect(self, player: str) -> None:
        """A client subscribed: send it the full private state (reconnection included)."""
        with self.lock:
            self.connected.add(player)
            self._send_state(player, [])

    def catch_up(self) -> None:
        """Apply a countdown that ran out but was not yet expired (the room's scheduler is
        behind under load), so that a state built now never offers actions whose time is up."""
        with self.lock:
            self._expire_if_due()

    def disconnect(self, player: str) -> None:
        with self.lock:
            self.connected.discard(player)

    # ----- time -----------------------------------------------------------------------------
    def next_wakeup(self) -> float | None:
        """When `tick` next has something to do (None: only an outside event can wake it)."""
        with self.lock:
            if self.suspension is not None or self.closed:
                return None
            times = [t for t in (self.deadline_at, self.next_start_at) if t is not None]
            times += self.bot_due.values()
            return max(min(times), self._retry_at) if times else None

    def tick(self) -> None:
        """Do everything that is due: expire a countdown, let bots act, start a round.

        Never raises: a failure suspends this table (and only this table)."""
        with self.lock:
            if self.suspension is not None or self.closed:
                return
            try:
                for _ in range(1000):
                    if not self._step():
                        break
            except JournalUnavailable as exc:
                # the database refused a write: nothing changed; try again a little later, and
                # give up (suspend) only if it keeps failing
                self._journal_failures += 1
                if self._journal_failures > self.MAX_JOURNAL_RETRIES:
                    self._fail("journal", exc.__cause__ or exc)
                    return
                self._retry_at = self.clock.now() + min(30.0, 0.25 * 2**self._journal_failures)
                return
            except Exception as exc:
                self._fail("tick", exc)
                return
            self._journal_failures = 0
            if self._told() != self._shown:
                self._broadcast_state([])  # e.g. it now waits for players: say so, once

    def _step(self) -> bool:
        now = self.clock.now()
        if now < self._retry_at:
            return False
        if self._expire_if_due():
            return True
        due_bots = [
            s for s, due in sorted(self.bot_due.items(), key=lambda kv: kv[1]) if due <= now
        ]
        if due_bots:
            for seat in due_bots:
                del self.bot_due[seat]
            self._bots_act(due_bots)
            return True
        if self.round is None and self.next_start_at is not None and self.next_start_at <= now:
            return self._try_start()
        return False

    def _expire_if_due(self) -> bool:
        if self.round is None or self.deadline_at is None:
            return False
        if self.clock.now() < self.deadline_at:
            return False
        self._journal(None, {"type": "expire"}, None)  # the default is journaled first
        events = self.round.expire()
        self._unjournaled += events
        self._after_change(events, force_timer=True)
        return True

    # ----- rounds ---------------------------------------------------------------------------
    def _playable(self, s: SeatState) -> bool:
        """A seat that may be dealt the next round (bots are topped up at the deal)."""
        if s.player is None or s.leaving:
            return False
        return bool(s.bot) or self.ledger_stack(s.player) >= self.terms.min_buy_in

    def eligible(self) -> list[SeatState]:
        bound = self.bound_seats()
        if bound:  # the game's next round is dealt to the same seats, whatever they ask
            return [s for s in self.seats.values() if s.seat in bound and s.player is not None]
        out = []
        for s in self.seats.values():
            if not self._playable(s):
                continue
            if s.bot:
                self._fund_bot(s.player or "")
            out.append(s)
        return out

    def wait_reason(self) -> str | None:
        """What the table waits for before it can deal (None: it can deal, or it is dealing)."""
        if self.round is not None or self.bound_seats():
            return None
        players = [s for s in self.seats.values() if self._playable(s)]
        need = self.game.min_players
        if len(players) < need:
            return f"{len(players)} of {need} players"
        if not any(not s.bot for s in players):
            return "a player at the table"  # bots never play among themselves
        return None

    def status(self) -> TableStatus:
        if self.closed:
            return CLOSED
        if self.suspension is not None:
            return suspended(self.suspension)
        reason = self.wait_reason()
        return PLAYING if reason is None else waiting(reason)

    def _stand_up_short_stacks(self) -> None:
        """RULES.md "Decision (buy-in)": before each deal, a person whose stack fell below the
        minimum buy-in is stood up and its stack returned to its wallet (not during a game of
        several rounds on one deal, whose seats are bound)."""
        if self.bound_seats():
            return
        low = self.terms.min_buy_in
        for state in list(self.seats.values()):
            if state.player and not state.bot and self.ledger_stack(state.player) < low:
                self._stand_up(state.seat, f"your stack is below the table's minimum of {low}")

    def _try_start(self) -> bool:
        self._stand_up_short_stacks()
        if self.wait_reason() is not None:
            self.next_start_at = None  # woken again by a seat change
            return False
        players = self.eligible()
        bound = bool(self.bound_seats())
        if not bound and (
            len(players) < self.game.min_players or not any(not s.bot for s in players)
        ):
            self.next_start_at = None
            return False
        seats = [Seat(s.seat, self.ledger_stack(s.player or "")) for s in players]
        context = dict(self.carry_context)
        if "pool" in self.game.context_keys:
            context["pool"] = self.ledger.pool(self.terms.pool_id)
        seed = self.carry_seed or self.seed_source()
        try:
            try:
                round_ = self.game.round_type.start(self.config, seats, Rng(seed), context)
            except GameError:
                if self.carry_seed is None:
                    raise
                # the deal unit cannot go on with these seats (someone left): a fresh one
                self._reveal_current()
                seed, context = self.seed_source(), {}
                round_ = self.game.round_type.start(self.config, seats, Rng(seed), context)
        except GameError as exc:
            self.next_start_at = None  # wait for a seat change rather than retrying forever
            for player in list(self.connected):
                self.send(player, {"type": "error", "code": exc.code, "message": exc.message})
            return False
        new_unit = self.carry_seed is None or not self.reveals or self.reveals[-1].ended
        if new_unit:
            self.reveals.append(Reveal(commitment(seed), None))
            self.reveals = self.reveals[-50:]
        self.number += 1
        record = RoundRecord(
            round_id=uuid.uuid4().hex,
            table_id=self.id,
            game=self.game.name,
            config=self.config.to_json(),
            seats=tuple(
                (s.seat, s.player or "", seat.stack) for s, seat in zip(players, seats, strict=True)
            ),
            seed_hex=seed.hex(),
            commitment=commitment(seed),
            context=context,
            number=self.number,
        )
        holds = {p: stack for _, p, stack in record.seats}
        self.ledger.open_round(record, holds)
        self._stacks_held(holds)
        self.reveals[-1].rounds.append(record.round_id)
        self._numbered = record.round_id
        self.round, self.record = round_, record
        self.journal_count = 0
        self._unjournaled = []
        self.next_start_at = None
        self._phase, self._awaiting = None, ()
        if new_unit:  # a new deal unit's commitment is kept at once
            self._save()
        # Otherwise only the round counter and the unit's list of rounds changed: they are saved
        # when the round ends (one database write per round less); `recover` rebuilds both.
        self._after_change(
            [Event("round_started", {"round_id": record.round_id, "number": self.number})]
        )
        return True

    def act(self, player: str, action: Mapping[str, Any], client_id: str | None = None) -> JSON:
        """A player's action. Returns the reply for that client: an ack or a typed error.

        Journal first: the action is made canonical, checked by the round, journaled, and only
        then applied; any refusal (including a failed journal write) changes nothing."""
        with self.lock:
            try:
                if self.closed:
                    raise TableClosed("the table is closed")
                if self.suspension is not None:
                    raise TableSuspended(f"the table is suspended: {self.suspension}")
                if client_id is not None:
                    journal_first.storable_text(client_id, "client_id")
                self._expire_if_due()
                if client_id is not None and client_id in self.client_ids:
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
            except Exception as exc:  # the expiry before the action failed in its settlement
                self._fail("action", exc)
                return {"type": "error", "client_id": client_id, **self._suspended_error()}
            if client_id is not None:
                self.client_ids[client_id] = player
                while len(self.client_ids) > 5000:
                    self.client_ids.popitem(last=False)
            try:
                events = self.round.act(seat, taken)
                self._unjournaled += events
                self._after_change(events)
            except Exception as exc:  # journaled but not applied, or its settlement failed
                self._fail("action", exc)
            return {"type": "ack", "client_id": client_id, "duplicate": False}

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
        legal = self.round.legal_actions(seat)
        if not legal:
            return None
        try:
            choice = bot.choose(self.round.view(seat), legal, self.bot_rng)
            action = journal_first.canonical(self.game, choice)
            journal_first.check(self.round, seat, action)
        except GameError:
            return None  # the countdown's default will act for it
        self._journal(seat, action, None)
        produced = self.round.act(seat, action)
        self._unjournaled += produced
        return produced

    def _journal(self, seat: str | None, action: JSON, client_id: str | None) -> None:
        """Journal one action durably BEFORE it is applied (with the events of the changes
        before it); JournalUnavailable if the write failed (nothing was journaled)."""
        assert self.record is not None
        entry = JournalEntry(
            seq=self.journal_count + 1,
            seat=seat,
            action=action,
            client_id=client_id,
            events=tuple(self._unjournaled),
        )
        try:
            self.ledger.append(self.record.round_id, entry)
        except Exception as exc:
            log.warning("table %s: journal write failed: %s", self.id, exc)
            raise JournalUnavailable(
                "the action could not be journaled and was not taken; try again"
            ) from exc
        self.journal_count += 1
        self._unjournaled = []

    def _after_change(self, events: list[Event], force_timer: bool = False) -> None:
        round_ = self.round
        assert round_ is not None
        if round_.finished:
            self.deadline_at = None
            self.bot_due.clear()
            self._finish(events)
            return
        self._update_timers(force_timer)
        self._broadcast_state(events)

    def _update_timers(self, force_timer: bool = False) -> None:
        """After a change to the running round: restart the countdown when the phase changed
        or someone new must act, and give every bot that must act now its thinking time."""
        round_ = self.round
        assert round_ is not None
        awaiting = tuple(round_.awaiting())
        new_waits = not set(awaiting) <= set(self._awaiting)
        if force_timer or round_.phase != self._phase or new_waits or self.deadline_at is None:
            limit = round_.deadline_s
            self.deadline_at = (
                None if limit is None else self.clock.now() + limit * self.timing.countdown_scale
            )
        self._phase, self._awaiting = round_.phase, awaiting
        for seat in list(self.bot_due):
            if seat not in awaiting:
                del self.bot_due[seat]
        for seat in awaiting:
            state = self.seats.get(seat)
            if state and state.bot and seat not in self.bot_due:
                self.bot_due[seat] = self.clock.now() + self.timing.bot_delay

    def _finish(self, events: list[Event]) -> None:
        round_, record = self.round, self.record
        assert round_ is not None and record is not None
        result = round_.result()
        seat_ids = {s for s, _, _ in record.seats}
        nets: dict[str, int] = {}
        for posting in result.postings:
            if posting.account in seat_ids:
                nets[posting.account] = nets.get(posting.account, 0) + posting.amount
        nxt = round_.next_round()
        # What the next round continues from is saved with the settlement (in its transaction
        # when the ledger keeps the layouts, else BEFORE settling): a crash leaves the round open
        # (so it is replayed and settled again, idempotently) and never a settled round whose
        # shoe position the table has forgotten (a repeated deal).
        self.carry_context = dict(nxt.context)
        self.carry_seed = bytes.fromhex(record.seed_hex) if nxt.reuse_seed else None
        self.last_result = {"round_id": record.round_id, "number": record.number, "nets": nets}
        self.results = [*self.results, self.last_result][-30:]
        reveal = self.game.reveal_seed and not nxt.reuse_seed
        events_left, self._unjournaled = tuple(self._unjournaled), []
        if self.repo is not None and getattr(self.ledger, "layouts", None) is self.repo:
            # the layout and the settlement in one transaction
            data, text = self._layout()
            self.ledger.settle_round(
                record.round_id,
                result,
                pool_id=self.terms.pool_id,
                reveal_seed=reveal,
                layout=(self.id, data),
                events=events_left,
            )
            self._saved = text
        else:
            self._save()
            self.ledger.settle_round(
                record.round_id,
                result,
                pool_id=self.terms.pool_id,
                reveal_seed=reveal,
                events=events_left,
            )
        self._stacks_settled(record, nets)
        if not nxt.reuse_seed:
            self._reveal_current(bytes.fromhex(record.seed_hex))
        self.last_round, self.last_record = round_, record
        self.round, self.record = None, None
        # set before the broadcast so the result message says when the next round starts, and
        # again after the stand-ups below (which may reschedule the table)
        next_start = self.clock.now() + self.timing.between_rounds
        self.next_start_at = next_start
        self._broadcast_state(events, finished=True)
        self._phase, self._awaiting = None, ()
        bound = self.bound_seats()
        for state in list(self.seats.values()):
            if state.player and state.leaving and state.seat not in bound:
                self._stand_up(state.seat)
        self.next_start_at = next_start
        self._save()

    def _reveal_current(self, seed: bytes | None = None) -> None:
        """The running deal unit ended: show its seed (unless the game keeps seeds hidden)."""
        if self.reveals and not self.reveals[-1].ended:
            last = self.reveals[-1]
            last.ended = True
            if seed is None and self.carry_seed is not None:
                seed = self.carry_seed
            if seed is not None and self.game.reveal_seed:
                last.seed_hex = seed.hex()
                self.ledger.reveal(last.commitment)
        self.carry_seed = None

    def wake(self) -> None:
        """A seat changed: a waiting table may be able to start a round now."""
        with self.lock:
            if self.suspension is not None or self.closed:
                return
            if self.round is None and self.next_start_at is None:
                self.next_start_at = self.clock.now() + 0.5

    # ----- containment ----------------------------------------------------------------------
    def _fail(self, where: str, exc: BaseException) -> None:
        """Something raised in this table's tick, recovery or settlement: suspend it alone."""
        log.error("table %s: %s failed, suspending it", self.id, where, exc_info=exc)
        self.suspend(f"{where} failed: {type(exc).__name__}: {exc}"[:300])

    def suspend(self, reason: str) -> None:
        """Stop the table: its open round ends by the interrupted-game policy (`interrupt.py`),
        its deal unit ends (the seed is revealed where the game reveals seeds), no round starts
        until an operator resumes it. Players may stand up. Never raises."""
        with self.lock:
            if self.closed:
                return
            self.suspension = reason or "suspended"
            self.deadline_at, self.next_start_at = None, None
            self.bot_due.clear()
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
            self.next_start_at = self.clock.now()
            self._save()
            self._broadcast_state([])

    def close(self, reason: str = "closed by the operator") -> None:
        """Close for good: the open round ends by the interrupted-game policy, the deal unit
        ends, every seat is stood up and cashed out. Raises if the ledger refuses (nothing is
        then marked closed, and closing again retries)."""
        with self.lock:
            if self.closed:
                return
            self.deadline_at, self.next_start_at = None, None
            self.bot_due.clear()
            self._interrupt(reason)
            self._reveal_current()
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
        self._money_moved()
        self.last_round, self.last_record = self.round, record
        self.round, self.record = None, None
        self._unjournaled = []
        self._phase, self._awaiting = None, ()
        seed = bytes.fromhex(record.seed_hex)
        self._reveal_current(seed)  # a void ends its deal unit: the next round has a new seed
        self.carry_seed, self.carry_context = None, {}
        for state in list(self.seats.values()):
            if state.player and state.leaving:
                self._quietly(functools.partial(self._stand_up, state.seat))

    # ----- crash recovery -------------------------------------------------------------------
    def recover(self, open_round: OpenRound) -> str:
        """Resume an open round from its journal (same seed, same deal), or void it.

        Returns "resumed", "settled" (the journal already held the last action) or "voided".
        """
        with self.lock:
            record = open_round.record
            if record.number == 0:  # the journal does not keep the table's round counter
                # the layout was last saved once this round was counted, or before it started
                counted = self._numbered in (_LEGACY, record.round_id)
                number = self.number if counted else self.number + 1
                record = dataclasses.replace(record, number=number)
            seats = [Seat(s, stack) for s, _, stack in record.seats]
            actions = [RecordedAction(e.seat, e.action) for e in open_round.entries]
            try:
                config = self.game.config_type.from_json(record.config)
                round_ = self.game.round_type.replay(
                    config, seats, bytes.fromhex(record.seed_hex), actions, record.context
                )
            except Exception as exc:  # cannot rebuild: the table is suspended, the round voided
                self.record, self.round = record, None
                if not self.reveals or self.reveals[-1].commitment != record.commitment:
                    self.reveals.append(Reveal(record.commitment, None, [record.round_id]))
                self.suspend(
                    f"round {record.round_id} could not be resumed: {type(exc).__name__}: {exc}"[
                        :300
                    ]
                )
                return "voided" if self.record is None else "suspended"
            self.round, self.record = round_, record
            self.number = max(self.number, record.number)
            self._numbered = record.round_id
            self.journal_count = len(open_round.entries)
            for e in open_round.entries:
                if e.client_id:
                    self.client_ids[e.client_id] = record.player_of(e.seat) if e.seat else ""
            if not self.reveals or self.reveals[-1].commitment != record.commitment:
                self.reveals.append(Reveal(record.commitment, None, [record.round_id]))
            elif record.round_id not in self.reveals[-1].rounds:
                self.reveals[-1].rounds.append(record.round_id)
            self.next_start_at = None
            self._phase, self._awaiting = None, ()
            self.deadline_at = None
            was_finished = round_.finished
            try:
                self._after_change([Event("resumed", {"round_id": record.round_id})])
            except Exception as exc:  # e.g. its settlement fails: this table alone stops
                self._fail("recovery", exc)
                return "suspended"
            return "settled" if was_finished else "resumed"

    # ----- persistence ----------------------------------------------------------------------
    def snapshot(self) -> JSON:
        return {
            "table_id": self.id,
            "game": self.game.name,
            "name": self.name,
            "config": self.config_json,
            "seats": [s.to_json() for s in self.seats.values()],
            "number": self.number,
            # the round that `number` counts last (recovery numbers an open round by it)
            "numbered": self._numbered,
            "carry_seed": self.carry_seed.hex() if self.carry_seed else None,
            "carry_context": self.carry_context,
            "reveals": [r.to_json() for r in self.reveals[-20:]],
            "results": self.results[-30:],
            "terms": self.terms.to_json(),
            "owner": self.owner,
            "suspended": self.suspension,
            "closed": self.closed,
        }

    def restore_snapshot(self, data: Mapping[str, Any]) -> None:
        with self.lock:
            for s in data.get("seats", []):
                if s["seat"] in self.seats:
                    self.seats[s["seat"]] = SeatState(
                        s["seat"],
                        s.get("player"),
                        s.get("name", ""),
                        s.get("bot"),
                        bool(s.get("leaving")),
                    )
            self.number = int(data.get("number", 0))
            self._numbered = data.get("numbered", _LEGACY)
            carry = data.get("carry_seed")
            self.carry_seed = bytes.fromhex(carry) if carry else None
            self.carry_context = dict(data.get("carry_context") or {})
            self.reveals = [
                Reveal(
                    r["commitment"],
                    r.get("seed") if self.game.reveal_seed else None,
                    list(r.get("rounds", [])),
                    bool(r.get("ended", r.get("seed") is not None)),
                )
                for r in data.get("reveals", [])
            ]
            self.results = list(data.get("results", []))
            self.last_result = self.results[-1] if self.results else None
            self.owner = data.get("owner", self.owner)
            reason = data.get("suspended")
            self.suspension = str(reason) if reason else None
            self.closed = bool(data.get("closed", False))

    def _layout(self) -> tuple[JSON, str]:
        """The layout to persist and its canonical text (what `_saved` compares)."""
        data = self.snapshot()
        return data, json.dumps(data, sort_keys=True)

    def save_now(self) -> None:
        """Persist the layout now (the room's stop)."""
        with self.lock:
            self._save()

    def _save(self) -> None:
        """Persist the layout if it changed since the last save (a database write saved)."""
        if self.repo is not None:
            data, text = self._layout()
            if text != self._saved:
                self.repo.save_table(self.id, data)
                self._saved = text

    # ----- messages -------------------------------------------------------------------------
    def public_info(self) -> JSON:
        """The lobby's view of the table: no cards, no seeds of running deal units."""
        with self.lock:
            status = self.status()
            return {
                "id": self.id,
                "game": self.game.name,
                "title": dict(self.game.title),
                "name": self.name,
                "seats": [
                    {
                        "seat": s.seat,
                        "name": s.name,
                        "bot": s.bot,
                        "occupied": s.player is not None,
                        "stack": self._stack(s.player) if s.player else None,
                    }
                    for s in self.seats.values()
                ],
                "free": len(self.free_seats()),
                "humans": len(self.humans()),
                "playing": self.round is not None,
                "status": status.state,
                "status_reason": status.reason,
                "number": self.number,
                "bot_levels": [b for b in self.game.bot_levels if self.terms.allows_bot(b)],
                "min_buy_in": self.terms.min_buy_in,
                "max_buy_in": self.terms.max_buy_in,
                "private": self.terms.private,
                "owner": self.owner,
                "terms": self.terms.public_json(),
            }

    def _stack(self, player: str) -> int:
        """A player's table stack including what the running round holds for them."""
        stack = self.ledger_stack(player)
        if self.record is not None:
            stack += sum(st for _, p, st in self.record.seats if p == player)
        return stack

    def _told(self) -> tuple[TableStatus, bool]:
        return self.status(), self.round is None and self.next_start_at is not None

    def _broadcast_state(self, events: list[Event], finished: bool = False) -> None:
        self._shown = self._told()
        for player in list(self.connected):
            self._send_state(player, events, finished)

    def _send_state(self, player: str, events: list[Event], finished: bool = False) -> None:
        from qipai.tables.messages import state_message

        self.send(player, state_message(self, player, events, finished))
