"""The back office's API (docs/operators.md): the live room, players' books, the round inspector, house
results (equal to the ledger's and `qipai audit`'s to the unit), exact vs observed return, and
integrity — with rounds played through the real table runtime into the app's own database."""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qipai.authority import Authority, AuthoritySettings
from qipai.authority.oplog import SYSTEM
from qipai.games import registry
from qipai.ledger import Ledger
from qipai.server.app import create_app
from qipai.server.settings import Settings
from qipai.tables.table import Timing
from tests.authority.helpers import enrol, error, signup
from tests.authority.tableplay import play


@pytest.fixture
def room(tmp_path: Path) -> Iterator[tuple[TestClient, Authority, Ledger]]:
    # demo money off (deposits and withdrawals are requests); the app installs the ops
    # routers itself, once (installing them again duplicated every operation id)
    settings = Settings(authority=AuthoritySettings(demo=False))  # type: ignore[call-arg]
    app = create_app(str(tmp_path / "room.db"), settings=settings, timing=Timing(0.05, 0.2, 0.05))
    ledger = app.state.ledger
    authority: Authority = app.state.authority
    with TestClient(app) as client:
        yield client, authority, ledger


CONSOLE_GETS = [
    "/api/ops/reports/house",
    "/api/ops/reports/house?format=csv",
    "/api/ops/reports/returns",
    "/api/ops/integrity",
    "/api/ops/players/alice/entries",
    "/api/ops/rounds/r0/replay",
    "/api/ops/rounds/r0/verify",
    "/api/ops/tables",
    "/api/ops/rounds",
]


def test_console_data_refuses_anonymous_and_players(
    room: tuple[TestClient, Authority, Ledger],
) -> None:
    client, authority, _ = room
    alice = signup(client, "alice")
    for path in CONSOLE_GETS:
        anon = client.get(path)
        assert anon.status_code == 401 and error(anon)["code"] == "auth_required", path
        player = client.get(path, headers=alice)
        assert player.status_code == 403 and error(player)["code"] == "operator_only", path
        assert "rows" not in player.text and "heads" not in player.text
    r = client.post("/api/ops/integrity/audit", json={}, headers=alice)
    assert r.status_code == 403
    # running the audit changes nothing but the log: an auditor may, the floor may not
    # (the `audit` row of docs/operators.md §2)
    flo = enrol(client, authority, "flo", "floor").headers
    r = client.post("/api/ops/integrity/audit", json={"replay": False}, headers=flo)
    assert r.status_code == 403 and error(r)["code"] == "role_forbidden"
    audrey = enrol(client, authority, "audrey", "auditor").headers
    r = client.post("/api/ops/integrity/audit", json={"replay": False}, headers=audrey)
    assert r.status_code == 200, r.text
    assert client.get("/api/ops/integrity", headers=audrey).status_code == 200


def _play_every_template(authority: Authority, ledger: Ledger, rounds: int) -> None:
    # only the registry's games: the table tests' toy game (tests/tables/helpers.py, registered
    # with the tables layer when pytest collects it) has no replay for the audit
    real = set(registry.names())
    for t in authority.templates.active():
        if t.game not in real:
            continue
        play(ledger, authority, t.id, rounds, seed=11, people=1 if t.game != "tiengow" else 2)


def test_house_results_equal_the_ledger_and_the_audit(
    room: tuple[TestClient, Authority, Ledger],
) -> None:
    client, authority, ledger = room
    olga = enrol(client, authority, "olga").headers
    _play_every_template(authority, ledger, 4)
    ledger.fund_pool("holdem-bonus", 5_000, "console-test")  # the books, not a round's
    by_table = client.get("/api/ops/reports/house", params={"by": "table"}, headers=olga).json()
    audit = ledger.audit(replay=True)
    assert audit.ok, audit.violations
    house = audit.house
    rows = {r["table_id"]: r for r in by_table["rows"]}
    assert set(rows) == {r.table_id for r in _tables(ledger)}
    for table_id, row in rows.items():
        # the table's house side, to the unit, as the audit prints it
        assert row["house"] + row["commission"] + row["rounding"] == house["by_table"].get(
            table_id, 0
        ), table_id
        # every round balances: nothing is left over between the columns
        assert (
            row["people_net"]
            + row["bots_net"]
            + row["house"]
            + row["commission"]
            + row["rounding"]
            + row["jackpot_contributions"]
            - row["jackpot_awards"]
        ) == 0, row
        assert row["ggr"] == -row["people_net"]
        # the people's net equals their table stacks' entries in the table's rounds
        assert row["people_net"] == _people_net(ledger, table_id)
    total = by_table["total"]
    assert total["bots_net"] == house["bots"]["result"]
    pools = house["jackpot"]["pools"]
    assert total["jackpot_contributions"] + total["jackpot_seed"] + total[
        "jackpot_top_ups"
    ] - total["jackpot_awards"] == sum(
        p["seed"] + p["top_ups"] + p["contributions"] - p["awards"] for p in pools.values()
    )
    assert by_table["books"]["jackpot_liability"] == sum(p["balance"] for p in pools.values())
    assert by_table["books"]["bots"] == house["bots"]
    played = [t for t in authority.templates.active() if t.game in set(registry.names())]
    assert total["rounds"] == len(played) * 4  # every template's table played 4 rounds
    # other groupings give the same totals; the CSV says the same as the JSON
    for by in ("game,template", "day", "day,game,template,table"):
        again = client.get("/api/ops/reports/house", params={"by": by}, headers=olga).json()
        assert again["total"] == total, by
    text = client.get(
        "/api/ops/reports/house", params={"by": "table", "format": "csv"}, headers=olga
    )
    assert text.headers["content-type"].startswith("text/csv")
    lines = list(csv.DictReader(io.StringIO(text.text)))
    assert len(lines) == len(rows) + 1
    for line in lines[:-1]:
        assert int(line["ggr"]) == rows[line["table_id"]]["ggr"]
    assert int(lines[-1]["turnover"]) == total["turnover"]
    bad = client.get("/api/ops/reports/house", params={"by": "week"}, headers=olga)
    assert bad.status_code == 400 and error(bad)["field"] == "by"


def _tables(ledger: Ledger) -> list[Any]:
    from sqlalchemy import select

    from qipai.ledger.schema import rounds

    with ledger.engine.connect() as conn:
        return list(conn.execute(select(rounds.c.table_id).distinct()))


def _people_net(ledger: Ledger, table_id: str) -> int:
    from sqlalchemy import func, select

    from qipai.ledger.schema import accounts, entries, rounds, transactions

    with ledger.engine.connect() as conn:
        found = conn.execute(
            select(func.coalesce(func.sum(entries.c.amount), 0))
            .join(transactions, transactions.c.id == entries.c.tx_id)
            .join(accounts, accounts.c.id == entries.c.account_id)
            .join(rounds, rounds.c.id == transactions.c.round_id)
            .where(
                rounds.c.table_id == table_id,
                accounts.c.kind.in_(("stack", "hold")),
                ~accounts.c.owner.like("bot.%"),
            )
        ).scalar_one()
    return int(found)


def test_exact_figures_are_the_templates(room: tuple[TestClient, Authority, Ledger]) -> None:
    client, authority, ledger = room
    olga = enrol(client, authority, "olga").headers
    play(ledger, authority, "pokdeng-classic", 5, seed=3, people=1)
    rows = client.get("/api/ops/reports/returns?series=true", headers=olga).json()["rows"]
    mine = {r["bet"]: r for r in rows if r["template_id"] == "pokdeng-classic"}
    facts = {
        f["bet"]: f["rtp"]
        for f in authority.facts(authority.templates.get("pokdeng-classic"))["rtp"]
    }
    assert set(mine) == {"player", "pair"}
    for bet, row in mine.items():
        assert row["exact"] == facts[bet]
        assert row["rounds"] == 5 and row["bets"] >= 25  # the person covers every spot
        assert row["observed"] == pytest.approx(1 + row["net"] / row["staked"])
        assert len(row["series"]) == 5 and row["series"][-1]["observed"] == row["observed"]


def test_players_books_and_the_round_inspector(
    room: tuple[TestClient, Authority, Ledger],
) -> None:
    client, authority, ledger = room
    olga = enrol(client, authority, "olga").headers
    table = play(ledger, authority, "paigow", 2, seed=5, people=2)
    player = "p5-0"
    entries = client.get(f"/api/ops/players/{player}/entries", headers=olga).json()
    assert entries["account"] == f"wallet:{player}"
    assert entries["balance"] == ledger.wallet(player)
    statement = entries["entries"]
    # running balance: each entry's balance after is the one before plus its amount
    for newer, older in itertools.pairwise(statement):
        assert newer["balance_after"] == older["balance_after"] + newer["amount"]
    stack = f"stack:{player}:{table.id}"
    assert entries["accounts"][stack] == ledger.balance(stack)
    r = client.get(f"/api/ops/players/{player}/entries", params={"account": stack}, headers=olga)
    assert r.json()["entries"][0]["round_id"]
    r = client.get(
        f"/api/ops/players/{player}/entries", params={"account": "wallet:p5-1"}, headers=olga
    )
    assert r.status_code == 400 and error(r)["field"] == "account"

    found = client.get("/api/ops/rounds", params={"player": player}, headers=olga).json()
    assert len(found["rounds"]) == 2 and {r["status"] for r in found["rounds"]} == {"settled"}
    rid = found["rounds"][0]["id"]
    # the console shows a round by its last 12 characters (its first are the time it opened,
    # shared by every round of the last hours): they find it, as its full id does
    by_tail = client.get("/api/ops/rounds", params={"round_id": rid[-12:]}, headers=olga).json()
    assert [r["id"] for r in by_tail["rounds"]] == [rid]
    by_id = client.get("/api/ops/rounds", params={"round_id": rid}, headers=olga).json()
    assert [r["id"] for r in by_id["rounds"]] == [rid]
    by_start = client.get("/api/ops/rounds", params={"round_id": rid[:20]}, headers=olga).json()
    assert rid in [r["id"] for r in by_start["rounds"]]
    opened = found["rounds"][0]["opened_at"]
    later = client.get("/api/ops/rounds", params={"since": opened}, headers=olga).json()
    assert rid in [r["id"] for r in later["rounds"]]
    none = client.get(
        "/api/ops/rounds", params={"until": "2000-01-01T00:00:00Z"}, headers=olga
    ).json()
    assert none["rounds"] == []

    replay = client.get(f"/api/ops/rounds/{rid}/replay", headers=olga).json()
    record = ledger.round(rid, include_seed=True)
    actions = [e for e in record["log"] if e["kind"] == "action"]
    assert len(replay["steps"]) == len(actions) + 1 and replay["error"] is None
    assert replay["steps"][-1]["finished"] is True
    seats = {s["id"] for s in record["seats"]}
    for step in replay["steps"]:
        assert set(step["views"]) == seats  # every seat's view, for the operator
    last = replay["steps"][-1]["views"]
    for seat in seats:  # each seat's own view shows its own tiles
        me = last[seat]["me"]
        assert me is not None and me["tiles"]
    postings = replay["postings"]
    assert sum(p["amount"] for p in postings) == 0
    assert {p["tx_id"] for p in postings} >= {record["settlement_tx"]}

    verified = client.get(f"/api/ops/rounds/{rid}/verify", headers=olga).json()
    assert verified["ok"] is True, verified
    names = [c["check"] for c in verified["checks"]]
    assert "seed matches commitment" in names and "MAC chain" in names
    assert verified["chain"]["round_records"] >= len(record["log"]) + 2
    missing = client.get("/api/ops/rounds/nope/replay", headers=olga)
    assert missing.status_code == 404


def test_the_live_room_shows_host_template_and_status(
    room: tuple[TestClient, Authority, Ledger],
) -> None:
    client, authority, _ = room
    olga = enrol(client, authority, "olga").headers
    app_room = client.app.state.room  # type: ignore[attr-defined]
    terms = authority.terms_for("pokdeng-classic")
    table = app_room.create_table(terms, "console test")
    r = client.post(
        f"/api/ops/tables/{table.id}/suspend", json={"reason": "dealer shuffle check"}, headers=olga
    )
    assert r.status_code == 200, r.text
    [row] = [
        t
        for t in client.get("/api/ops/tables", headers=olga).json()["tables"]
        if t["id"] == table.id
    ]
    assert row["status"] == "suspended" and row["status_reason"] == "dealer shuffle check"
    assert row["terms"]["template"] == {"id": "pokdeng-classic", "version": 1}
    assert row["host"] is None  # one process serves the room: no leases (multi-host: the owner)
    assert row["number"] == 0 and len(row["seats"]) == 5
    r = client.post(f"/api/ops/tables/{table.id}/resume", json={"reason": "ok"}, headers=olga)
    assert r.json()["status"] != "suspended"
    r = client.post(f"/api/ops/tables/{table.id}/close", json={"reason": "night"}, headers=olga)
    assert r.status_code == 200
    actions = [e["action"] for e in authority.log.entries(target=table.id)]
    assert actions[:3] == ["table.close", "table.resume", "table.suspend"]


def test_integrity_runs_the_audit_and_logs_it(room: tuple[TestClient, Authority, Ledger]) -> None:
    client, authority, ledger = room
    olga = enrol(client, authority, "olga").headers
    play(ledger, authority, "pokdeng-classic", 2, seed=9, people=1)
    before = client.get("/api/ops/integrity", headers=olga).json()
    assert before["last_audit"] is None and before["log_ok"] is True
    chains = {h["chain"] for h in before["heads"]}
    assert "ledger" in chains and any(c.startswith("table:") for c in chains)
    report = client.post("/api/ops/integrity/audit", json={"replay": True}, headers=olga).json()
    assert report["ok"] is True and report == ledger.audit(replay=True).to_json() | {
        "stats": report["stats"]
    }
    after = client.get("/api/ops/integrity", headers=olga).json()
    last = after["last_audit"]
    assert last["actor"] == "olga" and last["action"] == "audit.run" and last["detail"]["ok"]
    heads = {h["chain"]: (h["seq"], h["mac"]) for h in after["heads"]}
    assert heads == {c: (v["seq"], v["mac"]) for c, v in report["heads"].items()}


def test_holdem_decisions_cost_exactly_what_they_give_up(
    room: tuple[TestClient, Authority, Ledger],
) -> None:
    """People who play the optimal strategy give up exactly nothing; a person who plays the
    rule-of-thumb bot deviates, and each deviation's exact cost is counted."""
    from qipai.tables import games as table_games

    client, authority, ledger = room
    olga = enrol(client, authority, "olga").headers
    play(ledger, authority, "holdem-bonus", 6, seed=4, people=1, table_id="optimal")
    [row] = client.get("/api/ops/reports/returns", headers=olga).json()["decisions"]
    assert row["boxes"] == 6 and row["flop_decisions"] == 6
    assert row["flop_deviations"] == 0 and row["later_deviations"] == 0
    assert row["given_up"] == 0.0
    sensible = table_games.get("holdem-bonus").make_bot("sensible")
    created = authority.templates.create(
        {"game": "holdem-bonus", "name": "thumb", "settings": {}}, SYSTEM
    )
    play(ledger, authority, created.id, 40, seed=5, people=1, chooser=sensible)
    rows = client.get(
        "/api/ops/reports/returns", params={"template_id": created.id}, headers=olga
    ).json()["decisions"]
    [thumb] = rows
    assert thumb["boxes"] == 40 and thumb["later_decisions"] > 0
    assert thumb["later_deviations"] > 0 and thumb["given_up"] > 0
    assert thumb["given_up_per_ante"] == pytest.approx(thumb["given_up"] / thumb["antes"])


def test_tiengow_turnover_is_what_each_seat_settled(
    room: tuple[TestClient, Authority, Ledger],
) -> None:
    """Tien Gow has no stakes (the players settle with each other after the game): its
    turnover is each seat's settled amount, |net| (docs/rules/tiengow.md#turnover), people's
    and bots' apart — not 0."""
    from sqlalchemy import select

    from qipai.ledger.schema import round_ends, round_players, rounds

    client, authority, ledger = room
    olga = enrol(client, authority, "olga").headers
    template = authority.default_template("tiengow")
    play(ledger, authority, template.id, 3, seed=5, people=2)
    people = bots = 0
    with ledger.engine.connect() as conn:
        for rid, result in conn.execute(
            select(round_ends.c.round_id, round_ends.c.result)
            .join(rounds, rounds.c.id == round_ends.c.round_id)
            .where(rounds.c.game == "tiengow", round_ends.c.status == "settled")
        ):
            users = dict(
                conn.execute(
                    select(round_players.c.seat, round_players.c.user_id).where(
                        round_players.c.round_id == rid
                    )
                ).all()
            )
            for seat, net in result["details"]["net"].items():
                if str(users[seat]).startswith("bot."):
                    bots += abs(int(net))
                else:
                    people += abs(int(net))
    assert people > 0
    report = client.get(
        "/api/ops/reports/house", params={"by": "game", "game": "tiengow"}, headers=olga
    ).json()
    (row,) = report["rows"]
    assert row["rounds"] == 3
    assert (row["turnover"], row["bot_turnover"]) == (people, bots)
    assert row["commission"] == 0  # nobody's edge: the players settle with each other


def test_a_players_entries_page_past_500(room: tuple[TestClient, Authority, Ledger]) -> None:
    """Every entry of an account can be reached from the console: pages of at most 500 with a
    cursor (`next` → `before`), newest first, none twice, the running balance continuous."""
    client, authority, ledger = room
    olga = enrol(client, authority, "olga").headers
    signup(client, "alice")
    for i in range(520):
        ledger.deposit("alice", i + 1, f"many-{i}")
    url = "/api/ops/players/alice/entries"
    first = client.get(url, params={"limit": 500}, headers=olga).json()
    assert len(first["entries"]) == 500 and first["next"] is not None
    # a bad query parameter is a 400 (docs/protocol.md, "Errors")
    assert client.get(url, params={"limit": 501}, headers=olga).status_code == 400
    second = client.get(url, params={"limit": 500, "before": first["next"]}, headers=olga).json()
    assert len(second["entries"]) == 20 and second["next"] is None
    shown = first["entries"] + second["entries"]
    ids = [e["entry_id"] for e in shown]
    assert ids == sorted(set(ids), reverse=True)
    assert [e["amount"] for e in shown] == list(range(520, 0, -1))
    for newer, older in itertools.pairwise(shown):
        assert newer["balance_after"] - newer["amount"] == older["balance_after"]
    assert shown[0]["balance_after"] == ledger.wallet("alice") == first["balance"]
    assert shown[-1]["balance_after"] == shown[-1]["amount"] == 1
    # small pages reach the same entries
    seen, cursor = [], None
    while True:
        params: dict[str, Any] = {"limit": 150}
        if cursor is not None:
            params["before"] = cursor
        page = client.get(url, params=params, headers=olga).json()
        seen += [e["entry_id"] for e in page["entries"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert seen == ids
