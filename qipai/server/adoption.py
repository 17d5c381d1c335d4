"""What `Room.adopt` reads about a table it takes over, read for many tables in one go.

A takeover pass claims up to hundreds of tables at once (`qipai.cluster.ownership`); adopting
each reads its layout, its recent client ids and its open rounds with their journals. One
table at a time that is ~9 statements per table (measured: ≈ 1.1 s of wall per table on a
busy host for 15–20 ms of CPU; docs/scaling.md, "Takeover"). `prepare` reads each kind once
for all the pass's tables when the ports can (`load_tables_of`, `recent_client_ids_of`,
`open_rounds_of`: `qipai.tables.batch_reads`); a port that cannot is read per table by
`Room.adopt` as before (SQLite, tests' memory repos).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from qipai.core.protocol import JSON
from qipai.tables.journal import Journal
from qipai.tables.ports import OpenRound

log = logging.getLogger("qipai.server.adoption")


@dataclass(frozen=True)
class Prepared:
    """One table's reads for `Room.adopt`: its saved layout (None: none saved), its recent
    (client id, player) pairs, oldest first, and its open rounds, oldest first."""

    layout: JSON | None
    client_ids: list[tuple[str, str]] = field(default_factory=list)
    open_rounds: list[OpenRound] = field(default_factory=list)


def batched(ledger: Any, repo: Any) -> bool:
    """Whether these ports read many tables at once."""
    return all(
        callable(getattr(port, name, None))
        for port, name in (
            (repo, "load_tables_of"),
            (ledger, "recent_client_ids_of"),
            (ledger, "open_rounds_of"),
        )
    )


def prepare(ledger: Any, repo: Any, table_ids: Sequence[str]) -> dict[str, Prepared] | None:
    """Table id -> its `Prepared` reads for every table of `table_ids`, in three reads (plus
    the open rounds' players and journals: five statements in all, whatever the count); None
    when the ports cannot batch (`Room.adopt` then reads per table)."""
    if not batched(ledger, repo):
        return None
    ids = list(dict.fromkeys(table_ids))
    if not ids:
        return {}
    # the three reads side by side, each on a connection of its own (they are independent;
    # measured: 0.3 + 1.0 + 0.8 s one after another for 259 tables on a loaded host)
    began = time.monotonic()
    with ThreadPoolExecutor(3, thread_name_prefix="qipai-adopt-read") as pool:
        laying = pool.submit(lambda: with_chain_heads(ledger, repo.load_tables_of(ids)))
        remembering = pool.submit(ledger.recent_client_ids_of, ids, Journal.CLIENT_IDS_KEPT)
        opening = pool.submit(ledger.open_rounds_of, ids)
        layouts: dict[str, JSON] = laying.result()
        client_ids: dict[str, list[tuple[str, str]]] = remembering.result()
        open_rounds: list[OpenRound] = opening.result()
    rounds: dict[str, list[OpenRound]] = {t: [] for t in ids}
    for item in open_rounds:
        rounds.setdefault(item.record.table_id, []).append(item)
    took = time.monotonic() - began
    log.log(  # worth a line in the host's log when slow (docs/scaling.md, "Takeover")
        logging.WARNING if took > 0.5 else logging.DEBUG,
        "adoption reads of %d tables: %.0f ms (%d client ids, %d open rounds)",
        len(ids),
        1000 * took,
        sum(len(v) for v in client_ids.values()),
        len(open_rounds),
    )
    return {t: Prepared(layouts.get(t), client_ids.get(t, []), rounds.get(t, [])) for t in ids}


def with_chain_heads(ledger: Any, layouts: dict[str, JSON]) -> dict[str, JSON]:
    """The layouts with their last result's chain head filled in from the ledger, for all of
    them in one read (`chain_heads_of`): restoring a layout otherwise reads its last round's
    whole journal for it, per table (`layout._restore_chain_head`). Layouts whose head is
    known, or ports that cannot batch, are left as they are."""
    read = getattr(ledger, "chain_heads_of", None)
    if read is None:
        return layouts
    wanting: dict[str, str] = {}
    for table_id, data in layouts.items():
        results = data.get("results") or []
        last = results[-1] if results else None
        if isinstance(last, dict) and last.get("round_id") and not last.get("chain_head"):
            wanting[table_id] = str(last["round_id"])
    if not wanting:
        return layouts
    heads: dict[str, JSON] = read(sorted(set(wanting.values())))
    out = dict(layouts)
    for table_id, round_id in wanting.items():
        head = heads.get(round_id)
        if head:
            data = out[table_id]
            results = list(data["results"])
            results[-1] = {**results[-1], "chain_head": head}
            out[table_id] = {**data, "results": results}
    return out


__all__ = ["Prepared", "batched", "prepare", "with_chain_heads"]
