"""The reference each bet's observed return is compared with in the back office.

For most games it is the exact figure of the template's settings (`RtpCache`). A game whose exact
figure assumes play the room does not make (`GameSpec.exact_assumes`: Niu Niu's is for no bids
and no swaps, while the room's bots bid on four cards and swap) is compared with the return of
the policies the room plays instead: a simulation of the template version's settings with its
default house bot in every seat (`qipai.analysis.policy`), with that figure's own standard
error. A simulation costs seconds to minutes of CPU (about 16 ms a Niu Niu round), so it runs in
the background, once per template version (kept in memory; a restart computes it again), one at
a time on daemon threads, and a report asked for before it is ready says "pending" and flags
nothing for that game.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

Key = tuple[str, int, str, str, int]
"""(template id, version, config hash, bot level, bot stack)."""


@dataclass(frozen=True)
class Reference:
    """The simulated reference of one template version: `status` ready, pending or failed."""

    status: str
    assumes: str
    level: str | None = None
    rounds: int = 0
    figures: dict[str, dict[str, Any]] | None = None
    error: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "assumes": self.assumes,
            "level": self.level,
            "rounds": self.rounds,
            "error": self.error,
        }


class References:
    """Simulated references per template version (see the module docstring)."""

    def __init__(self, rounds: int, seed: int = 1) -> None:
        self.rounds = rounds
        self.seed = seed
        self._lock = threading.Lock()
        self._done: dict[Key, Reference] = {}
        self._queued: set[Key] = set()
        # one simulation at a time (each is CPU-bound), on daemon threads: a process that
        # stops does not wait for a reference nobody will read
        self._one = threading.Lock()
        self._closed = False

    def of(self, template: Any, *, wait: bool = False) -> Reference | None:
        """The reference of a template version: None where its exact figures are the reference
        (the game's exact figure holds for the room's play); `wait` computes it here (tests, the
        command line) instead of in the background."""
        from qipai.analysis.policy import default_level
        from qipai.games import registry

        spec = registry.available().get(template.game)
        if spec is None or not spec.exact_assumes:
            return None
        level = default_level(spec, tuple(template.bot_levels)) or default_level(
            spec, tuple(spec.bots)
        )
        if level is None:
            return Reference("failed", spec.exact_assumes, error="the game has no bots")
        low, high = template.min_buy_in, template.max_buy_in
        stack = min(max(spec.default_buy_in, 2 * low), high)  # seating.bot_stack's rule
        key: Key = (template.id, int(template.version), template.config_hash, level, stack)
        with self._lock:
            found = self._done.get(key)
            if found is not None:
                return found
            if not wait and key in self._queued:
                return Reference("pending", spec.exact_assumes, level, self.rounds)
            if not wait:
                self._queued.add(key)
                threading.Thread(
                    target=self._run,
                    args=(key, spec, dict(template.config)),
                    name="qipai-reference",
                    daemon=True,
                ).start()
                return Reference("pending", spec.exact_assumes, level, self.rounds)
        self._run(key, spec, dict(template.config))
        with self._lock:
            return self._done.get(key, Reference("pending", spec.exact_assumes, level, self.rounds))

    def _run(self, key: Key, spec: Any, config: dict[str, Any]) -> None:
        from qipai.analysis.policy import policy_returns

        _, _, _, level, stack = key
        try:
            with self._one:
                if self._closed:
                    return
                figures = policy_returns(
                    spec, config, level, rounds=self.rounds, seed=self.seed, stack=stack
                )
            done = Reference(
                "ready",
                spec.exact_assumes,
                level,
                self.rounds,
                {f.bet: f.to_json() for f in figures},
            )
        except Exception as exc:  # a reference that cannot be computed flags nothing
            log.exception("simulated reference of %s v%s failed", key[0], key[1])
            done = Reference("failed", spec.exact_assumes, level, self.rounds, error=str(exc))
        with self._lock:
            self._done[key] = done
            self._queued.discard(key)

    def close(self) -> None:
        """Start no simulation that is still waiting (one running finishes on its own)."""
        self._closed = True


ReferenceOf = Callable[[str, int | None], Reference | None]
"""(template id, version) → its reference (None: the exact figure)."""


def lookup(references: References, templates: Any, *, wait: bool = False) -> ReferenceOf:
    """A `ReferenceOf` over every version of every template, read now (before the report opens
    its connection: on SQLite a second transaction inside it would wait for the first)."""
    known: dict[tuple[str, int], Any] = {}
    for template_id in templates.current():
        for version in templates.versions(template_id):
            known[(version.id, int(version.version))] = version

    def reference_of(template_id: str, version: int | None) -> Reference | None:
        found = None if version is None else known.get((template_id, int(version)))
        return None if found is None else references.of(found, wait=wait)

    return reference_of


__all__ = ["Reference", "ReferenceOf", "References", "lookup"]
