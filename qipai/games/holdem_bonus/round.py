"""The Texas Hold'em Bonus round (docs/rules/holdem-bonus.md#round-flow) as a state machine.

Seats are the players sitting in boxes: each `Seat.id` must be one of `config.boxes` (default
"1".."7"). The round's `context` carries the jackpot: `{"pool": balance}` (minor units; default
the seed), and `next_round().context` hands on `{"pool": balance after}` — so the ledger holds it.

Phases: `"betting"` → `"flop"` (fold or flop bet 2x) → `"turn"` (turn bet 1x or check) → `"river"`
(river bet 1x or check; only boxes that bet the turn) → `"finished"`. A decision phase nobody
has to act in is skipped. Cards: one shuffled deck per round (`rng.fork("deck")`); when betting
closes, two hole cards go to each box with an ante (box order, one card at a time) and to the
dealer, and the five community cards are set aside; the flop shows after the flop decisions,
the turn card after the turn decisions, the river card after the river decisions, then the
showdown shows every hand. Dealer hole cards and other boxes' hole cards stay hidden until then.

Actions:
* betting — `{"type": "bet", "box": "3", "ante": 100, "bonus": 100 | 0, "pool": true | false}`
  places (or replaces) all of one box's bets (`box` defaults to the seat's own; `"done": true`
  also confirms); the ante must
  lie within the table limits and the bonus, if any, equal it (docs/rules/holdem-bonus.md#bets); `{"type": "clear",
  "box"?: "3"}` takes bets back; `{"type": "done"}` confirms (no more bets this round).
  **Playing a vacant box (抢押):** a seat may also bet a box nobody sits in, or a box whose own
  player has confirmed without betting on it; the first ante claims it, and that seat then makes
  all the box's decisions and takes all its results. A seat's bets must be covered by its
  stack at their most (ante + bonus + pool + flop 2x + turn + river = 5x ante + bonus + pool), so
  a later bet can never fail for want of funds (**Decision**, like most tables).
* flop — `{"type": "flop", "box"?: "3", "amount"?: 200}` or `{"type": "fold", "box"?: "3"}`;
* turn — `{"type": "turn", "box"?, "amount"?: 100}` or `{"type": "check", "box"?}` (a check gives
  up the river bet);
* river — `{"type": "river", "box"?, "amount"?: 100}` or `{"type": "check", "box"?}`.
`box` may be left out when exactly one of the seat's boxes awaits a decision; `amount`, when
given, must be the exact bet. Wrong phase, a box that is not the seat's, a repeated decision or
a wrong amount is refused and changes nothing.

Countdowns (`deadline_s`): betting `config.betting_s`; each decision `config.decision_s`. On
silence (`expire()`), docs/rules/holdem-bonus.md#silence Decision: bets already on the layout stand and betting closes;
an undecided box folds at the flop decision and checks at the turn and river decisions.

`view(seat)` — JSON for the browser table (`seat=None`: a spectator)::

    {
      "game": "holdem-bonus", "phase": "betting" | "flop" | "turn" | "river" | "finished",
      "countdown_s": 20.0 | null, "awaiting": [seat ids],
      "limits": {"ante_min": 100, "ante_max": 100000, "pool_stake": 100},
      "bonus_table": "source" | "with-small-pairs",
      "bonus_pays": {"aces_vs_dealer_aces": 1000, "aces": 30, …},     # line → odds x:1
      "pool": {"balance": 1000000, "seed": 500000, "stake": 100,
               "percent": {"straight": "0.10", …}},                  # balance at round start
      "boxes": [{"box": "1", "seated": "1" | null, "player": "1" | null,   # who plays it
                 "bets": {"ante": 100, "bonus": 0, "pool": 100, "flop": 200, "turn": 0,
                          "river": 0},
                 "status": "open" | "bet" | "waiting" | "folded" | "checked" | "in",
                 "awaiting": "flop" | "turn" | "river" | null,
                 "dealt": true,                           # hole cards lie face down (or up)
                 "cards": ["As", "Kd"] | null,            # only to the seat playing the box,
                 "bonus_line": "ak_offsuit" | null,       #   or to everyone after the showdown
                 "pool_hand": {category, …} | null,       # once the flop is out, same viewers
                 "hand": {category, name, strength, best_five} | null,   # after the showdown
                 "outcome": "win" | "lose" | "tie" | "fold" | null,
                 "nets": {"ante": …, "flop", "turn", "river", "bonus", "pool"} | null}, …],
      "dealer": {"dealt": true, "cards": null | ["Qs", "Qh"], "hand": null | {…}},  # shown at
                                                          # the showdown
      "board": ["Ah", "Kd", "7c"],                        # community cards shown so far
      "me": null | {"id": "1", "stack": 10000, "committed": 700, "available": 9300,
                    "done": false, "boxes": ["1", "5"], "net": null | -300},
      "result": null | {"pool": {"opening", "opening_top_up", "awards": […],
                                 "contributions": […], "winning_stakes", "balance_after"}}
    }

`status`: "open" = no ante (a vacant box may be taken), "bet" = bets placed (betting phase),
"waiting" = its decision is awaited now, "folded", "checked" (checked the turn: no river),
"in" = still in the hand. The undealt deck and unrevealed community cards are never in a view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from qipai.core.cards import Card, standard_deck
from qipai.core.errors import (
    IllegalAction,
    InsufficientStack,
    InvalidInput,
    OutOfTurn,
    WrongPhase,
)
from qipai.core.money import require_amount
from qipai.core.protocol import (
    JSON,
    ActionSpec,
    Event,
    NextRound,
    Round,
    RoundResult,
    Seat,
)
from qipai.core.rng import Rng
from qipai.games.holdem_bonus import actions
from qipai.games.holdem_bonus.config import HoldemBonusConfig
from qipai.games.holdem_bonus.hands import BonusLine, bonus_line, pool_category
from qipai.games.holdem_bonus.payout import BoxPlay, PoolSettings, Settlement, settle_round

BETTING: Final = "betting"
FLOP: Final = "flop"
TURN: Final = "turn"
RIVER: Final = "river"
FINISHED: Final = "finished"
DECISIONS: Final = (FLOP, TURN, RIVER)
# The action that makes the bet, and the one that declines it, per decision phase.
_BET_ACTION: Final = {FLOP: "flop", TURN: "turn", RIVER: "river"}
_DECLINE_ACTION: Final = {FLOP: "fold", TURN: "check", RIVER: "check"}
# Community cards shown during each phase.
_SHOWN: Final = {BETTING: 0, FLOP: 0, TURN: 3, RIVER: 4, FINISHED: 5}


@dataclass(frozen=True)
class BoxBet:
    player: str
    ante: int
    bonus: int
    pool: int

    @property
    def exposure(self) -> int:
        """Most this box can cost: ante, bonus, pool, flop (2x), turn and river."""
        return 5 * self.ante + self.bonus + self.pool


@dataclass(frozen=True)
class _Parsed:
    kind: str
    box: str | None = None
    bet: BoxBet | None = None
    done: bool = False


class HoldemBonusRound(Round[HoldemBonusConfig]):
    """One round of Texas Hold'em Bonus; see the module docstring."""

    game = "holdem-bonus"

    def __init__(
        self, config: HoldemBonusConfig, seats: Sequence[Seat], deck: Sequence[Card], pool: int
    ) -> None:
        super().__init__(config, seats)
        if not seats:
            raise InvalidInput("a round needs at least one seated player")
        for seat in seats:
            if seat.id not in config.boxes:
                raise InvalidInput(
                    f"seat {seat.id!r} is not a box of this table (boxes: {', '.join(config.boxes)})"
                )
            require_amount(seat.stack, f"stack of seat {seat.id}")
        self._deck = tuple(deck)
        self._pool_opening = pool
        self._stacks = {s.id: s.stack for s in seats}
        self._phase = BETTING
        self._bets: dict[str, BoxBet] = {}
        self._done: set[str] = set()
        self._holes: dict[str, tuple[Card, Card]] = {}
        self._dealer: tuple[Card, Card] | None = None
        self._board: tuple[Card, ...] = ()
        # Decision per box and phase: True = bet, False = fold/check.
        self._decisions: dict[str, dict[str, bool]] = {}
        self._settlement: Settlement | None = None

    # ----- construction ---------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        config: HoldemBonusConfig,
        seats: Sequence[Seat],
        rng: Rng,
        context: Mapping[str, Any] | None = None,
    ) -> HoldemBonusRound:
        context = context or {}
        unknown = set(context) - {"pool"}
        if unknown:
            raise InvalidInput(f"unknown Hold'em Bonus context keys: {sorted(unknown)}")
        pool = require_amount(context.get("pool", config.pool_seed), "pool balance")
        deck = standard_deck()
        rng.fork("deck").shuffle(deck)
        return cls(config, seats, deck, pool)

    # ----- state ----------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self._phase

    @property
    def deadline_s(self) -> float | None:
        if self._phase == BETTING:
            return float(self.config.betting_s)
        if self._phase in DECISIONS:
            return float(self.config.decision_s)
        return None

    @property
    def pool_opening(self) -> int:
        return self._pool_opening

    @property
    def settlement(self) -> Settlement | None:
        return self._settlement

    def playing_boxes(self) -> list[str]:
        """Boxes with an ante, in box order."""
        return [b for b in self.config.boxes if b in self._bets]

    def _awaiting_boxes(self) -> list[str]:
        if self._phase not in DECISIONS:
            return []
        return [b for b in self._eligible(self._phase) if self._phase not in self._decisions[b]]

    def _eligible(self, phase: str) -> list[str]:
        """Boxes that decide in `phase`: all at the flop; those that bet the previous street."""
        boxes = self.playing_boxes()
        if phase == FLOP:
            return boxes
        previous = FLOP if phase == TURN else TURN
        return [b for b in boxes if self._decisions[b].get(previous) is True]

    def awaiting(self) -> list[str]:
        if self._phase == BETTING:
            return [s for s in self.seat_ids() if s not in self._done]
        boxes = self._awaiting_boxes()
        return [s for s in self.seat_ids() if any(self._bets[b].player == s for b in boxes)]

    def _committed(self, seat: str, skip_box: str | None = None) -> int:
        return sum(
            b.exposure for box, b in self._bets.items() if b.player == seat and box != skip_box
        )

    def _box_open_to(self, seat: str, box: str) -> bool:
        """May `seat` bet on `box` now? Its own box; a box it already holds; a vacant box."""
        if box not in self.config.boxes:
            return False
        held = self._bets.get(box)
        if held is not None:
            return held.player == seat
        if box == seat:
            return True
        owner_seated = box in self._stacks
        # 抢押: a box nobody sits in, or whose player confirmed without betting on it.
        return not owner_seated or box in self._done

    def legal_actions(self, seat: str) -> list[ActionSpec]:
        if seat not in self._stacks or self._phase == FINISHED:
            return []
        if self._phase == BETTING:
            if seat in self._done:
                return []
            open_boxes = [b for b in self.config.boxes if self._box_open_to(seat, b)]
            available = self._stacks[seat] - self._committed(seat)
            pool = self.config.pool_stake
            spec = {
                "boxes": open_boxes,
                "ante": {"min": self.config.ante_min, "max": self.config.ante_max},
                "bonus": "0 or equal to the ante",
                "pool": pool if pool else None,
                "available": available,
                # A box's bets may cost 5 x ante + bonus + pool (BoxBet.exposure): what the stack
                # must cover; the largest ante it covers without and with the bonus (no pool).
                "exposure": {"per_ante": 5, "per_bonus": 1, "pool": pool},
                "max_ante": min(self.config.ante_max, available // 5),
                "max_ante_with_bonus": min(self.config.ante_max, available // 6),
            }
            actions = [ActionSpec("bet", spec)] if open_boxes else []
            if any(b.player == seat for b in self._bets.values()):
                actions.append(ActionSpec("clear"))
            actions.append(ActionSpec("done"))
            return actions
        boxes = [b for b in self._awaiting_boxes() if self._bets[b].player == seat]
        if not boxes:
            return []
        amounts = {b: self._decision_amount(b) for b in boxes}
        return [
            ActionSpec(_BET_ACTION[self._phase], {"boxes": amounts}),
            ActionSpec(_DECLINE_ACTION[self._phase], {"boxes": boxes}),
        ]

    # ----- moves ----------------------------------------------------------------------------
    Action = actions.Action

    def _check(self, seat: str, action: actions.Action) -> _Parsed:
        kind = action.type
        if self._phase == BETTING:
            if kind in ("flop", "fold", "turn", "check", "river"):
                raise WrongPhase(f"{kind!r} comes after the deal; the round is still betting")
            if seat in self._done:
                raise IllegalAction("you have confirmed your bets for this round")
            if isinstance(action, actions.Done):
                return _Parsed("done")
            if isinstance(action, actions.Clear):
                box = action.box
                if box is not None and (box not in self._bets or self._bets[box].player != seat):
                    raise IllegalAction(f"you have no bet on box {box!r}")
                if box is None and not any(b.player == seat for b in self._bets.values()):
                    raise IllegalAction("you have no bets to clear")
                return _Parsed("clear", box)
            assert isinstance(action, actions.Bet)
            return self._check_bet(seat, action)
        if self._phase == FINISHED:
            raise WrongPhase("the round is finished")
        bet_kind, decline = _BET_ACTION[self._phase], _DECLINE_ACTION[self._phase]
        if kind in ("bet", "clear", "done"):
            raise WrongPhase("betting is closed")
        if kind not in (bet_kind, decline):
            raise WrongPhase(
                f"the {self._phase} decision is {bet_kind!r} or {decline!r}, not {kind!r}"
            )
        assert isinstance(action, actions.DecisionAction)
        box = self._decision_box(seat, action.box)
        amount = getattr(action, "amount", None)
        if kind == bet_kind and amount is not None:
            want = self._decision_amount(box)
            if amount != want:
                raise IllegalAction(f"the {kind} bet on box {box} is exactly {want}, not {amount}")
        return _Parsed(kind, box)

    def _decision_amount(self, box: str) -> int:
        """The bet of a box's decision now (2x ante at the flop, 1x at the turn and river): what
        `legal_actions` offers and the only amount `_check` accepts."""
        return (2 if self._phase == FLOP else 1) * self._bets[box].ante

    def _decision_box(self, seat: str, box: str | None) -> str:
        mine = [b for b in self.playing_boxes() if self._bets[b].player == seat]
        if not mine:
            raise OutOfTurn("you play no box this round")
        waiting = [b for b in self._awaiting_boxes() if b in mine]
        if box is None:
            if len(waiting) != 1:
                raise InvalidInput(
                    "say which box: " + (", ".join(waiting) if waiting else "none awaits you"),
                    field="box",
                )
            return waiting[0]
        if box not in self.config.boxes:
            raise InvalidInput(f"unknown box {box!r}", field="box")
        if box not in mine:
            raise OutOfTurn(f"box {box} is not yours")
        if box not in waiting:
            if self._phase in self._decisions[box]:
                raise IllegalAction(f"box {box} has already decided at the {self._phase}")
            raise IllegalAction(f"box {box} has no {self._phase} decision (it is out of the hand)")
        return box

    def _check_bet(self, seat: str, action: actions.Bet) -> _Parsed:
        box = seat if action.box is None else action.box
        if box not in self.config.boxes:
            raise InvalidInput(
                f"unknown box {box!r}; boxes are {', '.join(self.config.boxes)}", field="box"
            )
        if not self._box_open_to(seat, box):
            raise IllegalAction(f"box {box} is not open to you")
        ante = action.ante
        if not self.config.ante_min <= ante <= self.config.ante_max:
            raise IllegalAction(
                f"ante {ante} is outside the table limits "
                f"{self.config.ante_min}–{self.config.ante_max}"
            )
        bonus = action.bonus
        if bonus not in (0, ante):
            raise IllegalAction(f"the bonus bet equals the ante ({ante}), not {bonus}")
        if action.pool and not self.config.pool_stake:
            raise IllegalAction("this table has no pool bet")
        bet = BoxBet(seat, ante, bonus, self.config.pool_stake if action.pool else 0)
        total = self._committed(seat, skip_box=box) + bet.exposure
        if total > self._stacks[seat]:
            raise InsufficientStack(
                f"your bets could cost {total} (5x ante + bonus + pool per box) but your stack "
                f"is {self._stacks[seat]}"
            )
        return _Parsed("bet", box, bet, action.done)

    def _apply(self, seat: str, checked: _Parsed) -> list[Event]:
        kind = checked.kind
        if kind == "bet":
            assert checked.box is not None and checked.bet is not None
            self._bets[checked.box] = checked.bet
            b = checked.bet
            events = [
                Event(
                    "bet",
                    {
                        "seat": seat,
                        "box": checked.box,
                        "ante": b.ante,
                        "bonus": b.bonus,
                        "pool": b.pool,
                    },
                )
            ]
            if checked.done:
                events += self._confirm(seat)
            return events
        if kind == "clear":
            boxes = (
                [checked.box]
                if checked.box
                else [box for box, b in self._bets.items() if b.player == seat]
            )
            for box in boxes:
                del self._bets[box]
            return [Event("clear", {"seat": seat, "boxes": boxes})]
        if kind == "done":
            return self._confirm(seat)
        assert checked.box is not None
        bet = kind == _BET_ACTION[self._phase]
        self._decisions[checked.box][self._phase] = bet
        events = [Event("decision", {"box": checked.box, "phase": self._phase, "action": kind})]
        if not self._awaiting_boxes():
            events += self._advance()
        return events

    def _confirm(self, seat: str) -> list[Event]:
        self._done.add(seat)
        events = [Event("done", {"seat": seat})]
        if len(self._done) == len(self._stacks):
            events += self._close_betting()
        return events

    def _expire(self) -> list[Event]:
        if self._phase == BETTING:
            return [Event("betting_closed", {"by": "countdown"}), *self._close_betting()]
        if self._phase not in DECISIONS:
            raise WrongPhase("nothing is awaited")
        events = []
        decline = _DECLINE_ACTION[self._phase]
        for box in self._awaiting_boxes():
            # docs/rules/holdem-bonus.md#silence Decision: silence folds at the flop, checks at the turn and river.
            self._decisions[box][self._phase] = False
            events.append(
                Event(
                    "decision",
                    {"box": box, "phase": self._phase, "action": decline, "by": "countdown"},
                )
            )
        return events + self._advance()

    # ----- dealing and phases ---------------------------------------------------------------
    def _close_betting(self) -> list[Event]:
        boxes = self.playing_boxes()
        if not boxes:
            self._phase = FINISHED
            self._settlement = None
            return [Event("finished", {"reason": "no bets"})]
        cards = iter(self._deck)
        first = {b: next(cards) for b in boxes}
        dealer_first = next(cards)
        second = {b: next(cards) for b in boxes}
        self._dealer = (dealer_first, next(cards))
        self._holes = {b: (first[b], second[b]) for b in boxes}
        self._board = tuple(next(cards) for _ in range(5))
        self._decisions = {b: {} for b in boxes}
        self._phase = FLOP
        events = [Event("deal", {"boxes": boxes})]
        for b in boxes:
            player = self._bets[b].player
            events.append(
                Event("hole", {"box": b, "cards": [str(c) for c in self._holes[b]]}, to=(player,))
            )
        return events

    def _advance(self) -> list[Event]:
        """Move past a decision phase whose boxes have all decided, skipping empty phases."""
        events: list[Event] = []
        order = [FLOP, TURN, RIVER]
        while self._phase in DECISIONS and not self._awaiting_boxes():
            nxt = order.index(self._phase) + 1
            self._phase = order[nxt] if nxt < len(order) else FINISHED
            if self._phase in DECISIONS and not self._eligible(self._phase):
                self._phase = FINISHED
            if self._phase == FINISHED:
                break
            shown = self._board[: _SHOWN[self._phase]]
            events.append(Event("board", {"board": [str(c) for c in shown]}))
        if self._phase == FINISHED:
            events += self._showdown()
        return events

    def _showdown(self) -> list[Event]:
        assert self._dealer is not None
        plays = []
        for box in self.playing_boxes():
            bet, d = self._bets[box], self._decisions[box]
            plays.append(
                BoxPlay(
                    box,
                    bet.player,
                    self._holes[box],
                    bet.ante,
                    bet.bonus,
                    bet.pool,
                    flop=d.get(FLOP) is True,
                    turn=d.get(TURN) is True,
                    river=d.get(RIVER) is True,
                )
            )
        cfg = self.config
        self._settlement = settle_round(
            plays,
            self._dealer,
            self._board,
            cfg.bonus_table,
            PoolSettings(cfg.pool_rates, cfg.contribution_rate, cfg.pool_seed),
            self._pool_opening,
        )
        return [
            Event("board", {"board": [str(c) for c in self._board]}),
            Event(
                "showdown", {"dealer": [str(c) for c in self._dealer], **self._settlement.to_json()}
            ),
        ]

    # ----- output ---------------------------------------------------------------------------
    def pool_closing(self) -> int:
        """The pool balance after this round (the opening balance if no pool step ran)."""
        s = self._settlement
        return s.pool.closing if s is not None and s.pool is not None else self._pool_opening

    def result(self) -> RoundResult:
        self.require_finished()
        s = self._settlement
        if s is None:
            return RoundResult((), {"boxes": {}, "pool": None, "pool_balance": self._pool_opening})
        details = {
            **s.to_json(),
            "dealer_cards": [str(c) for c in self._dealer or ()],
            "board": [str(c) for c in self._board],
            "pool_balance": self.pool_closing(),
        }
        return RoundResult(s.postings, details)

    def next_round(self) -> NextRound:
        self.require_finished()
        return NextRound(reuse_seed=False, context={"pool": self.pool_closing()})

    def _sees_box(self, seat: str | None, box: str) -> bool:
        if self._phase == FINISHED:
            return True
        bet = self._bets.get(box)
        return seat is not None and bet is not None and bet.player == seat

    def _box_view(self, seat: str | None, box: str) -> JSON:
        bet = self._bets.get(box)
        d = self._decisions.get(box, {})
        hole = self._holes.get(box)
        visible = hole is not None and self._sees_box(seat, box)
        awaiting = self._phase if box in self._awaiting_boxes() else None
        result = None
        if self._settlement is not None:
            result = next((r for r in self._settlement.boxes if r.play.box == box), None)
        if bet is None:
            status = "open"
        elif self._phase == BETTING:
            status = "bet"
        elif awaiting:
            status = "waiting"
        elif d.get(FLOP) is False:
            status = "folded"
        elif d.get(TURN) is False:
            status = "checked"
        else:
            status = "in"
        line: BonusLine | None = None
        if visible and hole is not None:
            dealer = self._dealer if self._phase == FINISHED else None
            line = bonus_line(hole, dealer, self.config.bonus_table)
        flop_out = self._phase in (TURN, RIVER, FINISHED)
        return {
            "box": box,
            "seated": box if box in self._stacks else None,
            "player": bet.player if bet else None,
            "bets": {
                "ante": bet.ante if bet else 0,
                "bonus": bet.bonus if bet else 0,
                "pool": bet.pool if bet else 0,
                "flop": 2 * bet.ante if bet and d.get(FLOP) else 0,
                "turn": bet.ante if bet and d.get(TURN) else 0,
                "river": bet.ante if bet and d.get(RIVER) else 0,
            },
            "status": status,
            "awaiting": awaiting,
            "dealt": hole is not None,
            "cards": [str(c) for c in hole] if visible and hole else None,
            "bonus_line": line.key if line else None,
            "pool_hand": (
                pool_category(hole, self._board[:3]).to_json()
                if visible and hole and flop_out
                else None
            ),
            "hand": result.hand.to_json() if result else None,
            "outcome": result.outcome if result else None,
            "nets": dict(result.nets) if result else None,
        }

    def view(self, seat: str | None) -> JSON:
        cfg = self.config
        finished = self._phase == FINISHED
        if seat is not None and seat not in self._stacks:
            raise OutOfTurn(f"seat {seat!r} is not in this round")
        me = None
        if seat is not None:
            committed = self._committed(seat)
            net = None
            if self._settlement is not None:
                net = sum(r.net for r in self._settlement.boxes if r.play.player == seat)
            me = {
                "id": seat,
                "stack": self._stacks[seat],
                "committed": committed,
                "available": self._stacks[seat] - committed,
                "done": seat in self._done,
                "boxes": [b for b in cfg.boxes if b in self._bets and self._bets[b].player == seat],
                "net": net,
            }
        settlement = self._settlement
        pays = {line.key: line.odds for line in BonusLine}
        if cfg.bonus_table == "source":
            pays.pop(BonusLine.SMALL_PAIR.key)
        return {
            "game": self.game,
            "phase": self._phase,
            "countdown_s": self.deadline_s,
            "awaiting": self.awaiting(),
            "limits": {
                "ante_min": cfg.ante_min,
                "ante_max": cfg.ante_max,
                "pool_stake": cfg.pool_stake,
            },
            "bonus_table": cfg.bonus_table,
            "bonus_pays": pays,
            "pool": {
                "balance": self._pool_opening,
                "seed": cfg.pool_seed,
                "stake": cfg.pool_stake,
                "percent": dict(cfg.pool_percent),
            },
            "boxes": [self._box_view(seat, b) for b in cfg.boxes],
            "dealer": {
                "dealt": self._dealer is not None,
                "cards": [str(c) for c in self._dealer] if finished and self._dealer else None,
                "hand": settlement.dealer.to_json() if settlement else None,
            },
            "board": [str(c) for c in self._board[: _SHOWN[self._phase]]],
            "me": me,
            "result": (
                {"pool": settlement.pool.to_json() if settlement.pool else None}
                if settlement
                else None
            ),
        }
