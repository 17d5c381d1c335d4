"""Table templates: the operator's offer. Players pick a template; they never pass settings.

A template is a game, a name, the game's settings (parsed and bounded by the game's config
model), the minimum and maximum buy-in (the minimum at least what the game requires for those
settings), the bot levels allowed (none = no bots), whether players may open private tables of it,
the jackpot pool it feeds (its scope), and table options (away grace, client seeds).

Every change is a new version row (the table is append-only; retiring is a version with status
`retired`), each with its config hash and engine version: a running table keeps the version it
was opened with, so retiring or changing a template never breaks it. A template whose exact return
to player exceeds 100 % for any bet is refused unless the operator confirms it explicitly; the
confirmation is in the version row and the operator log.

The shipped templates are docs/rules/common.md#who-sets-the-rules's defaults, seeded at first start (`seed_defaults`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import Connection, Engine, and_, func, insert, select
from sqlalchemy.exc import IntegrityError

from qipai.authority import games
from qipai.authority.errors import (
    BadRequest,
    Conflict,
    RtpOver100,
    StaleVersion,
    TemplateRetired,
    TemplateSuspended,
    UnknownTemplate,
)
from qipai.authority.oplog import SYSTEM, Actor, OperatorLog
from qipai.authority.schema import table_templates

MAX_AMOUNT = 10**12
"""The largest buy-in a template may ask (the ledger holds 64-bit balances; a seat's worst case
stays far inside them)."""
TEMPLATE_ID = re.compile(r"^[a-z0-9][a-z0-9-]{2,39}$")
POOL_ID = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")
CURRENT_TTL_S = 2.0  # how stale the cached offer may be (seconds): other processes write too


class TableOptions(BaseModel):
    """Table-level settings beside the game's own (docs/rules/common.md "Common to every game")."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    away_grace_s: int = Field(default=60, ge=10, le=600)
    """How long an away seat keeps its place before it is stood up (docs/rules/common.md#away-seats, away)."""
    client_seeds: bool = True
    """Seated players' client seeds enter the deal (docs/fairness.md)."""
    idle_reveal_s: int = Field(default=600, ge=10, le=86_400)
    """A deal unit (a Pok Deng shoe, a Pai Gow game) at a table without a person for this long
    ends and its seed is revealed; the next player gets a new unit (docs/fairness.md)."""


class TemplateIn(BaseModel):
    """A new template, as an operator sends it."""

    model_config = ConfigDict(extra="forbid", strict=True)

    id: str | None = Field(default=None, pattern=TEMPLATE_ID.pattern)
    game: str = Field(min_length=1, max_length=32)
    name: str = Field(min_length=1, max_length=64)
    settings: dict[str, Any] = Field(default_factory=dict)
    min_buy_in: int | None = Field(default=None, gt=0, le=MAX_AMOUNT)
    max_buy_in: int | None = Field(default=None, gt=0, le=MAX_AMOUNT)
    bot_levels: list[str] | None = Field(default=None, max_length=20)
    private_allowed: bool = False
    pool_id: str | None = Field(default=None, pattern=POOL_ID.pattern)
    options: dict[str, Any] = Field(default_factory=dict)
    confirm_rtp_over_100: bool = False
    reason: str = Field(default="", max_length=500)


class TemplateChange(BaseModel):
    """A change to a template: the fields that change, on top of `base_version`."""

    model_config = ConfigDict(extra="forbid", strict=True)

    base_version: int = Field(ge=1)
    name: str | None = Field(default=None, min_length=1, max_length=64)
    settings: dict[str, Any] | None = None
    min_buy_in: int | None = Field(default=None, gt=0, le=MAX_AMOUNT)
    max_buy_in: int | None = Field(default=None, gt=0, le=MAX_AMOUNT)
    bot_levels: list[str] | None = Field(default=None, max_length=20)
    private_allowed: bool | None = None
    pool_id: str | None = Field(default=None, pattern=POOL_ID.pattern)
    options: dict[str, Any] | None = None
    confirm_rtp_over_100: bool = False
    reason: str = Field(min_length=1, max_length=500)


def parse_model(model: type[BaseModel], data: object, error: type[BadRequest] = BadRequest) -> Any:
    """A pydantic model from untrusted JSON; the first problem as a typed error with its field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or None
        raise error(f"{field}: {first['msg']}" if field else first["msg"], field) from None


@dataclass(frozen=True)
class Template:
    id: str
    version: int
    game: str
    name: str
    status: str
    config: dict[str, Any]
    config_hash: str
    engine_version: str
    min_buy_in: int
    max_buy_in: int
    bot_levels: tuple[str, ...]
    private_allowed: bool
    pool_id: str | None
    rtp_over_100: bool
    options: dict[str, Any]
    created_at: float
    created_by: str
    reason: str

    @property
    def active(self) -> bool:
        return self.status == "active"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "version": self.version,
            "game": self.game,
            "name": self.name,
            "status": self.status,
            "settings": self.config,
            "config_hash": self.config_hash,
            "engine_version": self.engine_version,
            "min_buy_in": self.min_buy_in,
            "max_buy_in": self.max_buy_in,
            "bot_levels": list(self.bot_levels),
            "private_allowed": self.private_allowed,
            "pool_id": self.pool_id,
            "rtp_over_100": self.rtp_over_100,
            "options": self.options,
            "created_at": self.created_at,
            "created_by": self.created_by,
            "reason": self.reason,
        }

    @classmethod
    def from_row(cls, row: Any) -> Template:
        return cls(
            id=row["template_id"],
            version=int(row["version"]),
            game=row["game"],
            name=row["name"],
            status=row["status"],
            config=dict(row["config"]),
            config_hash=row["config_hash"],
            engine_version=row["engine_version"],
            min_buy_in=int(row["min_buy_in"]),
            max_buy_in=int(row["max_buy_in"]),
            bot_levels=tuple(row["bot_levels"]),
            private_allowed=bool(row["private_allowed"]),
            pool_id=row["pool_id"],
            rtp_over_100=bool(row["rtp_over_100"]),
            options=dict(row["options"] or {}),
            created_at=float(row["created_at"]),
            created_by=row["created_by"],
            reason=row["reason"],
        )


RtpSource = Callable[[str, Any, str], list[dict[str, Any]] | None]


class TemplateStore:
    def __init__(
        self,
        engine: Engine,
        log: OperatorLog,
        rtp: RtpSource,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.engine = engine
        self.log = log
        self.rtp = rtp
        """(game, config, config_hash) -> every bet's exact return, or None if the game has
        no computation yet (the RTP cache)."""
        self.clock = clock
        self._current: dict[str, Template] | None = None
        self._current_at = 0.0  # time.monotonic() of the read behind `_current`
        self.generation = 0
        """Counts the times the cached offer was read again or dropped (a cache built on the
        offer, such as the lobby's, is stale once this changed)."""
        self.on_change: Callable[[], None] | None = None
        """Called (in the writer's thread) after a template changed here: a table host
        announces it to the others, which `forget` their cached offer at once (the TTL,
        CURRENT_TTL_S, stays the fallback for a lost announcement)."""
        self._versions: dict[tuple[str, int], Template] = {}
        self.key: bytes | None = None
        """The template key (`Keys.template_key`): versions are sealed with it and checked
        against their seals (`qipai.authority.seals`). None: no ledger, nothing sealed."""
        self.suspended: dict[str, str] = {}
        self._unlogged: list[tuple[str, str]] = []
        """Templates with a version whose terms differ from its seal: id -> what is wrong."""

    # ----- reading --------------------------------------------------------------------------
    def _latest(self, conn: Connection) -> list[Template]:
        newest = (
            select(
                table_templates.c.template_id,
                func.max(table_templates.c.version).label("version"),
            )
            .group_by(table_templates.c.template_id)
            .subquery()
        )
        rows = conn.execute(
            select(table_templates)
            .join(
                newest,
                and_(
                    table_templates.c.template_id == newest.c.template_id,
                    table_templates.c.version == newest.c.version,
                ),
            )
            .order_by(table_templates.c.game, table_templates.c.template_id)
        ).mappings()
        return [Template.from_row(r) for r in rows]

    def current(self) -> dict[str, Template]:
        """Every template's newest version (cached; this process's writes refresh it, and it is
        read again after CURRENT_TTL_S, so another process's changes — a second table host, the
        `qipai operator` command — are seen within that time)."""
        now = time.monotonic()
        if self._current is None or now - self._current_at > CURRENT_TTL_S:
            with self.engine.connect() as conn:
                self._current = {t.id: t for t in self._latest(conn)}
                self._check_seals(conn)
            self._log_suspensions()
            self.generation += 1
            self._current_at = now
        return self._current

    def check_seals(self) -> dict[tuple[str, int], str]:
        """Check every version against its seal now (start-up, the audit); suspends the
        templates found altered (`suspended`) and returns the findings."""
        with self.engine.connect() as conn:
            found = self._check_seals(conn)
        self._log_suspensions()
        return found

    def _check_seals(self, conn: Connection) -> dict[tuple[str, int], str]:
        if self.key is None:
            return {}
        from qipai.authority import seals

        found = seals.findings(conn, self.key)
        newest = {t.id: t.version for t in self._latest(conn)}
        suspended: dict[str, str] = {}
        for (template_id, version), what in sorted(found.items()):
            # tables open on the newest version: an operator's new version lifts it (an older
            # version's finding stays a finding of the audit)
            if newest.get(template_id) == version:
                suspended[template_id] = f"version {version}: {what}"
        # logged once per process, after the reading connection is closed (SQLite: one writer)
        self._unlogged += [(t, w) for t, w in suspended.items() if t not in self.suspended]
        self.suspended = suspended
        return found

    def _log_suspensions(self) -> None:
        from qipai.authority.oplog import SYSTEM

        pending, self._unlogged = self._unlogged, []
        for template_id, what in pending:
            self.log.append(SYSTEM, "template.suspend", template_id, what, {}, "refused")

    def seal_unsealed(self) -> int:
        """Seal the versions written before templates were sealed (the first start with a key)."""
        if self.key is None:
            return 0
        from qipai.authority import seals

        with self.engine.begin() as conn:
            return seals.seal_unsealed(conn, self.key, self.clock())

    def forget(self) -> None:
        """Drop the cached offer (another process changed a template): read again next use."""
        self._current = None
        self.generation += 1

    def active(self, game: str | None = None) -> list[Template]:
        """The offer: active templates, none suspended for altered terms."""
        current = self.current()
        return [
            t
            for t in current.values()
            if t.active and game in (None, t.game) and t.id not in self.suspended
        ]

    def get(self, template_id: object, version: int | None = None) -> Template:
        if not isinstance(template_id, str) or not TEMPLATE_ID.match(template_id):
            raise UnknownTemplate(f"no template {template_id!r}", "template")
        if version is None:
            found = self.current().get(template_id)
            if found is None:
                raise UnknownTemplate(f"no template {template_id!r}", "template")
            return found
        known = self._versions.get((template_id, version))
        if known is not None:  # versions never change: cached for good
            return known
        with self.engine.connect() as conn:
            row = (
                conn.execute(
                    select(table_templates).where(
                        table_templates.c.template_id == template_id,
                        table_templates.c.version == version,
                    )
                )
                .mappings()
                .first()
            )
        if row is None:
            raise UnknownTemplate(f"no version {version} of template {template_id!r}", "version")
        made = Template.from_row(row)
        if len(self._versions) < 10_000:
            self._versions[(template_id, version)] = made
        return made

    def versions(self, template_id: str) -> list[Template]:
        self.get(template_id)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(table_templates)
                .where(table_templates.c.template_id == template_id)
                .order_by(table_templates.c.version)
            ).mappings()
            return [Template.from_row(r) for r in rows]

    def for_player(self, template_id: object) -> Template:
        """An active template a player may open a table of (a retired one is refused)."""
        found = self.get(template_id)
        if not found.active:
            raise TemplateRetired(f"template {found.id!r} is retired", "template")
        if found.id in self.suspended:
            raise TemplateSuspended(
                f"template {found.id!r} is suspended: {self.suspended[found.id]}; an operator "
                "must make a new version",
                "template",
            )
        return found

    # ----- writing --------------------------------------------------------------------------
    def _build(
        self,
        template_id: str,
        version: int,
        game: str,
        name: str,
        settings: Mapping[str, Any],
        min_buy_in: int | None,
        max_buy_in: int | None,
        bot_levels: list[str] | None,
        private_allowed: bool,
        pool_id: str | None,
        options: Mapping[str, Any],
        confirm: bool,
        actor: Actor,
        reason: str,
        keep: tuple[int, int] | None = None,
    ) -> tuple[dict[str, Any], list[dict[str, Any]] | None]:
        """Validate everything and build the version row (and the RTP figures checked)."""
        config = games.parse_config(game, settings)
        config_json = games.config_json(config)
        digest = games.config_hash(game, config)
        need = games.min_buy_in(game, config)
        # a change keeps the buy-ins it does not name, raised to what the game needs
        low = min_buy_in if min_buy_in is not None else max(need, keep[0] if keep else 0)
        if max_buy_in is None and keep is not None:
            max_buy_in = max(keep[1], low)
        if low < need:
            raise BadRequest(
                f"min_buy_in {low} is below {need}, what one round's worst loss at the smallest "
                "bet needs for these settings (docs/rules/common.md#buy-in, buy-in)",
                "min_buy_in",
            )
        # by default as wide as the tables' own default range (qipai.tables.terms.default_terms)
        high = min(MAX_AMOUNT, max(100 * low, 100_000_000)) if max_buy_in is None else max_buy_in
        if high < low:
            raise BadRequest(f"max_buy_in {high} is below min_buy_in {low}", "max_buy_in")
        levels = games.bot_levels(game)
        chosen = list(levels) if bot_levels is None else bot_levels
        unknown = [b for b in chosen if b not in levels]
        if unknown:
            raise BadRequest(
                f"unknown bot levels {unknown}; the game has {list(levels)}", "bot_levels"
            )
        if len(set(chosen)) != len(chosen):
            raise BadRequest("bot_levels lists a level twice", "bot_levels")
        table_options = parse_model(TableOptions, dict(options)).model_dump()
        figures = self.rtp(game, config, digest)
        over = [b["bet"] for b in figures or () if b.get("over_100")]
        if over and not confirm:
            raise RtpOver100(
                f"the exact return to player exceeds 100 % for {', '.join(over)}; send "
                "confirm_rtp_over_100: true to offer it anyway (it is logged)",
                "confirm_rtp_over_100",
            )
        row = {
            "template_id": template_id,
            "version": version,
            "game": game,
            "name": name,
            "status": "active",
            "config": config_json,
            "config_hash": digest,
            "engine_version": games.engine_version(game),
            "min_buy_in": low,
            "max_buy_in": high,
            "bot_levels": chosen,
            "private_allowed": private_allowed,
            "pool_id": pool_id,
            "rtp_over_100": bool(over),
            "options": table_options,
            "created_at": self.clock(),
            "created_by": actor.name,
            "reason": reason,
        }
        return row, figures

    def _check_pool(self, conn: Connection, row: Mapping[str, Any]) -> None:
        """A pool is fed by the templates that name it, all of one game (a table can never
        touch the pool of another game's templates)."""
        if row["pool_id"] is None:
            return
        others = {
            t.game
            for t in self._latest(conn)
            if t.pool_id == row["pool_id"] and t.id != row["template_id"] and t.active
        }
        if others - {row["game"]}:
            raise Conflict(
                f"pool {row['pool_id']!r} belongs to templates of another game", "pool_id"
            )

    def _insert(
        self,
        conn: Connection,
        row: dict[str, Any],
        actor: Actor,
        action: str,
        figures: list[dict[str, Any]] | None,
    ) -> Template:
        conn.execute(insert(table_templates).values(**row))
        if self.key is not None:  # sealed in the version's own transaction
            from qipai.authority import seals

            seals.write_seal(conn, self.key, row["template_id"], row["version"], self.clock())
        detail: dict[str, Any] = {
            "version": row["version"],
            "game": row["game"],
            "config_hash": row["config_hash"],
            "status": row["status"],
        }
        if row["rtp_over_100"]:
            detail["confirmed_rtp_over_100"] = [
                {"bet": b["bet"], "rtp": b.get("rtp_exact")}
                for b in figures or ()
                if b.get("over_100")
            ]
        self.log.append_in(conn, actor, action, row["template_id"], row["reason"], detail)
        self._current = None
        self.generation += 1
        return Template.from_row(row)

    def check(self, verb: str, template_id: str | None, data: object) -> None:
        """Everything `create`, `change` or `retire` would check, writing nothing: a change
        filed for a second operator's approval is refused now if it would be refused then."""
        actor = Actor("check", "system")
        if verb == "create":
            self.prepare_create(data, actor)
        elif verb == "change":
            assert template_id is not None
            self._prepare_change(template_id, data, actor)
        else:
            assert template_id is not None
            body = data if isinstance(data, dict) else {}
            base = self.get(template_id)
            if body.get("base_version") != base.version:
                raise StaleVersion(
                    f"template {template_id!r} is at version {base.version}", "base_version"
                )
            if not base.active:
                raise TemplateRetired(f"template {template_id!r} is already retired", "template")

    def create(self, data: object, actor: Actor) -> Template:
        template_id, row, figures = self.prepare_create(data, actor)
        with self.engine.begin() as conn:
            exists = conn.execute(
                select(table_templates.c.version)
                .where(table_templates.c.template_id == template_id)
                .limit(1)
            ).first()
            if exists is not None:
                raise Conflict(f"template {template_id!r} exists", "id")
            self._check_pool(conn, row)
            made = self._insert(conn, row, actor, "template.create", figures)
        self._changed()
        return made

    def prepare_create(
        self, data: object, actor: Actor
    ) -> tuple[str, dict[str, Any], list[dict[str, Any]] | None]:
        body: TemplateIn = parse_model(TemplateIn, data)
        template_id = body.id or self._new_id(body.game, body.name)
        games.spec(body.game)
        row, figures = self._build(
            template_id,
            1,
            body.game,
            body.name,
            body.settings,
            body.min_buy_in,
            body.max_buy_in,
            body.bot_levels,
            body.private_allowed,
            body.pool_id
            if body.pool_id is not None
            else self._default_pool(body.game, template_id),
            body.options,
            body.confirm_rtp_over_100,
            actor,
            body.reason,
        )
        return template_id, row, figures

    def change(self, template_id: str, data: object, actor: Actor) -> Template:
        base, row, figures = self._prepare_change(template_id, data, actor)
        return self._write_version(
            template_id, base.version, row, actor, "template.change", figures
        )

    def _prepare_change(
        self, template_id: str, data: object, actor: Actor
    ) -> tuple[Template, dict[str, Any], list[dict[str, Any]] | None]:
        body: TemplateChange = parse_model(TemplateChange, data)
        base = self.get(template_id)
        if body.base_version != base.version:
            raise StaleVersion(
                f"template {template_id!r} is at version {base.version}, not "
                f"{body.base_version}: reload it and apply the change again",
                "base_version",
            )
        if not base.active:
            raise TemplateRetired(f"template {template_id!r} is retired", "template")
        row, figures = self._build(
            template_id,
            base.version + 1,
            base.game,
            body.name if body.name is not None else base.name,
            body.settings if body.settings is not None else base.config,
            body.min_buy_in,
            body.max_buy_in,
            body.bot_levels if body.bot_levels is not None else list(base.bot_levels),
            body.private_allowed if body.private_allowed is not None else base.private_allowed,
            body.pool_id if body.pool_id is not None else base.pool_id,
            body.options if body.options is not None else base.options,
            body.confirm_rtp_over_100,
            actor,
            body.reason,
            keep=(base.min_buy_in, base.max_buy_in),
        )
        return base, row, figures

    def retire(self, template_id: str, actor: Actor, reason: str, base_version: int) -> Template:
        """A retired template is offered no more; tables already open keep playing."""
        if not isinstance(reason, str) or not 1 <= len(reason) <= 500:
            raise BadRequest("a reason of 1-500 characters", "reason")
        base = self.get(template_id)
        if base_version != base.version:
            raise StaleVersion(
                f"template {template_id!r} is at version {base.version}", "base_version"
            )
        if not base.active:
            raise TemplateRetired(f"template {template_id!r} is already retired", "template")
        row = {
            **{
                "template_id": base.id,
                "game": base.game,
                "name": base.name,
                "config": base.config,
                "config_hash": base.config_hash,
                "engine_version": base.engine_version,
                "min_buy_in": base.min_buy_in,
                "max_buy_in": base.max_buy_in,
                "bot_levels": list(base.bot_levels),
                "private_allowed": base.private_allowed,
                "pool_id": base.pool_id,
                "rtp_over_100": base.rtp_over_100,
                "options": base.options,
            },
            "version": base.version + 1,
            "status": "retired",
            "created_at": self.clock(),
            "created_by": actor.name,
            "reason": reason,
        }
        return self._write_version(template_id, base.version, row, actor, "template.retire", None)

    def _write_version(
        self,
        template_id: str,
        base_version: int,
        row: dict[str, Any],
        actor: Actor,
        action: str,
        figures: list[dict[str, Any]] | None,
    ) -> Template:
        with self.engine.begin() as conn:
            newest = conn.execute(
                select(func.max(table_templates.c.version)).where(
                    table_templates.c.template_id == template_id
                )
            ).scalar()
            if newest != base_version:
                raise StaleVersion(
                    f"template {template_id!r} changed meanwhile (now version {newest})",
                    "base_version",
                )
            self._check_pool(conn, row)
            # two writers racing past this check collide on the (id, version) primary key
            made = self._insert(conn, row, actor, action, figures)
        self._changed()
        return made

    def _changed(self) -> None:
        """After a template's write committed: the others are told (`on_change`)."""
        if self.on_change is not None:
            self.on_change()

    def _new_id(self, game: str, name: str) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", f"{game} {name}".lower()).strip("-")[:32] or game
        slug = slug if len(slug) >= 3 else f"{slug}-tpl"
        taken = set(self.current())
        candidate, n = slug, 2
        while candidate in taken:
            candidate, n = f"{slug[:36]}-{n}", n + 1
        return candidate

    @staticmethod
    def _default_pool(game: str, template_id: str) -> str | None:
        """Games with a jackpot get a pool of their own template by default."""
        s = games.spec(game)
        return template_id if "pool" in tuple(getattr(s, "context_keys", ())) else None

    # ----- the shipped templates ------------------------------------------------------------
    def seed_defaults(self) -> list[Template]:
        """The shipped templates (the rules' defaults, docs/rules/common.md#who-sets-the-rules) that do not exist yet: all of them at
        first start, a new game's after an upgrade. A retired one is never revived (its id
        exists)."""
        have = set(self.current())
        made = []
        for body in shipped_templates():
            if body["id"] in have:
                continue
            try:
                made.append(self.create(body, SYSTEM))
            except (Conflict, IntegrityError):  # another process seeded it first (two
                continue  # table hosts starting together on an empty database)
            except BadRequest:  # a game whose defaults are not a valid offer: skipped
                continue
        self._current = None  # what another process seeded meanwhile is read again
        self.generation += 1
        return made


def shipped_templates() -> list[dict[str, Any]]:
    """docs/rules/common.md#who-sets-the-rules's default tables: each game's own
    (`GameSpec.shipped_tables`: both Pok Deng modes), else one at the game's defaults named by
    its title (a game registered by a plug-in or a test gets one too)."""
    names = games.game_names()
    out: list[dict[str, Any]] = []
    reason = "docs/rules/common.md#who-sets-the-rules defaults (shipped template)"
    for game in names:
        spec = games.spec(game)
        tables = getattr(spec, "shipped_tables", ())
        for table in tables:
            out.append(
                {
                    "id": table.id,
                    "game": game,
                    "name": table.name,
                    "settings": dict(table.settings),
                    "private_allowed": True,
                    "reason": reason,
                }
            )
        if tables:
            continue
        slug = re.sub(r"[^a-z0-9-]+", "-", game.lower()).strip("-")
        if not TEMPLATE_ID.match(slug):
            continue
        title = dict(getattr(spec, "title", {}))
        name = " ".join(t for t in (title.get("en"), title.get("zh")) if t) or game
        out.append(
            {
                "id": slug,
                "game": game,
                "name": name[:64],
                "settings": {},
                "private_allowed": True,
                "reason": reason,
            }
        )
    return out
