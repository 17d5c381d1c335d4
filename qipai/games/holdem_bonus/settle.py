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
from typing import Any

from qipai.core.cards import Card, parse_card, require_distinct
from qipai.core.errors import InvalidInput
from qipai.core.money import require_amount, to_rate
from qipai.core.protocol import HOUSE, JACKPOT, ROUNDING
from qipai.games.holdem_bonus.config import BONUS_TABLES, DEFAULT_POOL_PERCENT, HoldemBonusConfig
from qipai.games.holdem_bonus.payout import BoxPlay, PoolSettings, settle_round

_KEYS = {"game", "board", "dealer", "pool", "bonus_table", "seats", "note"}
_SEAT_KEYS = {"hole", "ante", "bonus", "pool", "flop", "turn", "river"}
_POOL_KEYS = {"balance", "stake", "contribution", "seed", "percent"}


def _cards(raw: object, n: int, what: str) -> list[Card]:
    if not isinstance(raw, list) or len(raw) != n:
        raise InvalidInput(f"{what} must be a list of exactly {n} cards, got {raw!r}")
    try:
        return [parse_card(c) for c in raw]
    except InvalidInput as exc:
        raise InvalidInput(f"{what}: {exc.message}") from None


def _flag(seat: str, data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise InvalidInput(f"seat {seat}: {key} must be true or false, got {value!r}")
    return value


def _pool_settings(raw: object) -> tuple[PoolSettings, int, int]:
    """(settings, opening balance, stake) from the document's pool object."""
    if not isinstance(raw, Mapping):
        raise InvalidInput('"pool" must be an object {"balance", "stake", "contribution", "seed"}')
    unknown = set(raw) - _POOL_KEYS
    if unknown:
        raise InvalidInput(f"unknown pool fields: {sorted(unknown)}")
    missing = {"balance", "stake", "contribution", "seed"} - set(raw)
    if missing:
        raise InvalidInput(f"pool is missing {sorted(missing)}")
    balance = require_amount(raw["balance"], "pool.balance")
    stake = require_amount(raw["stake"], "pool.stake", positive=True)
    seed = require_amount(raw["seed"], "pool.seed")
    contribution = raw["contribution"]
    if not isinstance(contribution, str):
        raise InvalidInput("pool.contribution is a decimal string like '0.5'")
    percent = raw.get("percent", DEFAULT_POOL_PERCENT)
    # The table config validates the rates exactly as a live table would.
    if not isinstance(percent, Mapping):
        raise InvalidInput("pool.percent is an object of category → decimal string")
    cfg = HoldemBonusConfig.parse(
        {
            "pool_stake": stake,
            "pool_contribution": contribution,
            "pool_seed": seed,
            "pool_percent": percent,
        }
    )
    return PoolSettings(cfg.pool_rates, to_rate(contribution), seed), balance, stake


def settle(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Settle the round the document describes; InvalidInput for anything malformed."""
    unknown = set(doc) - _KEYS
    if unknown:
        raise InvalidInput(f"unknown fields: {sorted(unknown)}")
    for key in ("board", "dealer", "seats"):
        if key not in doc:
            raise InvalidInput(f'missing "{key}"')
    board = _cards(doc["board"], 5, "board")
    dealer = _cards(doc["dealer"], 2, "dealer")
    table = doc.get("bonus_table", "source")
    if table not in BONUS_TABLES:
        raise InvalidInput(f"bonus_table {table!r}: expected one of {', '.join(BONUS_TABLES)}")
    seats = doc["seats"]
    if not isinstance(seats, Mapping) or not seats:
        raise InvalidInput('"seats" must be a non-empty object of seat → bets')
    if len(seats) > 7:
        raise InvalidInput(f"a table has at most 7 seats, got {len(seats)}")
    raw_plays: list[tuple[str, Mapping[str, Any], list[Card]]] = []
    all_cards = [*board, *dealer]
    for name, data in seats.items():
        if not isinstance(data, Mapping):
            raise InvalidInput(f"seat {name}: expected an object")
        extra = set(data) - _SEAT_KEYS
        if extra:
            raise InvalidInput(f"seat {name}: unknown fields {sorted(extra)}")
        if "hole" not in data or "ante" not in data:
            raise InvalidInput(f"seat {name}: needs hole and ante")
        hole = _cards(data["hole"], 2, f"seat {name} hole")
        all_cards += hole
        raw_plays.append((str(name), data, hole))
    require_distinct(all_cards, "the round (one deck)")

    pool_wanted = any(_flag(n, d, "pool") for n, d, _ in raw_plays)
    if pool_wanted and "pool" not in doc:
        raise InvalidInput('a seat bet the pool: give "pool": {"balance", "stake", …}')
    settings, opening, stake = (
        _pool_settings(doc["pool"]) if "pool" in doc else (PoolSettings({}, Fraction(0), 0), 0, 0)
    )
    plays: list[BoxPlay] = []
    for name, data, hole in raw_plays:
        ante = require_amount(data["ante"], f"seat {name} ante", positive=True)
        bonus = require_amount(data.get("bonus", 0), f"seat {name} bonus")
        if bonus not in (0, ante):
            raise InvalidInput(
                f"seat {name}: the bonus bet must equal the ante ({ante}), not {bonus}"
            )
        flop, turn, river = (_flag(name, data, k) for k in ("flop", "turn", "river"))
        if turn and not flop:
            raise InvalidInput(f"seat {name}: a turn bet needs a flop bet (the box folded)")
        if river and not turn:
            raise InvalidInput(f"seat {name}: a river bet needs a turn bet (a check gives it up)")
        pool_stake = stake if _flag(name, data, "pool") else 0
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
