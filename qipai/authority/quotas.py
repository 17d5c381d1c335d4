"""Per-player quotas: tables a player has open at once, WebSocket connections, tables watched.
Over quota → `QuotaExceeded` (429, code `quota_exceeded`), and nothing changes.

The room as a whole is bounded too (`max_tables`): no player can make the lobby grow without
limit (one account opened 9,446 persistent tables in 20 seconds).
"""

from __future__ import annotations

from qipai.authority.errors import QuotaExceeded
from qipai.authority.players import PlayerControls
from qipai.authority.settings import AuthoritySettings


class Quotas:
    def __init__(self, settings: AuthoritySettings, players: PlayerControls) -> None:
        self.settings = settings
        self.players = players

    def check_open_table(self, player: str, open_now: int, room_tables: int) -> None:
        """Before a player opens a table: `open_now` tables they opened are still open."""
        limit = self.players.limit(player, "max_open_tables", self.settings.max_open_tables)
        if open_now >= limit:
            raise QuotaExceeded(
                f"you have {open_now} tables open (at most {limit}); close or leave one first",
                "template",
            )
        if room_tables >= self.settings.max_tables:
            raise QuotaExceeded("the room is full: no new tables now; join one of the lobby's")

    def check_connection(self, player: str, connections_now: int) -> None:
        limit = self.players.limit(player, "max_connections", self.settings.max_connections)
        if connections_now >= limit:
            raise QuotaExceeded(
                f"{connections_now} connections are open for this account (at most {limit})"
            )

    def check_watch(self, player: str, watching_now: int) -> None:
        limit = self.players.limit(player, "max_watched", self.settings.max_watched)
        if watching_now >= limit:
            raise QuotaExceeded(
                f"you watch {watching_now} tables (at most {limit}); unsubscribe from one first",
                "table_id",
            )
