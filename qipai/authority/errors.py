"""The authority's typed refusals. Each maps to one HTTP status (`status`) and carries a stable
`code` and, where one input is at fault, the `field` that names it."""

from __future__ import annotations

from qipai.core.errors import GameError


class AuthorityError(GameError):
    """`GameError`'s shape (`code`, `message`, `field`: docs/protocol.md "Errors") with
    the HTTP status it answers."""

    code = "authority_error"
    status = 400


class BadRequest(AuthorityError):
    code = "invalid_input"


class InvalidBody(BadRequest):
    """A request body that does not fit its model (the server's validation status, 422)."""

    status = 422


class SettingsNotAllowed(AuthorityError):
    """A player tried to pass table settings: players pick templates, never settings."""

    code = "settings_not_allowed"


class AuthRequired(AuthorityError):
    code = "auth_required"
    status = 401


class AuthFailed(AuthorityError):
    code = "auth_failed"
    status = 401


class TotpRequired(AuthorityError):
    code = "totp_required"
    status = 401


class OperatorOnly(AuthorityError):
    code = "operator_only"
    status = 403


class ReadOnlyRole(AuthorityError):
    """An auditor may read the back office but change nothing."""

    code = "read_only_role"
    status = 403


class RoleForbidden(AuthorityError):
    """The operator's role does not hold what the route needs (qipai/authority/roles.py)."""

    code = "role_forbidden"
    status = 403


class OwnRequest(AuthorityError):
    """Four-eyes: the operator who asked cannot approve their own request."""

    code = "own_request"
    status = 403


class WeakPassword(BadRequest):
    """A password an attacker would guess early (zxcvbn score below 3)."""

    code = "weak_password"


class SetupRequired(AuthorityError):
    """The operator must change the one-time password and enrol TOTP first."""

    code = "setup_required"
    status = 403


class AccountLocked(AuthorityError):
    code = "account_locked"
    status = 403


class NotFound(AuthorityError):
    code = "not_found"
    status = 404


class UnknownTemplate(NotFound):
    code = "unknown_template"


class Conflict(AuthorityError):
    code = "conflict"
    status = 409


class UnitInPlay(Conflict):
    """The round's deal unit is still dealing: nothing from which its deal could be computed
    (seed, replay, every seat's cards) is shown to any role until it ends (docs/security.md);
    an operator who must inspect it ends it first (void the round, or suspend/close the table)."""

    code = "unit_in_play"


class StaleVersion(Conflict):
    code = "stale_version"


class RtpOver100(AuthorityError):
    """A template whose exact return exceeds 100 % for a bet, without explicit confirmation."""

    code = "rtp_over_100"
    status = 409


class TemplateRetired(AuthorityError):
    code = "template_retired"
    status = 409


class TemplateSuspended(AuthorityError):
    """The template's terms differ from their seal (altered in the database): no table opens
    on it until an operator makes a new version (docs/security.md, "Terms")."""

    code = "template_suspended"
    status = 409


class PrivateNotAllowed(AuthorityError):
    code = "private_not_allowed"
    status = 403


class QuotaExceeded(AuthorityError):
    code = "quota_exceeded"
    status = 429


class DemoOff(AuthorityError):
    code = "demo_off"
    status = 403


class DemoLimit(AuthorityError):
    code = "demo_limit"
    status = 429


class LimitReached(AuthorityError):
    """A player's money limit (deposit, loss, wager, session, withdrawal) would be passed."""

    code = "limit_reached"
    status = 403


class KycRequired(AuthorityError):
    """Withdrawals wait for the player's identity to be verified (KYC)."""

    code = "kyc_required"
    status = 403
