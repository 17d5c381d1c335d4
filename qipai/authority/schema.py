"""The authority's tables (SQLAlchemy Core), beside the ledger's in the same database.

The Alembic migrations of the `authority` branch (`qipai/ledger/migrations/versions/auth_*.py`)
create exactly these tables (a test compares them). Two are append-only, enforced by database
triggers the migration installs: the operator log (who, when, what, why) and the table templates
(every change of a template is a new version row; retiring is a version too).

Times are UNIX seconds (floats), like the card room's own tables.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    text,
)

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING)

APPEND_ONLY = ("ops_log", "table_templates", "template_seals")

operators = Table(
    "ops_operators",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("role", String(16), nullable=False),
    Column("salt", String(64), nullable=False),
    Column("pw_hash", String(128), nullable=False),
    Column("must_change", Boolean, nullable=False),
    Column("totp_secret", String(64), nullable=True),
    Column("totp_enabled", Boolean, nullable=False),
    Column("totp_last_step", BigInteger, nullable=True),
    Column("failed_logins", Integer, nullable=False),
    Column("locked_until", Float, nullable=True),
    Column("disabled", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    CheckConstraint(
        "role IN ('supervisor', 'cashier', 'floor', 'finance', 'auditor')", name="role"
    ),
)

op_sessions = Table(
    "ops_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("operator", String(32), ForeignKey("ops_operators.name"), nullable=False),
    Column("stage", String(8), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    CheckConstraint("stage IN ('setup', 'full')", name="stage"),
    Index("ix_ops_sessions_operator", "operator"),
)

ops_log = Table(
    "ops_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("actor", String(40), nullable=False),
    Column("role", String(16), nullable=False),
    Column("action", String(64), nullable=False),
    Column("target", String(200), nullable=False),
    Column("reason", Text, nullable=False),
    Column("outcome", String(16), nullable=False),
    Column("detail", JSON, nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
    CheckConstraint("outcome IN ('ok', 'refused')", name="outcome"),
    Index("ix_ops_log_actor", "actor", "id"),
    Index("ix_ops_log_action", "action", "id"),
)

template_seals = Table(
    "template_seals",
    metadata,
    Column("template_id", String(40), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("seal", String(64), nullable=False),
    Column("sealed_at", Float, nullable=False),
)
"""Each template version's seal: an HMAC over its exact terms under the template key
(`qipai.authority.seals`). Append-only."""

ops_log_head = Table(
    "ops_log_head",
    metadata,
    Column("name", String(16), primary_key=True),
    Column("last_id", Integer, nullable=False),
    Column("hash", String(64), nullable=False),
    Column("rows", Integer, nullable=False),
    Column("mac", String(64), nullable=False),
)
"""The operator log's head (one row, `name` 'ops_log'): its last row's id and hash, how many
rows it has, and an HMAC over the three under the operator-log key (`oplog.OperatorLog`)."""

table_templates = Table(
    "table_templates",
    metadata,
    Column("template_id", String(40), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("game", String(32), nullable=False),
    Column("name", String(64), nullable=False),
    Column("status", String(8), nullable=False),
    Column("config", JSON, nullable=False),
    Column("config_hash", String(64), nullable=False),
    Column("engine_version", String(32), nullable=False),
    Column("min_buy_in", BigInteger, nullable=False),
    Column("max_buy_in", BigInteger, nullable=False),
    Column("bot_levels", JSON, nullable=False),
    Column("private_allowed", Boolean, nullable=False),
    Column("pool_id", String(64), nullable=True),
    Column("rtp_over_100", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("created_by", String(40), nullable=False),
    Column("reason", Text, nullable=False),
    Column("options", JSON, nullable=False, server_default=text("'{}'")),
    CheckConstraint("status IN ('active', 'retired')", name="status"),
    CheckConstraint("version >= 1", name="version"),
    CheckConstraint("min_buy_in > 0 AND max_buy_in >= min_buy_in", name="buy_in"),
    Index("ix_table_templates_game", "game"),
)

rtp_cache = Table(
    "rtp_cache",
    metadata,
    Column("config_hash", String(64), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("engine_version", String(32), nullable=False),
    Column("data", JSON, nullable=False),
    Column("computed_at", Float, nullable=False),
)

money_requests = Table(
    "money_requests",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player", String(64), nullable=False),
    Column("kind", String(12), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("status", String(10), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("decided_at", Float, nullable=True),
    Column("decided_by", String(40), nullable=True),
    Column("reason", Text, nullable=False),
    Column("tx_id", Integer, nullable=True),
    Column("method", String(24), nullable=False, server_default=text("''")),
    Column("reference", String(64), nullable=False, server_default=text("''")),
    CheckConstraint("kind IN ('deposit', 'withdrawal', 'demo')", name="kind"),
    CheckConstraint("status IN ('pending', 'approved', 'rejected', 'cancelled')", name="status"),
    CheckConstraint("amount > 0", name="amount"),
    Index("ix_money_requests_player", "player", "created_at"),
    Index("ix_money_requests_status", "status", "id"),
)

player_controls = Table(
    "player_controls",
    metadata,
    Column("player", String(64), primary_key=True),
    Column("locked", Boolean, nullable=False),
    Column("lock_reason", Text, nullable=False),
    Column("limits", JSON, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("updated_by", String(40), nullable=False),
    Column("lock_kind", String(16), nullable=False, server_default=text("'lock'")),
    Column("lock_until", Float, nullable=True),
    Column("kyc", String(10), nullable=False, server_default=text("'none'")),
)
"""What operators set about a player: a lock of a kind (`lock`: nothing at all;
`self_exclusion` and `cool_off`: no sign-in until `lock_until`; `withdrawals_only`: sign-in and
withdrawals, no play), the KYC status (`none`, `pending`, `verified`, `rejected`: withdrawals
need `verified` where the room says so) and per-player limits that override the room's quotas
and the demo daily limit."""

player_limits = Table(
    "player_limits",
    metadata,
    Column("player", String(64), primary_key=True),
    Column("kind", String(12), primary_key=True),
    Column("player_value", BigInteger, nullable=True),
    Column("operator_value", BigInteger, nullable=True),
    Column("pending_value", BigInteger, nullable=True),
    Column("pending_from", Float, nullable=True),
    Column("updated_at", Float, nullable=False),
    Column("updated_by", String(40), nullable=False),
    CheckConstraint("kind IN ('deposit', 'loss', 'wager', 'session', 'withdrawal')", name="kind"),
)
"""A player's money limits (docs/operators.md "Money controls"), one row per kind: the
player's own and the operator's (the lower applies); a raise the player asked for waits in
`pending_value` until `pending_from` (the cooling period)."""

approvals = Table(
    "ops_approvals",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),
    Column("target", String(200), nullable=False),
    Column("payload", JSON, nullable=False),
    Column("reason", Text, nullable=False),
    Column("requested_by", String(40), nullable=False),
    Column("requested_at", Float, nullable=False),
    Column("status", String(10), nullable=False),
    Column("decided_by", String(40), nullable=True),
    Column("decided_at", Float, nullable=True),
    Column("decision_reason", Text, nullable=True),
    Column("result", JSON, nullable=True),
    CheckConstraint("status IN ('pending', 'approved', 'rejected', 'failed')", name="status"),
    Index("ix_ops_approvals_status", "status", "id"),
)
"""Four-eyes requests (qipai/authority/approvals.py): what one operator asked for, waiting for
another operator's decision."""
