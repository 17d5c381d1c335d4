"""The role model (ARCHITECTURE.md, Authority; docs/operators.md §2 "Roles and MFA").

* `player` — a card-room account (player session tokens): plays, picks among the operator's table
  templates, sees only its own rounds. Never a setting that touches money.
* the back office's roles, each an operator account (password + TOTP, operator session tokens):
  `supervisor` (runs the room: everything, and the only one who manages operators), `cashier`
  (the money desk), `floor` (tables, rounds and players' locks), `finance` (templates, ledger
  corrections, jackpot funding, the audit) and `auditor` (reads everything, changes nothing).

Least privilege is the one table `CAPABILITIES` (capability → roles) and the one table `ROUTES`
((method, path) → capability): every `/api/ops/…` route is let through by its row and nothing
else (`qipai.server.routers.ops.ops_allowed`), and docs/operators.md prints the same table. A
capability in `FOUR_EYES` is a request another operator approves (`qipai.authority.approvals`):
an approver needs the capability of what they approve, and is never the one who asked.

The two kinds of token never mix: a player token on `/api/ops/…` is refused with 403, an operator
token is no player session.
"""

from __future__ import annotations

from typing import Final, Literal

Role = Literal["player", "supervisor", "cashier", "floor", "finance", "auditor"]
ROLES: Final[tuple[Role, ...]] = ("player", "supervisor", "cashier", "floor", "finance", "auditor")
OPERATOR_ROLES: Final[tuple[str, ...]] = ("supervisor", "cashier", "floor", "finance", "auditor")
WRITE_ROLES: Final[tuple[str, ...]] = ("supervisor", "cashier", "floor", "finance")

ALL = frozenset(OPERATOR_ROLES)

CAPABILITIES: Final[dict[str, frozenset[str]]] = {
    # one's own session: sign out, who am I, password and TOTP (any stage)
    "self": ALL,
    # every report, list and record of the back office
    "read": ALL,
    # templates: create, new version, retire (four-eyes), preview
    "templates": frozenset({"supervisor", "finance"}),
    # tables (suspend, resume, close), voids, players' locks and quotas
    "floor": frozenset({"supervisor", "floor"}),
    # deposit and withdrawal requests, KYC, players' money limits
    "cashier": frozenset({"supervisor", "cashier"}),
    # ledger adjustments and reversals (four-eyes)
    "ledger": frozenset({"supervisor", "cashier", "finance"}),
    # seeding and topping up jackpot pools
    "jackpot": frozenset({"supervisor", "finance"}),
    # running the audit now (it changes nothing but the operator log)
    "audit": frozenset({"supervisor", "finance", "auditor"}),
    # approving or rejecting another operator's request (and the kind's own capability)
    "approve": frozenset({"supervisor", "cashier", "finance"}),
    # operators (add, disable, reset MFA, lift a lock-out) and table hosts (drain)
    "admin": frozenset({"supervisor"}),
}

ROUTES: Final[dict[tuple[str, str], str]] = {
    ("POST", "/api/ops/logout"): "self",
    ("GET", "/api/ops/me"): "self",
    ("POST", "/api/ops/password"): "self",
    ("POST", "/api/ops/totp/enrol"): "self",
    ("POST", "/api/ops/totp/confirm"): "self",
    ("GET", "/api/ops/templates"): "read",
    ("GET", "/api/ops/templates/{template_id}"): "read",
    ("POST", "/api/ops/templates"): "templates",
    ("POST", "/api/ops/templates/preview"): "templates",
    ("PUT", "/api/ops/templates/{template_id}"): "templates",
    ("POST", "/api/ops/templates/{template_id}/retire"): "templates",
    ("GET", "/api/ops/players"): "read",
    ("GET", "/api/ops/players/{player}"): "read",
    ("GET", "/api/ops/players/{player}/entries"): "read",
    ("GET", "/api/ops/players/{player}/rounds"): "read",
    ("POST", "/api/ops/players/{player}/lock"): "floor",
    ("POST", "/api/ops/players/{player}/unlock"): "floor",
    ("PUT", "/api/ops/players/{player}/limits"): "floor",
    ("PUT", "/api/ops/players/{player}/money-limits"): "cashier",
    ("PUT", "/api/ops/players/{player}/kyc"): "cashier",
    ("GET", "/api/ops/tables"): "read",
    ("POST", "/api/ops/tables/{table_id}/suspend"): "floor",
    ("POST", "/api/ops/tables/{table_id}/resume"): "floor",
    ("POST", "/api/ops/tables/{table_id}/close"): "floor",
    ("GET", "/api/ops/terms/tables"): "read",
    ("POST", "/api/ops/tables/{table_id}/terms"): "floor",
    ("GET", "/api/ops/rounds"): "read",
    ("GET", "/api/ops/rounds/{round_id}"): "read",
    ("GET", "/api/ops/rounds/{round_id}/replay"): "read",
    ("GET", "/api/ops/rounds/{round_id}/verify"): "read",
    ("POST", "/api/ops/rounds/{round_id}/void"): "floor",
    ("POST", "/api/ops/ledger/reversals"): "ledger",
    ("POST", "/api/ops/ledger/adjustments"): "ledger",
    ("GET", "/api/ops/ledger/accounts/{account}"): "read",
    ("POST", "/api/ops/jackpots/{pool_id}/fund"): "jackpot",
    ("GET", "/api/ops/money/requests"): "read",
    ("POST", "/api/ops/money/requests/{request_id}/approve"): "cashier",
    ("POST", "/api/ops/money/requests/{request_id}/reject"): "cashier",
    ("GET", "/api/ops/approvals"): "read",
    ("POST", "/api/ops/approvals/{approval_id}/approve"): "approve",
    ("POST", "/api/ops/approvals/{approval_id}/reject"): "approve",
    ("GET", "/api/ops/operators"): "admin",
    ("POST", "/api/ops/operators"): "admin",
    ("POST", "/api/ops/operators/{name}/disable"): "admin",
    ("POST", "/api/ops/operators/{name}/enable"): "admin",
    ("POST", "/api/ops/operators/{name}/reset"): "admin",
    ("POST", "/api/ops/operators/{name}/unlock"): "admin",
    ("GET", "/api/ops/log"): "read",
    ("GET", "/api/ops/log/verify"): "read",
    ("GET", "/api/ops/reports/house"): "read",
    ("GET", "/api/ops/reports/returns"): "read",
    ("GET", "/api/ops/integrity"): "read",
    ("POST", "/api/ops/integrity/audit"): "audit",
    ("GET", "/api/ops/hosts"): "read",
    ("POST", "/api/ops/hosts/{host_id}/drain"): "admin",
}
"""Every `/api/ops/…` route but the sign-in (anyone) and its capability; a route missing here
is refused to every role (tests/authority/test_roles_table.py walks the app's routes)."""

FOUR_EYES: Final[dict[str, str]] = {
    "adjustment": "ledger",
    "withdrawal": "cashier",
    "template": "templates",
}
"""What needs a second operator's approval, and the capability its approver must hold."""


def may(role: str, capability: str) -> bool:
    """Whether `role` holds `capability` (an unknown capability: nobody)."""
    return role in CAPABILITIES.get(capability, frozenset())


def route_roles(method: str, path: str) -> frozenset[str]:
    """The roles a route lets through (none for a route the table does not list)."""
    capability = ROUTES.get((method.upper(), path))
    return frozenset() if capability is None else CAPABILITIES[capability]


def capabilities_of(role: str) -> list[str]:
    """What `role` may do, for the console to show only what it may use."""
    return [c for c, roles in CAPABILITIES.items() if role in roles]
