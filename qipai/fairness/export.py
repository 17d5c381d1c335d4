"""A round's public deal record, `qipai-round/1`: what `GET /api/rounds/{id}` returns and what
`docs/verify_deal.py`, `qipai verify --offline` and the browser's verifier read.

    {"format": "qipai-round/1", "deal_spec": "deal-spec/1",
     "round_id", "table_id", "game", "status": "open" | "settled" | "voided",
     "commitment": sha256(server seed) hex, "seed": hex | null, "seed_policy": "after_deal" |
     "operator_only", "client_seeds": {seat: client seed},
     "inputs": {...},          # the public inputs the deal depends on (docs/fairness.md, per game)
     "dealt": {...} | null,    # what the table showed (finished rounds), to compare with
     "tiles": {...} | null}    # Tien Gow: scheme, root, published_root, leaves, openings

The seed appears only once revealed and never for a game whose seeds stay with the operator
(Tien Gow), unless `operator=True` (the operator's own tools). `dealt` holds only what every
player was shown at the end — and, for games whose remaining cards the seed gives away anyway,
only with the seed. Tien Gow openings are the viewer seat's (`seat`): its own eight tiles and
every face-up play, nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.protocol import RecordedAction, Seat
from qipai.core.rng import Rng, seed_from_hex
from qipai.fairness.keys import DEAL_SPEC, meta_client_seeds, unit_key
from qipai.fairness.tiles import seat_openings, tiles_commitment

FORMAT = "qipai-round/1"
JSON = dict[str, Any]


def _shows_seed(game: str) -> bool:
    """Whether players ever see this game's seeds (GameInfo.reveal_seed; Tien Gow: never)."""
    from qipai.tables import games

    try:
        return bool(games.get(game).reveal_seed)
    except InvalidInput:
        return True


def _replay(record: Mapping[str, Any], key: bytes) -> tuple[Any, Any, list[Seat]]:
    from qipai.games import game_package

    package = game_package(str(record["game"]))
    config = package.CONFIG.from_json(record["config"])
    seats = [Seat.from_json(s) for s in record["seats"]]
    actions = [
        RecordedAction(e["seat"], e["payload"])
        for e in record.get("log") or ()
        if e.get("kind") == "action"
    ]
    round_ = package.ROUND.replay(config, seats, key, actions, record.get("context") or {})
    return round_, config, seats


def _inputs(
    game: str, round_: Any, config: Any, seats: list[Seat], context: Mapping[str, Any]
) -> JSON:
    ids = [s.id for s in seats]
    stacks = {s.id: s.stack for s in seats}
    if game == "pokdeng":
        return {
            "decks": config.decks,
            "cut_behind": list(config.cut_behind),
            "position": int(context.get("position", 0)),
            "round_in_shoe": int(context.get("round_in_shoe", 1)),
        }
    if game == "paigow":
        chosen = round_.banker is not None
        return {
            "round": round_.round_no,
            "seats": ids,
            "bids": dict(round_.bids) if chosen else None,
            "stacks": stacks,
        }
    if game == "holdem-bonus":
        dealt = round_.phase != "betting"
        return {"boxes": round_.playing_boxes() if dealt else None}
    if game == "niuniu":
        swapped = bool(round_.discarded)
        return {
            "seats": ids,
            "swaps": {s: len(round_.discarded[s]) for s in ids} if swapped else None,
            "bids": {s: v or 0 for s, v in round_.bids.items()} if round_.banker else None,
            "stacks": stacks,
        }
    if game == "tiengow":
        return {"seats": ids, "banker": context.get("banker")}
    raise InvalidInput(f"unknown game {game!r}")


def _dealt(game: str, round_: Any, key: bytes, record: Mapping[str, Any], with_seed: bool) -> Any:
    """What the table showed at the end (None before the end, or when it was not shown)."""
    if not round_.finished:
        return None
    if game == "pokdeng":
        return {"hands": {spot: [str(c) for c in h.cards] for spot, h in round_.hands.items()}}
    if game == "paigow":
        return {
            "banker": round_.banker,
            "dice": list(round_.dice),
            "first_seat": round_.first_seat,
            "deal_order": list(round_.deal_seats),
            "hands": {s: [str(t) for t in ts] for s, ts in round_.tiles.items()},
        }
    if game == "holdem-bonus":
        details = (record.get("result") or {}).get("details") or round_.result().details
        if not with_seed or "board" not in details:
            return None
        return {
            "boxes": {b: list(v["hole"]) for b, v in details["boxes"].items()},
            "dealer": list(details["dealer_cards"]),
            "board": list(details["board"]),
        }
    if game == "niuniu":
        return {
            "banker": round_.banker,
            "hands": {s: [str(c) for c in cs] for s, cs in round_.cards.items()},
        }
    if game == "tiengow":
        if not with_seed:
            return None
        first = type(round_).start(
            round_.config, round_.seats, Rng(key), record.get("context") or {}
        )
        return {
            "banker": first.banker,
            "hands": {s: [str(t) for _, t in first.hand_of(s)] for s in first.seat_ids()},
        }
    return None


def export_round(
    record: Mapping[str, Any], seat: str | None = None, *, operator: bool = False
) -> JSON:
    """The `qipai-round/1` export of a journaled round.

    `record` is `Ledger.round(round_id, include_seed=True)` (with its `meta`): the seed is
    needed to rebuild the public inputs and Tien Gow's openings even when it is not shown.
    `seat` is the viewer's seat (for Tien Gow openings); `operator=True` always shows the seed.
    """
    game = str(record.get("game"))
    seed_hex = record.get("seed")
    if not isinstance(seed_hex, str):
        raise InvalidInput("export_round needs the record with its seed (include_seed=True)")
    meta = record.get("meta")
    client_seeds = meta_client_seeds(meta if isinstance(meta, Mapping) else None)
    key = unit_key(seed_from_hex(seed_hex), client_seeds)
    status = str(record.get("status", "open"))
    shows_seed = _shows_seed(game)
    with_seed = operator or (shows_seed and bool(record.get("seed_revealed")))
    round_, config, seats = _replay(record, key)
    context = record.get("context") or {}
    out: JSON = {
        "format": FORMAT,
        "deal_spec": DEAL_SPEC,
        "round_id": record.get("round_id"),
        "table_id": record.get("table_id"),
        "game": game,
        "status": status,
        "commitment": record.get("seed_commitment"),
        "seed": seed_hex if with_seed else None,
        "seed_policy": "after_deal" if shows_seed else "operator_only",
        "client_seeds": client_seeds,
        "inputs": _inputs(game, round_, config, seats, context),
        "dealt": _dealt(game, round_, key, record, with_seed),
        "tiles": None,
    }
    if game == "tiengow":
        commitment = tiles_commitment(key, round_.deck)
        block: JSON = commitment.public_json()
        published = meta.get("tiles_root") if isinstance(meta, Mapping) else None
        block["published_root"] = published
        ids = round_.seat_ids()
        if seat is not None and seat in ids and status != "open":
            block["openings"] = seat_openings(round_, commitment, seat)["openings"]
            block["seat"] = seat
        else:
            block["openings"] = []
            block["seat"] = None
        out["tiles"] = block
    return out


__all__ = ["FORMAT", "export_round"]
