"""A seeded randomized fault workload over several table hosts on one PostgreSQL (in one test
process, on a virtual clock): tables opened and played, hosts paused past their leases and
resumed, hosts killed and restarted as new hosts, lapsed tables taken over, stale hosts trying
to act at tables they lost. After every step: the ledger's audit passes, the money in the room
is what was deposited, no table runs on two hosts under the current epoch, and every open round
belongs to a live owner or waits (lease lapsed) for a takeover. At the end every host is
resumed and every round ends, once.

With Redis (`test_randomized_faults_with_lost_messages_and_redis_restarts`), each host also
has its bus (a fault-injecting one, `faulty_bus.py`) and players act through any host as their
front door, the action forwarded to the table's owner over Redis; seeded steps lose messages
(a drop rate on every bus, in and out), cut every Redis connection of the room (`CLIENT KILL`
in a logical database of the cluster tests' own: as a Redis restart, without restarting the
machine's Redis), and a paused host neither hears nor speaks. A client with no answer resends
the same `client_id`; after every step also no action is journaled twice. A failure names its
seed and step."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator

import pytest
from sqlalchemy import text

from qipai.cluster.bus import CallFailed, CallRefused
from qipai.cluster.node import Node
from qipai.cluster.settings import ClusterSettings
from qipai.ledger import Ledger
from qipai.tables import versions
from qipai.tables.ports import ManualClock
from tests.cluster.faulty_bus import CLUSTER_REDIS_URL, FaultyBus, LoopThread, cut_connections
from tests.cluster.inproc import Host, lapse
from tests.conftest import port_open, require_service
from tests.ledger.conftest import pg_database

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

PLAYERS = [f"pl{i}" for i in range(6)]
DEPOSIT = 2_000


@pytest.fixture(scope="module")
def database() -> Iterator[tuple[str, str]]:
    with pg_database("qipai_fw") as (url, _, schema):
        yield url, schema


class World:
    def __init__(self, url: str, schema: str, rng: random.Random) -> None:
        self.url, self.schema, self.rng = url, schema, rng
        self.clock = ManualClock()
        self.generation = 0
        self.hosts: list[Host] = [self.new_host() for _ in range(3)]
        self.paused: set[str] = set()
        self.ledger: Ledger = self.hosts[0].ledger
        with self.ledger.engine.begin() as conn:
            conn.execute(
                text(
                    "UPDATE table_leases SET owner = 'earlier', expires_at = now() + interval '1 day'"
                )
            )
        self.base = self.money()
        for player in PLAYERS:
            self.hosts[0].adapter.deposit(player, DEPOSIT, f"fw-{id(self)}-{rng.random()}-{player}")
        self.base += DEPOSIT * len(PLAYERS)
        self.log: list[str] = []

    def new_host(self) -> Host:
        self.generation += 1
        return Host(self.url, self.schema, f"h{self.generation}", self.clock)

    def money(self) -> int:
        balances = self.ledger.balances() if hasattr(self, "ledger") else {}
        return sum(v for k, v in balances.items() if k != "external")

    def version_at_owner(self, table_id: str, player: str) -> str:
        """The state version the player's client would hold now (docs/protocol.md): the
        workload's actions are random, so the table judges them, never their staleness."""
        for host in self.live():
            table = host.room.tables.get(table_id)
            if table is not None:
                with table.lock:
                    return versions.current(table, table.seating.seat_of(player))
        return "-.0000000000000000"

    def live(self) -> list[Host]:
        return [h for h in self.hosts if h.adapter.host not in self.paused]

    # ----- steps --------------------------------------------------------------------------
    def open_table(self) -> None:
        host = self.rng.choice(self.live())
        table = host.room.create_table("toy")
        for player in self.rng.sample(PLAYERS, 2):
            if host.adapter.wallet(player) >= 100:
                table.sit(player, player, 100)
        self.log.append(f"open {table.id} on {host.adapter.host}")

    def tick(self) -> None:
        self.clock.advance(self.rng.uniform(0.3, 3.0))
        for host in self.live():
            host.ownership.renew()  # a live host renews (every second in a real one)
            host.room.run_due()
        self.log.append("tick")

    def act(self) -> None:
        host = self.rng.choice(self.hosts)  # a paused host's stale table acts too
        if not host.room.tables:
            return
        table = host.room.tables[self.rng.choice(sorted(host.room.tables))]
        seated = [s.player for s in table.seating.seats.values() if s.player]
        if not seated:
            return
        player = self.rng.choice(seated)
        action = self.rng.choice(
            [
                {"type": "bet", "amount": self.rng.randint(1, 10)},
                {"type": "stand"},
                {"type": "swap"},
            ]
        )
        client_id = f"c{self.rng.randrange(10**9)}"
        reply = table.act(player, action, client_id)
        self.log.append(
            f"act {player}@{table.id} on {host.adapter.host}: {reply.get('code', 'ack')}"
        )

    def pause(self) -> None:
        live = self.live()
        if len(live) < 2:
            return
        host = self.rng.choice(live)
        self.paused.add(str(host.adapter.host))
        lapse(self.ledger, owner=host.adapter.host)  # its leases lapse while it sleeps
        self.log.append(f"pause {host.adapter.host}")

    def resume(self) -> None:
        if not self.paused:
            return
        name = self.rng.choice(sorted(self.paused))
        self.paused.discard(name)
        host = next(h for h in self.hosts if h.adapter.host == name)
        host.room.run_due()  # it wakes up and tries to go on where it was ...
        host.ownership.renew()  # ... then its lease pass drops what it lost
        self.log.append(f"resume {name}")

    def kill(self) -> None:
        live = self.live()
        if len(live) < 2:
            return
        victim = self.rng.choice(live)
        self.hosts.remove(victim)
        lapse(self.ledger, owner=victim.adapter.host)
        if victim.ledger is not self.ledger:
            victim.close()
        fresh = self.new_host()
        fresh.room.recover()  # a new process: claims what is lapsed
        self.hosts.append(fresh)
        self.log.append(f"kill {victim.adapter.host}, start {fresh.adapter.host}")

    def take_over(self) -> None:
        host = self.rng.choice(self.live())
        taken = host.ownership.take_over()
        self.log.append(f"takeover by {host.adapter.host}: {len(taken)}")

    # ----- invariants ---------------------------------------------------------------------
    def check(self) -> None:
        report = self.ledger.audit(replay=False)
        assert report.ok, (report.violations, self.log[-5:])
        assert self.money() == self.base, self.log[-5:]
        with self.ledger.engine.connect() as conn:
            leases = {
                str(t): (o, int(e), bool(h))
                for t, o, e, h in conn.execute(
                    text("SELECT table_id, owner, epoch, expires_at > now() FROM table_leases")
                )
            }
            open_rounds = [
                str(t)
                for (t,) in conn.execute(
                    text(
                        "SELECT table_id FROM rounds WHERE id NOT IN (SELECT round_id FROM round_ends)"
                    )
                )
            ]
            gaps = conn.execute(
                text(
                    "SELECT round_id FROM round_log GROUP BY round_id "
                    "HAVING max(seq) - min(seq) + 1 <> count(*)"
                )
            ).all()
            twice = conn.execute(
                text(
                    "SELECT round_id, client_id FROM round_log WHERE kind = 'action' AND "
                    "client_id IS NOT NULL GROUP BY round_id, client_id HAVING count(*) > 1"
                )
            ).all()
        assert gaps == [], self.log[-5:]
        assert twice == [], (twice, self.log[-5:])  # a resent action is journaled once
        for table_id, (owner, epoch, _held) in leases.items():
            current = [
                h
                for h in self.hosts
                if table_id in h.room.tables and h.adapter.epochs.get(table_id) == epoch
            ]
            assert len(current) <= 1, (table_id, [h.adapter.host for h in current])
            if current:
                assert current[0].adapter.host == owner
        live_names = {h.adapter.host for h in self.live()}
        for table_id in open_rounds:
            owner, _, held = leases.get(table_id, (None, 0, False))
            if owner == "earlier":
                continue
            assert owner in live_names or not held or owner in self.paused, (table_id, owner)

    def settle_everything(self) -> None:
        for name in sorted(self.paused):
            self.paused.discard(name)
            host = next(h for h in self.hosts if h.adapter.host == name)
            host.ownership.renew()
        for _ in range(5):
            for host in self.hosts:
                host.ownership.take_over()
        for _ in range(60):
            self.clock.advance(2.0)
            for host in self.hosts:
                host.room.run_due()
        self.check()


STEPS = {
    "open_table": 2,
    "tick": 8,
    "act": 6,
    "pause": 2,
    "resume": 2,
    "kill": 1,
    "take_over": 3,
}


class RoutedWorld(World):
    """`World` with the Redis bus: every host is a front door too (see the module docstring)."""

    RESENDS = 3

    def __init__(self, url: str, schema: str, rng: random.Random, loop: LoopThread) -> None:
        self.loop = loop
        self.room_name = f"fw-{secrets.token_hex(4)}"
        self.faults = random.Random(rng.random())  # the buses' drops: seeded by the world
        self.nodes: dict[str, Node] = {}
        super().__init__(url, schema, rng)

    def new_host(self) -> Host:
        host = super().new_host()
        name = str(host.adapter.host)
        settings = ClusterSettings(
            redis_url=CLUSTER_REDIS_URL, name=self.room_name, call_timeout_s=0.5
        )
        node = Node(settings, host.room, host.adapter, host.ledger, host.metrics)
        bus = FaultyBus(
            CLUSTER_REDIS_URL,
            self.room_name,
            name,
            host.metrics,
            random.Random(self.faults.random()),
        )
        node.bus = bus
        bus.on_call = node._on_call
        bus.on_push = host.room.deliver_local
        bus.on_broadcast = node._on_broadcast
        node._loop = self.loop.loop
        self.loop.run(bus.start())
        self.nodes[name] = node
        return host

    def bus(self, host: Host) -> FaultyBus:
        bus = self.nodes[str(host.adapter.host)].bus
        assert isinstance(bus, FaultyBus)
        return bus

    # ----- the steps Redis adds ---------------------------------------------------------
    def routed_act(self) -> None:
        """A player acts through a random live host; the action reaches the owner over Redis
        (or here, if this host runs the table); no answer: the same client_id again."""
        running = sorted({t for h in self.hosts for t in h.room.tables})
        if not running:
            return
        table_id = self.rng.choice(running)
        owners = [h for h in self.hosts if table_id in h.room.tables]
        seated = sorted(
            {
                s.player
                for h in owners
                for s in h.room.tables[table_id].seating.seats.values()
                if s.player
            }
        )
        if not seated:
            return
        player = self.rng.choice(seated)
        action = self.rng.choice(
            [
                {"type": "bet", "amount": self.rng.randint(1, 10)},
                {"type": "stand"},
                {"type": "swap"},
            ]
        )
        client_id = f"r{self.rng.randrange(10**9)}"
        others = [h for h in self.live() if table_id not in h.room.tables]
        front = self.rng.choice(others or self.live())  # mostly another host than the owner
        outcome, tries = "no answer", 0
        for _ in range(self.RESENDS):
            tries += 1
            local = front.room.tables.get(table_id)
            try:
                if local is not None:
                    reply = local.act(player, action, client_id)
                else:
                    node = self.nodes[str(front.adapter.host)]
                    version = self.version_at_owner(table_id, player)
                    reply = self.loop.run(node.act(table_id, player, action, client_id, version))
            except CallFailed:
                continue  # lost on the way there or back: resend the same id
            except CallRefused as exc:
                outcome = exc.code
                break
            outcome = str(reply.get("code", "dup" if reply.get("duplicate") else "ack"))
            break
        self.log.append(
            f"routed act {player}@{table_id} via {front.adapter.host} x{tries}: {outcome}"
        )

    def lose_messages(self) -> None:
        rate = self.rng.choice([0.0, 0.0, 0.2, 0.5])
        for host in self.hosts:
            self.bus(host).drop_rate = rate
        self.log.append(f"drop rate {rate}")

    def redis_restart(self) -> None:
        cut = cut_connections(CLUSTER_REDIS_URL, self.room_name)
        self.log.append(f"redis connections cut: {cut}")

    # ----- the base steps, with the bus --------------------------------------------------
    def pause(self) -> None:
        before = set(self.paused)
        super().pause()
        for host in self.hosts:
            if host.adapter.host in self.paused - before:
                self.bus(host).paused = True

    def resume(self) -> None:
        before = set(self.paused)
        super().resume()
        for host in self.hosts:
            if host.adapter.host in before - self.paused:
                self.bus(host).paused = False

    def kill(self) -> None:
        before = list(self.hosts)
        super().kill()
        for host in before:
            if host not in self.hosts:
                node = self.nodes.pop(str(host.adapter.host))
                assert node.bus is not None
                self.loop.run(node.bus.stop())

    def settle_everything(self) -> None:
        for host in self.hosts:
            bus = self.bus(host)
            bus.paused, bus.drop_rate = False, 0.0
        super().settle_everything()

    def close(self) -> None:
        for node in self.nodes.values():
            if node.bus is not None:
                self.loop.run(node.bus.stop())
        for host in self.hosts:
            host.close()


ROUTED_STEPS = {**STEPS, "act": 2, "routed_act": 8, "lose_messages": 2, "redis_restart": 2}


def play(world: World, rng: random.Random, steps: dict[str, int], seed: int, count: int) -> None:
    """`count` seeded steps, the invariants after each; a failure names the seed and step."""
    kinds = [k for k, w in steps.items() for _ in range(w)]
    step = "open_table"
    try:
        for _ in range(3):
            world.open_table()
        for i in range(count):
            step = f"{i}: {rng.choice(kinds)}"
            getattr(world, step.split(": ")[1])()
            world.check()
        step = "settle_everything"
        world.settle_everything()
    except Exception as exc:  # an invariant broken, or a step that raised
        raise AssertionError(
            f"fault workload failed with seed {seed} at step {step} ({type(world).__name__}): "
            f"{type(exc).__name__}: {exc}; last steps: {world.log[-8:]}"
        ) from exc


@pytest.mark.redis
@pytest.mark.parametrize("seed", [3, 4])
def test_randomized_faults_with_lost_messages_and_redis_restarts(
    database: tuple[str, str], seed: int
) -> None:
    require_service(port_open("127.0.0.1", 6379), f"Redis ({CLUSTER_REDIS_URL})")
    url, schema = database
    rng = random.Random(seed)
    loop = LoopThread()
    world = RoutedWorld(url, schema, rng, loop)
    try:
        play(world, rng, ROUTED_STEPS, seed, 80)
        print("\n".join(world.log))  # (shown for a failing seed)
        routed = [line for line in world.log if line.startswith("routed act")]
        assert any(line.endswith(": ack") for line in routed)  # actions did cross the bus
    finally:
        world.close()
        loop.close()


@pytest.mark.parametrize("seed", [1, 2])
def test_randomized_faults_keep_money_and_journals_whole(
    database: tuple[str, str], seed: int
) -> None:
    url, schema = database
    rng = random.Random(seed)
    world = World(url, schema, rng)
    try:
        play(world, rng, STEPS, seed, 60)
    finally:
        for host in world.hosts:
            host.close()
