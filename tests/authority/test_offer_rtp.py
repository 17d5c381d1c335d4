"""The offer's exact return is found under the hash of the template's settings as they are,
never under the hash stored beside them (`rtp_cache.actual_hash`, docs/security.md "Terms"): a
pay table edited in the database (its recorded `config_hash` left as it was) is offered either
not at all (the template suspended: its seal no longer holds) or beside the exact return of the
edited pay table (none until it is computed), never beside the old one. SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from qipai.authority import Authority, games
from qipai.ledger import Ledger
from tests.authority.conftest import Clock, both_backends
from tests.authority.test_template_seals import _edit_config

pytestmark = both_backends


def _offered(authority: Authority, template_id: str) -> dict[str, Any] | None:
    authority.templates.forget()  # the offer read again, as its periodic re-read does
    return next((f for f in authority.offer() if f["template"]["id"] == template_id), None)


def test_an_edited_pay_table_is_never_shown_beside_the_old_return(
    ledger: Ledger, clock: Clock
) -> None:
    keyed = Authority(ledger.engine, ledger=ledger, clock=clock)  # checks seals on re-read
    keyed.start()
    unkeyed = Authority(ledger.engine, clock=clock)  # a process that checks no seal
    victim = keyed.default_template("pokdeng")
    config = games.parse_config("pokdeng", victim.config)
    old = keyed.rtp.figures("pokdeng", config, victim.config_hash)
    assert old is not None
    for authority in (keyed, unkeyed):
        before = _offered(authority, victim.id)
        assert before is not None and before["rtp"] == old  # the negative control

    _edit_config(ledger.engine, victim.id, pair_odds=100)
    edited = games.parse_config("pokdeng", {**victim.config, "pair_odds": 100})
    right = games.rtp("pokdeng", edited)
    assert right != old
    for authority in (keyed, unkeyed):
        shown = _offered(authority, victim.id)
        if shown is None:  # suspended: not offered at all
            assert authority is keyed and victim.id in keyed.templates.suspended
            continue
        assert shown["settings"]["pair_odds"] == 100
        assert shown["rtp"] != old, "the edited pay table is shown beside the old return"
        assert shown["rtp"] in (None, right)
    # once computed (as start-up's warm does) the edited pay table shows its own return
    unkeyed.warm()
    shown = _offered(unkeyed, victim.id)
    assert shown is not None and shown["rtp"] == right
