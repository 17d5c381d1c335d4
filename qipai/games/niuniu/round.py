"""One round of Swap Niu Niu (换牌牛牛) as a state machine (docs/rules/niuniu.md#round-flow, Flow).

Phases: `swap` → `bid` → `bet` → `finished`.

1. Start: one 52-card deck shuffled from `rng.fork("deck")`; four cards to each seat, one at a
   time in seat order. A seat's cards are seen only by that seat until the reveal.
2. `swap` (config.swap_s, source 10 s): each seat sends `{"type": "swap", "cards": [...]}` with
   the cards to replace (any subset, `[]` = keep all). The confirmation is final. Silence swaps
   nothing. When every seat has confirmed or the countdown expires, replacements are dealt from
   the deck in seat order, each into the position of the card it replaces.
3. `bid` (config.bid_s): `{"type": "bid", "multiple": m}`, m = 0 (不搶) or an allowed multiple
   (docs/rules/niuniu.md#bidding Decision: 1–4, limited by balance). Silence = 0. Highest bid is banker; a tie is
   broken by `rng.fork("banker")` weighted by the tied seats' balances; nobody bids → a uniformly
   random seat at the smallest multiple.
4. `bet` (config.bet_s): each non-banker seat `{"type": "bet", "multiple": m}`, m allowed by the
   balance (docs/rules/niuniu.md#cover-check Decision); silence = the minimum.
5. The fifth card goes to every seat in seat order; all hands are revealed; the banker is
   compared with each player and the round settles (`payout.settle_hands`: 4 % commission,
   no-negative-balance cap). Phase `finished`; `result()` holds the postings.

A disconnected seat is simply silent: `expire()` applies the defaults above.

`view(seat)` — JSON shape (None = spectator):

    {
      "game": "niuniu", "phase": "swap" | "bid" | "bet" | "finished",
      "countdown_s": float | null, "awaiting": [seat ids],
      "me": {...} | null,                      # the viewer's own block (below); null: spectator
      "base": int, "commission": "0.04",
      "banker": seat id | null, "banker_multiple": int | null,
      "banker_by": "bid" | "tie" | "random" | null,
      "seats": [ {                             # in seat order
          "id": str, "stack": int,
          "cards": [card, …] | null,           # own seat always; others only when finished
          "card_count": int,                   # 4, then 5 at the reveal
          "swap_confirmed": bool,
          "swapped": int | null,               # how many cards it swapped (public after the swap)
          "bid": int | null,                   # public once made; 0 = no bid
          "bet": int | null,                   # public once made; null for the banker
          "is_banker": bool,
          "hand": Hand JSON | null,            # finished only: type, zh, en, multiplier, bull/point cards
          "pairing": {winner, stake, multiplier, raw} | null,   # finished, players only
          "settlement": {raw, gross, commission, net} | null    # finished
      }, … ],
      "me": {                                  # null for a spectator
          "id": seat id, "stack": int,
          "cards": [card, …],
          "marked": [card, …] | null,          # swap phase, after confirming: the cards to go
          "discarded": [card, …] | null, "received": [card, …] | null,   # after the swap
          "hint": advisor hint | null          # swap phase, before confirming, if config.hints:
                                               # {"objective": "money", "unit", "best": SwapChoice
                                               #  JSON, "choices": [{"discard", "expected_net",
                                               #  "expected_multiplier"}, … 16 ranked by money],
                                               #  "by_multiplier": the labelled alternative}
      },
      "commission_total": int | null, "rounding": int | null    # finished
    }

Cards are strings like "As", "Td" (`str(Card)`).

Events (`act`/`expire` return them; `to` = the seats that may see a private one):
`swap_confirmed {seat}` · `swapped {discarded, received, cards}` to the seat only · `swaps
{swapped: {seat: count}}` · `bid {seat, multiple[, default]}` · `banker {seat, multiple, by}` ·
`bet {seat, multiple[, default]}` · `reveal {…result details…}` when the round finishes (its
`swapped` gives each seat's count of swapped cards: discarded cards are shown to nobody else,
ever — only the `swapped` event and `me.discarded` show them, to their owner).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from qipai.core.banker import MultipleChoice, choose_banker
from qipai.core.cards import Card, parse_card, standard_deck
from qipai.core.errors import IllegalAction, InvalidInput, OutOfTurn, WrongPhase
from qipai.core.protocol import JSON, ActionSpec, Event, Round, RoundResult, Seat
from qipai.core.rng import Rng
from qipai.games.niuniu import actions, advisor
from qipai.games.niuniu.config import NiuniuConfig
from qipai.games.niuniu.hands import Hand, evaluate
from qipai.games.niuniu.payout import NiuniuSettlement, allowed_bets, allowed_bids, settle_hands

SWAP, BID, BET, FINISHED = "swap", "bid", "bet", "finished"


@dataclass(frozen=True)
class _Swap:
    positions: tuple[int, ...]


@dataclass(frozen=True)
class _Multiple:
    value: int


class NiuniuRound(Round[NiuniuConfig]):
    """Swap Niu Niu for 2–5 seats; see the module docstring for the flow and the view."""

    game: ClassVar[str] = "niuniu"

    def __init__(self, config: NiuniuConfig, seats: Sequence[Seat], rng: Rng) -> None:
        super().__init__(config, seats)
        if not config.min_seats <= len(seats) <= config.max_seats:
            raise InvalidInput(
                f"Swap Niu Niu seats {config.min_seats}–{config.max_seats}, got {len(seats)}"
            )
        for seat in seats:
            if seat.stack < 0:
                raise InvalidInput(f"seat {seat.id!r} has a negative balance")
        deck = standard_deck()
        rng.fork("deck").shuffle(deck)
        self._deck = deck
        self._next = 0
        self._banker_rng = rng.fork("banker")
        ids = self.seat_ids()
        self.cards: dict[str, list[Card]] = {s: [] for s in ids}
        for _ in range(4):  # one card at a time in seat order, four passes
            for s in ids:
                self.cards[s].append(self._draw())
        self._phase = SWAP
        self.swaps: dict[str, tuple[int, ...] | None] = {s: None for s in ids}
        self.discarded: dict[str, tuple[Card, ...]] = {}
        self.received: dict[str, tuple[Card, ...]] = {}
        self._bids = MultipleChoice(BID, ids)
        self.banker: str | None = None
        self.banker_multiple: int | None = None
        self.banker_by: str | None = None
        self._bets = MultipleChoice(BET, ())  # the players', once the banker is known
        self.hands: dict[str, Hand] = {}
        self.settlement: NiuniuSettlement | None = None
        self._result: RoundResult | None = None
        self._hints: dict[tuple[Card, ...], dict[str, Any]] = {}

    @classmethod
    def start(
        cls,
        config: NiuniuConfig,
        seats: Sequence[Seat],
        rng: Rng,
        context: Mapping[str, Any] | None = None,
    ) -> NiuniuRound:
        """Shuffle one deck and deal four cards to each seat (each round uses a fresh deck)."""
        return cls(config, seats, rng)

    # ----- helpers --------------------------------------------------------------------------
    def _draw(self) -> Card:
        card = self._deck[self._next]
        self._next += 1
        return card

    @property
    def bids(self) -> dict[str, int | None]:
        """Every seat's bid (None: not yet; 0: no bid)."""
        return self._bids.chosen

    @property
    def bets(self) -> dict[str, int | None]:
        """Every player's bet multiple (None: not yet); empty before the banker is known."""
        return self._bets.chosen

    def _stack(self, seat: str) -> int:
        return next(s.stack for s in self.seats if s.id == seat)

    def _players(self) -> list[str]:
        return [s for s in self.seat_ids() if s != self.banker]

    def allowed_bids(self, seat: str) -> list[int]:
        """0 (no bid) and the multiples this seat's balance covers (docs/rules/niuniu.md#cover-check Decision)."""
        cfg = self.config
        bids = allowed_bids(
            cfg.base,
            len(self.seats) - 1,
            self._stack(seat),
            cfg.bid_multiples,
            cfg.bet_multiples[0],
            cfg.cover_check,
        )
        return [0, *bids]

    def allowed_bets(self, seat: str) -> list[int]:
        """The bet multiples this seat's balance covers against the banker's multiple."""
        assert self.banker_multiple is not None
        cfg = self.config
        return allowed_bets(
            cfg.base, self.banker_multiple, self._stack(seat), cfg.bet_multiples, cfg.cover_check
        )

    # ----- state ----------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self._phase

    @property
    def deadline_s(self) -> float | None:
        return {SWAP: self.config.swap_s, BID: self.config.bid_s, BET: self.config.bet_s}.get(
            self._phase
        )

    def awaiting(self) -> list[str]:
        if self._phase == SWAP:
            return [s for s, v in self.swaps.items() if v is None]
        if self._phase == BID:
            return self._bids.awaiting()
        if self._phase == BET:
            return self._bets.awaiting()
        return []

    def legal_actions(self, seat: str) -> list[ActionSpec]:
        """swap: `{"cards": own four cards, "max": 4}` (send any subset); bid/bet: `{"choices"}`."""
        if seat not in self.awaiting():
            return []
        if self._phase == SWAP:
            return [ActionSpec("swap", {"cards": [str(c) for c in self.cards[seat]], "max": 4})]
        if self._phase == BID:
            return [self._bids.legal(self.allowed_bids(seat))]
        return [self._bets.legal(self.allowed_bets(seat))]

    # ----- moves ----------------------------------------------------------------------------
    Action = actions.Action

    def _check(self, seat: str, action: actions.Action) -> _Swap | _Multiple:
        kind = action.type
        if kind != self._phase:
            raise WrongPhase(f"{kind!r} is not possible in the {self._phase!r} phase")
        if seat not in self.awaiting():
            if kind == BET and seat == self.banker:
                raise OutOfTurn("the banker does not bet")
            raise IllegalAction(f"seat {seat!r} has already made its {kind} (it is final)")
        if isinstance(action, actions.Swap):
            cards = [parse_card(t) for t in action.cards]
            if len(set(cards)) != len(cards):
                raise InvalidInput("a card is named twice in the swap", field="cards")
            own = self.cards[seat]
            for card in cards:
                if card not in own:
                    raise IllegalAction(f"{card} is not one of your cards")
            return _Swap(tuple(sorted(own.index(c) for c in cards)))
        if kind == BID:
            return _Multiple(self._bids.check(action.multiple, self.allowed_bids(seat)))
        return _Multiple(self._bets.check(action.multiple, self.allowed_bets(seat)))

    def _apply(self, seat: str, checked: Any) -> list[Event]:
        events: list[Event] = []
        if isinstance(checked, _Swap):
            self.swaps[seat] = checked.positions
            events.append(Event("swap_confirmed", {"seat": seat}))
        elif self._phase == BID:
            events.append(self._bids.record(seat, checked.value))
        else:
            events.append(self._bets.record(seat, checked.value))
        if not self.awaiting():
            events += self._advance()
        return events

    def _expire(self) -> list[Event]:
        # Silence: no swap (source 換牌規則 3A, 注意事項 2), no bid, the minimum bet (注意事項 3).
        events: list[Event] = []
        if self._phase == SWAP:
            for seat in self.awaiting():
                self.swaps[seat] = ()
        elif self._phase == BID:
            events = self._bids.default(0)
        else:
            events = self._bets.default(self.config.bet_multiples[0])
        return events + self._advance()

    def _advance(self) -> list[Event]:
        if self._phase == SWAP:
            return self._finish_swaps()
        if self._phase == BID:
            return self._choose_banker()
        return self._reveal()

    def _finish_swaps(self) -> list[Event]:
        events: list[Event] = []
        for seat in self.seat_ids():  # replacements come from the deck in seat order
            positions = self.swaps[seat] or ()
            hand = self.cards[seat]
            self.discarded[seat] = tuple(hand[i] for i in positions)
            for i in positions:
                hand[i] = self._draw()
            self.received[seat] = tuple(hand[i] for i in positions)
            events.append(
                Event(
                    "swapped",
                    {
                        "discarded": [str(c) for c in self.discarded[seat]],
                        "received": [str(c) for c in self.received[seat]],
                        "cards": [str(c) for c in hand],
                    },
                    to=(seat,),
                )
            )
        events.append(Event("swaps", {"swapped": {s: len(self.discarded[s]) for s in self.cards}}))
        self._phase = BID
        return events

    def _choose_banker(self) -> list[Event]:
        bids = {s: v or 0 for s, v in self.bids.items()}
        stacks = {s: self._stack(s) for s in bids}
        # 無人搶莊時,系統隨機指定一名玩家為莊家,並以最小倍數為搶莊倍數; 搶莊最高倍數者為複數時,
        # 持有點數越多,當莊機率越大 (qipai.core.banker)
        choice = choose_banker(bids, stacks, self._banker_rng, self.config.bid_multiples[0])
        banker, multiple = choice.seat, choice.multiple
        how = {"nobody": "random", "highest": "bid", "tie": "tie"}[choice.how]
        self.banker, self.banker_multiple, self.banker_by = banker, multiple, how
        self._bets = MultipleChoice(BET, self._players())
        self._phase = BET
        return [Event("banker", {"seat": banker, "multiple": multiple, "by": how})]

    def _reveal(self) -> list[Event]:
        assert self.banker is not None and self.banker_multiple is not None
        for seat in self.seat_ids():  # the fifth card, in seat order
            self.cards[seat].append(self._draw())
        self.hands = {s: evaluate(self.cards[s]) for s in self.seat_ids()}
        bets = {s: v for s, v in self.bets.items() if v is not None}
        self.settlement = settle_hands(
            base=self.config.base,
            commission=self.config.commission,
            banker=self.banker,
            banker_multiple=self.banker_multiple,
            hands=self.hands,
            bets=bets,
            balances={s.id: s.stack for s in self.seats},
        )
        self._phase = FINISHED
        self._result = RoundResult(self.settlement.postings(), self._details())
        return [Event("reveal", self._details())]

    # ----- output ---------------------------------------------------------------------------
    def _details(self) -> JSON:
        assert self.settlement is not None
        st = self.settlement.settlement
        return {
            "banker": self.banker,
            "banker_multiple": self.banker_multiple,
            "banker_by": self.banker_by,
            "hands": {s: h.to_json() for s, h in self.hands.items()},
            "bids": dict(self.bids),
            "bets": dict(self.bets),
            # How many cards each seat swapped, never which: a seat's four cards are seen only
            # by its owner (docs/rules/niuniu.md#hidden-information), and the discards are never shown (the journal keeps them).
            "swapped": {s: len(d) for s, d in self.discarded.items()},
            "pairings": {p: pr.to_json() for p, pr in self.settlement.pairings.items()},
            "seats": {
                s: {"raw": v.raw, "gross": v.gross, "commission": v.commission, "net": v.net}
                for s, v in st.seats.items()
            },
            "commission": st.commission,
            "rounding": st.rounding,
            "capped": st.capped,
        }

    def hint(self, seat: str) -> dict[str, Any] | None:
        """The advisor's hint for `seat` while it may still swap (cached per hand): the swaps
        ranked by expected net against the banker at this table's commission."""
        if self._phase != SWAP or self.swaps.get(seat, ()) is not None or not self.config.hints:
            return None
        key = tuple(self.cards[seat])
        if key not in self._hints:
            self._hints[key] = advisor.hint(key, commission=self.config.commission)
        return self._hints[key]

    def view(self, seat: str | None) -> JSON:
        if seat is not None and seat not in self.cards:
            raise OutOfTurn(f"seat {seat!r} is not in this round")
        done = self._phase == FINISHED
        st = self.settlement.settlement if self.settlement is not None else None
        seats_out = []
        for s in self.seats:
            show = done or s.id == seat
            pairing = self.settlement.pairings.get(s.id) if self.settlement else None
            settled = st.seats[s.id] if st is not None else None
            seats_out.append(
                {
                    "id": s.id,
                    "stack": s.stack,
                    "cards": [str(c) for c in self.cards[s.id]] if show else None,
                    "card_count": len(self.cards[s.id]),
                    "swap_confirmed": self.swaps[s.id] is not None,
                    "swapped": len(self.discarded[s.id]) if s.id in self.discarded else None,
                    "bid": self.bids[s.id],
                    "bet": self.bets.get(s.id),
                    "is_banker": s.id == self.banker,
                    "hand": self.hands[s.id].to_json() if done else None,
                    "pairing": pairing.to_json() if pairing is not None else None,
                    "settlement": None
                    if settled is None
                    else {
                        "raw": settled.raw,
                        "gross": settled.gross,
                        "commission": settled.commission,
                        "net": settled.net,
                    },
                }
            )
        out: JSON = {
            "game": self.game,
            "phase": self._phase,
            "countdown_s": self.deadline_s,
            "awaiting": self.awaiting(),
            "me": None,
            "base": self.config.base,
            "commission": self.config.commission,
            "banker": self.banker,
            "banker_multiple": self.banker_multiple,
            "banker_by": self.banker_by,
            "seats": seats_out,
            "commission_total": st.commission if st is not None else None,
            "rounding": st.rounding if st is not None else None,
        }
        if seat is not None:
            pending = self.swaps[seat]
            out["me"] = {
                "id": seat,
                "stack": self._stack(seat),
                "cards": [str(c) for c in self.cards[seat]],
                "discarded": [str(c) for c in self.discarded[seat]]
                if seat in self.discarded
                else None,
                "marked": None
                if pending is None or self._phase != SWAP
                else [str(self.cards[seat][i]) for i in pending],
                "received": [str(c) for c in self.received[seat]]
                if seat in self.received
                else None,
                "hint": self.hint(seat),
            }
        return out

    def result(self) -> RoundResult:
        self.require_finished()
        assert self._result is not None
        return self._result
