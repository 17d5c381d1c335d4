"""A take-over pass comes as another host's lease lapses, not up to `renew_s` later
(`Ownership.next_pass_in`, `LeaseLine.next_lapse`, `next_wait`)."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from qipai.cluster.ownership import LAPSE_MARGIN_S, next_wait
from tests.cluster.inproc import TwoHosts


def test_the_wait_is_the_rest_of_the_period_or_sooner() -> None:
    assert next_wait(1.0, 0.25, None) == pytest.approx(0.75)
    assert next_wait(1.0, 0.25, 0.3) == pytest.approx(0.3)
    assert next_wait(1.0, 0.25, 2.0) == pytest.approx(0.75)
    assert next_wait(1.0, 0.25, -1.0) == 0.05  # overdue: soon, but no busy loop
    assert next_wait(1.0, 3.0, None) == 0.05


@pytest.mark.postgres
def test_the_next_pass_is_timed_to_another_hosts_next_lapse(two_hosts: TwoHosts) -> None:
    a, b, ledger, _clock = two_hosts
    table = a.room.create_table("toy")
    with ledger.engine.begin() as conn:  # a's lease of it lapses 0.6 s from now
        conn.execute(
            text(
                "UPDATE table_leases SET expires_at = now() + interval '0.6 second' "
                "WHERE table_id = :t"
            ),
            {"t": table.id},
        )
    due = b.ownership.next_pass_in()
    assert due is not None and LAPSE_MARGIN_S < due <= 0.6 + LAPSE_MARGIN_S
    # a's own lease is not a reason for a to look sooner (the module's earlier tables, if
    # any, are leased for a day: `two_hosts`)
    own = a.ownership.next_pass_in()
    assert own is None or own > 3600
    b.ownership.draining = True  # a draining host takes nothing over: no reason to look
    assert b.ownership.next_pass_in() is None
