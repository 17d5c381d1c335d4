"""N concurrent debits of one wallet succeed at most ⌊balance / amount⌋ times, on both databases,
from threads and from separate processes."""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pytest

from qipai.ledger import InsufficientFunds, Ledger


def _debit_many(url: str, schema: str | None, user: str, amount: int, tries: int, tag: str) -> int:
    """Worker body (threads or processes): try `tries` withdrawals, count the successes."""
    ledger = Ledger.open(url, schema=schema, migrate=False, pool_size=2)
    ok = 0
    try:
        for i in range(tries):
            try:
                ledger.withdraw(user, amount, f"{tag}-{i}")
                ok += 1
            except InsufficientFunds:
                pass
    finally:
        ledger.close()
    return ok


def test_threads_hammering_one_wallet(ledger: Ledger) -> None:
    ledger.create_user("alice")
    ledger.deposit("alice", 1_000, "d")
    amount, threads, per_thread = 70, 8, 4  # 32 attempts for ⌊1000 / 70⌋ = 14 successes

    def worker(t: int) -> int:
        ok = 0
        for i in range(per_thread):
            try:
                ledger.withdraw("alice", amount, f"t{t}-{i}")
                ok += 1
            except InsufficientFunds:
                pass
        return ok

    with ThreadPoolExecutor(max_workers=threads) as pool:
        successes = sum(pool.map(worker, range(threads)))
    assert successes == 1_000 // amount
    assert ledger.wallet("alice") == 1_000 % amount
    assert ledger.audit().ok


def test_concurrent_same_key_posts_once(ledger: Ledger) -> None:
    ledger.create_user("alice")

    def deposit(_: int) -> int:
        return ledger.deposit("alice", 100, "same-ref").tx_id

    with ThreadPoolExecutor(max_workers=6) as pool:
        ids = set(pool.map(deposit, range(12)))
    assert len(ids) == 1 and ledger.wallet("alice") == 100


def test_processes_hammering_one_wallet(ledger_factory: Callable[[], Ledger]) -> None:
    ledger = ledger_factory()
    ledger.create_user("bob")
    ledger.deposit("bob", 500, "d")
    amount, procs, per_proc = 40, 3, 6  # 18 attempts for ⌊500 / 40⌋ = 12 successes
    url, schema = ledger.url, ledger.schema
    # Fresh interpreters ("spawn"), not forks: a fork copies this process's threads' locks and
    # open SQLite connections (the writer's own connection and its checkpointer's), which SQLite
    # forbids carrying into a child; and a pool whose worker dies reports it (BrokenProcessPool)
    # instead of waiting out the timeout.
    ledger.close()
    with ProcessPoolExecutor(procs, mp_context=mp.get_context("spawn")) as pool:
        results = [
            pool.submit(_debit_many, url, schema, "bob", amount, per_proc, f"p{p}")
            for p in range(procs)
        ]
        successes = sum(r.result(timeout=240) for r in results)
    with Ledger.open(url, schema=schema, migrate=False) as reopened:
        assert successes == 500 // amount
        assert reopened.wallet("bob") == 500 % amount
        assert reopened.audit().ok


def test_tables_settling_at_once_share_the_house_safely(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rounds at 3 tables settle concurrently (all touch house/commission/rounding): no deadlock,
    no lost update, every round replays to its money."""
    from qipai.games import PACKAGES
    from tests.ledger.helpers import play_coin

    monkeypatch.setitem(PACKAGES, "coin", "tests.ledger.coin_game")
    tables = ("ta", "tb", "tc")
    for table in tables:
        for seat in ("p1", "p2"):
            user = f"{table}-{seat}"
            ledger.create_user(user)
            ledger.deposit(user, 5_000, "d")
            ledger.buy_in(user, table, 5_000, "b")

    def table_worker(table: str) -> int:
        net = 0
        for i in range(4):
            _, round_ = play_coin(
                ledger,
                {"P1": 10 + i, "P2": 20},
                {"P1": f"{table}-p1", "P2": f"{table}-p2"},
                table=table,
            )
            net += round_.result().net("P1") + round_.result().net("P2")
        return net

    with ThreadPoolExecutor(max_workers=3) as pool:
        players_net = sum(pool.map(table_worker, tables))
    house_side = sum(ledger.balance(a) for a in ("house", "commission", "rounding"))
    assert house_side == -players_net
    report = ledger.audit()
    assert report.ok, report.violations
    assert report.stats["rounds_replayed"] == 12


def _concurrent_settles(ledger: Ledger, crooked_table: str | None) -> dict[str, object]:
    """Open a round at each of 4 tables, then settle them from 4 threads while the first
    settlement's commit is held until the other three are queued behind it."""
    import threading
    import time

    from qipai.core.protocol import HOUSE, Posting, RoundResult
    from tests.ledger.helpers import play_coin

    rounds = {}
    for table in ("ga", "gb", "gc", "gd"):
        user = f"{table}-p"
        ledger.create_user(user)
        ledger.deposit(user, 1_000, "d")
        ledger.buy_in(user, table, 1_000, "b")
        rounds[table] = play_coin(ledger, {"P1": 10}, {"P1": user}, table=table, settle=False)
    before = ledger.stats()
    release = threading.Event()

    def hold_first_commit(point: str) -> None:
        if point == "before_commit" and not release.is_set():
            for _ in range(3000):  # until the other three are queued behind this commit
                if len(ledger.writer._queue) == 3:
                    break
                time.sleep(0.01)
            release.set()

    ledger.fault = hold_first_commit
    answers: dict[str, object] = {}

    def settle(table: str) -> None:
        rid, round_ = rounds[table]
        result = round_.result()
        if table == crooked_table:  # more than the stack holds: refused at commit
            result = RoundResult((Posting("P1", -5_000), Posting(HOUSE, 5_000)))
        try:
            answers[table] = ledger.settle_round(rid, result)
        except BaseException as exc:
            answers[table] = exc

    first = threading.Thread(target=settle, args=("ga",))
    first.start()
    while not ledger.writer._leading:
        time.sleep(0.001)
    others = [threading.Thread(target=settle, args=(t,)) for t in ("gb", "gc", "gd")]
    for t in others:
        t.start()
    for t in (first, *others):
        t.join(60)
    ledger.fault = lambda point: None
    assert release.is_set()
    after = ledger.stats()
    answers["commits"] = after["commits"] - before["commits"]
    answers["batches"] = after["batches"] - before["batches"]
    for table in ("ga", "gb", "gc", "gd"):
        answers[f"{table}-status"] = ledger.round(rounds[table][0])["status"]
    return answers


def test_tables_settling_at_the_same_moment_share_one_commit(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Group commit: settlements that arrive while another commits go in ONE database
    transaction together."""
    from qipai.games import PACKAGES

    monkeypatch.setitem(PACKAGES, "coin", "tests.ledger.coin_game")
    answers = _concurrent_settles(ledger, None)
    assert all(answers[f"{t}-status"] == "settled" for t in ("ga", "gb", "gc", "gd"))
    assert answers["commits"] == 2 and answers["batches"] == 1  # ga alone; gb, gc, gd together
    report = ledger.audit()
    assert report.ok, report.violations


def test_one_refused_settlement_costs_the_others_of_its_commit_nothing(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch that fails is rolled back whole and each of its operations runs again alone:
    the refused one gets its own error, the others commit."""
    from qipai.games import PACKAGES
    from qipai.ledger import InsufficientFunds

    monkeypatch.setitem(PACKAGES, "coin", "tests.ledger.coin_game")
    answers = _concurrent_settles(ledger, "gc")
    assert isinstance(answers["gc"], InsufficientFunds), answers["gc"]
    assert answers["gc-status"] == "open"
    assert all(answers[f"{t}-status"] == "settled" for t in ("ga", "gb", "gd"))
    assert answers["batches"] == 0 and answers["commits"] == 3  # ga; then gb and gd alone
    report = ledger.audit()
    assert report.ok, report.violations


def test_tables_that_shared_a_commit_are_gathered_into_the_next_one(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Group commit keeps busy tables together: when the last commit was shared by tables ga
    and gb, the writer about to commit ga's next operation waits (at most `book.GATHER_S`,
    here made long) for gb's, and both go in one commit — instead of alternating batches that
    each pay a commit. A writer whose last batch held one operation does not wait."""
    import threading
    import time

    from qipai.games import PACKAGES
    from qipai.ledger import book
    from tests.ledger.helpers import play_coin

    monkeypatch.setitem(PACKAGES, "coin", "tests.ledger.coin_game")
    rounds = {}
    for table in ("ga", "gb"):
        user = f"{table}-p"
        ledger.create_user(user)
        ledger.deposit(user, 1_000, "d")
        ledger.buy_in(user, table, 1_000, "b")
        rounds[table] = play_coin(ledger, {"P1": 10}, {"P1": user}, table=table, settle=False)
    writer = ledger.writer
    assert isinstance(writer, book.Writer)
    assert writer._recent == set()  # sequential, one operation per commit: nothing to wait for
    monkeypatch.setattr(book, "GATHER_S", 600.0)
    writer._recent = {"table:ga", "table:gb"}  # as after a commit the two tables shared
    before = ledger.stats()

    def settle(table: str) -> None:
        rid, round_ = rounds[table]
        ledger.settle_round(rid, round_.result())

    first = threading.Thread(target=settle, args=("ga",))
    first.start()
    while not writer._leading:  # ga's writer is gathering
        time.sleep(0.001)
    second = threading.Thread(target=settle, args=("gb",))
    second.start()
    for t in (first, second):
        t.join(120)
    after = ledger.stats()
    assert after["commits"] - before["commits"] == 1
    assert after["batches"] - before["batches"] == 1
    assert writer._recent == {"table:ga", "table:gb"}
    assert all(ledger.round(rounds[t][0])["status"] == "settled" for t in ("ga", "gb"))
    report = ledger.audit()
    assert report.ok, report.violations


def test_writer_lanes_on_postgresql(
    backend: str, ledger_factory: Callable[[], Ledger], monkeypatch: pytest.MonkeyPatch
) -> None:
    """QIPAI_PG_WRITERS=3: tables settle from their own threads on several writer lanes while
    wallet traffic and a transfer that names a round (its chain known only once it reads: lane 0)
    cross them; every round settles once and the books, chains and heads audit clean."""
    import secrets
    import threading

    from qipai.core.protocol import HOUSE, Posting, RoundResult, Seat
    from qipai.ledger.book import Lanes

    if backend != "postgresql":
        pytest.skip("writer lanes are PostgreSQL's")
    monkeypatch.setenv("QIPAI_PG_WRITERS", "3")
    ledger = ledger_factory()
    assert isinstance(ledger.writer, Lanes) and len(ledger.writer.lanes) == 3
    tables = [f"lane{i}" for i in range(6)]
    for table in tables:
        ledger.create_user(f"{table}-p")
        ledger.deposit(f"{table}-p", 1_000, f"d-{table}")
        ledger.buy_in(f"{table}-p", table, 500, f"b-{table}")
    ledger.create_user("walker")
    ledger.deposit("walker", 1_000, "walker-d")
    settled: dict[str, list[str]] = {t: [] for t in tables}
    errors: list[BaseException] = []

    def play(table: str) -> None:
        try:
            for n in range(4):
                rid = ledger.open_round(
                    table_id=table,
                    game="bench",
                    config={},
                    seats=[Seat("P1", 0)],
                    players={"P1": f"{table}-p"},
                    seed=secrets.token_bytes(32),
                    holds={"P1": 10},
                )
                won = 5 if n % 2 else -10
                ledger.settle_round(rid, RoundResult((Posting("P1", won), Posting(HOUSE, -won))))
                settled[table].append(rid)
                if n == 1:  # a transfer naming the round: its chain is read (lane 0)
                    ledger.transfer(
                        {HOUSE: -1, f"stack:{table}-p:{table}": 1}, key=f"x-{rid}", round_id=rid
                    )
        except BaseException as exc:
            errors.append(exc)

    def walk() -> None:
        try:
            for i in range(8):
                ledger.withdraw("walker", 10, f"w-{i}")
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(t,)) for t in tables]
    threads.append(threading.Thread(target=walk))
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    for table, rids in settled.items():
        assert len(rids) == 4, table
        assert all(ledger.round(r)["status"] == "settled" for r in rids)
    assert sum(lane._conn is not None for lane in ledger.writer.lanes) >= 2  # spread over lanes
    report = ledger.audit(replay=False)
    wrong = [v for v in report.violations if not v.startswith("application role")]
    assert not wrong, wrong
    assert ledger.balance("wallet:walker") == 920


def test_a_rounds_appends_and_settlement_go_to_its_tables_lane(
    backend: str, ledger_factory: Callable[[], Ledger], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An append's or a settlement's chain is known only from its round: the lanes find it in
    the cache (`Op.route`), so a table's journal and settlement run on that table's lane like
    its opening, not all on lane 0 (which left one lane doing most of a card room's writes)."""
    import secrets

    from qipai.core.protocol import HOUSE, Posting, RecordedAction, RoundResult, Seat
    from qipai.ledger import chain as chain_mod
    from qipai.ledger.book import Lanes, Op

    if backend != "postgresql":
        pytest.skip("writer lanes are PostgreSQL's")
    monkeypatch.setenv("QIPAI_PG_WRITERS", "3")
    ledger = ledger_factory()
    assert isinstance(ledger.writer, Lanes)
    table = "route1"
    ledger.create_user("rp")
    ledger.deposit("rp", 1_000, "d-rp")
    ledger.buy_in("rp", table, 500, "b-rp")
    ran: list[tuple[str, int]] = []
    for index, lane in enumerate(ledger.writer.lanes):
        run = lane.run

        def counted(op: Op, run: Any = run, index: int = index) -> Any:
            ran.append((type(op).__name__, index))
            return run(op)

        monkeypatch.setattr(lane, "run", counted)
    rid = ledger.open_round(
        table_id=table,
        game="bench",
        config={},
        seats=[Seat("P1", 0)],
        players={"P1": "rp"},
        seed=secrets.token_bytes(32),
        holds={"P1": 10},
    )
    ledger.append(rid, RecordedAction("P1", {"type": "bet", "amount": 10}))
    ledger.settle_round(rid, RoundResult((Posting("P1", 10), Posting(HOUSE, -10))))
    assert ledger.round(rid)["status"] == "settled"
    lane_of_table = ledger.writer.assigned(chain_mod.table_chain(table))
    assert lane_of_table is not None  # (the buy-in went to the ledger chain's own lane)
    assert ran == [
        ("OpenRound", lane_of_table),
        ("Append", lane_of_table),
        ("Settle", lane_of_table),
    ]


def test_a_handful_of_tables_spread_over_the_lanes(
    backend: str, ledger_factory: Callable[[], Ledger], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chain's lane is the one with the fewest chains when it is first seen, and stays its
    lane: four tables on two lanes are two and two (hashing their names, as before, had put
    all four `benchmarks/bench_ledger.py` tables on one lane of two)."""
    from qipai.ledger import chain as chain_mod
    from qipai.ledger.book import Lanes

    if backend != "postgresql":
        pytest.skip("writer lanes are PostgreSQL's")
    monkeypatch.setenv("QIPAI_PG_WRITERS", "2")
    ledger = ledger_factory()
    assert isinstance(ledger.writer, Lanes)
    chains = [chain_mod.table_chain(f"bench4x{i}") for i in range(4)]
    lanes = [ledger.writer.lane_of(c) for c in chains]
    for c in chains:
        ledger.writer._done(c)
    assert sorted(lanes) == [0, 0, 1, 1]
    assert [ledger.writer.lane_of(c) for c in chains] == lanes  # and they keep them
