"""One table host of a room: the owner of some tables and a front door to all of them.

`Node` ties a process's `Room` to the others: it keeps the room's leases (`Ownership`), and
with Redis (`Bus`) it

* carries the owner's per-player messages to the front doors whose WebSockets watch a table
  (`deliver`, the room's `TableHost` hook; the owner keeps who watches from where);
* forwards a front door's `subscribe`, `unsubscribe` and `action` for a table another host
  owns (`watch`, `unwatch`, `act`), and answers such calls for its own tables;
* re-subscribes its clients' watches when a table moves (the new owner announces `moved`
  after a takeover, and the clients get the table's state again, their seats and cards and
  countdown, without reconnecting);
* writes its address and load (tables, seats) in the room's host directory, used to place new
  tables on the host with the fewest seats taken and to reach another host's HTTP API
  (`qipai.cluster.proxy`);
* drains on an operator's word (`drain`, `POST /api/ops/hosts/{host}/drain`): it takes no new
  table, hands each of its tables over at its next round boundary (the lease released, so
  another host claims it by the normal takeover path, journal and seats intact), then stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import signal
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import select

from qipai.cluster.bus import Bus, CallFailed, CallRefused
from qipai.cluster.metrics import ClusterMetrics
from qipai.cluster.ownership import Ownership
from qipai.cluster.settings import ClusterSettings
from qipai.core.errors import GameError
from qipai.core.protocol import JSON
from qipai.ledger import Ledger
from qipai.ledger.book import Lanes
from qipai.ledger.schema import rounds
from qipai.server.room import Connection, Room
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.table import Table

log = logging.getLogger("qipai.cluster")


REWATCH_BATCH = 64
"""Subscriptions renewed side by side after the bus came back (bounded: one call each)."""
REWATCH_TRIES = 3


def new_host_id() -> str:
    """Unique per process start: `<machine>-<pid>-<random>` (a restarted process is a new host,
    so the tables it held before are claimed with a new epoch)."""
    machine = socket.gethostname().split(".")[0][:40] or "host"
    return f"{machine}-{os.getpid()}-{secrets.token_hex(3)}"


class Node:
    def __init__(
        self,
        settings: ClusterSettings,
        room: Room,
        adapter: LedgerAdapter,
        ledger: Ledger,
        metrics: ClusterMetrics,
    ) -> None:
        assert adapter.host is not None
        self.settings = settings
        self.host_id: str = adapter.host
        self.room = room
        self.adapter = adapter
        self.ledger = ledger
        self.metrics = metrics
        self.bus: Bus | None = (
            None
            if settings.redis_url is None
            else Bus(
                settings.redis_url,
                settings.name,
                self.host_id,
                metrics,
                timeout_s=settings.redis_timeout_s,
            )
        )
        self.directory: dict[str, JSON] = {}
        """The live hosts' entries as last read (address, tables, seats)."""
        self.ownership = Ownership(
            room,
            adapter,
            ledger,
            metrics,
            ttl_s=settings.lease_ttl_s,
            renew_s=settings.renew_s,
            hosts_alive=lambda: max(1, len(self.directory)),
            on_adopted=self._adopted_threadsafe,
            resume_threads=settings.resume_threads,
        )
        self.watchers: dict[str, dict[str, set[str]]] = {}
        """Owner side: table id -> player -> the front doors (host ids) watching for them."""
        self._watch_lock = threading.Lock()
        self.owners: dict[str, str] = {}
        """Front-door side: table id -> the host that owns it, as last found."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.forgetters: dict[str, Callable[[str | None], None]] = {}
        """Cache name -> what drops an entry of this process's cache (`invalidate`)."""
        self.draining: JSON | None = None
        """Once drained: who asked, why, when, and how it went (`drain_status`)."""
        self.on_drained: Callable[[], None] = _stop_this_process
        """Called on the event loop once the drain is over (the server then stops)."""
        room.on_handed_over = self._handed_over_threadsafe
        room.host = self
        room.lease_ttl_s = settings.lease_ttl_s

    @property
    def routes(self) -> bool:
        """Whether clients' messages reach tables of other hosts (Redis is configured)."""
        return self.bus is not None

    # ----- life ----------------------------------------------------------------------------
    async def start(self) -> None:
        """After the room recovered and started: renew and take over; join the bus."""
        self._loop = asyncio.get_running_loop()
        if self.bus is not None:
            self.bus.on_call = self._on_call
            self.bus.on_push = self.room.deliver_local
            self.bus.on_broadcast = self._on_broadcast
            self.bus.on_reconnect = self._reconnected
            await self.bus.start()
            await self._announce()
            self._tasks.append(asyncio.create_task(self._announcer(), name="qipai-announce"))
        self.ownership.start()

    async def stop(self) -> None:
        """Before the room stops: no more renewals (the room's stop then releases every lease,
        so the other hosts take the tables over at once: a drain)."""
        await asyncio.to_thread(self.ownership.stop)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.bus is not None:
            await self.bus.withdraw()
            await self.bus.broadcast({"k": "gone", "host": self.host_id})

    async def close(self) -> None:
        """After the room stopped (its leases released): tell the others, leave the bus."""
        await asyncio.to_thread(self.ownership.close)
        if self.bus is not None:
            released = list(self.adapter.epochs) + list(self.room.tables)
            for table_id in sorted(set(released)):
                await self.bus.broadcast({"k": "released", "table_id": table_id})
            await self.bus.stop()

    # ----- the host directory --------------------------------------------------------------
    def load(self) -> JSON:
        tables = list(self.room.tables.values())
        return {
            "http": self.settings.advertise,
            "tables": len(tables),
            "seats": sum(len(t.seating.humans()) for t in tables),
            "draining": self.draining is not None,
        }

    async def _announce(self) -> None:
        assert self.bus is not None
        fresh_s = self.settings.lease_ttl_s + 2.0
        await self.bus.announce(self.load())
        directory = await self.bus.hosts(fresh_s=fresh_s)
        since = self.bus.connected_at
        if directory and (since is None or time.monotonic() - since < fresh_s):
            # this host was cut off from Redis until moments ago: every other host's entry is
            # stale until its next announcement, none is taken for dead yet (dropping their
            # watchers left the players of every front door without their tables' messages
            # after a Redis outage: docs/scaling.md, "Redis outages")
            self.directory = {**self.directory, **directory}
            return
        if directory:
            for host in set(self.directory) - set(directory):
                self.bus.fail_calls_to(host)  # it died: no reply will come
            self.directory = directory
            with self._watch_lock:  # front doors that died without a word watch nothing
                for players in self.watchers.values():
                    for hosts in players.values():
                        hosts.intersection_update(directory)

    async def refresh_directory(self) -> None:
        """Read the host directory now (a host that started since the last announcement, or
        whose address this process has not seen yet: its tables are otherwise unreachable here
        until the next announcement)."""
        if self.bus is None:
            return
        directory = await self.bus.hosts(fresh_s=self.settings.lease_ttl_s + 2.0)
        if directory:
            self.directory = directory

    async def _announcer(self) -> None:
        while True:
            await asyncio.sleep(self.settings.renew_s)
            try:
                await self._announce()
            except Exception:
                log.exception("host directory update failed")

    def least_loaded(self) -> str:
        """The live host with the fewest seats taken (then fewest tables) for a new table."""
        entries = dict(self.directory)
        entries[self.host_id] = self.load()
        open_ = {h: e for h, e in entries.items() if not e.get("draining")}
        if not open_:
            return self.host_id  # every host drains: this one refuses (HostDraining)
        entries = open_
        return min(
            entries,
            key=lambda h: (int(entries[h].get("seats", 0)), int(entries[h].get("tables", 0)), h),
        )

    def address_of(self, host_id: str) -> str | None:
        entry = self.directory.get(host_id)
        found = None if entry is None else entry.get("http")
        return found if isinstance(found, str) and found else None

    # ----- owner side ------------------------------------------------------------------------
    def deliver(self, table_id: str, player: str, message: JSON) -> None:
        """The room's hook (any thread): the message also goes to the front doors watching."""
        bus = self.bus
        if bus is None:
            return
        with self._watch_lock:
            hosts = list(self.watchers.get(table_id, {}).get(player, ()))
        for host in hosts:
            bus.push_threadsafe(host, table_id, player, message)

    async def _on_call(self, op: str, args: JSON, caller: str) -> JSON:
        if op == "drain":
            return await self.drain(str(args.get("by") or caller), str(args.get("reason") or ""))
        table_id = str(args.get("table_id"))
        player = str(args.get("player"))
        if table_id not in self.room.tables:
            raise CallRefused("table_moved", "this host does not run that table")
        try:
            if op == "watch":
                with self._watch_lock:
                    self.watchers.setdefault(table_id, {}).setdefault(player, set()).add(caller)
                state: JSON = await self.room.call(table_id, lambda t: Room._join(t, player))
                return state
            if op == "unwatch":
                self._forget(table_id, player, caller)
                return {}
            if op == "act":
                action = args.get("action")
                client_id = args.get("client_id")
                version = args.get("version")
                if (
                    not isinstance(action, dict)
                    or not isinstance(client_id, str)
                    or not isinstance(version, str)
                ):
                    raise CallRefused("invalid_message", "an action, its client_id and version")

                def work(table: Table) -> JSON:
                    reply: JSON = table.act(player, action, client_id, version)
                    return reply

                return await self.room.call(table_id, work)
        except GameError as exc:
            raise CallRefused(exc.code, exc.message) from None
        raise CallRefused("invalid_message", f"unknown call {op!r}")

    def _forget(self, table_id: str, player: str, caller: str) -> None:
        with self._watch_lock:
            players = self.watchers.get(table_id, {})
            hosts = players.get(player, set())
            hosts.discard(caller)
            if not hosts:
                players.pop(player, None)
            still = bool(hosts) or any(
                table_id in c.tables for c in self.room.connections.get(player, set())
            )
        table = self.room.tables.get(table_id)
        if table is not None and not still:
            table.disconnect(player)

    async def _on_broadcast(self, data: JSON) -> None:
        kind = data.get("k")
        if kind == "invalidate":
            self._invalidated(data)
        elif kind == "gone":
            gone = str(data.get("host"))
            if self.bus is not None:
                self.bus.fail_calls_to(gone)
            with self._watch_lock:
                for players in self.watchers.values():
                    for hosts in players.values():
                        hosts.discard(gone)
            for table_id, owner in list(self.owners.items()):
                if owner == gone:
                    self.owners.pop(table_id, None)
        elif kind in ("moved", "released"):
            table_id = str(data.get("table_id"))
            self.owners.pop(table_id, None)
            if kind == "moved":
                owner = str(data.get("owner"))
                if owner != self.host_id:
                    self.owners[table_id] = owner
                await self._rewatch(table_id)

    # ----- per-process caches --------------------------------------------------------------
    def cache(
        self, name: str, forget: Callable[[str | None], None]
    ) -> Callable[[str | None], None]:
        """Register a per-process cache (a player's lock and limits, the offered templates):
        `forget(key)` drops an entry here (None: all). Returns what the cache's writer calls
        (from any thread) after a change committed: every other host drops that entry at once.
        A lost announcement is harmless but for the cache's own TTL, its fallback."""
        self.forgetters[name] = forget

        def changed(key: str | None) -> None:
            self.invalidate_threadsafe(name, key)

        return changed

    def invalidate_threadsafe(self, name: str, key: str | None) -> None:
        loop, bus = self._loop, self.bus
        if loop is None or bus is None:
            return  # alone (or not started yet: nobody else has cached anything of ours)
        message: JSON = {"k": "invalidate", "cache": name, "key": key}
        with contextlib.suppress(RuntimeError):  # the loop closed: the process is stopping
            asyncio.run_coroutine_threadsafe(self._announce_change(message), loop)

    async def _announce_change(self, message: JSON) -> None:
        if self.bus is None:
            return
        try:
            await self.bus.broadcast(message)
        except Exception:
            log.warning("announcing a change of cache %s failed", message.get("cache"))

    def _invalidated(self, data: JSON) -> None:
        forget = self.forgetters.get(str(data.get("cache")))
        key = data.get("key")
        if forget is not None:
            forget(key if isinstance(key, str) else None)
            self.metrics.invalidations.inc()

    def _adopted_threadsafe(self, table_id: str) -> None:
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):
                asyncio.run_coroutine_threadsafe(self._adopted(table_id), loop)

    async def _adopted(self, table_id: str) -> None:
        """This host took `table_id` over: every front door re-subscribes its watchers."""
        self.owners.pop(table_id, None)
        if self.bus is not None:
            await self.bus.broadcast({"k": "moved", "table_id": table_id, "owner": self.host_id})
        await self._rewatch(table_id)

    async def _rewatch(self, table_id: str) -> None:
        """Subscribe again every local connection that watches `table_id` (it moved)."""
        for conns in list(self.room.connections.values()):
            for conn in list(conns):
                if table_id not in conn.tables:
                    continue
                try:
                    await self.watch(conn, table_id)
                except (CallFailed, CallRefused, GameError) as exc:
                    log.info("table %s: re-subscribing %s failed: %s", table_id, conn.player, exc)

    async def _reconnected(self) -> None:
        """The bus is back after a loss (a Redis outage, this host cut off): whatever was sent
        meanwhile is lost, and the owners may have taken this front door for dead and dropped
        its watchers. Announce this host again and subscribe every local connection again to
        the other hosts' tables it watches (each gets the table's whole state)."""
        with contextlib.suppress(Exception):
            await self._announce()
        pairs = [
            (conn, table_id)
            for conns in list(self.room.connections.values())
            for conn in list(conns)
            for table_id in list(conn.tables)
            if table_id not in self.room.tables
        ]
        for start in range(0, len(pairs), REWATCH_BATCH):
            batch = pairs[start : start + REWATCH_BATCH]
            await asyncio.gather(*(self._resubscribe(conn, table_id) for conn, table_id in batch))

    async def _resubscribe(self, conn: Connection, table_id: str) -> None:
        """Subscribe `conn` again to another host's table after the bus came back: a few tries
        of `call_timeout_s` each (the owner may still be subscribing again itself, so the first
        call can be lost); the connection keeps the table meanwhile."""
        assert self.bus is not None
        for _ in range(REWATCH_TRIES):
            if table_id not in conn.tables:
                return  # unwatched meanwhile
            if table_id in self.room.tables:  # taken over by this host meanwhile
                await self.room.watch(conn, table_id)
                return
            try:
                owner = await self.owner_of(table_id)
                if owner is None:
                    return
                args = {"table_id": table_id, "player": conn.player}
                state = await self.bus.call(owner, "watch", args, self.settings.call_timeout_s)
            except CallFailed:
                self.owners.pop(table_id, None)
                continue
            except (CallRefused, GameError) as exc:
                self.owners.pop(table_id, None)
                if isinstance(exc, CallRefused) and exc.code == "table_moved":
                    continue
                log.info("table %s: re-subscribing %s refused: %s", table_id, conn.player, exc)
                return
            self.room.deliver_local(table_id, conn.player, state)
            return
        log.warning(
            "table %s: re-subscribing %s failed %d times", table_id, conn.player, REWATCH_TRIES
        )

    # ----- draining -------------------------------------------------------------------------
    async def drain(self, by: str, reason: str) -> JSON:
        """Drain this host: no new table opens here (the others are placed first; this host
        refuses), it takes no lapsed table over, and each of its tables is handed over at its
        next round boundary (`Room.hand_over`); once none is left, or after
        `drain_timeout_s` (the rest are released as a stop releases them: mid-round, resumed
        from the journal), `on_drained` stops the server. Asking again changes nothing."""
        if self.draining is None:
            marked = self.room.hand_over()
            self.ownership.draining = True
            self.metrics.draining.set(1)
            self.draining = {
                "host": self.host_id,
                "by": by,
                "reason": reason,
                "started_at": time.time(),
                "tables": len(marked),
                "handed_over": 0,
                "left": len(marked),
                "done": False,
            }
            log.warning("draining (by %s: %s): %d tables to hand over", by, reason, len(marked))
            if self.bus is not None:
                with contextlib.suppress(Exception):
                    await self._announce()  # placed elsewhere from now on
            self._tasks.append(asyncio.create_task(self._drain_then_stop(), name="qipai-drain"))
        return self.drain_status()

    def drain_status(self) -> JSON:
        if self.draining is None:
            return {"host": self.host_id, "draining": False}
        left = len(self.room.tables)
        return {**self.draining, "draining": True, "left": left}

    async def _drain_then_stop(self) -> None:
        assert self.draining is not None
        deadline = time.monotonic() + self.settings.drain_timeout_s
        while self.room.tables and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        left = sorted(self.room.tables)
        if left:
            log.warning(
                "drain: %d tables did not reach a round boundary in %.0f s; released as they "
                "are (their open rounds resume from the journal): %s",
                len(left),
                self.settings.drain_timeout_s,
                ", ".join(left),
            )
        self.draining.update(done=True, left=len(left), released_mid_round=left)
        log.warning("drained: stopping")
        self.on_drained()

    def _handed_over_threadsafe(self, table_id: str) -> None:
        if self.draining is not None:
            self.draining["handed_over"] = int(self.draining.get("handed_over", 0)) + 1
        self.metrics.handed_over.inc()
        loop = self._loop
        if loop is not None and self.bus is not None:
            with contextlib.suppress(RuntimeError):
                asyncio.run_coroutine_threadsafe(self._handed_over(table_id), loop)

    async def _handed_over(self, table_id: str) -> None:
        """Front doors forget this host as the table's owner (the claimer announces `moved`)."""
        if self.bus is not None:
            with contextlib.suppress(Exception):
                await self.bus.broadcast({"k": "released", "table_id": table_id})

    async def drain_host(self, host_id: str, by: str, reason: str) -> JSON:
        """Drain `host_id`: this one, or another live host asked over the bus."""
        if host_id == self.host_id:
            return await self.drain(by, reason)
        if self.bus is None:
            raise CallRefused("unknown_host", f"no host {host_id!r} in this room")
        await self.refresh_directory()
        if host_id not in self.directory:
            raise CallRefused("unknown_host", f"no live host {host_id!r} in this room")
        return await self.bus.call(
            host_id, "drain", {"by": by, "reason": reason}, timeout=self.settings.call_timeout_s
        )

    async def hosts(self) -> list[JSON]:
        """Every live host of the room (this one first) with its load and whether it drains."""
        await self.refresh_directory()
        entries = dict(self.directory)
        entries[self.host_id] = self.load()
        return [
            {
                "host": h,
                **{k: v for k, v in entries[h].items() if k != "at"},
                "self": h == self.host_id,
            }
            for h in sorted(entries, key=lambda h: (h != self.host_id, h))
        ]

    # ----- front-door side -------------------------------------------------------------------
    async def owner_of(self, table_id: str) -> str | None:
        """The host that runs `table_id` now if it is another one (None: nobody or us)."""
        if self.bus is None or table_id in self.room.tables:
            return None
        found = self.owners.get(table_id)
        if found is not None:
            return found
        lease = await asyncio.to_thread(self.ledger.lease, table_id)
        deadline = time.monotonic() + self.settings.call_timeout_s
        while (
            lease is not None
            and not lease.held
            and lease.owner not in (None, self.host_id)
            and time.monotonic() < deadline
        ):
            # lapsed, not released: its host died and a survivor is taking it over. Wait for
            # the new owner (a few seconds) rather than answer `unknown_table` (measured:
            # 60-113 of those per failover run for tables that came back moments later)
            await asyncio.sleep(0.25)
            lease = await asyncio.to_thread(self.ledger.lease, table_id)
        if lease is not None and not lease.held and lease.owner not in (None, self.host_id):
            return lease.owner  # still in transit: the call fails as `table_unavailable`
        if lease is None or not lease.held or lease.owner in (None, self.host_id):
            return None
        self.owners[table_id] = lease.owner
        return lease.owner

    def table_of_round(self, round_id: str) -> str | None:
        """The table a round was dealt at (None: no such round); a blocking read."""
        with self.ledger.engine.connect() as conn:
            found = conn.execute(select(rounds.c.table_id).where(rounds.c.id == round_id)).first()
        return None if found is None else str(found[0])

    async def _call(self, table_id: str, op: str, args: JSON) -> JSON:
        """Forward `op` to the table's owner (asking the directory again once if it moved)."""
        assert self.bus is not None
        for attempt in range(2):
            owner = await self.owner_of(table_id)
            if owner is None:
                raise CallRefused("unknown_table", f"no table {table_id!r}")
            try:
                return await self.bus.call(
                    owner,
                    op,
                    {"table_id": table_id, **args},
                    # an action or a subscription waits as long as it would on the owner
                    # itself (measured: with 3 s, a saturated owner's p50 of 3.8 s made
                    # most forwarded actions `table_unavailable`); a dead owner's calls are
                    # given up when it leaves the directory (`_announce`)
                    timeout=self.settings.play_timeout_s
                    if op in ("act", "watch")
                    else self.settings.call_timeout_s,
                )
            except CallRefused as exc:
                if exc.code != "table_moved" or attempt:
                    raise
                self.owners.pop(table_id, None)
            except CallFailed:
                self.owners.pop(table_id, None)
                raise
        raise CallFailed("the table moved twice")  # pragma: no cover - loop always returns

    async def watch(self, conn: Connection, table_id: str) -> None:
        """Subscribe `conn` to a table: here if this host runs it, else at its owner."""
        if table_id in self.room.tables:
            await self.room.watch(conn, table_id)
            return
        conn.tables.add(table_id)
        try:
            state = await self._call(table_id, "watch", {"player": conn.player})
        except Exception:
            conn.tables.discard(table_id)
            raise
        self.room.deliver_local(table_id, conn.player, state)

    async def unwatch(self, conn: Connection, table_id: str) -> None:
        conn.tables.discard(table_id)
        if table_id in self.room.tables:
            self.room.unsubscribe(conn, table_id)
            return
        if any(table_id in c.tables for c in self.room.connections.get(conn.player, set())):
            return  # another socket of the player here still watches
        with contextlib.suppress(CallFailed, CallRefused):
            await self._call(table_id, "unwatch", {"player": conn.player})

    async def act(
        self, table_id: str, player: str, action: JSON, client_id: str, version: str
    ) -> JSON:
        args = {"player": player, "action": action, "client_id": client_id, "version": version}
        return await self._call(table_id, "act", args)

    def detach(self, conn: Connection) -> None:
        """A socket closed: its watches of other hosts' tables end there too."""
        remote = [t for t in conn.tables if t not in self.room.tables]
        loop = self._loop
        if not remote or self.bus is None or loop is None:
            return
        for table_id in remote:
            conn.tables.discard(table_id)
            loop.create_task(self._unwatch_after(conn.player, table_id))

    async def _unwatch_after(self, player: str, table_id: str) -> None:
        if any(table_id in c.tables for c in self.room.connections.get(player, set())):
            return
        with contextlib.suppress(CallFailed, CallRefused, Exception):
            await self._call(table_id, "unwatch", {"player": player})


def _stop_this_process() -> None:
    """A drained server stops as on SIGTERM (`qipai serve` replaces this with its server's
    own exit, so that a supervisor knows the host was drained and does not restart it)."""
    os.kill(os.getpid(), signal.SIGTERM)


def host_capacity(settings: ClusterSettings, ledger: Ledger, table_workers: int | None) -> int:
    """A table host's table threads (`table_workers` when given, else the cluster's), after
    giving its ledger `pg_writers` writer lanes unless `QIPAI_PG_WRITERS` says otherwise.

    On PostgreSQL a table's thread waits for each of its commits (a WAL flush). With 4 threads
    the ledger writer's batches held 2.3 operations on average and the tables queued for it;
    with 32 threads and 4 lanes the commits are shared (docs/scaling.md, "Where one process
    waited")."""
    lanes = settings.pg_writers
    if "QIPAI_PG_WRITERS" not in os.environ and lanes > 1 and not isinstance(ledger.writer, Lanes):
        ledger.writer.close()
        ledger.writer = Lanes(ledger, lanes)
    return table_workers if table_workers is not None else settings.table_workers


def cluster_host(settings: ClusterSettings, url: str) -> str | None:
    """The host id this process uses, or None (SQLite: one process alone, no leases)."""
    from sqlalchemy.engine import make_url

    if make_url(url).get_backend_name() != "postgresql":
        return None
    return settings.host_id or new_host_id()


Hook = Callable[[str], Any]

__all__ = ["Node", "cluster_host", "host_capacity", "new_host_id"]
