"""`qipai settle` for Pok Deng: settle one dealt round from JSON (the audit and dispute tool).

Input::

    {"game": "pokdeng", "mode": "classic" | "banker-player",
     "hands": {"P1": ["Ac", "7h"], …, "B": ["Ad", "4h"]},
     "bets": [{"id": "1", "spot": "P1", "amount": 100}, {"id": "2", "spot": "P1 pair", …}]}

Amounts are minor units; spots `P1`…`P5`, `B1`…`B5`, `P1 pair`…`P5 pair`, `B pair`; only the hands
the bets need are required. Optional: `"decks"` (default 8, bounds how often one card may appear)
and `"note"` (free text, ignored). Output: per hand `points`, `rank` ("7.4"), `name`, `double`
(with `suited`, `pair`); per bet `id`, `spot`, `amount`, `taken`, `returned`, `net`, `outcome`,
`multiple`, `rounding`; and totals (taken, returned, players' net, house, rounding). Table limits
are not applied: this settles what was dealt and bet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, cast

from qipai.core.cards import parse_card
from qipai.core.errors import InvalidInput
from qipai.core.money import require_amount
from qipai.games.pokdeng.config import BANKER, MODES, POSITIONS, SPOTS, Mode, PokDengConfig
from qipai.games.pokdeng.hands import Hand, evaluate
from qipai.games.pokdeng.payout import Bet, settle_bet

_KEYS = {"game", "mode", "hands", "bets", "decks", "note"}
_HAND_NAMES = (*POSITIONS, BANKER)


def _parse_hands(raw: object, decks: int) -> dict[str, Hand]:
    if not isinstance(raw, Mapping):
        raise InvalidInput('"hands" must be an object like {"P1": ["Ac", "7h"], "B": […]}')
    hands: dict[str, Hand] = {}
    seen: Counter[str] = Counter()
    for name, cards in raw.items():
        if name not in _HAND_NAMES:
            raise InvalidInput(f"unknown hand {name!r}; hands are P1–P5 and B")
        if not isinstance(cards, list) or len(cards) != 2:
            raise InvalidInput(f"hand {name} must be a list of exactly two cards, got {cards!r}")
        try:
            a, b = (parse_card(c) for c in cards)
        except InvalidInput as exc:
            raise InvalidInput(f"hand {name}: {exc.message}") from None
        seen.update((str(a), str(b)))
        hands[name] = evaluate(a, b)
    for card, count in seen.items():
        if count > decks:
            raise InvalidInput(f"card {card} appears {count} times but the shoe has {decks} decks")
    return hands


def _parse_bets(raw: object, mode: Mode, hands: Mapping[str, Hand]) -> list[Bet]:
    if not isinstance(raw, list):
        raise InvalidInput('"bets" must be a list of {"id", "spot", "amount"} objects')
    spots = SPOTS[mode]
    bets: list[Bet] = []
    ids: set[str] = set()
    for i, item in enumerate(raw):
        if not isinstance(item, Mapping):
            raise InvalidInput(f"bet #{i + 1} must be an object with id, spot and amount")
        unknown = set(item) - {"id", "spot", "amount", "player"}
        if unknown:
            raise InvalidInput(f"bet #{i + 1} has unknown fields {sorted(unknown)}")
        bet_id = item.get("id", str(i + 1))
        if not isinstance(bet_id, str | int) or isinstance(bet_id, bool):
            raise InvalidInput(f"bet #{i + 1}: id must be a string or an integer")
        bet_id = str(bet_id)
        if bet_id in ids:
            raise InvalidInput(f"duplicate bet id {bet_id!r}")
        ids.add(bet_id)
        spot = item.get("spot")
        if not isinstance(spot, str) or spot not in spots:
            valid = ", ".join(spots)
            raise InvalidInput(f"bet {bet_id}: spot {spot!r} is not a {mode} spot ({valid})")
        amount = require_amount(item.get("amount"), f"bet {bet_id} amount", positive=True)
        about = spots[spot][1]
        needed = [about] if spots[spot][0] == "pair" else [about, BANKER]
        missing = [h for h in needed if h not in hands]
        if missing:
            raise InvalidInput(f"bet {bet_id} on {spot} needs hand(s) {', '.join(missing)}")
        player = item.get("player", "player")
        if not isinstance(player, str) or not player:
            raise InvalidInput(f"bet {bet_id}: player must be a non-empty string")
        bets.append(Bet(bet_id, player, spot, amount))
    return bets


def settle(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Settle the round described by `doc`; InvalidInput names the first problem found."""
    unknown = set(doc) - _KEYS
    if unknown:
        raise InvalidInput(f"unknown fields {sorted(unknown)}; expected {sorted(_KEYS)}")
    if doc.get("mode") not in MODES:
        raise InvalidInput(f"mode {doc.get('mode')!r}: expected 'classic' or 'banker-player'")
    mode = cast(Mode, doc["mode"])
    decks = doc.get("decks", 8)
    if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
        raise InvalidInput(f"decks must be a positive integer, got {decks!r}")
    if "hands" not in doc:
        raise InvalidInput('missing "hands"')
    if "bets" not in doc:
        raise InvalidInput('missing "bets"')
    hands = _parse_hands(doc["hands"], decks)
    bets = _parse_bets(doc["bets"], mode, hands)
    config = PokDengConfig(mode=mode)
    outcomes = [settle_bet(config, bet, hands) for bet in bets]
    taken = sum(o.taken for o in outcomes)
    returned = sum(o.returned for o in outcomes)
    rounding = sum(o.rounding for o in outcomes)
    bet_rows = []
    for raw, o in zip(doc["bets"], outcomes, strict=True):
        row = o.to_json()
        if "player" not in raw:  # players are optional in an audit: show them only if given
            row.pop("player")
        bet_rows.append(row)
    return {
        "game": "pokdeng",
        "mode": mode,
        "hands": {name: hands[name].to_json() for name in _HAND_NAMES if name in hands},
        "bets": bet_rows,
        "totals": {
            "taken": taken,
            "returned": returned,
            "net": returned - taken,
            "house": taken - returned - rounding,
            "rounding": rounding,
        },
    }
