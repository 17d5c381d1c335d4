"""Operator authority (docs/operators.md): roles, operators with TOTP, the operator log, table templates,
the exact-return cache, quotas, player controls and the house's money desk.

`Authority` bundles them over one database engine (the ledger's); the server keeps one at
`app.state.authority`. See `roles.py` for the role model.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine

from qipai.authority import four_eyes, games
from qipai.authority.approvals import Approvals
from qipai.authority.errors import (
    AccountLocked,
    LimitReached,
    PrivateNotAllowed,
    SettingsNotAllowed,
)
from qipai.authority.limits import MoneyLimits
from qipai.authority.money import MoneyDesk
from qipai.authority.operators import Operator, OperatorPolicy, OperatorStore
from qipai.authority.oplog import Actor, OperatorLog
from qipai.authority.players import PlayerControls
from qipai.authority.quotas import Quotas
from qipai.authority.references import References
from qipai.authority.rtp_cache import RtpCache
from qipai.authority.settings import AuthoritySettings
from qipai.authority.templates import Template, TemplateStore
from qipai.authority.terms import build_terms, facts
from qipai.ledger import Ledger

__all__ = [
    "Actor",
    "Authority",
    "AuthoritySettings",
    "Operator",
    "OperatorLog",
    "OperatorStore",
    "Template",
]

SETTING_KEYS = ("config", "settings", "rules", "pay_table", "limits", "odds")
"""Body keys a player might try to pass settings under: each is refused by name."""


class Authority:
    def __init__(
        self,
        engine: Engine,
        settings: AuthoritySettings | None = None,
        *,
        ledger: Ledger | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.engine = engine
        self.settings = settings or AuthoritySettings()
        self.clock = clock
        # the log is keyed with the ledger's key where there is one (docs/security.md)
        self.log = OperatorLog(engine, clock, None if ledger is None else ledger.keys.oplog_key)
        s = self.settings
        policy = OperatorPolicy(
            idle_s=s.ops_idle_s,
            max_s=s.ops_max_s,
            setup_idle_s=s.ops_setup_idle_s,
        )
        self.operators = OperatorStore(engine, self.log, policy, clock)
        self.rtp = RtpCache(engine, clock)
        self.references = References(self.settings.reference_rounds)
        self.templates = TemplateStore(engine, self.log, self.rtp.figures, clock)
        self.templates.key = None if ledger is None else ledger.keys.template_key
        self.players = PlayerControls(engine, self.log, clock)
        self.quotas = Quotas(self.settings, self.players)
        self.limits = MoneyLimits(engine, self.log, s.limit_cooling_s, clock)
        self.money = MoneyDesk(
            engine, ledger, self.log, self.settings, self.players, clock, self.limits
        )
        self.approvals = Approvals(engine, self.log, clock)
        four_eyes.register(self)

    # ----- start-up -------------------------------------------------------------------------
    def start(self) -> list[Template]:
        """Seed the shipped templates at first start (docs/rules/common.md#who-sets-the-rules defaults)
        and release what decided withdrawal requests still hold, and settle demo deposits
        left half-written (a crash in between)."""
        # templates written before they were sealed are sealed once (before the shipped ones
        # are seeded: those are sealed as they are written); then every version is checked
        # against its seal and a template found altered is suspended (docs/security.md)
        self.templates.seal_unsealed()
        made = self.templates.seed_defaults()
        self.templates.check_seals()
        if self.money.ledger is not None:
            self.money.release_decided()
            self.money.settle_demo()
        return made

    def warm(self) -> int:
        """Compute the exact return of every active template that has none cached yet (slow:
        the server runs it in a thread)."""
        items = []
        for t in self.templates.active():
            try:
                config = games.parse_config(t.game, t.config)
                items.append((t.game, config, games.config_hash(t.game, config)))
            except Exception:
                continue
        return self.rtp.warm(items)

    # ----- who is calling -------------------------------------------------------------------
    def operator_for_token(self, token: str | None) -> Operator | None:
        """The operator (or auditor) of an operator session token; refreshes its idle timer."""
        return self.operators.session(token)

    def check_player(self, player: str) -> None:
        """A locked player can do nothing (403 `account_locked`); a withdrawals-only one
        signs in (to withdraw) but plays nowhere (`check_play`)."""
        if self.players.locked(player):
            raise AccountLocked("this account is locked by the operator")

    def session_over(self, player: str, started: float) -> bool:
        """Whether a session that began at `started` (UNIX seconds) passed the player's session
        limit (minutes; docs/operators.md "Money controls")."""
        minutes = self.limits.limit(player, "session")
        return minutes is not None and self.clock() - started >= minutes * 60

    def check_play(self, player: str) -> None:
        """A player under any lock, withdrawals-only included, sits at no table."""
        kind = self.players.lock_kind(player)
        if kind is not None:
            raise AccountLocked(f"this account may not play now ({kind})")
        wager = self.limits.limit(player, "wager")
        if wager is not None:
            from qipai.authority.limits import wagered_since
            from qipai.authority.money import _day_start

            used = wagered_since(self.engine, player, _day_start(self.clock()))
            if used >= wager:
                raise LimitReached(
                    f"your wager limit of {wager} a day is used ({used} staked today, UTC)",
                    "wager",
                )

    # ----- what players see and pick --------------------------------------------------------
    def facts(self, template: Template) -> dict[str, Any]:
        """The transparency block of a template (exact return from the cache only, found under
        the hash of the template's settings as they are, never under its stored hash)."""
        return facts(template, self.rtp.for_settings(template.game, template.config))

    def table_facts(self, terms: Any) -> dict[str, Any] | None:
        """The transparency block of a table: its template version's facts (None for a table
        whose terms came from no template)."""
        template_id = getattr(terms, "template_id", None)
        version = getattr(terms, "template_version", None)
        if template_id is None or version is None:
            return None
        try:
            return self.facts(self.templates.get(template_id, int(version)))
        except Exception:  # a table must show even if its template is unreadable
            return None

    def offer(self, game: str | None = None) -> list[dict[str, Any]]:
        """Every active template, with its facts: what the lobby offers."""
        return [self.facts(t) for t in self.templates.active(game)]

    @staticmethod
    def refuse_settings(body: object) -> None:
        """A player's body that carries settings is refused, naming the key."""
        if isinstance(body, dict):
            for key in SETTING_KEYS:
                if key in body:
                    raise SettingsNotAllowed(
                        "players pick a table template; the operator sets every rule "
                        f"that touches money (remove {key!r})",
                        key,
                    )

    def terms_for(self, template_id: object, private: bool = False) -> Any:
        """The `TableTerms` for a new table of an active template a player picked."""
        template = self.templates.for_player(template_id)
        if private and not template.private_allowed:
            raise PrivateNotAllowed(f"template {template.id!r} offers no private tables", "private")
        return build_terms(template, private)

    def default_template(self, game: str) -> Template:
        """The first active template of a game (automatch by game name)."""
        found = self.templates.active(game)
        if not found:
            from qipai.authority.errors import UnknownTemplate

            raise UnknownTemplate(f"no table of {game!r} is offered", "game")
        return found[0]
