"""The exact return of every bet, computed once per config hash and kept in the database.

The figures are keyed by the hash of the settings themselves (`actual_hash`: the settings
parsed by their game and hashed now), never by a hash stored beside them: a pay table edited in
the database (its recorded `config_hash` left as it was) finds no figures under its own hash
until they are computed for it, so an offer never shows an edited pay table beside the exact
return of the old one (docs/security.md, "Terms").

Computing it can take seconds (an exact enumeration), so it never runs on the event loop: the
template check computes it when an operator creates or changes a template (the server runs that
in a thread) and `warm` computes what is missing at start-up, in a thread. Lobby and table
replies only read what is cached (`cached`).
"""

from __future__ import annotations

import functools
import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from qipai.authority import games
from qipai.authority.schema import rtp_cache

log = logging.getLogger("qipai.authority")

Figures = list[dict[str, Any]]


def actual_hash(game: str, config: Any) -> str | None:
    """The hash of these settings as their game parses them (None: they do not parse)."""
    try:
        text = json.dumps(config, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return None
    return _hash_of_text(game, text)


@functools.lru_cache(maxsize=1024)
def _hash_of_text(game: str, text: str) -> str | None:
    """Memoized by the settings' text: the hash is a function of it (offers are read often)."""
    try:
        return games.config_hash(game, games.parse_config(game, json.loads(text)))
    except Exception:
        return None


class RtpCache:
    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock
        self._memory: dict[str, Figures] = {}
        self._lock = threading.Lock()
        self.computed = 0
        """How many computations this process ran (a test sees the cache work)."""

    def cached(self, digest: str) -> Figures | None:
        """What is known for a config hash, without computing (None: not yet)."""
        found = self._memory.get(digest)
        if found is not None:
            return found
        with self.engine.connect() as conn:
            conn.execution_options(qipai_read=True)  # SQLite: no write lock for a lookup
            row = conn.execute(
                select(rtp_cache.c.data, rtp_cache.c.game, rtp_cache.c.engine_version).where(
                    rtp_cache.c.config_hash == digest
                )
            ).first()
        if row is None or row[2] != _engine(row[1]):
            return None
        figures: Figures = list(row[0])
        self._memory[digest] = figures
        return figures

    def for_settings(self, game: str, config: Any) -> Figures | None:
        """What is known for these settings (a template's stored `config`), under their own
        hash, without computing (None: not yet, or settings that do not parse)."""
        digest = actual_hash(game, config)
        return None if digest is None else self.cached(digest)

    def figures(self, game: str, config: Any, digest: str | None = None) -> Figures | None:
        """Cached, or computed now and cached (None: the game has no computation yet), under
        the parsed settings' own hash (`digest`, the hash the caller holds, is not trusted)."""
        digest = games.config_hash(game, config)
        found = self.cached(digest)
        if found is not None:
            return found
        try:
            figures = games.rtp(game, config)
        except games.RtpUnavailable:
            return None
        if not figures:  # the game computes nothing yet: nothing to show, nothing to keep
            return None
        self.computed += 1
        self._store(game, digest, figures)
        return figures

    def _store(self, game: str, digest: str, figures: Figures) -> None:
        values = {
            "game": game,
            "engine_version": games.engine_version(game),
            "data": figures,
            "computed_at": self.clock(),
        }
        with self._lock:
            self._memory[digest] = figures
        try:
            with self.engine.begin() as conn:
                changed = conn.execute(
                    update(rtp_cache).where(rtp_cache.c.config_hash == digest).values(**values)
                ).rowcount
                if not changed:
                    conn.execute(insert(rtp_cache).values(config_hash=digest, **values))
        except IntegrityError:  # another process stored the same figures first
            pass

    def warm(self, items: Iterable[tuple[str, Any, str]]) -> int:
        """Compute what is missing for (game, config, hash) items; returns how many were run.
        A game whose computation fails is logged and skipped: it never stops start-up."""
        before = self.computed
        for game, config, digest in items:
            try:
                self.figures(game, config, digest)
            except Exception:
                log.exception("exact return of %s %s failed", game, digest[:12])
        return self.computed - before


def _engine(game: str) -> str:
    try:
        return games.engine_version(game)
    except Exception:
        return "?"
