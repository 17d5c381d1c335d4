"""The card-room server's settings: one place, one default per value.

Every value can be set in the environment as `QIPAI_<NAME>` (e.g. `QIPAI_PORT=9000`,
`QIPAI_SESSION_IDLE_S=3600`); `qipai serve` flags override the environment. Nothing else in
the server reads the environment.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from qipai.authority.settings import AuthoritySettings
from qipai.cluster.settings import ClusterSettings
from qipai.tables.table import Timing

if TYPE_CHECKING:
    from qipai.ledger.keys import Keys


class Settings(BaseSettings):
    """What an operator can set when starting the card room (`QIPAI_` + the field's name)."""

    model_config = SettingsConfigDict(
        env_prefix="QIPAI_", env_nested_delimiter="__", extra="ignore", frozen=True
    )

    # ----- where --------------------------------------------------------------------------
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    database_url: str | None = Field(
        default=None,
        description="SQLite file or database URL; empty: the embedded file in the user data dir",
    )
    log_level: Literal["critical", "error", "warning", "info", "debug"] = "info"
    """The server log's least level (JSON lines on stdout, docs/operators.md#logs): `info`
    writes every request and operator-log line, `warning` only refusals, suspensions and
    errors."""
    extra_games: str = Field(
        default="", description="comma-separated modules that register extra games (tests)"
    )

    key: SecretStr | None = Field(
        default=None, description="the ledger's key (64 hex digits); default: its key file"
    )
    key_file: str | None = Field(default=None, description="file holding the ledger's key")
    authority: AuthoritySettings = Field(
        default_factory=AuthoritySettings,
        description="operator sessions, demo money, quotas: QIPAI_AUTHORITY__DEMO=false, …",
    )

    cluster: ClusterSettings = Field(
        default_factory=ClusterSettings,
        description="table hosts on PostgreSQL + Redis: QIPAI_CLUSTER__REDIS_URL=redis://…, …",
    )

    # ----- pace of the room (tests and benchmarks speed it up) -----------------------------
    bot_delay: float = Field(default=0.9, ge=0, le=60)
    between_rounds: float = Field(default=5.0, ge=0, le=600)
    countdown_scale: float = Field(default=1.0, gt=0, le=10)
    table_workers: int = Field(
        default=4,
        ge=1,
        le=64,
        description="threads running table work (QIPAI_TABLE_WORKERS): on PostgreSQL a table's"
        " thread waits for each journal commit, so more threads let more tables share a commit",
    )

    # ----- sessions ----------------------------------------------------------------------
    session_idle_s: float = Field(
        default=12 * 3600.0, gt=0, description="a token unused this long is dead"
    )
    session_max_s: float = Field(
        default=7 * 24 * 3600.0, gt=0, description="a token older than this is dead, used or not"
    )
    ws_auth_timeout_s: float = Field(
        default=10.0, gt=0, description="time a new WebSocket has to send its auth message"
    )
    ws_heartbeat_dead_s: float = Field(
        default=8.0,
        gt=0,
        le=10.0,
        description="a socket that signed in with the heartbeat and then said nothing this long "
        "is dead and closed (docs/protocol.md, 'Heartbeat': within 10 s)",
    )

    # ----- passwords and sign-in throttling ------------------------------------------------
    hash_workers: int = Field(
        default=1,
        ge=1,
        le=32,
        description="threads hashing passwords (one: sign-ins can never take every core)",
    )
    hash_queue: int = Field(
        default=64, ge=1, description="password hashes waiting at most; more is 'busy' (429)"
    )
    login_free_failures: int = Field(
        default=5,
        ge=1,
        description="wrong passwords for one account from one address before that address's "
        "back-off on it (never the account's: a stranger cannot lock anyone out)",
    )
    login_name_failures: str = Field(
        default="50/hour",
        description="wrong passwords for one name from all addresses together; past it only "
        "addresses that signed in to it before are looked at (docs/security.md)",
    )
    ops_login_rate: str = Field(
        default="10/minute", description="operator sign-in attempts per address"
    )
    ops_name_failures: str = Field(
        default="20/hour",
        description="wrong operator sign-ins for one name from all addresses together",
    )
    address_free_failures: int = Field(
        default=20, ge=1, description="wrong passwords from one address before the back-off"
    )
    login_backoff_s: float = Field(
        default=2.0, gt=0, description="first back-off; doubles with every further failure"
    )
    login_backoff_max_s: float = Field(default=900.0, gt=0)
    login_rate: str = Field(default="30/minute", description="sign-in attempts per address")
    signup_rate: str = Field(default="10/minute;100/hour", description="sign-ups per address")

    # ----- opening tables (each one is database work: refused before it, cheaply) -----------
    table_open_rate: str = Field(
        default="6/minute;60/hour",
        description="tables one player may open (POST /api/tables), beside the authority's "
        "max_open_tables open at once",
    )
    room_table_open_rate: str = Field(
        default="120/minute",
        description="tables all players together may open through this process",
    )

    # ----- WebSocket limits -------------------------------------------------------------
    max_frame_bytes: int = Field(default=16_384, ge=256, le=1_048_576)
    ws_compression: bool = Field(
        default=False,
        description="permessage-deflate on WebSockets (QIPAI_WS_COMPRESSION), off by default: "
        "it makes state messages several times smaller but costs 14-20 % of the server's "
        "CPU per round, compressing every message for every socket (docs/scaling.md, "
        "'The hot path'); on for players on slow links when the CPU is there",
    )
    max_body_bytes: int = Field(default=65_536, ge=1024, le=16_777_216)
    max_json_depth: int = Field(default=16, ge=2, le=256)
    frame_rate: str = Field(default="40/second;600/minute", description="frames per socket")
    action_rate: str = Field(default="20/second;300/minute", description="actions per player")
    connect_rate: str = Field(
        default="10/second;300/minute", description="WebSocket connections per address"
    )
    held_per_address: int = Field(
        default=4,
        ge=0,
        le=64,
        description="refused connections of a shut address held unread until its window ends"
        " (0: reset at once)",
    )
    held_total: int = Field(
        default=1024, ge=0, le=65_536, description="refused connections held unread, in all"
    )
    abuse_strikes: int = Field(
        default=50, ge=1, description="refused frames in a row before the socket is closed"
    )
    send_queue: int = Field(
        default=64, ge=4, description="messages (other than states) queued per socket at most"
    )
    send_stall_s: float = Field(
        default=15.0, gt=0, description="a socket that accepts nothing this long is closed"
    )

    # ----- process ------------------------------------------------------------------------
    shutdown_timeout_s: float = Field(
        default=5.0, ge=0, le=60, description="open connections get this long on SIGTERM"
    )
    lag_interval_s: float = Field(default=0.25, gt=0, description="event-loop lag probe period")

    def ledger_keys(self) -> Keys | None:
        """The ledger's key from these settings (None: the ledger's own default file)."""
        from qipai.ledger.keys import Keys

        if self.key is not None:
            return Keys.parse(self.key.get_secret_value(), "$QIPAI_KEY")
        if self.key_file is not None:
            path = Path(self.key_file).expanduser()
            try:
                text = path.read_text(encoding="ascii")
            except OSError as exc:
                from qipai.ledger.errors import KeyMissing

                raise KeyMissing(f"cannot read the key file {path}: {exc.strerror}") from None
            return Keys.parse(text, str(path))
        return None

    def timing(self) -> Timing:
        return Timing(
            bot_delay=self.bot_delay,
            between_rounds=self.between_rounds,
            countdown_scale=self.countdown_scale,
        )


__all__ = ["Settings"]
