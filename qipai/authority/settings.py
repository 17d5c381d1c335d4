"""The authority's server settings (the `Settings` of the server passes them in)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class AuthoritySettings(BaseModel):
    """Operator sessions, demo money and per-player quotas."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    demo: bool = True
    """Demo deposits (play money) on; off: deposits and withdrawals are requests an operator
    approves."""
    demo_daily_limit: int = Field(default=1_000_000, ge=0, le=10**12)
    """Play money one player may deposit per UTC day."""
    demo_max_deposit: int = Field(default=1_000_000, gt=0, le=10**12)
    """Largest single demo deposit."""
    ops_idle_s: float = Field(default=900.0, gt=0, le=86_400)
    ops_max_s: float = Field(default=12 * 3600.0, gt=0, le=7 * 86_400)
    ops_setup_idle_s: float = Field(default=600.0, gt=0, le=86_400)
    max_open_tables: int = Field(default=3, ge=0, le=1000)
    """Tables (private or not) a player may have opened and still open at once."""
    max_connections: int = Field(default=4, ge=1, le=1000)
    """WebSocket connections of one player at once."""
    max_watched: int = Field(default=8, ge=1, le=1000)
    """Tables one player may watch (be subscribed to) at once, over all connections."""
    max_tables: int = Field(default=2000, ge=1, le=1_000_000)
    """Tables of the whole room: players can open none beyond it."""
    empty_table_close_s: float = Field(default=1800.0, gt=0, le=7 * 86_400)
    """A table a player opened is closed once no person has sat at it for this long (its bots
    cashed out; `QIPAI_AUTHORITY__EMPTY_TABLE_CLOSE_S`)."""
    house_table_close_s: float = Field(default=120.0, gt=0, le=7 * 86_400)
    """A table of the house (automatch opened it, nobody owns it) is closed once no person has
    sat at it for this long, so tables of bots alone do not linger in the lobby; automatch
    reuses one while it waits (`QIPAI_AUTHORITY__HOUSE_TABLE_CLOSE_S`)."""
    reference_rounds: int = Field(default=5_000, ge=2, le=200_000)
    """Rounds of the simulated reference of a template version whose exact figures assume play
    the room does not make (Niu Niu's bidding and swapping bots, `qipai.authority.references`;
    `QIPAI_AUTHORITY__REFERENCE_ROUNDS`): its interval narrows as the square root."""
    adjust_approval_over: int = Field(default=0, ge=0, le=10**12)
    """Four-eyes: a ledger adjustment moving more than this (either way) waits for a second
    operator's approval (0: every adjustment does)."""
    withdrawal_approval_over: int = Field(default=100_000, ge=0, le=10**12)
    """Four-eyes: a withdrawal request above this needs a second operator's approval."""
    template_approval: bool = True
    """Four-eyes: a new template, version or retirement waits for a second operator."""
    withdrawal_kyc: bool = True
    """Withdrawals only for players whose KYC status is `verified`."""
    large_transaction: int = Field(default=1_000_000, ge=1, le=10**12)
    """A deposit or withdrawal request of at least this is flagged `large` to the cashier."""
    limit_cooling_s: float = Field(default=86_400.0, ge=0, le=90 * 86_400)
    """A player's raise of their own money limit takes effect after this long (lowering: at
    once)."""
