"""Operator endpoints (issue 14, developer C2): the include point is wired into the app.

Every endpoint here depends on `qipai.server.deps.current_operator` (or
`current_auditor_or_operator`) and says so in its docstring.
"""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(prefix="/api/ops", tags=["ops"])
