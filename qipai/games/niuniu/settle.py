"""`qipai settle` for Swap Niu Niu: audit one dealt round from its final hands and multiples.

Input (docs/rules/niuniu.md):
    {"game": "niuniu", "base": 100, "commission": "0.04", "banker": "莊", "banker_multiple": 3,
     "seats": {"出": {"cards": ["Ks", …5 cards…], "multiple": 2, "balance": 100000}, …,
               "莊": {"cards": […], "balance": 100000}}}
The banker's seat needs no "multiple" (its bid is `banker_multiple`). `commission` defaults to
"0.04". Every balance is required, because the no-negative-balance cap depends on it. The table
settings `bid_multiples` and `bet_multiples` may be given (docs/rules/niuniu.md#decisions Decision defaults 1–4 and
1–5); the banker's multiple and every bet must be one of them, and a table has 2–5 seats.

Output: each hand's type (zh and en), multiplier, bull and point cards; each pairing's winner and
raw amount; each seat's `raw`, `gross` (after caps), `commission` and `net`; the totals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from qipai.core.cards import Card, parse_cards, require_distinct
from qipai.core.errors import InvalidInput
from qipai.core.money import require_amount, to_rate
from qipai.games.niuniu.config import NiuniuConfig
from qipai.games.niuniu.hands import Hand, evaluate
from qipai.games.niuniu.payout import settle_hands


def _positive(value: object, what: str) -> int:
    return require_amount(value, what, positive=True)


def settle(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Settle one Niu Niu round document; InvalidInput for anything malformed."""
    settings = ("bid_multiples", "bet_multiples")
    known = {"game", "base", "commission", "banker", "banker_multiple", "seats", *settings}
    unknown = set(doc) - known
    if unknown:
        raise InvalidInput(f"unknown field(s): {', '.join(sorted(unknown))}")
    base = _positive(doc.get("base"), "base")
    commission = doc.get("commission", "0.04")
    if not isinstance(commission, str):
        raise InvalidInput("commission must be a decimal string like '0.04'")
    rate = to_rate(commission)
    if not 0 <= rate < 1:
        raise InvalidInput(f"commission {commission!r} must be in [0, 1)")
    banker = doc.get("banker")
    seats = doc.get("seats")
    if not isinstance(seats, Mapping) or not seats:
        raise InvalidInput("seats must be an object of seat name → {cards, multiple, balance}")
    if not isinstance(banker, str) or banker not in seats:
        raise InvalidInput(f"banker {banker!r} must name one of the seats")
    # docs/rules/niuniu.md#decisions Decisions (table settings): 2–5 seats, bids 1–4, bets 1–5.
    table = NiuniuConfig.from_json({k: doc[k] for k in settings if k in doc})
    if not table.min_seats <= len(seats) <= table.max_seats:
        raise InvalidInput(
            f"Swap Niu Niu has {table.min_seats}–{table.max_seats} seats; "
            f"the document gives {len(seats)}"
        )
    banker_multiple = _positive(doc.get("banker_multiple"), "banker_multiple")
    if banker_multiple not in table.bid_multiples:
        raise InvalidInput(
            f"banker_multiple {banker_multiple} is not a bid; "
            f"choose one of {list(table.bid_multiples)}"
        )
    hands: dict[str, Hand] = {}
    bets: dict[str, int] = {}
    balances: dict[str, int] = {}
    all_cards: list[Card] = []
    for seat, entry in seats.items():
        if not isinstance(entry, Mapping):
            raise InvalidInput(f"seat {seat!r} must be an object")
        extra = set(entry) - {"cards", "multiple", "balance"}
        if extra:
            raise InvalidInput(f"seat {seat!r}: unknown field(s) {', '.join(sorted(extra))}")
        raw_cards = entry.get("cards")
        if not isinstance(raw_cards, list | str):
            raise InvalidInput(f"seat {seat!r}: cards must be a list of 5 cards")
        cards = parse_cards(raw_cards)
        if len(cards) != 5:
            raise InvalidInput(f"seat {seat!r}: a hand has 5 cards, got {len(cards)}")
        all_cards.extend(cards)
        hands[seat] = evaluate(cards)
        balances[seat] = require_amount(entry.get("balance"), f"seat {seat!r} balance")
        if seat != banker:
            bets[seat] = _positive(entry.get("multiple"), f"seat {seat!r} multiple")
            if bets[seat] not in table.bet_multiples:
                raise InvalidInput(
                    f"seat {seat!r} multiple {bets[seat]} is not allowed; "
                    f"choose one of {list(table.bet_multiples)}"
                )
        elif "multiple" in entry and entry["multiple"] != banker_multiple:
            raise InvalidInput("the banker's seat multiple differs from banker_multiple")
    require_distinct(all_cards, "the round (one deck)")
    result = settle_hands(
        base=base,
        commission=commission,
        banker=banker,
        banker_multiple=banker_multiple,
        hands=hands,
        bets=bets,
        balances=balances,
    )
    seat_out: dict[str, Any] = {}
    for seat in seats:
        s = result.settlement.seats[seat]
        seat_out[seat] = {
            "role": "banker" if seat == banker else "player",
            "multiple": banker_multiple if seat == banker else bets[seat],
            "balance": balances[seat],
            "raw": s.raw,
            "gross": s.gross,
            "commission": s.commission,
            "rounding": s.rounding,
            "net": s.net,
            "balance_after": balances[seat] + s.net,
        }
    return {
        "game": "niuniu",
        "base": base,
        "commission_rate": commission,
        "banker": banker,
        "banker_multiple": banker_multiple,
        "hands": {seat: hand.to_json() for seat, hand in hands.items()},
        "pairings": {p: pr.to_json() for p, pr in result.pairings.items()},
        "seats": seat_out,
        "commission": result.settlement.commission,
        "rounding": result.settlement.rounding,
        "capped": result.settlement.capped,
        "postings": [p.to_json() for p in result.postings()],
    }
