"""Past one process (docs/scaling.md): every server process is a table host and a front door.

* `ownership` — tables owned under leases in PostgreSQL (renewed every second, lapsing after
  three); lapsed tables taken over by compare-and-set and resumed from their journal.
* `fenced` — layouts saved only under the lease (round writes are fenced by the ledger).
* `bus` — Redis pub/sub between hosts: calls to a table's owner, per-player messages back.
* `node` — one host: the above tied to its `Room`, the host directory, placement by load.
* `proxy` — the lobby's HTTP requests about another host's tables, sent to that host.
* `directory` — every open table of the room from PostgreSQL (layouts and leases): the
  lobby's counts and the operator's table list from any host.
* `launcher` — `qipai serve --processes N`: N hosts behind one address (SO_REUSEPORT).

Nothing here runs on SQLite: one process owns the embedded database (`qipai.server.dblock`).
"""
