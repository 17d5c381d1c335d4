"""Deal units at a real table (real engines, the real ledger on SQLite, a virtual clock):
client seeds enter the deal and the record (docs/fairness.md#keys), and every unit ends and is
revealed — at its end, abandoned for the table's idle time, suspended (its round voided) or
closed — while no seed of a running unit is ever visible to players (docs/fairness.md)."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from qipai.core.rng import Rng, commitment
from qipai.fairness import export_round
from qipai.fairness.check import check_export
from qipai.ledger import Ledger
from qipai.tables import games
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import ManualClock, MemoryTableRepo
from qipai.tables.table import Table, Timing
from qipai.tables.terms import default_terms
from tests.fairness.test_verify_deal import verify_deal

SEATS = {"pokdeng": 3, "paigow": 4, "holdem-bonus": 3, "niuniu": 3, "tiengow": 4}
GAMES = tuple(SEATS)
SERVER_SEED = bytes(range(32))


class Inbox:
    def __init__(self) -> None:
        self.messages: list[tuple[str, Any]] = []

    def __call__(self, player: str, message: Any) -> None:
        self.messages.append((player, json.loads(json.dumps(message))))

    def text(self) -> str:
        return json.dumps([m for _, m in self.messages])


@dataclasses.dataclass
class At:
    table: Table
    ledger: LedgerAdapter
    clock: ManualClock
    inbox: Inbox
    ids: itertools.count[int] = dataclasses.field(default_factory=itertools.count)

    def public(self, round_id: str) -> dict[str, Any]:
        """What `GET /api/rounds/{id}` gives a player of the round (its export)."""
        return export_round(self.ledger.ledger.round(round_id, include_seed=True))

    def operator(self, round_id: str) -> dict[str, Any]:
        return export_round(self.ledger.ledger.round(round_id, include_seed=True), operator=True)


_TEMPLATE: list[Path] = []


def fresh_ledger(where: Path) -> LedgerAdapter:
    """A new migrated SQLite ledger (a copy of one migrated database: migrating each costs
    more than the test)."""
    if not _TEMPLATE:
        template = where.parent / "template"
        template.mkdir()
        Ledger.open(str(template / "ledger.db")).close()
        _TEMPLATE.append(template)
    shutil.copytree(_TEMPLATE[0], where)
    return LedgerAdapter(Ledger.open(str(where / "ledger.db")))


def table_at(
    tmp_path: Path,
    game: str,
    players: dict[str, str | None],
    *,
    seeds: list[bytes] | None = None,
    name: str = "t",
    stacks: int = 100,
    decks: int = 1,
    **terms: Any,
) -> At:
    """A table of `game` with these people seated (player -> client seed, None: none sent); the
    server seeds come from `seeds` in turn (else random)."""
    info = games.get(game)
    # Pok Deng: a short shoe (the cut card 13 cards from the end: 52 × decks / 13 − 1 rounds)
    config = {"decks": decks, "cut_behind": [13, 13]} if game == "pokdeng" else None
    ledger = fresh_ledger(tmp_path / name)
    clock, inbox = ManualClock(), Inbox()
    queue = list(seeds or [])
    source = (lambda: queue.pop(0)) if seeds else None
    table = Table(
        name,
        info,
        ledger,
        clock,
        repo=MemoryTableRepo(),
        terms=default_terms(info, config, **terms),
        timing=Timing(bot_delay=1.0, between_rounds=3.0),
        send=inbox,
        **({"seed_source": source} if source else {}),
    )
    buy = table.terms.min_buy_in * stacks  # minimum buy-ins each
    for player, seed in players.items():
        ledger.deposit(player, buy * 10, f"dep:{player}")
        table.sit(player, player, buy, client_seed=seed)
        table.connect(player)
    return At(table, ledger, clock, inbox)


def rng_of(name: str) -> Rng:
    return Rng(hashlib.sha256(name.encode()).digest(), "players")


def no_running_seed_visible(at: At) -> None:
    """No seed of the running unit in any round a player can read or any message sent."""
    units = at.table.units
    if units.carry_seed is None:
        return
    current = units.current()
    assert current is not None and current.seed_hex is None
    for round_id in current.rounds:
        assert at.public(round_id)["seed"] is None, "a running unit's seed is readable"
        assert at.ledger.ledger.round(round_id)["seed"] is None
    assert units.carry_seed.hex() not in at.inbox.text(), "a running unit's seed was sent"


def start_round(at: At) -> str:
    """Let the table start its next round (the clock runs until it does)."""
    table = at.table
    for _ in range(50):
        if table.round is not None:
            break
        at.clock.advance(1.0)
        table.tick()
    assert table.round is not None and table.record is not None, table.wait_reason()
    return table.record.round_id


def play_round(at: At, rng: Rng) -> str:
    """Start the next round and play it to its end, every person choosing at random."""
    table, clock = at.table, at.clock
    round_id = start_round(at)
    info = games.get(table.game.name)
    bot = info.make_bot(info.bot_levels[0])
    no_running_seed_visible(at)
    for _ in range(2000):
        round_ = table.round
        if round_ is None or table.record is None or table.record.round_id != round_id:
            no_running_seed_visible(at)
            return round_id
        waiting = round_.awaiting()
        if not waiting:
            clock.advance(1.0)
            table.tick()
            continue
        seat = waiting[0]
        player = table.seating.seats[seat].player
        assert player is not None
        action = bot.choose(round_.view(seat), round_.legal_actions(seat), rng)
        table.act(player, action, f"c{next(at.ids)}")
    raise AssertionError("the round did not finish")


def deal_order(export: dict[str, Any]) -> list[str]:
    deal = check_export(export).deal
    assert deal is not None
    return list(deal.get("shoe") or deal.get("deck") or deal.get("tiles") or [])


# ----- client seeds --------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_the_deal_changes_with_any_seated_players_client_seed(tmp_path: Path, game: str) -> None:
    people = [f"p{i}" for i in range(SEATS[game])]
    base = {p: f"seed-of-{p}" for p in people}
    orders, records = [], []
    variants = [base, dict(base)] + [{**base, p: base[p] + "!"} for p in people]
    for n, seeds in enumerate(variants):
        at = table_at(tmp_path, game, dict(seeds), seeds=[SERVER_SEED] * 3, name=f"v{n}")
        if n in (0, len(variants) - 1):
            round_id = play_round(at, rng_of(f"client-seed-test/{n}"))
            last = at.table.last_record
        else:  # the deal is fixed when the round starts: no need to play it
            start_round(at)
            last = at.table.record
        assert last is not None
        round_id = last.round_id
        record = at.ledger.ledger.round(round_id, include_seed=True)
        # the round records its unit's client seeds by seat, fixed at the unit's first deal
        by_seat = {s: seeds[p] for s, p, _ in last.seats}
        assert record["meta"]["client_seeds"] == by_seat
        assert record["meta"]["deal_spec"] == "deal-spec/1"
        operator = at.operator(round_id)
        check = check_export(operator)
        assert check.ok, check.checks  # the engine dealt what the specification says
        orders.append(deal_order(operator))
        records.append(at)
    assert orders[0] == orders[1], "the same server seed and client seeds deal the same"
    for n, order in enumerate(orders[2:]):
        assert order != orders[0], f"{people[n]}'s client seed did not change the deal"
    # once the unit has ended (the table closes), the standalone verifier reproduces the deal
    # from what any player can read: the seed, the recorded client seeds and the inputs
    at = records[-1]
    round_id = next(iter(at.table.units.reveals[-1].rounds))
    if at.table.units.running:
        no_running_seed_visible(at)
    at.table.close()
    export = json.loads(json.dumps(at.public(round_id)))
    if game == "tiengow":  # its seed stays with the operator: players check the tile openings
        assert export["seed"] is None
        export = json.loads(json.dumps(at.operator(round_id)))
    assert export["seed"] == SERVER_SEED.hex() and export["client_seeds"]
    deal, checks, _ = verify_deal.verify(export)
    assert checks and all(ok for _, ok, *_ in checks), checks
    assert deal_order(export) == orders[-1]
    assert any("as dealt" in c[0] for c in checks) or (
        game == "holdem-bonus" and not (deal or {}).get("boxes")
    )


def test_a_client_seed_changed_mid_unit_waits_for_the_next_unit(tmp_path: Path) -> None:
    at = table_at(tmp_path, "pokdeng", {"alice": "one", "bob": None})
    first = play_round(at, rng_of("mid-unit"))
    assert at.table.units.running  # a one-deck shoe with the cut card 13 from the end
    assert at.ledger.ledger.round(first)["meta"]["client_seeds"] == {"S1": "one"}
    reply = at.table.set_client_seed("bob", "two")
    upcoming = at.table.units.next_commitment
    assert reply == {"client_seed": "two", "applies": "next deal unit", "commitment": upcoming}
    second = play_round(at, rng_of("mid-unit"))
    assert at.ledger.ledger.round(second)["meta"]["client_seeds"] == {"S1": "one"}
    assert (
        at.ledger.ledger.round(second)["seed_commitment"]
        == at.ledger.ledger.round(first)["seed_commitment"]
    )
    while at.table.units.running:
        play_round(at, rng_of("mid-unit"))
    nxt = play_round(at, rng_of("mid-unit"))
    assert at.ledger.ledger.round(nxt)["meta"]["client_seeds"] == {"S1": "one", "S2": "two"}
    # the seed met exactly the commitment the reply named
    assert at.ledger.ledger.round(nxt)["seed_commitment"] == upcoming


def test_bad_client_seeds_are_refused_and_change_nothing(tmp_path: Path) -> None:
    at = table_at(tmp_path, "pokdeng", {"alice": "ok"})
    from qipai.core.errors import InvalidInput
    from qipai.tables.table import NotSeated

    for bad in ("", "has space", "x" * 65, "é"):
        with pytest.raises(InvalidInput):
            at.table.set_client_seed("alice", bad)
        with pytest.raises(InvalidInput):
            at.table.sit("carol", "carol", 0, client_seed=bad)
        assert at.table.seating.seat_of("carol") is None
    assert at.table.client_seed_of == {"alice": "ok"}
    with pytest.raises(NotSeated):
        at.table.set_client_seed("dave", "fine")
    at.table.leave("alice")  # standing up forgets it (nothing kept for people gone)
    assert at.table.client_seed_of == {}


def test_a_table_with_client_seeds_off_deals_from_the_server_seed(tmp_path: Path) -> None:
    from qipai.tables.errors import ClientSeedsOff

    at = table_at(tmp_path, "pokdeng", {"alice": None}, seeds=[SERVER_SEED] * 3, client_seeds=False)
    with pytest.raises(ClientSeedsOff, match="does not take client seeds"):
        at.table.set_client_seed("alice", "abc")
    # docs/fairness.md: a seed given at `sit` is refused too, never silently dropped
    at.ledger.deposit("carol", 10**6, "dep:carol")
    wallet = at.ledger.wallet("carol")
    with pytest.raises(ClientSeedsOff) as refused:
        at.table.sit("carol", "carol", at.table.terms.min_buy_in, client_seed="mine")
    assert refused.value.code == "client_seeds_off" and refused.value.field == "client_seed"
    assert at.table.seating.seat_of("carol") is None and at.ledger.wallet("carol") == wallet
    round_id = play_round(at, rng_of("off"))
    record = at.ledger.ledger.round(round_id, include_seed=True)
    assert record["meta"]["client_seeds"] == {}
    export = at.operator(round_id)
    check = check_export(export)
    assert check.ok and "key: the server seed (no client seeds)" in check.lines
    state = [m for p, m in at.inbox.messages if m.get("type") == "state"][-1]
    assert state["fairness"]["client_seeds_enabled"] is False


# ----- every unit ends and is revealed ------------------------------------------------------
def test_an_abandoned_shoe_is_revealed_after_the_idle_time_and_the_next_shoe_is_new(
    tmp_path: Path,
) -> None:
    at = table_at(tmp_path, "pokdeng", {"alice": "a"}, decks=2, idle_reveal_s=120.0)
    rng = rng_of("abandoned")
    rounds = [play_round(at, rng), play_round(at, rng)]
    unit = at.table.units.current()
    assert unit is not None and at.table.units.running and unit.rounds == rounds
    at.table.leave("alice")
    at.clock.advance(119.0)
    at.table.tick()
    assert at.table.units.running  # not yet: the idle time has not passed
    no_running_seed_visible(at)
    assert all(at.public(r)["seed"] is None for r in rounds)
    at.clock.advance(2.0)
    at.table.tick()
    assert not at.table.units.running and unit.seed_hex is not None
    assert commitment(bytes.fromhex(unit.seed_hex)) == unit.commitment
    for r in rounds:  # revealed to players, and it verifies with the standalone verifier
        export = json.loads(json.dumps(at.public(r)))
        assert export["seed"] == unit.seed_hex
        _, checks, _ = verify_deal.verify(export)
        assert all(ok for _, ok, *_ in checks), checks
    # told to the table's listeners too
    states = [m for _, m in at.inbox.messages if m.get("type") == "state"]
    assert any(unit.seed_hex in json.dumps(m["fairness"]["revealed"]) for m in states)
    # a new player gets a new shoe: a new seed and commitment, from its first round
    at.ledger.deposit("bob", 10**6, "dep:bob2")
    at.table.sit("bob", "bob", at.table.terms.min_buy_in * 100, client_seed="b")
    nxt = play_round(at, rng)
    record = at.ledger.ledger.round(nxt)
    assert record["seed_commitment"] != unit.commitment
    assert record["context"].get("position", 0) == 0
    assert record["context"].get("round_in_shoe", 1) == 1


def test_a_void_ends_its_unit_and_the_next_round_has_a_new_commitment(tmp_path: Path) -> None:
    at = table_at(tmp_path, "pokdeng", {"alice": "a", "bob": "b"}, decks=4)
    rng = rng_of("void")
    done = play_round(at, rng)
    for _ in range(20):  # the second round of the shoe, open
        if at.table.round is not None:
            break
        at.clock.advance(1.0)
        at.table.tick()
    assert at.table.record is not None and at.table.units.running
    voided = at.table.record.round_id
    unit = at.table.units.current()
    assert unit is not None and unit.rounds == [done, voided]
    no_running_seed_visible(at)
    at.table.suspend("an operator voids the round")
    assert at.ledger.ledger.round(voided)["status"] == "voided"
    # the void ended the unit: its seed is revealed for every round of it (nothing more will
    # be dealt from it), and the table deals no further round from it
    assert not at.table.units.running and unit.seed_hex is not None
    assert at.public(voided)["seed"] == unit.seed_hex == at.public(done)["seed"]
    at.table.resume()
    nxt = play_round(at, rng)
    record = at.ledger.ledger.round(nxt)
    assert record["seed_commitment"] != unit.commitment
    assert record["context"].get("position", 0) == 0
    no_running_seed_visible(at)


@pytest.mark.parametrize("game", ["pokdeng", "paigow"])
def test_closing_a_table_ends_and_reveals_its_unit(tmp_path: Path, game: str) -> None:
    people = {f"p{i}": None for i in range(SEATS[game])}
    at = table_at(tmp_path, game, people)
    first = play_round(at, rng_of("close"))
    assert at.table.units.running  # a shoe / a Pai Gow game goes on after its first round
    assert at.public(first)["seed"] is None
    at.table.close()
    assert not at.table.units.running
    export = json.loads(json.dumps(at.public(first)))
    assert export["seed"] is not None
    _, checks, _ = verify_deal.verify(export)
    assert all(ok for _, ok, *_ in checks), checks


# ----- Tien Gow: the tile commitment at the table ------------------------------------------
def test_tien_gow_players_verify_what_they_saw_and_no_message_opens_a_discard(
    tmp_path: Path,
) -> None:
    from qipai.fairness import round_key, tiles_commitment, verify_openings

    people = {f"p{i}": None for i in range(4)}
    at = table_at(tmp_path, "tiengow", people)
    round_id = play_round(at, rng_of("tiengow-table"))
    game: Any = at.table.last_round
    record = at.ledger.ledger.round(round_id, include_seed=True)
    commitment = tiles_commitment(round_key(record), game.deck)
    assert record["meta"]["tiles_root"] == commitment.root
    discards = {
        (e.seat, i) for t in game.tricks for e in t.entries if e.play is None for i in e.tiles
    }
    assert discards, "a random game has discards"
    seat_of = {p: s for s, p, _ in record_seats(at)}
    for player, seat in seat_of.items():
        mine = [m for p, m in at.inbox.messages if p == player]
        text = json.dumps(mine)
        states = [m for m in mine if m.get("type") == "state" and m.get("round")]
        # the root was published before the first play, with its leaves
        published = next(m["round"]["tiles"] for m in states if m["round"]["tiles"])
        assert published["root"] == commitment.root
        end = [m["round"]["openings"] for m in states if m["round"]["openings"]]
        assert end, f"{player} got no openings at the end"
        package = end[-1]
        # what the seat was shown: its hand (first view) and every face-up play (last view)
        first_view = next(m["round"]["view"] for m in states if m["round"]["view"].get("me"))
        shown = {t["id"]: t["tile"] for t in first_view["me"]["hand"]}
        for trick in states[-1]["round"]["view"]["tricks"]:
            for entry in trick["entries"]:
                for t in entry.get("tiles", []):
                    shown[t["id"]] = t["tile"]
        assert (
            verify_openings(published["root"], published["leaves"], package["openings"], shown)
            == []
        )
        opened = {o["position"] for o in package["openings"]}
        for owner, position in discards:
            if owner == seat:
                continue
            assert position not in opened, f"{player} got another seat's discard opened"
            salt = commitment.salts[position].hex()
            assert salt not in text.lower(), f"a message to {player} carries a discard's salt"
        assert record["seed"] not in text, "Tien Gow's seed reached a player"


def record_seats(at: At) -> tuple[tuple[str, str, int], ...]:
    last = at.table.last_record
    assert last is not None
    return last.seats


def test_a_client_seed_for_a_commitment_whose_unit_began_is_refused(tmp_path: Path) -> None:
    from qipai.tables.errors import CommitmentMoved

    at = table_at(tmp_path, "pokdeng", {"alice": "one"})
    seen = at.table.units.next_commitment  # what alice's state showed her
    play_round(at, rng_of("moved"))  # that unit began: a new next commitment is shown
    assert at.table.units.next_commitment != seen
    with pytest.raises(CommitmentMoved) as refused:
        at.table.set_client_seed("alice", "two", seen)
    assert at.table.units.next_commitment in refused.value.message
    assert at.table.client_seed_of == {"alice": "one"}  # nothing changed
    now = at.table.units.next_commitment
    reply = at.table.set_client_seed("alice", "two", now)
    assert reply["commitment"] == now and at.table.client_seed_of == {"alice": "two"}


def test_the_fairness_block_gives_the_key_used_after_the_unit_ended(tmp_path: Path) -> None:
    """docs/fairness.md: with the revealed seed, the client seeds the unit was keyed with —
    not an empty map once the unit is over."""
    at = table_at(tmp_path, "niuniu", {"alice": "a-seed", "bob": "b-seed"})
    round_id = play_round(at, rng_of("key-used"))  # a Niu Niu unit is one round
    assert not at.table.units.running
    used = at.ledger.ledger.round(round_id)["meta"]["client_seeds"]
    assert sorted(used.values()) == ["a-seed", "b-seed"]
    state = [m for p, m in at.inbox.messages if m.get("type") == "state"][-1]
    fairness = state["fairness"]
    assert fairness["client_seeds"] == used
    [unit] = [r for r in fairness["revealed"] if round_id in r["rounds"]]
    assert unit["client_seeds"] == used and unit["seed"] is not None


@pytest.mark.parametrize("game", GAMES)
def test_a_round_voided_before_any_input_exports_and_verifies(tmp_path: Path, game: str) -> None:
    """docs/fairness.md, "The round export": a round voided before anyone acted exports
    `status: voided`, `dealt: null` and `null` for each input it never reached; the verifier
    written from the document alone checks what those inputs decide, and every check passes."""
    people = ["alice", "bob", "carol", "dave"][: SEATS[game]]
    at = table_at(tmp_path, game, {p: ("a-1" if p == "alice" else None) for p in people})
    round_id = start_round(at)
    at.table.suspend("an operator voids the round")
    export = json.loads(json.dumps(at.public(round_id)))
    assert export["status"] == "voided" and export["dealt"] is None
    assert export["client_seeds"] and "a-1" in export["client_seeds"].values()
    if game == "paigow":
        assert export["inputs"]["bids"] is None  # no bid was made: undecided, not zero
    if game == "tiengow":  # the seed stays with the operator: the operator's export verifies
        export = json.loads(json.dumps(at.operator(round_id)))
    else:
        assert export["seed"] is not None  # the void ended the unit: its seed is revealed
    _deal, checks, _ = verify_deal.verify(export)
    assert checks and all(ok for _, ok, *_ in checks), checks


def test_the_verifier_checks_a_voided_unit_with_a_mid_unit_sitter(tmp_path: Path) -> None:
    """docs/fairness.md: a player who sits mid-unit is told their seed enters the next unit
    (its commitment named) and the running unit keeps its seeds; the unit is then voided. The
    verifier written from the document alone (docs/verify_deal.py) checks every revealed round
    of that unit — the finished ones and the voided one — and of the next, keyed with the
    sitter's seed."""
    at = table_at(tmp_path, "pokdeng", {"alice": "a-1"}, decks=4)
    rng = rng_of("mid-unit sitter")
    first = play_round(at, rng)
    assert at.table.units.running
    at.ledger.deposit("carol", at.table.terms.min_buy_in * 1000, "dep:carol")
    at.table.sit("carol", "carol", at.table.terms.min_buy_in * 100, client_seed="late-1")
    at.table.connect("carol")
    carol = at.table.seating.seat_of("carol")
    upcoming = at.table.units.next_commitment
    assert at.table.client_seed_note("carol") == {
        "client_seed": "late-1",
        "in_unit": False,
        "commitment": upcoming,  # told: from the next unit, this one
        "after_commitment": None,
    }
    second = play_round(at, rng)
    voided = start_round(at)
    unit = at.table.units.current()
    assert unit is not None and unit.rounds == [first, second, voided]
    at.table.suspend("an operator voids the round")
    assert at.ledger.ledger.round(voided)["status"] == "voided"
    for round_id in unit.rounds:
        export = json.loads(json.dumps(at.public(round_id)))
        assert export["seed"] == unit.seed_hex and carol not in export["client_seeds"]
        _deal, checks, _ = verify_deal.verify(export)
        assert checks and all(ok for _, ok, *_ in checks), (round_id, checks)
    at.table.resume()
    nxt = play_round(at, rng)
    assert at.ledger.ledger.round(nxt)["seed_commitment"] == upcoming
    assert at.table.client_seed_note("carol")["in_unit"] is True  # type: ignore[index]
    at.table.close()  # ends the unit: its seed is revealed
    export = json.loads(json.dumps(at.public(nxt)))
    assert export["client_seeds"][carol] == "late-1"
    _deal, checks, _ = verify_deal.verify(export)
    assert checks and all(ok for _, ok, *_ in checks), checks


def test_a_seed_that_came_before_the_first_commitment_skips_that_unit_across_a_restart(
    tmp_path: Path,
) -> None:
    """docs/fairness.md, "Which commitment a seed meets": a seed taken with `seed_after` (the
    table's first commitment, drawn after the seed came: automatch opening a table) does not
    enter that unit, even when the server restarts before the unit begins (the layout keeps
    it), and enters the next unit, whose commitment the player is told while the first runs."""
    at = table_at(tmp_path, "pokdeng", {}, decks=1)
    first = at.table.units.next_commitment
    buy = at.table.terms.min_buy_in * 100
    at.ledger.deposit("alice", buy * 10, "dep:alice")
    at.table.sit("alice", "alice", buy, client_seed="early", seed_after=first)
    assert at.table.client_seed_note("alice") == {
        "client_seed": "early",
        "in_unit": False,
        "commitment": None,  # not drawn yet
        "after_commitment": first,
    }
    saved = at.table.repo.tables[at.table.id]  # type: ignore[attr-defined]
    again = Table(
        at.table.id,
        at.table.game,
        at.ledger,
        at.clock,
        repo=at.table.repo,
        terms=at.table.terms,
        timing=Timing(bot_delay=1.0, between_rounds=3.0),
        send=at.inbox,
    )
    again.restore_layout(saved)
    assert again.seed_after == {"alice": first}
    at = At(again, at.ledger, at.clock, at.inbox)
    again.connect("alice")
    again.fill_with_bots()
    rng = rng_of("seed after")
    r1 = play_round(at, rng)
    assert at.ledger.ledger.round(r1)["seed_commitment"] == first
    assert at.ledger.ledger.round(r1)["meta"]["client_seeds"] == {}
    second = again.units.next_commitment
    note = again.client_seed_note("alice")
    assert note is not None and (note["commitment"], note["in_unit"]) == (second, False)
    while again.units.running:
        play_round(at, rng)
    r2 = play_round(at, rng)
    seat = again.seating.seat_of("alice")
    assert at.ledger.ledger.round(r2)["seed_commitment"] == second
    assert at.ledger.ledger.round(r2)["meta"]["client_seeds"] == {seat: "early"}
