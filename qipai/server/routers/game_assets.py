"""A game's browser files, served from its folder (docs/adding-a-game.md): the client holds no
list of games and loads each game's renderer and strings from where the game lives.

* `GET /games/{package}/renderer.js` — **anyone**: the game's table renderer (an ES module,
  `qipai/games/<package>/web/renderer.js`); `verify.js` (its in-page deal verifier) and
  `i18n.json` (`{"zh": {...}, "en": {...}}`, strings the client merges) likewise.

Only those three names of a registered game's `web/` folder are served; anything else is 404.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse

from qipai.games import registry
from qipai.server.errors import ApiError
from qipai.server.inputs import Key, LongKey

router = APIRouter(tags=["games"])

ASSETS = {
    "renderer.js": "text/javascript",
    "verify.js": "text/javascript",
    "i18n.json": "application/json",
}


@router.get("/games/{package}/{asset}", response_class=FileResponse)
async def game_asset(package: Key, asset: LongKey) -> FileResponse:
    """**Anyone.** One of a game's browser files (see the module docstring)."""
    media = ASSETS.get(asset)
    spec = next(
        (s for s in registry.available().values() if s.package_name.rpartition(".")[2] == package),
        None,
    )
    path = None if spec is None or media is None else spec.folder / "web" / asset
    if path is None or not path.is_file():
        raise ApiError(404, "not_found", f"no {asset!r} for game folder {package!r}", field="asset")
    return FileResponse(path, media_type=media, headers={"Cache-Control": "no-cache"})
