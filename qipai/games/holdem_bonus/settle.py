"""`qipai settle` for Hold'em Bonus: settle one dealt round from JSON (the audit tool).

Input::

    {"game": "holdem-bonus",
     "board": ["Ah", "Kd", "7c", "7d", "2s"], "dealer": ["Qs", "Qh"],
     "pool": {"balance": 1000000, "stake": 100, "contribution": "0.5", "seed": 500000},
     "bonus_table": "source" | "with-small-pairs",            # optional, default "source"
     "seats": {"1": {"hole": ["As", "Ad"], "ante": 100, "bonus": 100, "pool": true,
                     "flop": true, "turn": true, "river": false}, …}}

`bonus` is 0 (or absent) or equal to the ante; `flop` false means the box folded; `turn` needs
`flop`, `river` needs `turn`. `pool` (the object) is needed when a seat bet the pool; it may
also carry `"percent": {"straight": "0.10", …}` (default docs/rules/holdem-bonus.md's). Optional `"note"`.

Output: per seat its hand and the dealer's (category, best five cards), `outcome` (win, lose,
tie, fold), the nets of `ante`, `flop`, `turn`, `river`, `bonus`, `pool` and their sum, the
bonus line and the pool hand; the pool's steps and `pool.balance_after`; totals.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from qipai.core.cards import Card, parse_card, require_distinct
from qipai.core.errors import InvalidInput
from qipai.core.model import Amount, Amount0, Flag, Model, Text
from qipai.core.money import to_rate
from qipai.core.protocol import HOUSE, JACKPOT, ROUNDING
from qipai.games.holdem_bonus.config import (
    DEFAULT_POOL_PERCENT,
    AwardShare,
    BonusTable,
    CategoryKey,
    HoldemBonusConfig,
    Share,
)
from qipai.games.holdem_bonus.payout import BoxPlay, PoolSettings, settle_round

Seat = Annotated[str, Field(strict=True, min_length=1, max_length=32)]
CardText = Annotated[str, Field(strict=True, max_length=8)]
MAX_BOXES = 7


Hole = Annotated[tuple[CardText, ...], Field(min_length=2, max_length=2)]
Board = Annotated[tuple[CardText, ...], Field(min_length=5, max_length=5)]


class HoldemSettlePool(Model):
    """The jackpot pool before the round: its balance, the fixed stake, the contribution share,
    the house-funded seed and (optionally) the award per category."""

    balance: Amount0
    stake: Amount
    contribution: Share
    seed: Amount0
    percent: dict[CategoryKey, AwardShare] | None = None


class HoldemSettleSeat(Model):
    """One box: its hole cards, ante, bonus bet (0 or the ante), pool bet and the later bets
    (`flop` false = folded; `turn` needs `flop`, `river` needs `turn`)."""

    hole: Hole
    ante: Amount
    bonus: Amount0 = Field(0, description="0 or the ante")
    pool: Flag = Field(False, description="a pool bet (the document then needs its pool)")
    flop: Flag = Field(False, description="false: the box folded")
    turn: Flag = Field(False, description="needs flop")
    river: Flag = Field(False, description="needs turn")


class HoldemSettle(Model):
    """The `qipai settle` document of a Hold'em Bonus round.

    Cross-field rules (checked by the model, stated in the schema's descriptions): a seat's
    bonus bet is 0 or its ante, `turn` needs `flop` and `river` needs `turn`; a pool bet needs
    the `pool` object. One deck (no card twice) is checked in `settle`, where the cards are read."""

    game: Literal["holdem-bonus"]
    board: Board
    dealer: Hole
    pool: HoldemSettlePool | None = None
    bonus_table: BonusTable = "source"
    seats: dict[Seat, HoldemSettleSeat] = Field(min_length=1, max_length=MAX_BOXES)
    note: Annotated[Text, Field(max_length=10_000)] | None = None

    @model_validator(mode="after")
    def _bets_in_order(self) -> HoldemSettle:
        for name, data in self.seats.items():
            ante, bonus = data.ante, data.bonus
            if bonus not in (0, ante):
                raise InvalidInput(
                    f"seat {name}: the bonus bet must equal the ante ({ante}), not {bonus}",
                    field=f"seats.{name}.bonus",
                )
            if data.turn and not data.flop:
                raise InvalidInput(
                    f"seat {name}: a turn bet needs a flop bet (the box folded)",
                    field=f"seats.{name}.turn",
                )
            if data.river and not data.turn:
                raise InvalidInput(
                    f"seat {name}: a river bet needs a turn bet (a check gives it up)",
                    field=f"seats.{name}.river",
                )
        if self.pool is None and any(d.pool for d in self.seats.values()):
            raise InvalidInput(
                'a seat bet the pool: give "pool": {"balance", "stake", …}', field="pool"
            )
        return self


# The model `qipai schema` writes as docs/schema/<game>.settle.json (qipai.core.schema).
DOCUMENT = HoldemSettle


def _cards(raw: tuple[str, ...], what: str) -> list[Card]:
    try:
        return [parse_card(c) for c in raw]
    except InvalidInput as exc:
        raise InvalidInput(f"{what}: {exc.message}") from None


def _pool_settings(raw: HoldemSettlePool) -> tuple[PoolSettings, int, int]:
    """(settings, opening balance, stake) from the document's pool object."""
    percent = DEFAULT_POOL_PERCENT if raw.percent is None else raw.percent
    # The table config validates the rates exactly as a live table would.
    cfg = HoldemBonusConfig.parse(
        {
            "pool_stake": raw.stake,
            "pool_contribution": raw.contribution,
            "pool_seed": raw.seed,
            "pool_percent": dict(percent),
        }
    )
    settings = PoolSettings(cfg.pool_rates, to_rate(raw.contribution), raw.seed)
    return settings, raw.balance, raw.stake


def settle(raw_doc: Mapping[str, Any]) -> dict[str, Any]:
    """Settle the round the document describes; InvalidInput for anything malformed."""
    doc = HoldemSettle.parse(raw_doc)
    board = _cards(doc.board, "board")
    dealer = _cards(doc.dealer, "dealer")
    table = doc.bonus_table
    raw_plays: list[tuple[str, HoldemSettleSeat, list[Card]]] = []
    all_cards = [*board, *dealer]
    for name, data in doc.seats.items():
        hole = _cards(data.hole, f"seat {name} hole")
        all_cards += hole
        raw_plays.append((name, data, hole))
    require_distinct(all_cards, "the round (one deck)")

    settings, opening, stake = (
        _pool_settings(doc.pool)
        if doc.pool is not None
        else (PoolSettings({}, Fraction(0), 0), 0, 0)
    )
    plays: list[BoxPlay] = []
    for name, data, hole in raw_plays:
        ante, bonus = data.ante, data.bonus
        flop, turn, river = data.flop, data.turn, data.river
        pool_stake = stake if data.pool else 0
        plays.append(
            BoxPlay(name, name, (hole[0], hole[1]), ante, bonus, pool_stake, flop, turn, river)
        )
    s = settle_round(plays, dealer, board, table, settings, opening)
    out_seats: dict[str, Any] = {}
    for r in s.boxes:
        out_seats[r.play.box] = {
            "hand": r.hand.to_json(),
            "dealer_hand": s.dealer.to_json(),
            "outcome": r.outcome,
            **r.nets,
            "net": r.net,
            "bonus_line": None if r.bonus_line is None else r.bonus_line.key,
            "pool_hand": r.pool_hand.to_json(),
        }
    by_account: dict[str, int] = {}
    for p in s.postings:
        by_account[p.account] = by_account.get(p.account, 0) + p.amount
    return {
        "game": "holdem-bonus",
        "bonus_table": table,
        "dealer": s.dealer.to_json(),
        "seats": out_seats,
        "pool": (None if s.pool is None else {**s.pool.to_json(), "balance_after": s.pool.closing}),
        "totals": {
            "players": sum(r.net for r in s.boxes),
            "house": by_account.get(HOUSE, 0),
            "jackpot": by_account.get(JACKPOT, 0),
            "rounding": by_account.get(ROUNDING, 0),
        },
    }
