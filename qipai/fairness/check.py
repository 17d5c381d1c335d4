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


def _join(cards: Any) -> str:
    return " ".join(cards) if cards else "-"


def _deal_lines(deal: Mapping[str, Any]) -> list[str]:
    game = deal["game"]
    out: list[str] = []
    if game == "pokdeng":
        out.append(
            f"shoe: {len(deal['shoe'])} cards; the cut card leaves {deal['cut_behind']} behind it"
            f" (before index {deal['cut_index']})"
        )
        out.append(f"round at position {deal['position']}: burn {deal['burn']}")
        out += [f"  {spot}: {_join(cards)}" for spot, cards in deal["hands"].items()]
        out.append(f"  last round of the shoe: {'yes' if deal['last_round'] else 'no'}")
        out.append(f"shoe order: {_join(deal['shoe'])}")
    elif game == "paigow":
        out.append(f"tiles (shuffled): {_join(deal['tiles'])}")
        out.append(f"round {deal['round']} deals: {_join(deal['round_tiles'])}")
        if deal["banker"] is not None:
            out.append(f"banker: {deal['banker']} ({deal['banker_by']}); dice {deal['dice']}")
            out.append(f"first seat: {deal['first_seat']}; order {_join(deal['deal_order'])}")
            out += [f"  {s}: {_join(t)}" for s, t in deal["hands"].items()]
    elif game == "holdem-bonus":
        out.append(f"deck (shuffled): {_join(deal['deck'])}")
        if deal["boxes"]:
            out += [f"  box {b}: {_join(c)}" for b, c in deal["boxes"].items()]
            out.append(f"  dealer: {_join(deal['dealer'])}")
            out.append(f"  board: {_join(deal['board'])}")
    elif game == "niuniu":
        out.append(f"deck (shuffled): {_join(deal['deck'])}")
        for seat, cards in deal["initial"].items():
            line = f"  {seat}: {_join(cards)}"
            if deal["received"] is not None:
                line += (
                    f" | swapped in {_join(deal['received'][seat])} | fifth {deal['fifth'][seat]}"
                )
            out.append(line)
        if deal["banker"] is not None:
            out.append(f"banker: {deal['banker']} ({deal['banker_by']})")
    elif game == "tiengow":
        out.append(f"tiles (shuffled): {_join(deal['tiles'])}")
        out.append(f"banker: {deal['banker']} ({deal['banker_by']})")
        out += [f"  {s}: {_join(t)}" for s, t in deal["hands"].items()]
        out.append(f"tile commitment root: {deal['tiles_root']}")
    return out


def _compare_niuniu(check: DealCheck, deal: Mapping[str, Any], dealt: Mapping[str, Any]) -> None:
    """A final hand is the four first cards with the swapped positions replaced, in position
    order, by the cards swapped in, then the fifth card."""
    hands = dealt.get("hands") or {}
    for seat, initial in deal["initial"].items():
        hand = list(hands.get(seat) or [])
        received = list((deal["received"] or {}).get(seat, []))
        replaced = [hand[i] for i in range(min(4, len(hand))) if hand[i] != initial[i]]
        ok = len(hand) == 5 and hand[4] == (deal["fifth"] or {}).get(seat) and replaced == received
        check.add(f"{seat}'s hand as dealt", ok, _join(hand))


def _compare(check: DealCheck, deal: Mapping[str, Any], dealt: Mapping[str, Any]) -> None:
    game = deal["game"]
    if game == "niuniu":
        check.add("banker as chosen", dealt.get("banker") == deal["banker"], str(deal["banker"]))
        _compare_niuniu(check, deal, dealt)
        return
    keys = {
        "pokdeng": ("hands",),
        "paigow": ("banker", "dice", "first_seat", "deal_order", "hands"),
        "holdem-bonus": ("boxes", "dealer", "board"),
        "tiengow": ("banker", "hands"),
    }[game]
    for name in keys:
        if name not in dealt:
            continue
        expected, shown = deal.get(name), dealt[name]
        if isinstance(shown, Mapping) and isinstance(expected, Mapping):
            for part in shown:
                check.add(
                    f"{name} {part} as dealt",
                    list(shown[part]) == list(expected.get(part) or []),
                    _join(shown[part]),
                )
            if set(shown) != set(expected):
                check.add(
                    f"{name}: the same places", False, f"{sorted(shown)} vs {sorted(expected)}"
                )
        else:
            check.add(f"{name} as dealt", shown == expected, str(shown))


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
        check.lines += _deal_lines(deal)
        dealt = export.get("dealt")
        if isinstance(dealt, Mapping):
            _compare(check, deal, dealt)
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
