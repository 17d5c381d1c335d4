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
from qipai.core.rng import seed_from_hex
from qipai.core.spec import GameSpec
from qipai.fairness.keys import DEAL_SPEC, meta_client_seeds, unit_key
from qipai.fairness.tiles import seat_openings, tiles_commitment

FORMAT = "qipai-round/1"
JSON = dict[str, Any]


def _spec(game: str) -> GameSpec:
    from qipai.games import registry

    return registry.get(game)


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
    spec = _spec(game)
    description = spec.deal_description()
    shows_seed = spec.reveal_seed
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
        "inputs": description.inputs(round_, config, seats, context),
        "dealt": description.dealt(round_, key, record, with_seed),
        "tiles": None,
    }
    if spec.commits_tiles:
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
