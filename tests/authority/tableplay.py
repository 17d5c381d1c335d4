"""Rounds played through the real table runtime (`qipai.tables.table.Table`) into a real
ledger, with every seat taken by a person whose moves a simulation bot chooses (the policies
of `qipai simulate`, so the exact figures apply) — or by the table's own house bots.

Deterministic: the deal seeds and the bots' randomness come from `seed`.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from qipai.authority import Authority
from qipai.authority.terms import build_terms
from qipai.core.protocol import ActionSpec
from qipai.core.rng import Rng
from qipai.ledger import Ledger
from qipai.tables import games
from qipai.tables.ledger_adapter import LedgerAdapter
from qipai.tables.ports import ManualClock
from qipai.tables.table import Table, Timing


class FlatNiuniu:
    """Never bids, bets the minimum multiple, never swaps: what Niu Niu's exact figure assumes
    (`qipai.analysis.simulate.simulate_niuniu`)."""

    def choose(self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng) -> Any:
        kind = legal[0].type
        if kind == "swap":
            return {"type": "swap", "cards": []}
        if kind == "bid":
            return {"type": "bid", "multiple": 0}
        return {"type": kind, "multiple": min(legal[0].options["choices"])}


def policy(game: str) -> Any:
    """The move chooser of the people at a simulated table."""
    if game == "pokdeng":
        from qipai.analysis.simulate import CoverageBot

        return CoverageBot()
    if game == "niuniu":
        return FlatNiuniu()
    if game == "paigow":
        from qipai.games.paigow.bots import RandomPaigowBot

        return RandomPaigowBot()
    if game == "holdem-bonus":
        return games.get(game).make_bot("optimal")
    return games.get(game).make_bot(games.get(game).default_bot())


def seeds(seed: str) -> Callable[[], bytes]:
    counter = itertools.count()
    return lambda: hashlib.sha256(f"tableplay:{seed}:{next(counter)}".encode()).digest()


def play(
    ledger: Ledger,
    authority: Authority,
    template_id: str,
    rounds: int,
    *,
    seed: int = 1,
    people: int | None = None,
    table_id: str | None = None,
    config_override: Mapping[str, Any] | None = None,
    buy_in: int | None = None,
    chooser: Any = None,
) -> Table:
    """Play `rounds` settled rounds of the template at a new table. `people` seats (default:
    every seat) are persons `p<seed>-<n>` with money deposited; the rest are house bots.
    `config_override` plays other settings than the template's while every round still records
    the template (a deliberately mispaid table: a test's pay change). `chooser`: the people's
    bot (default: `policy(game)`)."""
    template = authority.templates.get(template_id)
    terms = build_terms(template)
    if config_override:
        config = games.get(template.game).config({**template.config, **config_override})
        terms = replace(terms, config=config)
    game = games.get(template.game)
    clock = ManualClock()
    adapter = LedgerAdapter(ledger)
    tid = table_id or f"sim-{template.id}-{seed}"
    table = Table(
        tid,
        game,
        adapter,
        clock,
        terms=terms,
        timing=Timing(0.5, 1.0),
        seed_source=seeds(f"{seed}:{tid}"),
    )
    seat_count = len(game.seat_ids)
    n_people = seat_count if people is None else people
    stake = buy_in or min(terms.max_buy_in, max(10 * terms.min_buy_in, 1_000_000))
    humans = [f"p{seed}-{i}" for i in range(n_people)]
    for p in humans:
        adapter.deposit(p, 10**12, f"sim-{tid}-{p}")
        table.sit(p, p, stake)
        table.connect(p)
    if n_people < seat_count:
        table.fill_with_bots()
    chooser, rng = (
        chooser or policy(template.game),
        Rng(hashlib.sha256(f"bots:{seed}".encode()).digest()),
    )

    def settled() -> int:  # rounds started, less the one still running
        return table.number - (1 if table.round is not None else 0)

    target = settled() + rounds
    guard = 0
    while settled() < target:
        guard += 1
        if guard > 200 * rounds + 1000:
            raise AssertionError(f"{template.game}: only {settled()} rounds settled")
        clock.advance(0.5)
        table.tick()
        for p in humans:
            seat = table.seating.seat_of(p)
            if seat is None:  # stood up (short stack): top up and sit again
                adapter.deposit(p, stake, f"top-{tid}-{p}-{guard}")
                table.sit(p, p, stake)
                continue
            for _ in range(8):
                rnd = table.round
                if rnd is None or rnd.finished or seat not in rnd.awaiting():
                    break
                legal = rnd.legal_actions(seat)
                if not legal:
                    break
                reply = table.act(p, chooser.choose(rnd.view(seat), legal, rng), None)
                if reply.get("type") == "error":
                    raise AssertionError(f"{template.game}: {reply}")
    return table
