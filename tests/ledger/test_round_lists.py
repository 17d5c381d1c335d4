"""The back office's round lists (`qipai.authority.round_list`, docs/operators.md#rounds) on
SQLite and PostgreSQL: every round reached a page at a time (no cap), never skipped or
repeated; the date range; each round's stake and net; a player's last N rounds with the terms
they were played under; CSV beside JSON; bad input refused by name."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from sqlalchemy import select

from qipai.authority import round_list
from qipai.authority.errors import BadRequest, NotFound
from qipai.core.protocol import HOUSE, Posting, RoundResult, Seat
from qipai.core.rng import new_seed
from qipai.games.pokdeng.config import PokDengConfig
from qipai.ledger import Ledger
from qipai.ledger.schema import rounds

ROUNDS = 9
CONFIG = PokDengConfig().to_json()


def _play(ledger: Ledger) -> list[str]:
    """ROUNDS Pok Deng rounds at t1 (alice, with bob in every other one), the last one open:
    alice stakes 100 + 10·i and loses it; bob stakes 50 and wins 50."""
    for user in ("alice", "bob"):
        ledger.create_user(user)
        ledger.deposit(user, 100_000, f"dep-{user}")
        ledger.buy_in(user, "t1", 10_000, f"in-{user}")
    ids = []
    for i in range(ROUNDS):
        players = {"P1": "alice"} | ({"P2": "bob"} if i % 2 else {})
        rid = ledger.open_round(
            table_id="t1",
            game="pokdeng",
            config=CONFIG,
            seats=[Seat(s, 0) for s in players],
            players=players,
            seed=new_seed(),
            meta={"template_id": "pd", "template_version": 1 + i // 5, "config_hash": "h"},
        )
        ids.append(rid)
        if i == ROUNDS - 1:
            break  # left open
        stake = 100 + 10 * i
        bets: list[dict[str, Any]] = [
            {"spot": "P1", "player": "P1", "amount": stake, "net": -stake}
        ]
        postings = [Posting("P1", -stake), Posting(HOUSE, stake)]
        if "P2" in players:
            bets.append({"spot": "P2", "player": "P2", "amount": 50, "net": 50})
            postings += [Posting("P2", 50), Posting(HOUSE, -50)]
        ledger.settle_round(rid, RoundResult(tuple(postings), {"bets": bets}))
    return ids


def _newest_first(ledger: Ledger) -> list[tuple[str, Any]]:
    with ledger.engine.connect() as conn:
        rows = conn.execute(select(rounds.c.id, rounds.c.opened_at)).all()
    return sorted(((str(i), t) for i, t in rows), key=lambda r: (-r[1].timestamp(), r[0]))


def test_pages_reach_every_round_once_with_stake_and_net(ledger: Ledger) -> None:
    _play(ledger)
    everything = [rid for rid, _ in _newest_first(ledger)]
    with ledger.engine.connect() as conn:
        for limit in range(1, ROUNDS + 2):
            seen: list[str] = []
            after = None
            while True:
                got = round_list.page(conn, after=after, limit=limit)
                assert len(got["rounds"]) <= limit
                seen += [r["id"] for r in got["rounds"]]
                after = got["next"]
                if after is None:
                    break
            assert seen == everything, limit
        rows = {r["id"]: r for r in round_list.page(conn, limit=500)["rounds"]}
        alice = {r["id"]: r for r in round_list.page(conn, player="alice", limit=500)["rounds"]}
        bob = {r["id"]: r for r in round_list.page(conn, player="bob", limit=500)["rounds"]}
    assert len(bob) == ROUNDS // 2
    for rid, row in rows.items():
        if row["status"] == "open":
            assert (row["stake"], row["net"]) == (0, 0)
            continue
        mine = alice[rid]
        assert mine["stake"] == -mine["net"] >= 100
        theirs = bob.get(rid, {"stake": 0, "net": 0})
        assert row["stake"] == mine["stake"] + theirs["stake"]
        assert row["net"] == mine["net"] + theirs["net"]


def test_the_date_range_is_opened_since_until(ledger: Ledger) -> None:
    _play(ledger)
    times = _newest_first(ledger)
    since, until = times[6][1], times[2][1]
    expected = [rid for rid, t in times if since <= t < until]
    with ledger.engine.connect() as conn:
        got = round_list.page(conn, since=since, until=until, limit=500)["rounds"]
        assert [r["id"] for r in got] == expected
        with pytest.raises(BadRequest) as bad:
            round_list.page(conn, since=until, until=since)
        assert bad.value.field == "since"


def test_a_players_last_rounds_with_terms_and_csv(ledger: Ledger) -> None:
    ids = _play(ledger)
    with ledger.engine.connect() as conn:
        last = round_list.player_rounds(conn, "alice", 4)
        with pytest.raises(NotFound):
            round_list.player_rounds(conn, "nobody", 4)
        with pytest.raises(BadRequest) as bad:
            round_list.player_rounds(conn, "alice", 0)
        assert bad.value.field == "last"
        with pytest.raises(BadRequest) as bad:
            round_list.page(conn, after="no-such-round")
        assert bad.value.field == "after"
    newest = [rid for rid, _ in _newest_first(ledger)]
    assert [r["id"] for r in last] == newest[:4]
    assert set(r["id"] for r in last) <= set(ids)
    for row in last:
        assert row["template_id"] == "pd" and row["template_version"] in (1, 2)
        assert row["settings"] == CONFIG and row["pay_table"] is not None
        assert row["seat"] == "P1"
    lines = list(csv.DictReader(io.StringIO(round_list.to_csv(last, round_list.PLAYER_COLUMNS))))
    assert [line["id"] for line in lines] == [r["id"] for r in last]
    assert [int(line["net"]) for line in lines] == [r["net"] for r in last]
    assert [line["template_version"] for line in lines] == [
        str(r["template_version"]) for r in last
    ]
