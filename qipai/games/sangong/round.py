"""One round of San Gong (抢庄三公) as a state machine (rules/en.md, A round).

Phases: `bid` → `bet` → `show` → `finished`.

1. Start: one 52-card deck shuffled from `rng.fork("deck")` (a fresh deck every round).
2. `bid` (config.bid_s, default 8 s): `{"type": "bid", "multiple": m}`, m = 0 (no bid) or a
   multiple the stack covers. Silence = 0. The highest bid banks; a tie is drawn from
   `rng.fork("banker")` weighted by the tied seats' stacks; nobody bids → a uniformly random
   seat banks at the lowest multiple (`qipai.core.banker.choose_banker`).
3. `bet` (config.bet_s, default 12 s): each other seat `{"type": "bet", "multiple": m}`, m
   offered by the coverage test with the table's highest hand multiplier; silence = the lowest.
4. The deal: one card at a time from the top of the deck, clockwise (seat order) starting with
   the seat after the banker, three passes. Each seat sees its own three cards at once.
5. `show` (config.show_s, default 8 s): `{"type": "show"}` shows a seat's cards to everyone now;
   when every seat has shown, or the countdown ends, every hand is shown. The banker is compared
   with each player and the round settles (`payout.settle_hands`: A·X·Y·M, commission on each
   participant's net win, the Pai Gow cap with table stacks). Phase `finished`.

A disconnected seat is silent: `expire()` applies the defaults above (rules/en.md, A round).

`view(seat)` — JSON (seat None = a spectator), checked against `view.SangongView`::

    {
      "game": "sangong", "phase": "bid" | "bet" | "show" | "finished",
      "countdown_s": float | null, "awaiting": [seat ids],
      "silence": {"zh", "en"} | null,        # what silence will do in this phase
      "me": {"id", "stack", "cards": [3 cards] | [], "hand": HandInfo | null} | null,
      "base": int, "commission": "0.05", "multipliers": {type: multiplier},
      "banker": seat | null, "banker_multiple": int | null, "banker_by": "bid"|"tie"|"random"|null,
      "deal_order": [seat ids, the first pass] | null,
      "seats": [ {                           # in seat order (clockwise)
          "id", "stack", "card_count": 0 | 3, "shown": bool,
          "cards": [3 cards] | null,         # own seat once dealt; others once shown
          "bid": int | null, "bet": int | null, "is_banker": bool,
          "hand": HandInfo | null,           # with the cards
          "pairing": {winner, stake, multiplier, raw} | null,     # finished, players only
          "settlement": {raw, gross, commission, rounding, net, valid_bet} | null  # finished
      }, … ],
      "commission_total": int | null, "rounding": int | null          # finished
    }

Events: `bid {seat, multiple[, default]}` · `banker {seat, multiple, by}` · `bet {seat,
multiple[, default]}` · `dealt {order}` · `cards {cards, hand}` to its seat only · `show {seat,
cards, hand[, default]}` · `result {…details…}` when the round finishes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from qipai.core.banker import MultipleChoice, choose_banker
from qipai.core.cards import Card, standard_deck
from qipai.core.errors import IllegalAction, InvalidInput, OutOfTurn, WrongPhase
from qipai.core.protocol import JSON, ActionSpec, Event, Round, RoundResult, Seat
from qipai.core.rng import Rng
from qipai.games.sangong import actions
from qipai.games.sangong.config import SangongConfig
from qipai.games.sangong.hands import HAND_SIZE, Hand, evaluate
from qipai.games.sangong.payout import (
    SangongSettlement,
    allowed_bets,
    allowed_bids,
    settle_hands,
)

BID, BET, SHOW, FINISHED = "bid", "bet", "show", "finished"


def deal_order(seats: Sequence[str], banker: str) -> list[str]:
    """rules/en.md, A round: clockwise (seat order) starting with the seat after the banker; the
    banker is dealt last in each pass.

    >>> deal_order(["A", "B", "C", "D"], "C")
    ['D', 'A', 'B', 'C']
    """
    i = list(seats).index(banker)
    return [*seats[i + 1 :], *seats[: i + 1]]


@dataclass(frozen=True)
class _Multiple:
    value: int


@dataclass(frozen=True)
class _Show:
    pass


class SangongRound(Round[SangongConfig]):
    """San Gong for 2–6 seats; see the module docstring for the flow and the view."""

    game: ClassVar[str] = "sangong"
    Action = actions.Action

    def __init__(self, config: SangongConfig, seats: Sequence[Seat], rng: Rng) -> None:
        super().__init__(config, seats)
        if not config.min_seats <= len(seats) <= config.max_seats:
            raise InvalidInput(
                f"San Gong seats {config.min_seats}–{config.max_seats}, got {len(seats)}"
            )
        for seat in seats:
            if seat.stack < 0:
                raise InvalidInput(f"seat {seat.id!r} has a negative stack")
        deck = standard_deck()
        rng.fork("deck").shuffle(deck)
        self.deck: tuple[Card, ...] = tuple(deck)
        self._banker_rng = rng.fork("banker")
        ids = self.seat_ids()
        self._phase = BID
        self._bids = MultipleChoice(BID, ids)
        self._bets = MultipleChoice(BET, ())
        self.banker: str | None = None
        self.banker_multiple: int | None = None
        self.banker_by: str | None = None
        self.deal_order: list[str] | None = None
        self.cards: dict[str, tuple[Card, ...]] = {}
        self.hands: dict[str, Hand] = {}
        self.shown: dict[str, bool] = dict.fromkeys(ids, False)
        self.settlement: SangongSettlement | None = None
        self._result: RoundResult | None = None

    @classmethod
    def start(
        cls,
        config: SangongConfig,
        seats: Sequence[Seat],
        rng: Rng,
        context: Mapping[str, Any] | None = None,
    ) -> SangongRound:
        """Shuffle a fresh deck; nothing is dealt before the bets (rules/en.md, A round)."""
        return cls(config, seats, rng)

    # ----- helpers --------------------------------------------------------------------------
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

    def allowed_bids(self, seat: str) -> list[int]:
        """0 (no bid) and the multiples this seat's stack covers."""
        cfg = self.config
        bids = allowed_bids(
            cfg.base,
            len(self.seats) - 1,
            self._stack(seat),
            cfg.bid_multiples,
            cfg.bet_multiples[0],
            cfg.multipliers.highest,
            cfg.cover_check,
        )
        return [0, *bids]

    def allowed_bets(self, seat: str) -> list[int]:
        """The bet multiples this seat's stack covers against the banker's multiple."""
        assert self.banker_multiple is not None
        cfg = self.config
        return allowed_bets(
            cfg.base,
            self.banker_multiple,
            self._stack(seat),
            cfg.bet_multiples,
            cfg.multipliers.highest,
            cfg.cover_check,
        )

    # ----- state ----------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self._phase

    @property
    def deadline_s(self) -> float | None:
        cfg = self.config
        return {BID: cfg.bid_s, BET: cfg.bet_s, SHOW: cfg.show_s}.get(self._phase)

    def awaiting(self) -> list[str]:
        if self._phase == BID:
            return self._bids.awaiting()
        if self._phase == BET:
            return self._bets.awaiting()
        if self._phase == SHOW:
            return [s for s, done in self.shown.items() if not done]
        return []

    def legal_actions(self, seat: str) -> list[ActionSpec]:
        """bid / bet: `{"choices": [...]}`; show: no options."""
        if seat not in self.awaiting():
            return []
        if self._phase == BID:
            return [self._bids.legal(self.allowed_bids(seat))]
        if self._phase == BET:
            return [self._bets.legal(self.allowed_bets(seat))]
        return [ActionSpec(SHOW, {})]

    def silence(self) -> dict[str, str] | None:
        """What the countdown's end will do for a silent seat (shown before it ends)."""
        if self._phase == BID:
            return {"zh": "不抢庄", "en": "no bid"}
        if self._phase == BET:
            low = self.config.bet_multiples[0]
            return {"zh": f"下注 {low} 倍", "en": f"bet {low}×"}
        if self._phase == SHOW:
            return {"zh": "自动亮牌", "en": "cards shown"}
        return None

    # ----- moves ----------------------------------------------------------------------------
    def _check(self, seat: str, action: actions.Action) -> _Multiple | _Show:
        kind = action.type
        if kind != self._phase:
            raise WrongPhase(f"{kind!r} is not possible in the {self._phase!r} phase")
        if seat not in self.awaiting():
            if kind == BET and seat == self.banker:
                raise OutOfTurn("the banker does not bet")
            if kind == SHOW:
                raise IllegalAction(f"seat {seat!r} has already shown its cards")
            raise IllegalAction(f"seat {seat!r} has already made its {kind} (it is final)")
        if isinstance(action, actions.Show):
            return _Show()
        if kind == BID:
            return _Multiple(self._bids.check(action.multiple, self.allowed_bids(seat)))
        return _Multiple(self._bets.check(action.multiple, self.allowed_bets(seat)))

    def _apply(self, seat: str, checked: Any) -> list[Event]:
        if isinstance(checked, _Show):
            events = [self._show(seat, default=False)]
        elif self._phase == BID:
            events = [self._bids.record(seat, checked.value)]
        else:
            events = [self._bets.record(seat, checked.value)]
        if not self.awaiting():
            events += self._advance()
        return events

    def _expire(self) -> list[Event]:
        # rules/en.md, A round: no bid, multiple 1 (the lowest), hand shown.
        if self._phase == BID:
            events = self._bids.default(0)
        elif self._phase == BET:
            events = self._bets.default(self.config.bet_multiples[0])
        else:
            events = [self._show(s, default=True) for s in self.awaiting()]
        return events + self._advance()

    def _advance(self) -> list[Event]:
        if self._phase == BID:
            return self._choose_banker()
        if self._phase == BET:
            return self._deal()
        return self._finish()

    def _choose_banker(self) -> list[Event]:
        bids = {s: v or 0 for s, v in self.bids.items()}
        stacks = {s.id: s.stack for s in self.seats}
        choice = choose_banker(bids, stacks, self._banker_rng, self.config.bid_multiples[0])
        how = {"nobody": "random", "highest": "bid", "tie": "tie"}[choice.how]
        self.banker, self.banker_multiple, self.banker_by = choice.seat, choice.multiple, how
        self._bets = MultipleChoice(BET, [s for s in self.seat_ids() if s != choice.seat])
        self._phase = BET
        return [Event("banker", {"seat": choice.seat, "multiple": choice.multiple, "by": how})]

    def _deal(self) -> list[Event]:
        assert self.banker is not None
        order = deal_order(self.seat_ids(), self.banker)
        n = len(order)
        # Card k of the deck goes to order[k mod n]: one card at a time, three passes.
        self.cards = {
            seat: tuple(self.deck[p * n + i] for p in range(HAND_SIZE))
            for i, seat in enumerate(order)
        }
        self.hands = {s: evaluate(cs) for s, cs in self.cards.items()}
        self.deal_order = order
        self._phase = SHOW
        events = [Event("dealt", {"order": order})]
        for seat in self.seat_ids():
            events.append(
                Event(
                    "cards",
                    {"cards": [str(c) for c in self.cards[seat]], "hand": self._hand_json(seat)},
                    to=(seat,),
                )
            )
        return events

    def _show(self, seat: str, *, default: bool) -> Event:
        self.shown[seat] = True
        data: JSON = {
            "seat": seat,
            "cards": [str(c) for c in self.cards[seat]],
            "hand": self._hand_json(seat),
        }
        if default:
            data["default"] = True
        return Event("show", data)

    def _finish(self) -> list[Event]:
        assert self.banker is not None and self.banker_multiple is not None
        bets = {s: v for s, v in self.bets.items() if v is not None}
        self.settlement = settle_hands(
            base=self.config.base,
            commission=self.config.commission,
            multipliers=self.config.multipliers,
            banker=self.banker,
            banker_multiple=self.banker_multiple,
            hands=self.hands,
            bets=bets,
            stacks={s.id: s.stack for s in self.seats},
        )
        self._phase = FINISHED
        details = self._details()
        self._result = RoundResult(self.settlement.postings(), details)
        return [Event("result", details)]

    # ----- output ---------------------------------------------------------------------------
    def _hand_json(self, seat: str) -> JSON:
        return dict(self.hands[seat].to_json(self.config.multipliers))

    def _details(self) -> JSON:
        assert self.settlement is not None
        st = self.settlement.settlement
        return {
            "banker": self.banker,
            "banker_multiple": self.banker_multiple,
            "banker_by": self.banker_by,
            "bids": dict(self.bids),
            "bets": dict(self.bets),
            "deal_order": self.deal_order,
            "hands": {s: self._hand_json(s) for s in self.seat_ids()},
            "pairings": {p: pr.to_json() for p, pr in self.settlement.pairings.items()},
            "seats": self.settlement.seats_json(),
            "commission": st.commission,
            "rounding": st.rounding,
            "capped": st.capped,
        }

    def view(self, seat: str | None) -> JSON:
        if seat is not None and seat not in self.shown:
            raise OutOfTurn(f"seat {seat!r} is not in this round")
        done = self._phase == FINISHED
        settled = self.settlement
        seats_out = []
        for s in self.seats:
            dealt = s.id in self.cards
            visible = dealt and (done or self.shown[s.id] or s.id == seat)
            pairing = settled.pairings.get(s.id) if settled is not None else None
            money = settled.seats_json()[s.id] if settled is not None else None
            seats_out.append(
                {
                    "id": s.id,
                    "stack": s.stack,
                    "cards": [str(c) for c in self.cards[s.id]] if visible else None,
                    "card_count": len(self.cards.get(s.id, ())),
                    "shown": self.shown[s.id],
                    "bid": self.bids[s.id],
                    "bet": self.bets.get(s.id),
                    "is_banker": s.id == self.banker,
                    "hand": self._hand_json(s.id) if visible else None,
                    "pairing": pairing.to_json() if pairing is not None else None,
                    "settlement": money,
                }
            )
        cfg = self.config
        out: JSON = {
            "game": self.game,
            "phase": self._phase,
            "countdown_s": self.deadline_s,
            "awaiting": self.awaiting(),
            "silence": self.silence(),
            "me": None,
            "base": cfg.base,
            "commission": cfg.commission,
            "multipliers": dict(cfg.multipliers.to_json()),
            "banker": self.banker,
            "banker_multiple": self.banker_multiple,
            "banker_by": self.banker_by,
            "deal_order": self.deal_order,
            "seats": seats_out,
            "commission_total": settled.settlement.commission if settled is not None else None,
            "rounding": settled.settlement.rounding if settled is not None else None,
        }
        if seat is not None:
            dealt = seat in self.cards
            out["me"] = {
                "id": seat,
                "stack": self._stack(seat),
                "cards": [str(c) for c in self.cards[seat]] if dealt else [],
                "hand": self._hand_json(seat) if dealt else None,
            }
        return out

    def result(self) -> RoundResult:
        self.require_finished()
        assert self._result is not None
        return self._result
