"""The Pok Deng round: betting with a countdown, burn + deal in the rules' order, settle.

A round is one deal from a shoe that spans rounds (docs/rules/pokdeng.md#cards-and-shoe, "Cards and shoe"). The shoe is
shuffled from the round's `Rng` (`qipai.core.cards.Shoe`: 8 decks, cut card 52–104 cards from the
end), so every round of a shoe starts from the *same* seed with
`context = {"position": n, "round_in_shoe": k, "road": "Wr,L,T,W,L,-;…"}` (n = cards used so far;
the road in road.py's compact form); `next_round()` returns `NextRound(reuse_seed=True, …)` until
the cut card comes out, then `reuse_seed=False` (a new shoe: new seed and commitment, empty road).
A whole shoe thus replays from one seed, the contexts and its rounds' actions. Each round shuffles
its shoe again from the seed (about a millisecond): the engine keeps no state between rounds but
the context; `qipai simulate` plays many rounds at once through `sim.py`, which is checked
against this engine round by round.

Seats are the players at the table: `Seat(id=player, stack=available balance)`. A player may bet
several spots; a position bet takes stake + hold (2x), a pair bet takes its stake.

Phases: `"betting"` (countdown `config.betting_s`) → `"finished"`. Betting closes when the countdown
expires (`expire()`; silence = no bet) or when every player has said `done`; the burn, the deal
(one card each to P1–P5 then the banker, twice) and the settlement happen at that moment.

Actions (all during "betting"):
* `{"type": "bet", "spot": "P1", "amount": 100}` — add chips to a spot (the player's total on the
  spot must stay within the spot's limits, and stake + hold of all their bets within their stack);
* `{"type": "bets", "bets": [{"spot": …, "amount": …}, …], "done": false}` — several at once, all or
  nothing; `"done": true` also confirms;
* `{"type": "clear"}` or `{"type": "clear", "spot": "P1"}` — take chips back;
* `{"type": "done"}` — confirm; no further bets from this player this round.

Events (all public): `bets` {player, totals: the touched spots' new totals, taken}, `clear`
{player, spots}, `done` {player}, and `deal` {burned: 1, cards: {"P1": ["Ac", "7h"], …, "B": …},
last_round, nets: {player: net}} when betting closes.

Results: `result()` has postings (each betting player's net, `house`, `rounding`) and details
{game, mode, hands, bets (per bet: id "player:spot", player, spot, amount, taken, returned, net,
outcome, multiple, rounding), house, rounding, road (this round's row), round_in_shoe,
shoe_position, last_round}; `round.settlement` gives the same per bet without JSON (for the
simulator: bet i is `settlement.keys[i]` = (player, spot) with `settlement.amounts[i]` and net
`settlement.bet_nets[i]`; `settlement.bets` builds the `Bet`s).

`view(seat)` — the JSON the browser table is built from (`seat=None`: a spectator)::

    {
      "game": "pokdeng", "mode": "classic" | "banker-player",
      "phase": "betting" | "finished",
      "countdown_s": 15.0 | null,              # the betting countdown (null once closed)
      "awaiting": ["alice", …],                 # who has not confirmed yet
      "spots": {"P1": {"kind": "player", "hand": "P1", "min": 100, "max": 100000, "hold": 2},
                "P1 pair": {"kind": "pair", "hand": "P1", …, "hold": 1}, …},   # this mode's spots
      "players": [{"id": "alice", "done": false, "spots": ["P1"]}, …],   # who bet where
      "spot_totals": {"P1": 300, …},            # chips on each spot, all players
      "me": {"id", "stack", "taken", "available", "done", "bets": {"P1": 100, …}} | null,
      "cards": null | {"P1": ["Ac", "7h"], …, "B": ["Ad", "4h"]},   # all public after the deal
      "hands": null | {"P1": {"cards", "points", "rank": "7.4", "zh", "en", "suited",
                              "pair", "double"}, …, "B": …},
      "results": null | {"P1": {"result": "win"|"lose"|"tie", "color", "ring", "pair"}, …},
      "payouts": null | {"bets": [{"id", "spot", "amount", "taken", "returned", "net",
                                   "outcome", "multiple", "rounding", "player"}, …],
                         "net": n},            # this seat's bets (all bets for a spectator)
      "road": {"code": "Wr,L,T,Wrp,L,-;W,T,L,W,Lp,p",   # this shoe, this round included
               "counts": {"P1": {"win", "lose", "tie"}, …}},
      "shoe": {"decks": 8, "round": k, "cards_used": n, "cards_remaining": m,
               "new_shoe": k == 1, "cut_card_out": bool, "last_round": bool}
    }

`road.code` is road.py's compact form (as in the context), oldest round first: rows joined by
`;` ("" before the shoe's first deal), each row six comma-separated fields — P1–P5's beads, then
`p` (the banker had a pair) or `-`. A bead is `W`/`L`/`T` (the position won/lost/tied against
the banker: blue/grey/green), then `r` if ringed (the result's hand was a double hand), then `p`
if the position had a pair (the yellow dot) — docs/rules/pokdeng.md#road, Road. `Road.decode(code).to_json()`
spells it out per bead ({"result", "color", "ring", "pair"}, as in `results`); the view sends
the string because the spelled-out road was ~80 % of a view's bytes late in a shoe.

Views are read-only (some sub-objects are shared between views). Undealt cards and the burn card
are never in a view. `last_round` turns true when the cut card
comes out during this round's deal (the dealer finishes the round, then the shoe is changed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from qipai.core.cards import Card, Shoe
from qipai.core.errors import IllegalAction, InsufficientStack, InvalidInput, OutOfTurn, WrongPhase
from qipai.core.money import require_amount
from qipai.core.protocol import (
    ActionSpec,
    Event,
    NextRound,
    RecordedAction,
    Round,
    RoundResult,
    Seat,
)
from qipai.core.rng import Rng
from qipai.games.pokdeng import actions
from qipai.games.pokdeng.config import BANKER, CARDS_PER_ROUND, POSITIONS, PokDengConfig
from qipai.games.pokdeng.hands import Hand, evaluate
from qipai.games.pokdeng.payout import Bet, Settlement, settle_placed
from qipai.games.pokdeng.road import (
    Road,
    RoadRow,
    check_road_code,
    klass_row_code,
    road_view,
)

BETTING: Final = "betting"
FINISHED: Final = "finished"


def new_shoe(rng: Rng, config: PokDengConfig) -> Shoe:
    """The shoe a round's seed shuffles (docs/rules/pokdeng.md, "Cards and shoe")."""
    return Shoe(rng, config.decks, config.cut_behind)


def shoe_cards(rng: Rng, config: PokDengConfig) -> tuple[tuple[Card, ...], tuple[int, ...], int]:
    """(cards, card ids, cards behind the cut card) of the shoe this round's seed shuffles."""
    shoe = new_shoe(rng, config)
    return shoe.cards, tuple(card.id for card in shoe.cards), shoe.behind_cut


def _context_int(context: Mapping[str, Any], key: str, default: int, least: int) -> int:
    value = context.get(key, default)
    if type(value) is not int or value < least:
        raise InvalidInput(f"context {key!r} must be an integer >= {least}, got {value!r}")
    return value


class PokDengRound(Round[PokDengConfig]):
    """One Pok Deng round (see the module docstring for actions and the view)."""

    game = "pokdeng"

    def __init__(
        self,
        config: PokDengConfig,
        seats: Sequence[Seat],
        shoe: Shoe,
        round_in_shoe: int,
        road: str,
    ) -> None:
        super().__init__(config, seats)
        for seat in self.seats:
            require_amount(seat.stack, f"stack of {seat.id!r}")
        self._stacks = {seat.id: seat.stack for seat in self.seats}
        self._shoe = shoe
        self._position = shoe.position  # where this round starts in the shoe
        self.round_in_shoe = round_in_shoe
        self._road_code = road  # earlier rounds of this shoe (road.py's compact form)
        self._phase = BETTING
        self._bets: dict[tuple[str, str], int] = {}  # (player, spot) → amount, placing order
        self._taken: dict[str, int] = dict.fromkeys(self._stacks, 0)
        self._done: set[str] = set()
        self._hands: dict[str, Hand] | None = None  # set by the deal
        self._settlement: Settlement | None = None
        self._row: str | None = None  # this round's road row (road.py's compact form)

    # ----- construction -------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        config: PokDengConfig,
        seats: Sequence[Seat],
        rng: Rng,
        context: Mapping[str, Any] | None = None,
    ) -> PokDengRound:
        """Start a round at `context["position"]` of the shoe shuffled from `rng`."""
        if not isinstance(config, PokDengConfig):
            raise InvalidInput("a Pok Deng round needs a PokDengConfig")
        if context is not None and not isinstance(context, Mapping):
            raise InvalidInput("context must be an object")
        context = context or {}
        position = _context_int(context, "position", 0, 0)
        round_in_shoe = _context_int(context, "round_in_shoe", 1, 1)
        road = context.get("road", "")
        check_road_code(road)
        shoe = new_shoe(rng, config)
        if position > shoe.cut_index:
            raise InvalidInput(
                f"shoe position {position} is past the cut card ({shoe.cut_index}): "
                "start a new shoe"
            )
        shoe.seek(position)
        return cls(config, seats, shoe, round_in_shoe, road)

    # ----- state ----------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self._phase

    @property
    def deadline_s(self) -> float | None:
        return float(self.config.betting_s) if self._phase == BETTING else None

    @property
    def cut_card_out(self) -> bool:
        """True once this round's deal has drawn the card behind the cut card."""
        return self._phase == FINISHED and self._shoe.cut_card_out

    def available(self, player: str) -> int:
        """What the player can still commit: stack − stake and hold of their bets."""
        return self._stacks[player] - self._taken[player]

    def bets(self) -> list[Bet]:
        """The bets down, in placing order (one per player and spot; id `player:spot`)."""
        return [Bet(f"{p}:{s}", p, s, amount) for (p, s), amount in self._bets.items()]

    def awaiting(self) -> list[str]:
        if self._phase != BETTING:
            return []
        return [s.id for s in self.seats if s.id not in self._done]

    def legal_actions(self, seat: str) -> list[ActionSpec]:
        """During betting, until `done`: bet / bets (spots with limits, the balance left),
        clear (when the player has chips down) and done; nothing for a seat not in the round."""
        if seat not in self._stacks or self._phase != BETTING or seat in self._done:
            return []
        options = {
            "spots": self.config.spots_json,
            "available": self.available(seat),
            "current": {s: amount for (p, s), amount in self._bets.items() if p == seat},
        }
        actions = [ActionSpec("bet", options), ActionSpec("bets", options)]
        if self._taken[seat]:
            actions.append(ActionSpec("clear"))
        actions.append(ActionSpec("done"))
        return actions

    # ----- moves ----------------------------------------------------------------------------
    Action = actions.Action
    finished_message = "betting is closed: the countdown has ended and the cards are dealt"

    def _check_bets(
        self, seat: str, chips: Sequence[tuple[str, int]]
    ) -> tuple[Sequence[tuple[str, int]], int, dict[str, int]]:
        """Validate chips as if placed in order: each on this table's spots, each spot's new
        total within its limits, stake + hold within the balance. Returns (the chips, what
        they take, each touched spot's new total)."""
        bounds = self.config.spot_bounds  # spot → (hold, min, max)
        bets = self._bets
        totals: dict[str, int] = {}
        need = 0
        outside = False  # some spot's running total was outside its limits
        for spot, amount in chips:
            found = bounds.get(spot)
            if found is None:
                raise IllegalAction(f"spot {spot!r} is not on a {self.config.mode} table")
            hold, least, most = found
            if spot in totals:
                total = totals[spot] = totals[spot] + amount
            elif bets and (seat, spot) in bets:
                total = totals[spot] = amount + bets[seat, spot]
            else:
                total = totals[spot] = amount
            if not least <= total <= most:
                outside = True
            need += hold * amount
        if outside:  # a spot's final total is its last running total: name the first one out
            for spot, total in totals.items():
                _, least, most = bounds[spot]
                if total < least:
                    raise IllegalAction(f"{spot}: {total} is under the table minimum {least}")
                if total > most:
                    raise IllegalAction(f"{spot}: {total} is over the table maximum {most}")
        available = self._stacks[seat] - self._taken[seat]
        if need > available:
            raise InsufficientStack(
                f"the bet needs {need} (stake + hold) but only {available} is available"
            )
        return chips, need, totals

    def _check(self, seat: str, action: actions.Action) -> tuple[str, Any, bool]:
        if seat in self._done:
            raise IllegalAction(f"{seat} has confirmed their bets for this round")
        if isinstance(action, actions.Bet):
            return "bet", self._check_bets(seat, ((action.spot, action.amount),)), False
        if isinstance(action, actions.Bets):
            chips = [(chip.spot, chip.amount) for chip in action.bets]
            return "bet", self._check_bets(seat, chips), action.done
        if isinstance(action, actions.Clear):
            spot = action.spot
            if spot is not None and spot not in self.config.spots:
                raise InvalidInput(
                    f"unknown spot {spot!r} for this {self.config.mode} table", field="spot"
                )
            if spot is not None and (seat, spot) not in self._bets:
                raise IllegalAction(f"{seat} has no bet on {spot}")
            if spot is None and not self._taken[seat]:
                raise IllegalAction(f"{seat} has no bets to clear")
            return "clear", spot, False
        return "done", None, True

    def _apply(self, seat: str, checked: tuple[str, Any, bool]) -> list[Event]:
        kind, payload, done = checked
        events: list[Event] = []
        if kind == "bet":
            _, need, totals = payload
            placed = {(seat, spot): total for spot, total in totals.items()}
            if self._bets:
                self._bets.update(placed)  # a spot bet before keeps its place in the order
            else:
                self._bets = placed
            self._taken[seat] += need
            events.append(Event("bets", {"player": seat, "totals": totals, "taken": need}))
        elif kind == "clear":
            keys = [k for k in self._bets if k[0] == seat and (payload is None or k[1] == payload)]
            for key in keys:
                amount = self._bets.pop(key)
                self._taken[seat] -= self.config.spot_holds[key[1]] * amount
            events.append(Event("clear", {"player": seat, "spots": [k[1] for k in keys]}))
        if done:
            self._done.add(seat)
            events.append(Event("done", {"player": seat}))
            if len(self._done) == len(self._stacks):
                events.extend(self._deal())
        return events

    def _expire(self) -> list[Event]:
        # Silence = no bet (docs/rules/pokdeng.md, Table): close betting with the chips down.
        return self._deal()

    def _deal(self) -> list[Event]:
        """Burn one card, deal P1–P5 and the banker one card each, twice; settle."""
        # docs/rules/pokdeng.md: burn one card face down, then one card each to P1, P2, P3, P4,
        # P5, Banker, then a second card in the same order (12 cards).
        shoe = self._shoe
        shoe.burn()
        first = [shoe.draw() for _ in range(6)]
        second = [shoe.draw() for _ in range(6)]
        names = (*POSITIONS, BANKER)
        hands = {n: evaluate(a, b) for n, a, b in zip(names, first, second, strict=True)}
        self._hands = hands
        self._phase = FINISHED
        # A bet settles on its hand's class and the banker's (`Hand.klass`).
        klasses = {name: hand.klass for name, hand in hands.items()}
        bets = self._bets
        settlement = self._settlement = settle_placed(
            self.config, tuple(bets), tuple(bets.values()), klasses
        )
        self._row = klass_row_code(klasses)
        data = {
            "burned": 1,
            "cards": {name: hand.card_text for name, hand in hands.items()},
            "last_round": shoe.cut_card_out,
            "nets": dict(settlement.nets),
        }
        return [Event("deal", data)]

    # ----- output ---------------------------------------------------------------------------
    @property
    def hands(self) -> dict[str, Hand]:
        """The dealt hands (P1–P5, B); WrongPhase before the deal."""
        if self._hands is None:
            raise WrongPhase("the cards are not dealt yet")
        return self._hands

    @property
    def settlement(self) -> Settlement:
        """Every bet's outcome (fast access for the simulator); WrongPhase before the deal."""
        if self._settlement is None:
            raise WrongPhase("the round is not settled yet")
        return self._settlement

    @property
    def road(self) -> Road:
        """This shoe's road: the earlier rounds, and this one once dealt."""
        road = Road.decode(self._road_code)
        if self._row is not None:
            road.rows.append(RoadRow.from_code(self._row))
        return road

    def result(self) -> RoundResult:
        """Postings (player nets, house, rounding) and details: hands, bets, road row, shoe."""
        settlement = self._settlement
        if settlement is None or self._hands is None or self._row is None:
            raise WrongPhase(f"the round is not finished (phase {self._phase!r})")
        details = {
            "game": "pokdeng",
            "mode": self.config.mode,
            "hands": {name: h.to_json() for name, h in self._hands.items()},
            "bets": [o.to_json() for o in settlement.outcomes()],
            "house": settlement.house,
            "rounding": settlement.rounding,
            "road": self._row,
            "round_in_shoe": self.round_in_shoe,
            "shoe_position": self._position,
            "last_round": self.cut_card_out,
        }
        return RoundResult(settlement.postings(), details)

    def next_round(self) -> NextRound:
        """The same shoe at the next position, or a new shoe once the cut card has come out."""
        row = self._row
        if row is None:  # set by the deal, which finishes the round
            raise WrongPhase(f"the round is not finished (phase {self._phase!r})")
        if self.cut_card_out:
            return NextRound(False, {})
        road = f"{self._road_code};{row}" if self._road_code else row
        return NextRound(
            True,
            {
                "position": self._position + CARDS_PER_ROUND,
                "round_in_shoe": self.round_in_shoe + 1,
                "road": road,
            },
        )

    def view(self, seat: str | None) -> dict[str, Any]:
        if seat is not None and seat not in self._stacks:
            raise OutOfTurn(f"seat {seat!r} is not in this round")
        config = self.config
        totals: dict[str, int] = {}
        where: dict[str, list[str]] = {s: [] for s in self._stacks}
        for (player, spot), amount in self._bets.items():
            totals[spot] = totals.get(spot, 0) + amount
            where[player].append(spot)
        me = None
        if seat is not None:
            me = {
                "id": seat,
                "stack": self._stacks[seat],
                "taken": self._taken[seat],
                "available": self.available(seat),
                "done": seat in self._done,
                "bets": {s: amount for (p, s), amount in self._bets.items() if p == seat},
            }
        if self._row is None:
            road_text = self._road_code
        else:
            road_text = f"{self._road_code};{self._row}" if self._road_code else self._row
        deal: dict[str, Any] = dict.fromkeys(("cards", "hands", "results", "payouts"))
        if self._hands is not None:
            assert self._row is not None and self._settlement is not None
            mine = [o for o in self._settlement.outcomes() if seat is None or o.bet.player == seat]
            deal = {
                "cards": {n: h.card_text for n, h in self._hands.items()},
                "hands": {n: h.to_json() for n, h in self._hands.items()},
                "results": {
                    p: c.to_json()
                    for p, c in zip(POSITIONS, RoadRow.from_code(self._row).cells, strict=True)
                },
                "payouts": {"bets": [o.to_json() for o in mine], "net": sum(o.net for o in mine)},
            }
        used = self._position + (CARDS_PER_ROUND if self._hands is not None else 0)
        return {
            "game": "pokdeng",
            "mode": config.mode,
            "phase": self._phase,
            "countdown_s": self.deadline_s,
            "awaiting": self.awaiting(),
            "spots": config.spots_json,
            "players": [
                {"id": s, "done": s in self._done, "spots": where[s]} for s in self._stacks
            ],
            "spot_totals": totals,
            "me": me,
            **deal,
            "road": road_view(road_text),
            "shoe": {
                "decks": config.decks,
                "round": self.round_in_shoe,
                "cards_used": used,
                "cards_remaining": len(self._shoe.cards) - used,
                "new_shoe": self.round_in_shoe == 1,
                "cut_card_out": self.cut_card_out,
                "last_round": self.cut_card_out,
            },
        }


def replay_shoe(
    config: PokDengConfig,
    seed: bytes,
    rounds: Sequence[tuple[Sequence[Seat], Sequence[RecordedAction]]],
) -> list[PokDengRound]:
    """Rebuild a whole shoe from its seed and each round's (seats, actions): the contexts are
    derived round by round, not trusted from storage (an audit of a shoe)."""
    out: list[PokDengRound] = []
    context: Mapping[str, Any] | None = None
    for k, (seats, logged) in enumerate(rounds):
        if out:
            following = out[-1].next_round()  # WrongPhase if the earlier round did not finish
            if not following.reuse_seed:
                raise InvalidInput(f"the shoe ended with round {k}; round {k + 1} is a new shoe")
            context = following.context
        out.append(PokDengRound.replay(config, seats, seed, logged, context))
    return out
