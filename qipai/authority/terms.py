"""From a template to what a table and a player see: `TableTerms` (the table's fixed terms,
`qipai.tables.terms`) and the transparency block every lobby and table reply carries."""

from __future__ import annotations

from typing import Any

from qipai.authority import games
from qipai.authority.templates import Template


def build_terms(template: Template, private: bool = False) -> Any:
    """The `TableTerms` of a table opened from `template` (its version fixed for the table's
    life: a later change or retirement of the template does not touch it)."""
    from qipai.tables.terms import TableTerms  # type: ignore[import-untyped,unused-ignore]

    config = games.parse_config(template.game, template.config)
    return TableTerms(
        game=template.game,
        config=config,
        config_json=dict(template.config),
        config_hash=template.config_hash,
        min_buy_in=template.min_buy_in,
        max_buy_in=template.max_buy_in,
        bot_policy=tuple(template.bot_levels),
        template_id=template.id,
        template_version=template.version,
        private=private,
        pool_id=template.pool_id or "",
        away_grace_s=float(template.options.get("away_grace_s", 60)),
        client_seeds=bool(template.options.get("client_seeds", True)),
        idle_reveal_s=float(template.options.get("idle_reveal_s", 600)),
    )


def facts(template: Template, rtp: list[dict[str, Any]] | None) -> dict[str, Any]:
    """Everything a player is shown about a template before sitting and betting: the pay table
    of every bet (limits, commission, countdowns, base stake are in it), the buy-in range, the
    exact return of every bet for these settings, and where the rules are."""
    try:
        pay_table = games.pay_table(
            template.game, games.parse_config(template.game, template.config)
        )
    except Exception:  # a game whose settings no longer parse is shown with its raw settings
        pay_table = template.config
    return {
        "template": {
            "id": template.id,
            "version": template.version,
            "name": template.name,
            "status": template.status,
        },
        "game": template.game,
        "config_hash": template.config_hash,
        "engine_version": template.engine_version,
        "settings": template.config,
        "pay_table": pay_table,
        "min_buy_in": template.min_buy_in,
        "max_buy_in": template.max_buy_in,
        "bot_levels": list(template.bot_levels),
        "private_allowed": template.private_allowed,
        "pool_id": template.pool_id,
        "rtp": rtp,
        "rtp_status": "ready" if rtp is not None else "unavailable",
        "rtp_over_100": template.rtp_over_100,
        "rules": {
            "en": f"/api/rules/{template.game}?lang=en",
            "zh": f"/api/rules/{template.game}?lang=zh",
        },
    }
