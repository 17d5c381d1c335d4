"""Random deal units of every game, played by the games' engines and journaled as the ledger
would return them (`Ledger.round(..., include_seed=True)`), for the verifier tests."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from qipai.core.protocol import Round, Seat
from qipai.core.rng import Rng, commitment
from qipai.fairness import deal_meta, unit_key
from qipai.games import game_package
from tests.fairness.helpers import play_out

GAMES = ("pokdeng", "paigow", "holdem-bonus", "niuniu", "tiengow")


@dataclass
class Unit:
    """One round of a deal unit: the engine's round object and its journal record."""

    game: str
    round: Round[Any]
    record: dict[str, Any]
    key: bytes


def _record(
    game: str,
    round_: Round[Any],
    seed: bytes,
    seeds: dict[str, str],
    context: dict[str, Any],
    n: int,
) -> dict[str, Any]:
    return {
        "round_id": f"{game}-{n}",
        "table_id": f"t-{game}",
        "game": game,
        "config": round_.config.to_json(),
        "seats": [s.to_json() for s in round_.seats],
        "context": context,
        "seed_commitment": commitment(seed),
        "seed": seed.hex(),
        "seed_revealed": True,
        "status": "settled" if round_.finished else "open",
        "result": round_.result().to_json() if round_.finished else None,
        "log": [{"kind": "action", "seat": e.seat, "payload": dict(e.action)} for e in round_.log],
        "meta": deal_meta(seeds),
    }


def _seats(game: str, rng: Rng) -> list[Seat]:
    stacks = [1_000, 5_000, 20_000, 20_000, 100_000, 250_000]
    if game in ("paigow", "tiengow"):
        ids = ["E", "S", "W", "N"]
    elif game == "pokdeng":
        ids = [f"S{i}" for i in range(1, 6)][: 1 + rng.randbelow(5)]
    elif game == "holdem-bonus":
        ids = sorted([str(b) for b in range(1, 8) if rng.randbelow(2)] or ["4"], key=int)
    else:
        ids = ["A", "B", "C", "D", "E"][: 2 + rng.randbelow(4)]
    return [Seat(i, rng.choice(stacks)) for i in ids]


def make_unit(game: str, n: int) -> Unit:
    """Deal unit n of `game` (deterministic in n): random seats, stacks, client seeds, context,
    bots' choices; a Pok Deng shoe is played up to a random round of it, a Pai Gow game to a
    random one of its two rounds."""
    rng = Rng(hashlib.sha256(f"{game}/{n}".encode()).digest(), "unit")
    seed = rng.next_bytes(32)
    seats = _seats(game, rng)
    seeds = {
        s.id: rng.next_bytes(1 + rng.randbelow(24)).hex()[:64] for s in seats if rng.randbelow(3)
    }
    key = unit_key(seed, seeds)
    package = game_package(game)
    config = package.CONFIG()
    context: dict[str, Any] = {}
    if game == "tiengow" and rng.randbelow(2):
        context = {"banker": rng.choice([s.id for s in seats]), "banker_streak": 1}
    round_: Round[Any] = package.ROUND.start(config, seats, Rng(key), dict(context))
    bots = Rng(seed, "bots")
    play_out(round_, bots, expire_every=3 + rng.randbelow(20))
    more = {"pokdeng": rng.randbelow(6), "paigow": rng.randbelow(2)}.get(game, 0)
    for _ in range(more):
        nxt = round_.next_round()
        if not nxt.reuse_seed:
            break
        context = dict(nxt.context)
        round_ = package.ROUND.start(config, seats, Rng(key), dict(context))
        play_out(round_, bots, expire_every=3 + rng.randbelow(20))
    return Unit(game, round_, _record(game, round_, seed, seeds, context, n), key)
