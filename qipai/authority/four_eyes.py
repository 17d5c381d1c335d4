"""What four-eyes guards (docs/operators.md §2), asked for and run: ledger adjustments,
withdrawals above the room's threshold and template changes. Each `ask_*` checks its input at
once (bad input refused before anything waits), then either runs the action (under the room's
threshold, or with four-eyes off for templates) or files it with `Approvals`; the runner
registered here runs it when a second operator approves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from qipai.authority.errors import Conflict
from qipai.authority.oplog import Actor

if TYPE_CHECKING:
    from qipai.authority import Authority


def register(authority: Authority) -> None:
    money, templates = authority.money, authority.templates

    def adjustment(p: dict[str, Any], asker: Actor, approver: Actor, why: str) -> dict[str, Any]:
        reason = f"{p['reason']} (approved by {approver.name}: {why})"[:500]
        return money.adjust(str(p["player"]), int(p["amount"]), asker, reason)

    def withdrawal(p: dict[str, Any], asker: Actor, approver: Actor, why: str) -> dict[str, Any]:
        return money.decide(int(p["request_id"]), True, approver, f"{p['reason']}; {why}"[:500])

    def template(p: dict[str, Any], asker: Actor, approver: Actor, why: str) -> dict[str, Any]:
        verb, body = str(p["verb"]), dict(p["body"])
        if verb == "create":
            made = templates.create(body, asker)
        elif verb == "change":
            made = templates.change(str(p["template_id"]), body, asker)
        else:
            made = templates.retire(
                str(p["template_id"]), asker, str(body["reason"]), int(body["base_version"])
            )
        return {**made.to_json(), "facts": authority.facts(made)}

    authority.approvals.register("adjustment", adjustment)
    authority.approvals.register("withdrawal", withdrawal)
    authority.approvals.register("template", template)


def ask_adjust(
    authority: Authority, player: str, amount: int, actor: Actor, reason: str
) -> dict[str, Any]:
    """An adjustment: run now if within the threshold, else a request for a second operator."""
    from qipai.authority.money import player_exists

    ledger = authority.money._ledger()
    if not player_exists(ledger, player):
        from qipai.authority.errors import NotFound

        raise NotFound(f"no player {player!r}", "player")
    if abs(amount) <= authority.settings.adjust_approval_over:
        return {"status": "done", **authority.money.adjust(player, amount, actor, reason)}
    payload = {"player": player, "amount": amount, "reason": reason}
    made = authority.approvals.request("adjustment", player, payload, actor, reason)
    return {"status": "awaiting_approval", "approval": made}


def ask_withdrawal(
    authority: Authority, request_id: int, actor: Actor, reason: str
) -> dict[str, Any]:
    """Approving a withdrawal request: above the threshold the first approval files a request
    for a second operator (the money stays held); a second approval of the same request by
    another operator decides it (the asker cannot: 403 `own_request`)."""
    request = authority.money.get(request_id)
    if request["status"] != "pending":
        raise Conflict(f"request {request_id} is {request['status']} already")
    if not authority.money.needs_second(request):
        return authority.money.decide(request_id, True, actor, reason)
    waiting = authority.approvals.pending_for("withdrawal", str(request_id))
    if waiting is not None:
        authority.approvals.decide(int(waiting["id"]), True, actor, reason)
        return authority.money.get(request_id)
    payload = {"request_id": request_id, "reason": reason}
    made = authority.approvals.request("withdrawal", str(request_id), payload, actor, reason)
    return {**request, "awaiting_approval": made}


def ask_template(
    authority: Authority,
    verb: str,
    template_id: str | None,
    body: dict[str, Any],
    actor: Actor,
) -> dict[str, Any]:
    """A template change (`create`, `change`, `retire`): checked now (a dry run), then run now
    or filed for a second operator as the room says (`template_approval`)."""
    from qipai.authority.errors import BadRequest

    reason = body.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise BadRequest("a reason (1-500 characters, not blank) is required", "reason")
    if not authority.settings.template_approval:
        return _run_template(authority, verb, template_id, body, actor)
    authority.templates.check(verb, template_id, body)
    payload = {"verb": verb, "template_id": template_id, "body": body}
    target = template_id or str(body.get("name", ""))
    made = authority.approvals.request("template", target, payload, actor, reason)
    return {"status": "awaiting_approval", "approval": made}


def _run_template(
    authority: Authority,
    verb: str,
    template_id: str | None,
    body: dict[str, Any],
    actor: Actor,
) -> dict[str, Any]:
    templates = authority.templates
    if verb == "create":
        made = templates.create(body, actor)
    elif verb == "change":
        assert template_id is not None
        made = templates.change(template_id, body, actor)
    else:
        assert template_id is not None
        made = templates.retire(template_id, actor, str(body["reason"]), int(body["base_version"]))
    return {**made.to_json(), "facts": authority.facts(made)}
