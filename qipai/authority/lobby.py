"""The player's side of the lobby under operator authority: opening a table, automatch, what the
lobby lists and shows. The server's lobby router calls these; they take the `Room`.

* A player opens a table of a template (`{"template", "name"?, "private"?}`; `{"game"}` alone
  means that game's first offered template), never with settings; within the quota of tables open at once (tables they opened that are not closed) and
  the room's cap. Private tables are listed only to their owner and the players seated there.
* Automatch takes a template id (or a game, meaning its first active template). Joining a
  table runs side by side with other requests; at most `OPENERS` tables are opened at once,
  each counted toward the room's cap while it opens (`_Openings`): `qipai/server/automatch.py`.
* Every table reply carries its template version's facts (`facts`): pay table, limits,
  buy-in range, exact return of every bet.
* A table closes once no person has sat at it for the operator's `empty_table_close_s` (a
  player's table) or the shorter `house_table_close_s` (a house table automatch opened: bots
  alone), `EmptyTables`, so tables of bots alone do not pile up in the lobby.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from qipai.authority import Authority, games
from qipai.authority.errors import BadRequest, InvalidBody
from qipai.authority.oplog import SYSTEM
from qipai.authority.templates import parse_model
from qipai.server.inputs import StoredStr

_OPENING = threading.Lock()  # quota check and table creation are one step
log = logging.getLogger("qipai.authority.lobby")

OPENERS = 16
"""Tables automatch opens side by side (each is a few commits of its own)."""


class _Openings:
    """The tables automatch is opening now: at most `OPENERS` at once, and each counts toward
    the room's table cap from the moment it is asked for (checked under `_OPENING`, like a
    player's `open_table`; one waiting for a slot counts too), so openings side by side never
    take the room past its cap."""

    def __init__(self, side_by_side: int) -> None:
        self.slots = threading.BoundedSemaphore(side_by_side)
        self.now = 0  # guarded by _OPENING

    @contextlib.contextmanager
    def one(self, authority: Authority, room: Any, player: str) -> Iterator[None]:
        with _OPENING:
            tables = len(room.tables) + self.now
            if tables >= authority.settings.max_tables:
                authority.quotas.check_open_table(player, 0, tables)
            self.now += 1
        try:
            with self.slots:
                yield
        finally:
            with _OPENING:
                self.now -= 1


_OPENINGS = _Openings(OPENERS)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class OpenTableIn(Strict):
    template: str | None = Field(default=None, min_length=3, max_length=40)
    game: str | None = Field(default=None, min_length=1, max_length=32)
    name: StoredStr = Field(default="", max_length=40)
    private: bool = False


class AutomatchIn(Strict):
    template: str | None = Field(default=None, min_length=3, max_length=40)
    game: str | None = Field(default=None, min_length=1, max_length=32)
    buy_in: int = Field(gt=0, le=10**12)
    client_seed: str | None = None  # docs/fairness.md#keys: check_client_seed bounds it


def _template_id(authority: Authority, template: str | None, game: str | None) -> str:
    """The template a player picked; a game alone means its first offered template."""
    if (template is None) == (game is None):
        raise BadRequest("give a template id (or a game for its first template)", "template")
    if template is not None:
        return template
    if game not in games.game_names():
        raise BadRequest(
            f"unknown game {game!r}; expected one of {', '.join(games.game_names())}", "game"
        )
    return authority.default_template(str(game)).id


def open_now(room: Any, player: str) -> int:
    """Tables `player` opened that are still open."""
    return sum(
        1
        for t in list(room.tables.values())
        if getattr(t, "owner", None) == player and t.status().state != "closed"
    )


def open_table(authority: Authority, room: Any, player: str, body: object) -> Any:
    """A new table of an active template for `player` (see the module docstring)."""
    authority.refuse_settings(body)
    parsed: OpenTableIn = parse_model(OpenTableIn, body, InvalidBody)
    authority.check_player(player)
    terms = authority.terms_for(
        _template_id(authority, parsed.template, parsed.game), parsed.private
    )
    with _OPENING:
        authority.quotas.check_open_table(
            player, open_now(room, player), len(room.tables) + _OPENINGS.now
        )
        return room.create_table(terms, parsed.name, owner=player)


def automatch(authority: Authority, room: Any, player: str, body: object) -> Any:
    """自动配桌 on a template (or a game's first active template)."""
    authority.refuse_settings(body)
    parsed: AutomatchIn = parse_model(AutomatchIn, body, InvalidBody)
    authority.check_player(player)
    terms = authority.terms_for(_template_id(authority, parsed.template, parsed.game))

    def opening() -> contextlib.AbstractContextManager[None]:
        # automatch may open a table of the house (owner None): the room's cap, counted with
        # the openings in flight (joining a table needs neither: qipai/server/automatch.py)
        return _OPENINGS.one(authority, room, player)

    return room.automatch(player, player, terms, parsed.buy_in, parsed.client_seed, opening)


def visible(table: Any, player: str | None) -> bool:
    """Whether the lobby lists `table` to `player` (a private table: its owner and its
    players only; a closed table: nobody, it is gone for good)."""
    if table.status().state == "closed":
        return False
    if not table.terms.private:
        return True
    return player is not None and (
        table.owner == player or table.seating.seat_of(player) is not None
    )


def with_facts(authority: Authority, table: Any, info: dict[str, Any]) -> dict[str, Any]:
    """A table's public info with its template version's facts."""
    return {**info, "facts": authority.table_facts(table.terms)}


class EmptyTables:
    """Closes the tables (players' and the house's) once no person has sat at them for the
    authority's `empty_table_close_s` — a house table (no owner) for `house_table_close_s` — (the
    operator's settings): its bots are stood up and cashed
    out, the table leaves the lobby and no longer counts against its owner's quota. An empty table is
    one with no person seated (watchers and bots do not count); a suspended table is left to
    the operators. Each close is in the operator log as the system's."""

    def __init__(
        self, authority: Authority, room: Any, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.authority = authority
        self.room = room
        self.clock = clock
        self.empty_since: dict[str, float] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def sweep(self) -> list[str]:
        """Close what has been empty long enough now; returns the closed tables' ids."""
        now = self.clock()
        settings = self.authority.settings
        closed: list[str] = []
        seen: set[str] = set()
        for table in list(self.room.tables.values()):
            # a house table (automatch opened it, nobody owns it) too: bots alone playing on
            # would pile up in the lobby; automatch opens a new one when a person wants one
            if table.status().state in ("closed", "suspended"):
                continue
            seen.add(table.id)
            if table.seating.humans():
                self.empty_since.pop(table.id, None)
                continue
            since = self.empty_since.setdefault(table.id, now)
            house = getattr(table, "owner", None) is None
            ttl = settings.house_table_close_s if house else settings.empty_table_close_s
            if now - since < ttl:
                continue
            try:
                self.room.close(table.id)
            except Exception:  # the ledger refused (cash-out): tried again next time
                log.exception("table %s: closing the empty table failed", table.id)
                continue
            self.authority.log.append(
                SYSTEM,
                "table.close",
                table.id,
                f"no person sat at it for {ttl:g} s",
                {"owner": getattr(table, "owner", None)},
            )
            closed.append(table.id)
        for table_id in list(self.empty_since):
            if table_id not in seen or table_id in closed:
                del self.empty_since[table_id]
        return closed

    def start(self) -> None:
        """Sweep in a daemon thread (a quarter of the idle time apart, at most a minute)."""
        settings = self.authority.settings
        shortest = min(settings.empty_table_close_s, settings.house_table_close_s)
        period = min(60.0, max(1.0, shortest / 4))

        def loop() -> None:
            while not self._stop.wait(period):
                try:
                    self.sweep()
                except Exception:
                    log.exception("the empty-table sweep failed")

        self._thread = threading.Thread(target=loop, name="qipai-empty-tables", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
