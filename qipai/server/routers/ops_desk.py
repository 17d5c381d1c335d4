"""The back office's desk routes (docs/operators.md §2, §5): four-eyes approvals, operators'
accounts (a supervisor's), players' money limits and KYC, and the template preview. Who may
call each is its row of `qipai.authority.roles.ROUTES`, checked by `ops.ops_allowed`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from qipai.authority.roles import OPERATOR_ROLES
from qipai.server.inputs import Key, RowId
from qipai.server.routers.ops import AuthorityDep, Reason, Staff, _require_player, blocking

router = APIRouter(prefix="/api/ops", tags=["ops"])


# ----- four-eyes ---------------------------------------------------------------------------
@router.get("/approvals")
async def list_approvals(
    op: Staff,
    authority: AuthorityDep,
    status: Literal["pending", "approved", "rejected", "failed"] | None = None,
    kind: Literal["adjustment", "withdrawal", "template"] | None = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """Requests waiting for (or decided by) a second operator, newest first."""
    found = await blocking(lambda: authority.approvals.list(status=status, kind=kind, limit=limit))
    return {"approvals": found}


@router.post("/approvals/{approval_id}/approve")
async def approve_request(
    approval_id: RowId, body: Reason, op: Staff, authority: AuthorityDep
) -> dict[str, Any]:
    """Approve another operator's request: it runs now (403 `own_request` for your own;
    403 `role_forbidden` if your role may not do what it asks)."""
    return await blocking(authority.approvals.decide, approval_id, True, op.actor, body.reason)


@router.post("/approvals/{approval_id}/reject")
async def reject_request(
    approval_id: RowId, body: Reason, op: Staff, authority: AuthorityDep
) -> dict[str, Any]:
    """Reject another operator's request: nothing runs."""
    return await blocking(authority.approvals.decide, approval_id, False, op.actor, body.reason)


# ----- operators ---------------------------------------------------------------------------
class OperatorIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=2, max_length=32)
    role: str = Field(min_length=1, max_length=16)
    reason: str = Field(min_length=1, max_length=500)


@router.get("/operators")
async def list_operators(op: Staff, authority: AuthorityDep) -> dict[str, Any]:
    """Every operator: role, MFA enrolled, disabled, locked out; and the roles there are."""
    found = await blocking(authority.operators.all)
    return {"operators": found, "roles": list(OPERATOR_ROLES)}


@router.post("/operators", status_code=201)
async def add_operator(body: OperatorIn, op: Staff, authority: AuthorityDep) -> dict[str, Any]:
    """A new operator of `role`; the answer carries its one-time password (shown once: the
    new operator changes it and enrols MFA at the first sign-in)."""
    password = await blocking(authority.operators.add, body.name, body.role, op.actor)
    return {"name": body.name, "role": body.role, "one_time_password": password}


@router.post("/operators/{name}/disable")
async def disable_operator(
    name: Key, body: Reason, op: Staff, authority: AuthorityDep
) -> dict[str, Any]:
    """Disable an operator: every session of theirs ends now."""
    await blocking(authority.operators.set_disabled, name, True, op.actor, body.reason)
    return {"name": name, "disabled": True}


@router.post("/operators/{name}/enable")
async def enable_operator(
    name: Key, body: Reason, op: Staff, authority: AuthorityDep
) -> dict[str, Any]:
    await blocking(authority.operators.set_disabled, name, False, op.actor, body.reason)
    return {"name": name, "disabled": False}


@router.post("/operators/{name}/reset")
async def reset_operator(
    name: Key, body: Reason, op: Staff, authority: AuthorityDep
) -> dict[str, Any]:
    """Reset an operator's MFA (a lost authenticator): a new one-time password, enrolment
    anew, every session ended."""
    password = await blocking(authority.operators.reset, name, op.actor, body.reason)
    return {"name": name, "one_time_password": password}


@router.post("/operators/{name}/unlock")
async def unlock_operator(
    name: Key, body: Reason, op: Staff, authority: AuthorityDep
) -> dict[str, Any]:
    """Lift an operator's lock-out, keeping their password and authenticator."""
    await blocking(authority.operators.lift_lockout, name, op.actor, body.reason)
    return {"name": name, "locked": False}


# ----- players' money controls -------------------------------------------------------------
@router.put("/players/{player}/money-limits")
async def operator_money_limit(
    player: Key, body: dict[str, Any], request: Request, op: Staff, authority: AuthorityDep
) -> dict[str, Any]:
    """The operator's limit of one kind (`deposit`, `loss`, `wager`, `withdrawal` per UTC day
    in minor units, `session` in minutes; `value` null: none) with a `reason`; the lower of the
    operator's and the player's applies, at once."""

    def work() -> dict[str, Any]:
        _require_player(request, player)
        authority.limits.set_by_operator(player, op.actor, body)
        return {"player": player, "money_limits": authority.limits.of(player)}

    return await blocking(work)


class KycBody(Reason):
    status: Literal["none", "pending", "verified", "rejected"]


@router.put("/players/{player}/kyc")
async def player_kyc(
    player: Key, body: KycBody, request: Request, op: Staff, authority: AuthorityDep
) -> dict[str, Any]:
    """The player's KYC status; withdrawals need `verified` where the room says so."""

    def work() -> dict[str, Any]:
        _require_player(request, player)
        status = authority.players.set_kyc(player, op.actor, body.model_dump())
        return {"player": player, "kyc": status}

    return await blocking(work)


# ----- templates ---------------------------------------------------------------------------
@router.post("/templates/preview")
async def preview_template(
    body: dict[str, Any], op: Staff, authority: AuthorityDep
) -> dict[str, Any]:
    """What a template would offer, written nowhere: its facts (pay table, buy-ins, the exact
    return of every bet) and the game's PAR sheet where the game has one (`par`: null
    otherwise)."""
    from qipai.analysis.par import par_for
    from qipai.authority.oplog import Actor
    from qipai.authority.templates import Template
    from qipai.authority.terms import facts
    from qipai.core.spec import NotOffered

    def work() -> dict[str, Any]:
        _, row, figures = authority.templates.prepare_create(body, Actor(op.name, op.role))
        made = Template.from_row(row)
        try:
            par: Any = par_for(made.game, made.config).to_json()
        except NotOffered:
            par = None
        return {"facts": facts(made, figures), "par": par}

    return await blocking(work)
