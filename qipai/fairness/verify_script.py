"""`docs/verify_deal.py`, the standalone verifier, written from its parts (`qipai docs --write`;
CI runs `qipai docs --check`).

The verifier must run with nothing but Python's standard library (docs/fairness.md), so it is one
file; its parts live beside what they describe: the shared steps (the stream, the keys, the
starting orders, the tile commitment, the comparison, `verify` and `main`) in
`qipai/fairness/standalone/`, and each game's deal, description and comparison in its folder,
`qipai/games/<game>/verify_deal.py` (a snippet that adds itself to the script's `GAMES`). The
games come in the registry's order.
"""

from __future__ import annotations

from pathlib import Path

from qipai.core.spec import GameSpec, MissingCapability

PARTS = Path(__file__).resolve().parent / "standalone"
SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "verify_deal.py"


def snippet(spec: GameSpec) -> str:
    """The game's part of the standalone verifier (`verify_deal.py` in its folder)."""
    path = spec.folder / "verify_deal.py"
    if not path.is_file():
        raise MissingCapability(spec.name, [f"verify_deal (no {path.name} in {spec.folder})"])
    return path.read_text(encoding="utf-8").strip() + "\n"


def render() -> str:
    """The whole of docs/verify_deal.py."""
    from qipai.games import registry

    head = (PARTS / "head.py").read_text(encoding="utf-8").rstrip() + "\n"
    tail = (PARTS / "tail.py").read_text(encoding="utf-8").strip() + "\n"
    games = [snippet(spec) for spec in registry.available().values()]
    return "\n\n".join([head, *games, tail])


def stale(path: Path = SCRIPT) -> bool:
    """Whether the file differs from what its parts make."""
    return not path.is_file() or path.read_text(encoding="utf-8") != render()


def write(path: Path = SCRIPT) -> bool:
    """Write the file from its parts; True when it changed."""
    text = render()
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True
