"""Fairness an outsider can check (docs/fairness.md): deal units' keys from the server seed and
the players' client seeds, Tien Gow's tile-by-tile commitments, and (in later modules) the
deal of every game as the specification states it, the round export and its verifier."""

from qipai.fairness.export import export_round
from qipai.fairness.keys import (
    DEAL_SPEC,
    check_client_seed,
    check_client_seeds,
    deal_meta,
    meta_client_seeds,
    new_client_seed,
    round_key,
    unit_key,
)
from qipai.fairness.tiles import (
    TileOpening,
    TilesCommitment,
    seat_openings,
    seen_positions,
    tiles_commitment,
    verify_openings,
)

__all__ = [
    "DEAL_SPEC",
    "TileOpening",
    "TilesCommitment",
    "check_client_seed",
    "check_client_seeds",
    "deal_meta",
    "export_round",
    "meta_client_seeds",
    "new_client_seed",
    "round_key",
    "seat_openings",
    "seen_positions",
    "tiles_commitment",
    "unit_key",
    "verify_openings",
]
