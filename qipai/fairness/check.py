"""Recompute and print the deal of a `qipai-round/1` export, and compare it with what was dealt.

`check_export(export)` is what `qipai verify --offline FILE` runs (and `qipai verify ROUND_ID`
after the ledger's own checks): the seed against its commitment, the unit key from the seed and
the client seeds, the deal by the specification (`qipai.fairness.deal`), every item the table
showed against it, and Tien Gow's tile openings against the published root. Exit status:
0 all checks pass, 1 a check failed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.rng import seed_from_hex
from qipai.core.spec import DealDescription
from qipai.fairness.deal import compute_deal
from qipai.fairness.export import FORMAT
from qipai.fairness.keys import DEAL_SPEC, check_client_seeds, unit_key
from qipai.fairness.tiles import verify_openings


@dataclass
class DealCheck:
    """The recomputed deal, the checks made and the text lines to print."""

    game: str
    deal: dict[str, Any] | None = None
    checks: list[tuple[str, bool, str]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(ok for _, ok, _ in self.checks)

    def add(self, name: str, ok: bool, detail: str = "") -> bool:
        self.checks.append((name, ok, detail))
        return ok

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "ok": self.ok,
            "deal": self.deal,
            "checks": [{"check": n, "ok": ok, "detail": d} for n, ok, d in self.checks],
        }

    def text(self) -> str:
        checks = [
            f"  {'ok  ' if ok else 'FAIL'} {n}" + (f": {d}" if d else "")
            for n, ok, d in self.checks
        ]
        return "\n".join([*self.lines, "checks:", *checks, "OK" if self.ok else "FAILED"])


def unwrap(document: Any) -> Mapping[str, Any]:
    """The export inside a document: the export itself, or an API body carrying it under
    `fairness`."""
    if isinstance(document, Mapping):
        if document.get("format") == FORMAT:
            return document
        inner = document.get("fairness")
        if isinstance(inner, Mapping) and inner.get("format") == FORMAT:
            return inner
    raise InvalidInput(f"not a round export: expected an object with format {FORMAT!r}")


def _description(game: str) -> DealDescription:
    from qipai.games import registry

    return registry.get(game).deal_description()


def _check_tiles(
    check: DealCheck, block: Mapping[str, Any], deal: Mapping[str, Any] | None
) -> None:
    root, leaves = str(block.get("root", "")), list(block.get("leaves") or [])
    openings = list(block.get("openings") or [])
    problems = verify_openings(root, leaves, openings)
    if openings:
        detail = f"{len(openings)} tiles shown to seat {block.get('seat')} open"
        check.add("tile openings against the root", not problems, "; ".join(problems) or detail)
    else:
        check.add("tile leaves hash to the root", not problems, "; ".join(problems))
    published = block.get("published_root")
    if published is not None:
        check.add("root is the one published at the start", published == root, str(published))
    if deal is not None:
        check.add("root is the deal's", deal["tiles_root"] == root, root)
    if openings:
        shown = ", ".join(f"{o['position']}={o['tile']}" for o in openings)
        check.lines.append(f"opened tiles (position=tile): {shown}")


def check_export(document: Any) -> DealCheck:
    """Recompute the deal of an export and check it (see the module docstring)."""
    export = unwrap(document)
    game = str(export.get("game"))
    check = DealCheck(game)
    spec = export.get("deal_spec", DEAL_SPEC)
    if spec != DEAL_SPEC:
        raise InvalidInput(f"this round was dealt under {spec!r}; this verifier knows {DEAL_SPEC}")
    check.lines.append(
        f"round {export.get('round_id')} ({game}, {export.get('status')}) under {DEAL_SPEC}"
    )
    seed_hex = export.get("seed")
    deal: dict[str, Any] | None = None
    if isinstance(seed_hex, str):
        seed = seed_from_hex(seed_hex)
        commitment = str(export.get("commitment") or "")
        check.add(
            "seed matches commitment",
            hashlib.sha256(seed).hexdigest() == commitment.lower(),
            f"sha256(seed) = {hashlib.sha256(seed).hexdigest()}",
        )
        client_seeds = check_client_seeds(export.get("client_seeds") or {})
        key = unit_key(seed, client_seeds)
        if client_seeds:
            listed = ", ".join(f"{s}={v}" for s, v in client_seeds.items())
            check.lines.append(
                f"key: HMAC-SHA256(server seed, client seeds {listed}) = {key.hex()}"
            )
        else:
            check.lines.append("key: the server seed (no client seeds)")
        inputs = export.get("inputs")
        if not isinstance(inputs, Mapping):
            raise InvalidInput("the export has no inputs object")
        deal = compute_deal(game, key, inputs)
        check.deal = deal
        description = _description(game)
        check.lines += description.lines(deal)
        dealt = export.get("dealt")
        if isinstance(dealt, Mapping):
            description.compare(check, deal, dealt)
    else:
        policy = export.get("seed_policy")
        why = "stays with the operator" if policy == "operator_only" else "is not revealed yet"
        check.lines.append(f"the seed {why}: commitment {export.get('commitment')}")
    tiles = export.get("tiles")
    if isinstance(tiles, Mapping):
        _check_tiles(check, tiles, deal)
    if not check.checks:
        check.add("something to check", False, "no seed and no tile openings in this export")
    return check


__all__ = ["DealCheck", "check_export", "unwrap"]
