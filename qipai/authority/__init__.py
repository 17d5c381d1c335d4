"""Operator authority (issue 14): roles, operators with TOTP, the operator log, table templates,
the exact-return cache, quotas, and the house's money desk.

`Authority` bundles them over one database engine (the ledger's); the server keeps one at
`app.state.authority`. See `roles.py` for the role model.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy import Engine

from qipai.authority.operators import Operator, OperatorPolicy, OperatorStore
from qipai.authority.oplog import Actor, OperatorLog
from qipai.authority.settings import AuthoritySettings

__all__ = ["Actor", "Authority", "AuthoritySettings", "Operator", "OperatorLog", "OperatorStore"]


class Authority:
    def __init__(
        self,
        engine: Engine,
        settings: AuthoritySettings | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.engine = engine
        self.settings = settings or AuthoritySettings()
        self.clock = clock
        self.log = OperatorLog(engine, clock)
        s = self.settings
        policy = OperatorPolicy(
            idle_s=s.ops_idle_s,
            max_s=s.ops_max_s,
            setup_idle_s=s.ops_setup_idle_s,
            max_failures=s.ops_max_failures,
            lockout_s=s.ops_lockout_s,
        )
        self.operators = OperatorStore(engine, self.log, policy, clock)

    def operator_for_token(self, token: str | None) -> Operator | None:
        """The operator (or auditor) of an operator session token; refreshes its idle timer."""
        return self.operators.session(token)
