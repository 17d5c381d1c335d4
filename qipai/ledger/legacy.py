"""Sealing a database written before the chains existed (revision 0003 upgraded it): once, the
first time the ledger opens it with its key, every record gets its chain position and MAC and
every seed of a deal unit still in play is encrypted (`sealing`), in one transaction.

This is trust on first use: the upgrade vouches for what the database held at that moment. It
runs only while no chain exists at all; afterwards a row without a MAC is a violation that
`qipai audit` reports (and the triggers let no row lose its MAC).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import Engine, func, select, text

from qipai.ledger import chain as chain_mod
from qipai.ledger import records as records_mod
from qipai.ledger import sealing
from qipai.ledger.schema import CHAINED, chain_heads, metadata, rounds, seed_reveals, utcnow

if TYPE_CHECKING:
    from qipai.ledger.keys import Keys


def seal_legacy(engine: Engine, keys: Keys) -> int:
    """Seal unchained rows if no chain exists yet; returns how many records were sealed."""
    with engine.connect() as conn:
        conn.execution_options(qipai_read=True)
        with conn.begin():
            heads = int(conn.execute(select(func.count()).select_from(chain_heads)).scalar_one())
            unsealed = sum(
                int(
                    conn.execute(
                        select(func.count())
                        .select_from(metadata.tables[t])
                        .where(metadata.tables[t].c.mac.is_(None))
                    ).scalar_one()
                )
                for t in CHAINED
            )
    if heads or not unsealed:
        return 0
    sealed = _seal(engine, keys)
    if sealed and engine.dialect.name == "sqlite":
        # the plaintext seeds the old rows held may linger in freed pages: rebuild the file
        with engine.connect() as conn:
            raw = conn.connection.dbapi_connection
            assert raw is not None
            raw.execute("VACUUM")
            raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return sealed


def _seal(engine: Engine, keys: Keys) -> int:
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(7240918)"))
            if conn.execute(select(func.count()).select_from(chain_heads)).scalar_one():
                return 0
        revealed = {
            str(c): str(s)
            for c, s in conn.execute(select(seed_reveals.c.seed_commitment, seed_reveals.c.seed))
        }
        for rid, commitment, seed in conn.execute(
            select(rounds.c.id, rounds.c.seed_commitment, rounds.c.seed).where(
                rounds.c.mac.is_(None)
            )
        ).all():
            if sealing.is_sealed(str(seed)):
                continue
            plain = bytes.fromhex(str(seed))
            stored = sealing.seal_seed(keys.seed_key, plain, str(rid), str(commitment))
            conn.execute(rounds.update().where(rounds.c.id == rid).values(seed=stored))
            revealed.pop(str(commitment), None)
        found = [r for r in records_mod.load(conn) if r.mac is None]
        found.sort(key=lambda r: (r.at, r.order, str(r.key)))
        heads_now: dict[str, tuple[int, str]] = {}
        for record in found:
            chain = record.home
            seq = heads_now.get(chain, (0, chain_mod.GENESIS))[0] + 1
            mac = chain_mod.mac(
                keys.mac_key,
                heads_now.get(chain, (0, chain_mod.GENESIS))[1],
                record.build(chain, seq),
            )
            heads_now[chain] = (seq, mac)
            table = metadata.tables[record.table]
            pk = next(iter(table.primary_key.columns))
            conn.execute(
                table.update().where(pk == record.key).values(chain=chain, chain_seq=seq, mac=mac)
            )
        now = utcnow()
        for chain, (seq, mac) in heads_now.items():
            conn.execute(chain_heads.insert().values(chain=chain, seq=seq, mac=mac, updated_at=now))
        return len(found)


__all__ = ["seal_legacy"]
