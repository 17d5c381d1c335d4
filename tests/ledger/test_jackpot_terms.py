"""The jackpot's seed, top-ups, contributions and awards are labelled one way in the house
results and the audit (`qipai.ledger.jackpot`, docs/operators.md#jackpot), and the seed and
top-ups — posted from the table's house account in the round's settlement — never appear in the
table's play result. On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from qipai.authority.reports import house_results
from qipai.core.protocol import HOUSE, JACKPOT, Posting, RoundResult, Seat
from qipai.core.rng import new_seed
from qipai.ledger import Ledger

SEED = 5_000


def _settle(ledger: Ledger, user: str, postings: list[Posting], pool: dict[str, Any]) -> None:
    rid = ledger.open_round(
        table_id="t1",
        game="coin",
        config={},
        seats=[Seat("P1", 0)],
        players={"P1": user},
        seed=new_seed(),
    )
    ledger.settle_round(rid, RoundResult(tuple(postings), {"pool": pool}), jackpot_pool="hb")


def test_the_seed_is_the_jackpots_not_the_tables(ledger: Ledger) -> None:
    for user in ("alice", "bob"):
        ledger.create_user(user)
        ledger.deposit(user, 10_000, f"dep-{user}")
        ledger.buy_in(user, "t1", 1_000, f"in-{user}")
    ledger.fund_pool("hb", 700, "op-funding")  # the operator's funding: the books, no round's
    # a new pool is seeded by the house (to 5,000 less what it holds); alice stakes the pool
    # (100) and loses her ante (100) to the house
    seed = SEED - 700
    _settle(
        ledger,
        "alice",
        [
            Posting("P1", -200),
            Posting(HOUSE, 100),
            Posting(JACKPOT, 100),
            Posting(HOUSE, -seed),
            Posting(JACKPOT, seed),
        ],
        {"opening_top_up": seed, "awards": []},
    )
    # bob stakes the pool (100) and his pool bet wins 2,000 of the 5,200; the house tops the pool up to its seed again
    _settle(
        ledger,
        "bob",
        [
            Posting("P1", -100),
            Posting(JACKPOT, 100),
            Posting(JACKPOT, -2_000),
            Posting("P1", 2_000),
            Posting(HOUSE, -1_800),
            Posting(JACKPOT, 1_800),
        ],
        {"opening_top_up": 0, "awards": [{"amount": 2_000, "top_up": 1_800}]},
    )
    audit = ledger.audit(replay=False)
    assert audit.ok, audit.violations
    # the table's play: alice's lost ante, nothing else
    assert audit.house["by_table"]["t1"] == 100
    pool = audit.house["jackpot"]["pools"]["hb"]
    assert pool == {
        "funding": 700,
        "seed": seed,
        "top_ups": 1_800,
        "contributions": 200,
        "awards": 2_000,
        "balance": SEED,
    }
    assert (audit.house["jackpot"]["seed"], audit.house["jackpot"]["top_ups"]) == (seed, 1_800)
    with ledger.engine.connect() as conn:
        report = house_results(conn, by=("table",))
    (row,) = report["rows"]
    assert row["house"] == 100 == audit.house["by_table"]["t1"]
    assert (row["jackpot_seed"], row["jackpot_top_ups"]) == (seed, 1_800)
    assert (row["jackpot_contributions"], row["jackpot_awards"]) == (200, 2_000)
    assert row["people_net"] == -200 - 100 + 2_000
    # every round balances without the seed: it is no one's play
    assert (
        row["people_net"]
        + row["bots_net"]
        + row["house"]
        + row["commission"]
        + row["rounding"]
        + row["jackpot_contributions"]
        - row["jackpot_awards"]
    ) == 0
