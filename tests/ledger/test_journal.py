"""The round journal: one-transaction settlement, idempotency, voids, seed reveal, recall."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import text

from qipai.core.protocol import HOUSE, Posting, RecordedAction, RoundResult, Seat
from qipai.core.rng import commitment, new_seed
from qipai.games import PACKAGES
from qipai.ledger import (
    IdempotencyConflict,
    Ledger,
    RoundStateError,
    UnknownAccount,
    UnknownRound,
)
from tests.ledger.helpers import play_coin

PLAYERS = {"P1": "alice", "P2": "bob"}


@pytest.fixture(autouse=True)
def coin_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(PACKAGES, "coin", "tests.ledger.coin_game")
    yield


def state(ledger: Ledger) -> tuple[object, ...]:
    with ledger.engine.connect() as conn:
        counts = tuple(
            conn.execute(text(f"SELECT COUNT(*) FROM {t}")).scalar_one()
            for t in (
                "transactions",
                "entries",
                "round_log",
                "round_ends",
                "hold_closures",
                "seed_reveals",
                "chain_heads",
            )
        )
        heads = conn.execute(text("SELECT chain, seq, mac FROM chain_heads ORDER BY chain")).all()
    return ledger.balances(), counts, heads


def test_settlement_moves_the_money_and_records_everything(funded: Ledger) -> None:
    rid, round_ = play_coin(funded, {"P1": 100, "P2": 50}, PLAYERS)
    result = round_.result()
    assert funded.stack("alice", "t1") == 1_000 + result.net("P1")
    assert funded.stack("bob", "t1") == 1_000 + result.net("P2")
    assert funded.balance("house") == result.net(HOUSE)
    assert funded.balance("hold:stack:alice:t1") == funded.balance("hold:stack:bob:t1") == 0
    record = funded.round(rid)
    assert record["status"] == "settled" and record["game"] == "coin"
    assert (
        record["seed"] is not None
        and commitment(bytes.fromhex(record["seed"])) == record["seed_commitment"]
    )
    assert [e["kind"] for e in record["log"]] == [
        "action",
        "event",
        "action",
        "event",
        "event",
        "event",
    ]
    assert record["log"][0]["client_id"] == "c-P1"
    assert {h["status"] for h in record["holds"]} == {"captured"}
    players = {p["seat"]: p for p in record["players"]}
    assert players["P1"]["start_balance"] == 1_000
    assert players["P1"]["end_balance"] == 1_000 + result.net("P1")
    tx = funded.transaction(record["settlement_tx"])
    assert sum(e.amount for e in tx.entries) == 0 and tx.round_id == rid
    assert funded.audit().ok


@pytest.mark.parametrize(
    "point", ["after_tx_insert", "after_first_update", "after_holds_closed", "before_commit"]
)
def test_settlement_is_one_database_transaction(funded: Ledger, point: str) -> None:
    rid, round_ = play_coin(funded, {"P1": 100, "P2": 50}, PLAYERS, settle=False)
    before = state(funded)

    def fail(at: str) -> None:
        if at == point:
            raise RuntimeError(f"injected failure at {at}")

    funded.fault = fail
    with pytest.raises(RuntimeError, match="injected"):
        funded.settle_round(rid, round_.result())
    assert state(funded) == before  # nothing of the settlement happened
    funded.fault = lambda at: None
    funded.settle_round(rid, round_.result())
    assert funded.round(rid)["status"] == "settled" and funded.audit().ok


def test_settlement_is_idempotent_and_final(funded: Ledger) -> None:
    rid, round_ = play_coin(funded, {"P1": 100}, {"P1": "alice"})
    before = state(funded)
    again = funded.settle_round(rid, round_.result())
    assert again.replayed and state(funded) == before
    fake = RoundResult((Posting("P1", 999), Posting(HOUSE, -999)))
    with pytest.raises(IdempotencyConflict):
        funded.settle_round(rid, fake)
    with pytest.raises(RoundStateError):
        funded.append(rid, RecordedAction("P1", {"type": "bet", "amount": 10}))
    with pytest.raises(RoundStateError):
        funded.void_round(rid, "too late")
    with pytest.raises(UnknownRound):
        funded.settle_round("no-such-round", fake)
    assert state(funded) == before


def test_unmapped_posting_account_changes_nothing(funded: Ledger) -> None:
    rid, _ = play_coin(funded, {"P1": 100}, {"P1": "alice"}, settle=False)
    before = state(funded)
    with pytest.raises(UnknownAccount):
        funded.settle_round(rid, RoundResult((Posting("P9", 5), Posting(HOUSE, -5))))
    assert state(funded) == before
    # a vacant seat played by another player: the caller maps it
    funded.settle_round(
        rid,
        RoundResult((Posting("P1", -100), Posting("P9", 60), Posting(HOUSE, 40))),
        accounts={"P9": "stack:bob:t1"},
    )
    assert funded.stack("bob", "t1") == 1_060 and funded.stack("alice", "t1") == 900


def test_player_ids_and_jackpot_pool_map_to_accounts(funded: Ledger) -> None:
    funded.fund_pool("holdem", 1_000, "seed")
    rid, _ = play_coin(funded, {"P1": 100}, {"P1": "alice"}, settle=False)
    result = RoundResult((Posting("alice", 400), Posting("jackpot", -500), Posting(HOUSE, 100)))
    funded.settle_round(rid, result, jackpot_pool="holdem")
    assert funded.stack("alice", "t1") == 1_400 and funded.pool("holdem") == 500


def test_void_round_releases_every_hold(funded: Ledger) -> None:
    rid, _ = play_coin(funded, {"P1": 100, "P2": 70}, PLAYERS, settle=False)
    assert funded.stack("alice", "t1") == 900 and funded.stack("bob", "t1") == 930
    assert [r["round_id"] for r in funded.open_rounds()] == [rid]
    funded.void_round(rid, "table closed")
    assert funded.stack("alice", "t1") == 1_000 and funded.stack("bob", "t1") == 1_000
    assert funded.void_round(rid, "table closed again").replayed
    assert funded.round(rid)["status"] == "voided" and funded.open_rounds() == []
    assert funded.audit().ok


def test_seed_is_hidden_until_revealed(funded: Ledger) -> None:
    seed = new_seed()
    rid, _ = play_coin(funded, {"P1": 100}, {"P1": "alice"}, seed=seed, settle=False)
    assert funded.round(rid)["seed"] is None
    assert funded.round(rid, include_seed=True)["seed"] == seed.hex()  # operators see it
    assert funded.open_rounds()[0]["seed"] == seed.hex()  # crash recovery needs it
    rid2, _ = play_coin(funded, {"P2": 10}, {"P2": "bob"}, seed=seed, reveal_seed=False)
    assert funded.round(rid2)["seed"] is None  # the shoe goes on
    funded.void_round(rid, "x")
    assert funded.reveal_seed(commitment(seed)) == 2
    assert funded.round(rid2)["seed"] == seed.hex()


def test_open_round_validates_and_changes_nothing(funded: Ledger) -> None:
    before = state(funded)
    kwargs = dict(table_id="t1", game="coin", config={}, seats=[Seat("P1", 1_000)], seed=new_seed())
    with pytest.raises(RoundStateError):
        funded.open_round(players={"P7": "alice"}, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(UnknownAccount):
        funded.open_round(players={"P1": "zed"}, **kwargs)  # type: ignore[arg-type]
    from qipai.ledger import InsufficientFunds

    with pytest.raises(InsufficientFunds):
        funded.open_round(players={"P1": "alice"}, holds={"P1": 5_000}, round_id="r-x", **kwargs)  # type: ignore[arg-type]
    assert state(funded) == before
    funded.open_round(players={"P1": "alice"}, round_id="r-x", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(RoundStateError):
        funded.open_round(players={"P1": "alice"}, round_id="r-x", **kwargs)  # type: ignore[arg-type]


def test_recall_last_rounds_as_the_player_saw_them(funded: Ledger) -> None:
    played = []
    for i in range(12):
        rid, round_ = play_coin(funded, {"P1": 10 + i, "P2": 20}, PLAYERS)
        played.append((rid, round_))
    recalled = funded.recall("alice", limit=10)
    assert [r["round_id"] for r in recalled] == [rid for rid, _ in reversed(played)][:10]
    assert len(funded.recall("alice", limit=50)) == 12
    for item, (_, round_) in zip(recalled, list(reversed(played))[:10], strict=True):
        bet = round_.bets["P1"]
        assert item["seat"] == "P1" and item["game"] == "coin" and item["status"] == "settled"
        assert item["actions"] == [{"type": "bet", "amount": bet}]
        flips = [e for e in item["events"] if e["type"] == "flip"]
        assert flips == [{"type": "flip", "seat": "P1", "heads": round_.flips["P1"]}]  # not bob's
        assert [(w["amount"], w["status"]) for w in item["wagers"]] == [(bet, "captured")]
        assert item["outcome"] == round_.result().net("P1")
        assert item["end_balance"] - item["start_balance"] == item["net"] == item["outcome"]
        assert item["commission"] == round_.result().net("commission")
        assert item["seed"] is not None and item["details"]["bets"]["P1"] == bet
    # balances chain from one round to the next
    for newer, older in itertools.pairwise(recalled):
        assert newer["start_balance"] == older["end_balance"]
    assert funded.recall("nobody") == []


def test_round_ids_and_game_names_are_validated(funded: Ledger) -> None:
    kwargs = dict(table_id="t1", config={}, seats=[Seat("P1", 1_000)], players={"P1": "alice"})
    for rid in ("x" * 65, "has space", "a:b"):
        with pytest.raises(RoundStateError, match="invalid round id"):
            funded.open_round(game="coin", seed=new_seed(), round_id=rid, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(RoundStateError, match="invalid game"):
        funded.open_round(game="g" * 33, seed=new_seed(), **kwargs)  # type: ignore[arg-type]


def test_open_round_holds_every_seat_and_respects_a_used_stakes_key(funded: Ledger) -> None:
    """The stakes path (one key and account look-up for all seats) holds exactly the stakes;
    a round's stakes key already used by another request is refused and nothing changes."""
    from qipai.ledger.journal import stakes_key

    kwargs = dict(
        table_id="t1", game="coin", config={}, seats=[Seat("P1", 0), Seat("P2", 0)], seed=new_seed()
    )
    rid = funded.open_round(players=PLAYERS, holds={"P1": 300, "P2": 40}, **kwargs)  # type: ignore[arg-type]
    held = {h.seat: (h.account, h.amount, h.status) for h in funded.holds_of_round(rid)}
    assert held == {
        "P1": ("stack:alice:t1", 300, "open"),
        "P2": ("stack:bob:t1", 40, "open"),
    }
    assert funded.balance("stack:alice:t1") == 700 and funded.balance("hold:stack:alice:t1") == 300
    assert funded.balance("stack:bob:t1") == 960 and funded.balance("hold:stack:bob:t1") == 40

    funded.authorize("stack:bob:t1", 5, key=stakes_key("r-used"))
    before = state(funded)
    with pytest.raises(IdempotencyConflict):
        funded.open_round(
            players=PLAYERS,
            holds={"P1": 10, "P2": 10},
            round_id="r-used",
            **kwargs,  # type: ignore[arg-type]
        )
    assert state(funded) == before


def test_a_rounds_stakes_are_one_transaction_with_a_hold_per_seat(funded: Ledger) -> None:
    """open_round holds every seat's stake in ONE balanced `stakes` transaction (migration
    0005: one record and MAC for the round's stakes, not one per seat) that opens a hold per
    seat, entries with the right balance after, and all or nothing when a stack is short."""
    kwargs = dict(
        table_id="t1", game="coin", config={}, seats=[Seat("P1", 0), Seat("P2", 0)], seed=new_seed()
    )
    before = state(funded)
    from qipai.ledger import InsufficientFunds

    with pytest.raises(InsufficientFunds):  # bob's stack holds 1,000: the whole open is refused
        funded.open_round(players=PLAYERS, holds={"P1": 300, "P2": 1_001}, **kwargs)  # type: ignore[arg-type]
    assert state(funded) == before
    rid = funded.open_round(players=PLAYERS, holds={"P1": 300, "P2": 1_000}, **kwargs)  # type: ignore[arg-type]
    holds = funded.holds_of_round(rid)
    assert sorted((h.seat, h.amount) for h in holds) == [("P1", 300), ("P2", 1_000)]
    assert len({h.authorize_tx for h in holds}) == 1
    tx = funded.transaction(holds[0].authorize_tx)
    assert tx.kind == "stakes" and tx.round_id == rid and tx.key == f"round:{rid}:stakes"
    assert {(e.account, e.amount) for e in tx.entries} == {
        (acct, sign * h.amount)
        for h in holds
        for acct, sign in ((h.account, -1), (h.hold_account, 1))
    }
    assert sum(e.amount for e in tx.entries) == 0
    for e in tx.entries:
        assert e.balance_after == funded.balance(e.account)
    assert funded.balance("stack:bob:t1") == 0  # down to exactly zero is allowed
    funded.settle_round(rid, RoundResult((Posting("P1", 50), Posting(HOUSE, -50))))
    assert funded.balance("stack:alice:t1") == 1_050 and funded.balance("stack:bob:t1") == 1_000
    assert funded.audit(replay=False).ok


def test_appends_from_two_ledger_objects_keep_one_gapless_sequence(
    funded: Ledger, ledger_factory: Callable[[], Ledger]
) -> None:
    """A Ledger remembers the last sequence number it journaled for a round (no read per
    append); when another process appended meanwhile, the database refuses the stale number
    and the append is retried on the journal as it is — nothing is lost, nothing repeated."""
    other = ledger_factory()
    rid = funded.open_round(
        players=PLAYERS,
        table_id="t1",
        game="coin",
        config={},
        seats=[Seat("P1", 0), Seat("P2", 0)],
        seed=new_seed(),
    )
    writers = [funded, funded, other, funded, other, other, funded]
    for n, writer in enumerate(writers):
        seq = writer.append(rid, RecordedAction("P1", {"type": "note", "n": n}), client_id=f"c{n}")
        assert seq == n + 1
    log = funded.round(rid)["log"]
    assert [e["seq"] for e in log] == list(range(1, len(writers) + 1))
    assert [e["payload"]["n"] for e in log] == list(range(len(writers)))
    assert [e["client_id"] for e in log] == [f"c{n}" for n in range(len(writers))]
    funded.settle_round(rid, RoundResult(()))
    with pytest.raises(RoundStateError):
        other.append(rid, RecordedAction("P2", {"type": "late"}))


def test_recall_pages_with_a_cursor(funded: Ledger) -> None:
    from qipai.ledger import UnknownRound

    rids = [play_coin(funded, {"P1": 10 + i}, {"P1": "alice"})[0] for i in range(5)]
    first = funded.recall("alice", limit=2)
    assert [r["round_id"] for r in first] == rids[::-1][:2]
    second = funded.recall("alice", limit=2, before=first[-1]["cursor"])
    third = funded.recall("alice", limit=2, before=second[-1]["cursor"])
    seen = [r["round_id"] for r in first + second + third]
    assert seen == rids[::-1]
    play_coin(funded, {"P1": 10}, {"P1": "alice"})  # a new round does not shift the pages
    assert funded.recall("alice", limit=2, before=first[-1]["cursor"]) == second
    with pytest.raises(UnknownRound, match="cursor"):
        funded.recall("alice", before="not-a-cursor")


def test_a_settled_round_is_four_records_and_two_transactions(funded: Ledger) -> None:
    """Whatever the number of seats, a round adds four records besides its journal to its
    table's chain — its stakes, its header, its settlement and its seed's reveal — two of them
    transactions (before migration 0005, one stakes record and transaction per seat: seven
    records for a 4-seat round)."""
    for user in ("carol", "dave"):
        funded.create_user(user)
        funded.deposit(user, 1_000, "seed")
        funded.buy_in(user, "t1", 500, "seed")
    players = {"P1": "alice", "P2": "bob", "P3": "carol", "P4": "dave"}

    def counts() -> tuple[int, int]:
        with funded.engine.connect() as conn:
            chained = [
                int(
                    conn.execute(
                        text(f"SELECT count(*) FROM {t} WHERE chain = 'table:t1'")
                    ).scalar_one()
                )
                for t in ("transactions", "rounds", "seed_reveals")
            ]
        return sum(chained), chained[0]

    before = counts()
    play_coin(funded, {"P1": 10, "P2": 20, "P3": 30, "P4": 40}, players)
    after = counts()
    assert (after[0] - before[0], after[1] - before[1]) == (4, 2)
    assert funded.audit(replay=False).ok


def test_audit_names_a_header_whose_start_balance_is_not_the_stacks(
    funded: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer that sealed a wrong start balance into a round's header (its MAC is then
    valid: only the money can contradict it) is named by the audit, which compares each
    staking seat's start balance with what its stack held just before the stake left it."""
    from qipai.ledger import execute, execute_pg
    from qipai.ledger.plan import NewRound

    play_coin(funded, {"P1": 10, "P2": 20}, PLAYERS)
    assert funded.audit(replay=False).ok  # the negative control: every header agrees
    seal = execute._seal

    def lying(sealer: object, item: object) -> None:
        if isinstance(item, NewRound) and item.starts:
            item.starts["P2"] += 7
        seal(sealer, item)  # type: ignore[arg-type]

    held = funded.balance("stack:bob:t1")  # P2's stack before the next round
    monkeypatch.setattr(execute, "_seal", lying)
    monkeypatch.setattr(execute_pg, "_seal", lying)
    try:
        play_coin(funded, {"P1": 10, "P2": 20}, PLAYERS)
    except AssertionError:
        # PostgreSQL's one-shot writer compares what it sealed with what it read — after the
        # statement committed: the round is in the books either way
        assert funded.dialect == "postgresql"
    monkeypatch.undo()
    with funded.engine.connect() as conn:
        rid = conn.execute(
            text("SELECT id FROM rounds ORDER BY opened_at DESC LIMIT 1")
        ).scalar_one()
    report = funded.audit(replay=False)
    assert [v for v in report.violations if "header says" in v] == [
        f"round {rid} seat P2: its header says the stack held {held + 7} at the opening, "
        f"but it held {held} before the stake"
    ], report.violations
