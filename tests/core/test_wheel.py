"""An installed wheel carries every file the room reads (issue: the wheel shipped no rules pages,
read from the source tree): built with `uv build`, unpacked away from the checkout and imported
from there, it serves a game's rules page in both languages from inside the package, and it does
not carry the games' own tests."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, qipai
from qipai.games import registry
from qipai.server.routers.offer import rules_text
out = {"package": qipai.__file__}
for game in registry.names():
    spec = registry.get(game)
    en, zh = rules_text(game, "en"), rules_text(game, "zh")
    out[game] = {"en": en and en[1], "zh": zh and zh[1],
                 "path": str(spec.rules_page("en")[0]), "head": en and en[0][:40]}
from qipai.server import player_guide
guide = {lang: player_guide.for_room(lang) for lang in player_guide.LANGS}
out["_guide"] = {"path": str(player_guide.PAGES), "heads": {l: g[:12] for l, g in guide.items()},
                 "placeholders": any("{{" in g for g in guide.values())}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not installed")
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [uv, "build", "--wheel", "--out-dir", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=600,
    )
    (wheel,) = out.glob("qipai-*.whl")
    site = out / "site"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        assert not [n for n in names if "/tests/" in n], "the games' tests stay out of the wheel"
        archive.extractall(site)
    return site


def test_the_wheel_serves_every_rules_page_from_inside_the_package(unpacked: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(unpacked)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=unpacked.parent,  # away from the checkout: nothing is read from docs/
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found.pop("package").startswith(str(unpacked))
    guide = found.pop("_guide")  # the player's guide, served from inside the package too
    assert guide["path"].startswith(str(unpacked / "qipai")), guide
    assert guide["heads"]["zh"].startswith("# 玩家指南"), guide
    assert guide["heads"]["en"].startswith("# The player"), guide
    assert not guide["placeholders"]
    assert len(found) >= 5
    for game, page in found.items():
        assert page["path"].startswith(str(unpacked / "qipai")), (game, page["path"])
        assert page["en"] == "en" and page["head"].startswith("# "), (game, page)
        assert page["zh"] in ("zh", "en"), (game, page)
