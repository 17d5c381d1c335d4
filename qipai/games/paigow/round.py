"""One round of bid-for-banker Pai Gow (抢庄牌九) as a state machine (docs/rules/paigow.md#the-game).

A *game* is two rounds dealt from one shuffled set of 32 tiles: round 1 deals the first 8 tiles
of the shuffle, round 2 the next 8 (of the remaining 24). Both rounds use the same seed: the
table starts round 2 with the same seed and the context of `next_round()` (`{"round": 2,
"seats": [...]}`), and takes a fresh seed after round 2. The seat list is in clockwise order
and must be the same in both rounds (nobody may leave between them).

Phases: `bid` (each seat: none = 0 or a multiple; silence = none) → `bet` (each player: a
multiple; silence = the lowest) → the deal (two dice, docs/rules/paigow.md#dice-and-deal dealing order) → `reveal`
(each seat may signal it is done looking; at the end of the countdown or when all are done,
every hand is shown clockwise from the banker) → `finished` (compared with the banker only,
settled with the foundation's banker-versus-players settlement, commission and caps).

Random draws come from separate forks of the seed, each recomputable on its own:
`tiles` (the one shuffle of the game), `round<N>/banker` (bid tie-break or the random banker),
`round<N>/dice` (the two dice).

Actions (`legal_actions` gives `ActionSpec(type, options)`):
* `{"type": "bid", "multiple": m}` — phase `bid`, options `{"choices": [0, 1, 2, 3, 4]}`, 0 = none.
* `{"type": "bet", "multiple": m}` — phase `bet`, players only, options `{"choices": [1, …, 5]}`.
* `{"type": "reveal"}` — phase `reveal`: this seat is done (an early reveal signal; the hands
  are shown together, in order, when the phase ends).

`view(seat)` — the JSON the browser table is built from (seat None = a spectator)::

    {
      "game": "paigow",
      "phase": "bid" | "bet" | "reveal" | "finished",
      "countdown_s": int | null,          # the current countdown
      "awaiting": [seat ids],             # whose choice the phase still waits for
      "me": SEAT | null,                  # the viewer's own entry of "seats" (null: spectator)
      "round": 1 | 2, "rounds": 2,        # round N of a game of 2
      "config": {...PaigowConfig.to_json()},
      "seats": [                          # clockwise order; each entry is a SEAT
        {"id", "stack", "position": 0..3,
         "bid": int | null,               # 0 = no bid; null = not yet bid (bids are public)
         "bet": int | null,               # the banker never bets
         "banker": bool, "ready": bool,   # ready = signalled `reveal`
         "tiles": [TILE, TILE] | null,    # own tiles from the deal; everyone's once finished
         "hand": HAND | null,             # the same visibility as tiles
         "outcome": "banker" | "player" | "push" | null,  # players, once finished
         "net": int | null}               # once finished
      ],
      "banker": id | null, "banker_multiple": int | null,
      "dice": [d1, d2] | null, "first_seat": id | null,
      "deal_order": [seat id per tile dealt] | null,   # 8 entries, 2 passes counter-clockwise
      "reveal_order": [seat ids] | null,               # clockwise from the banker
      "tiles_left": int,                  # undealt tiles left in the set (never their order)
      "seen_tiles": [TILE, ...],          # round 2: round 1's tiles (all shown then); else []
      "result": RoundResult.to_json() | null
    }
    TILE = {"pips": "6-6", "zh": "天", "en": "heaven", "points": 2}
    HAND = Hand.to_json(): tiles, tile_names, zh, zh_hant, en, key, rank (1 = 至尊宝 … 32 = 0),
           points, values (丁三/二四 counted as), strength (higher beats lower; equal = tie policy)

Before the reveal a seat sees only its own tiles; the undealt tiles' order is never shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from qipai.core.banker import MultipleChoice, choose_banker
from qipai.core.errors import IllegalAction, InvalidInput, OutOfTurn, WrongPhase
from qipai.core.protocol import JSON, ActionSpec, Event, NextRound, Round, RoundResult, Seat
from qipai.core.rng import Rng
from qipai.core.tiles import Tile, full_set

from . import actions
from .config import NO_BID_MULTIPLE, SEATS, PaigowConfig
from .hands import Hand, Outcome, evaluate, outcome
from .payout import PaigowSettlement, settle_round

TILES_PER_ROUND = (
    2 * SEATS
)  # docs/rules/paigow.md#the-game: round 1 deals 8 of 32, round 2 deals 8 of 24
ROUNDS_PER_GAME = 2


def tile_json(tile: Tile) -> JSON:
    return {"pips": str(tile), "zh": tile.zh, "en": tile.en, "points": tile.points}


def game_shuffle(rng: Rng) -> list[Tile]:
    """The game's one shuffle of the 32 tiles (fork `tiles`), shared by both rounds."""
    tiles = full_set()
    rng.fork("tiles").shuffle(tiles)
    return tiles


def first_seat_index(banker_index: int, dice_sum: int, seats: int = SEATS) -> int:
    """docs/rules/paigow.md#dice-and-deal: sum 1 would be the banker, 2 the next seat clockwise, …: (s − 1) mod 4 steps."""
    return (banker_index + dice_sum - 1) % seats


def deal_order(first_index: int, seats: int = SEATS) -> list[int]:
    """docs/rules/paigow.md#dice-and-deal: counter-clockwise from the first seat, one tile per seat per pass, two passes."""
    return [(first_index - k) % seats for k in range(seats)] * 2


def reveal_order(banker_index: int, seats: int = SEATS) -> list[int]:
    """docs/rules/paigow.md#reveal: reveal clockwise from the banker."""
    return [(banker_index + k) % seats for k in range(seats)]


@dataclass(frozen=True)
class _Checked:
    kind: str  # "bid" | "bet" | "reveal"
    multiple: int = 0


class PaigowRound(Round[PaigowConfig]):
    """A round of 抢庄牌九: bid, bet, dice and deal, reveal, compare, settle."""

    game = "paigow"

    def __init__(
        self,
        config: PaigowConfig,
        seats: Sequence[Seat],
        rng: Rng,
        context: Mapping[str, Any] | None,
    ) -> None:
        super().__init__(config, seats)
        if not isinstance(config, PaigowConfig):
            raise InvalidInput("a Pai Gow round needs a PaigowConfig")
        if len(self.seats) != SEATS:
            raise InvalidInput(f"Pai Gow is played by {SEATS} seats, got {len(self.seats)}")
        for seat in self.seats:
            if isinstance(seat.stack, bool) or not isinstance(seat.stack, int) or seat.stack < 0:
                raise InvalidInput(f"seat {seat.id!r} needs a non-negative integer stack")
        self.round_no = self._parse_context(context)
        shuffled = game_shuffle(rng)
        start = TILES_PER_ROUND * (self.round_no - 1)
        self._tiles = shuffled[start : start + TILES_PER_ROUND]  # hidden until dealt
        self._tiles_left_after = len(shuffled) - start - TILES_PER_ROUND
        self.seen_tiles: tuple[Tile, ...] = tuple(shuffled[:start])  # revealed in round 1
        self._banker_rng = rng.fork(f"round{self.round_no}/banker")
        self._dice_rng = rng.fork(f"round{self.round_no}/dice")
        self._phase = "bid"
        self._bids = MultipleChoice("bid", self.seat_ids())
        self._bets = MultipleChoice("bet", ())  # the players', once the banker is known
        self.banker: str | None = None
        self.banker_multiple: int | None = None
        self.dice: tuple[int, int] | None = None
        self.first_seat: str | None = None
        self.deal_seats: list[str] | None = None
        self.tiles: dict[str, tuple[Tile, Tile]] = {}
        self.hands: dict[str, Hand] = {}
        self.ready: set[str] = set()
        self.outcomes: dict[str, Outcome] = {}
        self.settlement: PaigowSettlement | None = None
        self._result: RoundResult | None = None

    def _parse_context(self, context: Mapping[str, Any] | None) -> int:
        if not context:
            return 1
        if not isinstance(context, Mapping):
            raise InvalidInput("a Pai Gow context is an object like {'round': 2}")
        unknown = sorted(set(context) - {"round", "seats"})
        if unknown:
            raise InvalidInput(f"unknown Pai Gow context key(s): {', '.join(unknown)}")
        round_no = context.get("round", 1)
        if isinstance(round_no, bool) or round_no not in range(1, ROUNDS_PER_GAME + 1):
            raise InvalidInput(f"a Pai Gow game has rounds 1 and 2, got {round_no!r}")
        seats = context.get("seats")
        if round_no > 1 and seats is None:
            raise InvalidInput(
                "round 2 of a Pai Gow game needs the 'seats' of round 1 (next_round().context)"
            )
        if seats is not None and list(seats) != self.seat_ids():
            raise InvalidInput(
                "the seats of round 2 must be those of round 1, in the same order "
                f"(nobody may leave mid-game): expected {list(seats)}, got {self.seat_ids()}"
            )
        return int(round_no)

    @classmethod
    def start(
        cls,
        config: PaigowConfig,
        seats: Sequence[Seat],
        rng: Rng,
        context: Mapping[str, Any] | None = None,
    ) -> Self:
        return cls(config, seats, rng, context)

    # ----- state ----------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self._phase

    @property
    def deadline_s(self) -> float | None:
        return {
            "bid": self.config.bid_seconds,
            "bet": self.config.bet_seconds,
            "reveal": self.config.reveal_seconds,
        }.get(self._phase)

    @property
    def bids(self) -> dict[str, int]:
        """The bids made so far (0 = no bid), in seat order."""
        return self._bids.made()

    @property
    def bets(self) -> dict[str, int]:
        """The players' bet multiples made so far."""
        return self._bets.made()

    def players(self) -> list[str]:
        """Every seat but the banker, clockwise."""
        return [s for s in self.seat_ids() if s != self.banker]

    def stack(self, seat: str) -> int:
        return next(s.stack for s in self.seats if s.id == seat)

    def awaiting(self) -> list[str]:
        if self._phase == "bid":
            return self._bids.awaiting()
        if self._phase == "bet":
            return self._bets.awaiting()
        if self._phase == "reveal":
            return [s for s in self.seat_ids() if s not in self.ready]
        return []

    def legal_actions(self, seat: str) -> list[ActionSpec]:
        if seat not in self.awaiting():
            return []
        if self._phase == "bid":
            return [self._bids.legal([0, *self.config.bid_choices])]
        if self._phase == "bet":
            return [self._bets.legal(self.config.bet_choices)]
        return [ActionSpec("reveal")]

    # ----- moves ----------------------------------------------------------------------------
    Action = actions.Action

    def _check(self, seat: str, action: actions.Action) -> _Checked:
        kind = action.type
        if kind != self._phase:
            raise WrongPhase(f"cannot {kind} now: the round is in phase {self._phase!r}")
        if kind == "bet" and seat == self.banker:
            raise IllegalAction("the banker does not bet")
        if seat not in self.awaiting():
            raise IllegalAction(f"seat {seat!r} has already chosen in phase {self._phase!r}")
        if isinstance(action, actions.Reveal):
            return _Checked("reveal")
        (spec,) = self.legal_actions(seat)
        choice = self._bids if kind == "bid" else self._bets
        return _Checked(kind, choice.check(action.multiple, spec.options["choices"]))

    def _apply(self, seat: str, checked: Any) -> list[Event]:
        assert isinstance(checked, _Checked)
        if checked.kind == "bid":
            events = [self._bids.record(seat, checked.multiple)]
        elif checked.kind == "bet":
            events = [self._bets.record(seat, checked.multiple)]
        else:
            self.ready.add(seat)
            events = [Event("ready", {"seat": seat})]
        if not self.awaiting():
            events += self._advance()
        return events

    def _expire(self) -> list[Event]:
        """docs/rules/paigow.md#round-flow: silence in bidding = no bid; silence in betting = the lowest multiple."""
        events: list[Event] = []
        if self._phase == "bid":
            events = self._bids.default(0)
        elif self._phase == "bet":
            events = self._bets.default(self.config.bet_choices[0])
        else:
            self.ready.update(self.awaiting())
        return events + self._advance()

    def _advance(self) -> list[Event]:
        if self._phase == "bid":
            self._phase = "bet"
            return self._choose_banker()
        if self._phase == "bet":
            self._phase = "reveal"
            return self._deal()
        self._phase = "finished"
        return self._reveal_and_settle()

    def _choose_banker(self) -> list[Event]:
        """docs/rules/paigow.md#bidding: highest bid banks; a tie is drawn weighted by table stacks; nobody bids →
        a uniformly random seat at multiple 1."""
        bids = self.bids
        stacks = {s: self.stack(s) for s in bids}
        choice = choose_banker(bids, stacks, self._banker_rng, NO_BID_MULTIPLE)
        self.banker, self.banker_multiple = choice.seat, choice.multiple
        how = {"nobody": "nobody-bid", "highest": "highest-bid", "tie": "tie-break"}[choice.how]
        tied = list(choice.tied)
        self._bets = MultipleChoice("bet", self.players())
        data = {
            "seat": self.banker,
            "multiple": self.banker_multiple,
            "how": how,
            "tied": tied if how == "tie-break" else [],
        }
        return [Event("banker", data)]

    def _deal(self) -> list[Event]:
        assert self.banker is not None
        ids = self.seat_ids()
        banker_index = ids.index(self.banker)
        d1, d2 = self._dice_rng.dice(2)
        self.dice = (d1, d2)
        first = first_seat_index(banker_index, d1 + d2)
        self.first_seat = ids[first]
        order = deal_order(first)
        self.deal_seats = [ids[i] for i in order]
        got: dict[str, list[Tile]] = {s: [] for s in ids}
        for seat, tile in zip(self.deal_seats, self._tiles, strict=True):
            got[seat].append(tile)
        self.tiles = {s: (t[0], t[1]) for s, t in got.items()}
        self.hands = {s: evaluate(t, self.config.high_nine) for s, t in self.tiles.items()}
        events = [
            Event("dice", {"dice": [d1, d2], "sum": d1 + d2, "first": self.first_seat}),
            Event("deal", {"order": list(self.deal_seats)}),
        ]
        for seat in ids:
            events.append(
                Event(
                    "tiles",
                    {"seat": seat, "tiles": [tile_json(t) for t in self.tiles[seat]]},
                    to=(seat,),
                )
            )
        return events

    def reveal_seats(self) -> list[str]:
        assert self.banker is not None
        ids = self.seat_ids()
        return [ids[i] for i in reveal_order(ids.index(self.banker))]

    def _reveal_and_settle(self) -> list[Event]:
        assert self.banker is not None and self.banker_multiple is not None
        events = [
            Event("reveal", {"seat": s, "hand": self.hands[s].to_json()})
            for s in self.reveal_seats()
        ]
        banker_hand = self.hands[self.banker]
        for seat in self.reveal_seats()[1:]:
            self.outcomes[seat] = outcome(banker_hand, self.hands[seat], self.config.tie_policy)
        self.settlement = settle_round(
            self.config,
            self.banker,
            self.banker_multiple,
            self.bets,
            self.outcomes,
            {s.id: s.stack for s in self.seats},
        )
        for seat in self.reveal_seats()[1:]:
            events.append(Event("compare", {"seat": seat, "winner": self.outcomes[seat]}))
        self._result = self._build_result()
        events.append(Event("settle", {"nets": self.settlement.nets()}))
        return events

    # ----- output ---------------------------------------------------------------------------
    def _build_result(self) -> RoundResult:
        assert self.settlement is not None
        details = {
            "game": self.game,
            "round": self.round_no,
            "banker": self.banker,
            "banker_multiple": self.banker_multiple,
            "bids": dict(self.bids),
            "bets": dict(self.bets),
            "dice": list(self.dice or ()),
            "first_seat": self.first_seat,
            "deal_order": list(self.deal_seats or ()),
            "reveal_order": self.reveal_seats(),
            "hands": {s: h.to_json() for s, h in self.hands.items()},
            "pairings": self.settlement.pairings_json(),
            "seats": self.settlement.seats_json(),
            "capped": self.settlement.capped,
        }
        return RoundResult(self.settlement.postings(f"paigow round {self.round_no}"), details)

    def result(self) -> RoundResult:
        self.require_finished()
        assert self._result is not None
        return self._result

    def next_round(self) -> NextRound:
        """Round 1 → round 2 on the same seed (same shuffle); round 2 → a fresh seed."""
        self.require_finished()
        if self.round_no < ROUNDS_PER_GAME:
            return NextRound(True, {"round": self.round_no + 1, "seats": self.seat_ids()})
        return NextRound(False, {})

    def tiles_left(self) -> int:
        """Undealt tiles left in the set (a count only)."""
        return self._tiles_left_after + (0 if self.tiles else TILES_PER_ROUND)

    def view(self, seat: str | None) -> JSON:
        finished = self._phase == "finished"
        nets = self.settlement.nets() if self.settlement else {}
        seats_out: list[JSON] = []
        for position, s in enumerate(self.seats):
            shown = bool(self.tiles) and (finished or s.id == seat)
            seats_out.append(
                {
                    "id": s.id,
                    "stack": s.stack,
                    "position": position,
                    "bid": self.bids.get(s.id),
                    "bet": self.bets.get(s.id),
                    "banker": s.id == self.banker,
                    "ready": s.id in self.ready,
                    "tiles": [tile_json(t) for t in self.tiles[s.id]] if shown else None,
                    "hand": self.hands[s.id].to_json() if shown else None,
                    "outcome": self.outcomes.get(s.id) if finished else None,
                    "net": nets.get(s.id) if finished else None,
                }
            )
        if seat is not None and seat not in self.seat_ids():
            raise OutOfTurn(f"seat {seat!r} is not in this round")
        me = next((dict(out) for out in seats_out if out["id"] == seat), None)
        return {
            "game": self.game,
            "phase": self._phase,
            "countdown_s": self.deadline_s,
            "awaiting": self.awaiting(),
            "me": me,
            "round": self.round_no,
            "rounds": ROUNDS_PER_GAME,
            "config": self.config.to_json(),
            "seats": seats_out,
            "banker": self.banker,
            "banker_multiple": self.banker_multiple,
            "dice": list(self.dice) if self.dice else None,
            "first_seat": self.first_seat,
            "deal_order": list(self.deal_seats) if self.deal_seats else None,
            "reveal_order": self.reveal_seats() if self.banker else None,
            "tiles_left": self.tiles_left(),
            "seen_tiles": [tile_json(t) for t in self.seen_tiles],
            "result": self._result.to_json() if self._result else None,
        }
