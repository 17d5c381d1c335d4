"""Exact vs observed, like for like: each bet is compared with the reference for the play the
room makes, and the flags are corrected for the many bets compared at once.

* Niu Niu's exact figure assumes no bids and no swaps; the room's house bots bid and swap, so its
  rows are compared with the simulated return of those bots at the template's settings (the
  same figure `qipai.analysis.policy` computes), and say so. On SQLite and PostgreSQL.
* Many fair bets flag none at the nominal rate: over many reports of forty fair bets each, the
  share of reports with any flag stays near 5 % (without a correction it would be about 87 %).
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.analysis.policy import policy_returns
from qipai.authority import (
    Authority,
    AuthoritySettings,
    comparisons,
    games,
    references,
    reports,
)
from qipai.games import registry
from qipai.games.niuniu.bots import SensibleBot
from qipai.ledger import Ledger
from tests.authority.conftest import both_backends
from tests.authority.tableplay import play

REFERENCE_ROUNDS = 300


def _exact(authority: Authority) -> Any:
    def exact_of(game: str, config: Any, digest: str) -> Any:
        return authority.rtp.figures(game, games.parse_config(game, config), digest)

    return exact_of


@both_backends
def test_niuniu_is_compared_with_the_simulated_policy_figure(ledger: Ledger) -> None:
    authority = Authority(
        ledger.engine,
        AuthoritySettings(demo=False, reference_rounds=REFERENCE_ROUNDS),
        ledger=ledger,
    )
    authority.start()
    (niuniu,) = [t for t in authority.templates.active() if t.game == "niuniu"]
    (paigow,) = [t for t in authority.templates.active() if t.game == "paigow"]
    play(ledger, authority, niuniu.id, 12, seed=3, people=1, chooser=SensibleBot())
    play(ledger, authority, paigow.id, 3, seed=3)

    reference_of = references.lookup(authority.references, authority.templates, wait=True)
    with ledger.engine.connect() as conn:
        rows = reports.observed_returns(conn, _exact(authority), reference_of=reference_of)
    (nn,) = [r for r in rows if r["game"] == "niuniu"]
    spec = registry.get("niuniu")
    stack = min(max(spec.default_buy_in, 2 * niuniu.min_buy_in), niuniu.max_buy_in)
    (expected,) = policy_returns(
        spec, niuniu.config, "sensible", rounds=REFERENCE_ROUNDS, seed=1, stack=stack
    )
    assert nn["reference"] == "simulated"
    assert nn["reference_rtp"] == expected.rtp
    assert nn["reference_ci95"] == expected.ci95 > 0
    assert spec.exact_assumes in nn["reference_note"]
    assert nn["exact"] is not None and nn["exact"] != nn["reference_rtp"]  # both are shown
    se = nn["ci95"] / reports.Z95
    want = (nn["observed"] - expected.rtp) / math.hypot(se, expected.se)
    assert nn["z"] == want
    assert {r["reference"] for r in rows if r["game"] == "paigow"} == {"exact"}
    # asked without waiting (the console), a new version's reference is computed in the background
    fresh = authority.references.of(replace(niuniu, version=99))
    assert fresh is not None and fresh.status in ("pending", "ready")
    authority.references.close()


def _fair_report(rng: random.Random, bets: int, rounds: int) -> list[dict[str, Any]]:
    """One report of `bets` fair even-money bets (exact return 100 %), each over `rounds`."""
    rows = []
    for _ in range(bets):
        sample = reports.Sample()
        for _ in range(rounds):
            won = rng.random() < 0.5
            sample.nets.append(100 if won else -100)
            sample.stakes.append(100)
        obs, se = sample.estimate()
        rows.append(reports._compare(obs, se, 1.0, True))
    reports._correct(rows)
    return rows


def test_many_fair_bets_flag_none_at_the_nominal_rate() -> None:
    rng = random.Random(37)
    families = 300
    any_flag = sum(any(r["flag"] for r in _fair_report(rng, 40, 120)) for _ in range(families))
    # family-wise 5 %: 15 expected; 3 standard deviations above it (about 26) is the bound
    bound = families * 0.05 + 3 * math.sqrt(families * 0.05 * 0.95)
    assert any_flag <= bound


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=60))
def test_holm_flags_a_subset_of_the_uncorrected_flags(ps: list[float]) -> None:
    rejected, adjusted = comparisons.holm(ps)
    for p, flag, adj in zip(ps, rejected, adjusted, strict=True):
        assert adj >= p
        assert flag == (adj <= comparisons.ALPHA)
        if flag:
            assert p <= comparisons.ALPHA
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    assert all(adjusted[a] <= adjusted[b] for a, b in itertools.pairwise(order))
