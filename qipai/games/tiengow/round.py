"""One Tien Gow game (打天九, docs/rules/tiengow.md#tricks) as a state machine: deal, eight tiles of tricks, 结.

Seats are given in counter-clockwise order (the order of play: E, S, W, N). The 32 tiles are
shuffled (`rng.fork("deal")`) and dealt 4 at a time counter-clockwise from the banker, 8 each.
Each tile is an *instance* with an id: its index 0..31 in the dealt order, so the two 天 are
distinct. The banker leads; each next player beats (same kind, strictly higher) or discards the
same number of tiles face down. The best play takes the trick's 栋 and leads next. The winner of
the last trick (结) wins the game and is the next banker (`next_round().context`).

Context in and out: `{"banker": seat id, "banker_streak": 1 for a first bank, 2, …}`. Without a
context (a new table) the first banker is drawn at random (`rng.fork("banker")`).

Actions: `{"type": "play", "tiles": [ids]}` (a lead or a beat) and `{"type": "discard", "tiles":
[ids]}`. Silence (`expire`, **Decision**): the leader leads its lowest single; a follower discards
its lowest tiles; "lowest" is the docs/rules/paigow.md#single-tile-order single-tile order (丁三 lowest), ties by id — except
that a 尊 pair the hand holds whole (至尊宝 2-4 + 1-2; two 大头六 with 文尊 on) is kept for last, so a
silent (say, disconnected) player never throws away the pair that would collect 尊钱 (docs/rules/tiengow.md#silence
); a leader left with only that pair leads it.

Hidden information: a discard is seen only by its player — in `view`, in events (the public
`discard` event has only the count; `discard_tiles` goes to the discarder), in `result()` and in
`history_for(seat)`. Only the operator's journal (`log`) holds discarded ids, to replay the game.

`view(seat)` JSON (what the browser table draws)::

    {"game": "tiengow", "phase": "play" | "finished",
     "countdown_s": 20.0 | null, "awaiting": ["S"] | [],            # the turn's countdown
     "me": null | {"id": "E",                                       # null: a spectator
                   "hand": [{"id": 3, "tile": "6-6", "zh": "天", "en": "heaven",
                             "civil": true, "order": 0}, ...]},                 # the viewer's own tiles
     "seats": ["E", "S", "W", "N"],                  # counter-clockwise = order of play
     "banker": "E", "banker_streak": 1, "multiplier": 2,
     "config": {"base": 100, "wen_zun": false, "zun_units": 1, "turn_seconds": 15,
                "min_stack_units": 12},
     "hand_counts": {"E": 8, ...}, "dong": {"E": 0, ...},
     "turn": "S" | null, "leader": "E",              # turn: null once finished
     "last_trick": false,   # true on the trick that ends the game (the two-栋 rule applies)
     "trick": null once finished, else
              {"number": 1, "leader": "E", "size": 1 | null, "kind": "civil" | null,
               "best": "E" | null,
               "entries": [{"seat": "E", "action": "play", "tiles": [tile...],
                            "play": {"kind", "kind_zh", "rank", "zh", "en", "zun"}},
                           {"seat": "S", "action": "discard", "count": 1,
                            "tiles": [tile...]  # only in the discarder's own view
                           }]},
     "tricks": [{... same as "trick" ..., "winner": "E", "dong": 1}],   # completed tricks
     "zun": [{"seat": "E", "zh": "至尊", "en": "supreme", "units": 1, "trick": 3}],
     "result": null | {"winner", "banker", "banker_streak", "multiplier", "base", "dong",
                       "units", "net", "raw_net", "capped", "stacks", "breakdown": [{"from",
                       "to", "units", "base_units", "multiplier", "reason", "amount"}],
                       "next_banker", "next_banker_streak"}}
                       # = result().details without its "tricks" (the view has its own)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from qipai.core.errors import IllegalAction, InvalidInput, OutOfTurn, WrongPhase
from qipai.core.money import require_amount
from qipai.core.protocol import (
    JSON,
    ActionSpec,
    Event,
    NextRound,
    Posting,
    Round,
    RoundResult,
    Seat,
)
from qipai.core.rng import Rng
from qipai.core.tiles import Tile, full_set
from qipai.games.tiengow import actions
from qipai.games.tiengow.config import TienGowConfig
from qipai.games.tiengow.plays import (
    BIG_HEAD_SIX,
    WU_ZUN,
    Play,
    beats,
    classify,
    legal_beats,
    legal_discards,
    legal_leads,
    may_win_last_trick,
    tile_json,
)
from qipai.games.tiengow.scoring import (
    Transfer,
    banker_multiplier,
    capped_nets,
    net_units,
    score,
)

HAND_SIZE = 8
# English names of the two plays that collect 尊钱 (plays.py names them so too).
ZUN_EN = {"至尊": "supreme", "文尊": "civil supreme"}
DEAL_BATCH = 4
SEATS = 4


@dataclass(frozen=True)
class Entry:
    """One player's part in a trick: a face-up play or a face-down discard."""

    seat: str
    tiles: tuple[int, ...]
    play: Play | None  # None = discarded face down


@dataclass
class Trick:
    number: int
    leader: str
    entries: list[Entry]
    best: int = 0  # index into entries of the best play so far
    winner: str | None = None

    @property
    def lead(self) -> Play | None:
        return self.entries[0].play if self.entries else None

    @property
    def size(self) -> int | None:
        return len(self.entries[0].tiles) if self.entries else None


def lowest_first(tiles: Sequence[tuple[int, Tile]]) -> list[int]:
    """Ids from the lowest tile up: docs/rules/paigow.md#single-tile-order single-tile order (丁三 lowest), ties by id."""
    return [i for i, _ in sorted(tiles, key=lambda it: (-it[1].single_rank, it[0]))]


def zun_pair_ids(tiles: Sequence[tuple[int, Tile]], wen_zun: bool) -> list[int]:
    """Ids of a whole 尊 pair in `tiles` (至尊宝, or two 大头六 when 文尊 is on), else []."""
    by_tile: dict[Tile, list[int]] = {}
    for i, tile in tiles:
        by_tile.setdefault(tile, []).append(i)
    if all(t in by_tile for t in WU_ZUN):
        return sorted(by_tile[t][0] for t in WU_ZUN)
    big_head_six = by_tile.get(BIG_HEAD_SIX, [])
    if wen_zun and len(big_head_six) == 2:
        return sorted(big_head_six)
    return []


def silence_order(tiles: Sequence[tuple[int, Tile]], wen_zun: bool) -> list[int]:
    """The order in which silence gives tiles up: lowest first, a whole 尊 pair last."""
    keep = zun_pair_ids(tiles, wen_zun)
    order = lowest_first(tiles)
    return [i for i in order if i not in keep] + keep


class TienGowRound(Round[TienGowConfig]):
    """One game of Tien Gow at a 4-seat table."""

    game: ClassVar[str] = "tiengow"

    def __init__(
        self,
        config: TienGowConfig,
        seats: Sequence[Seat],
        deck: Sequence[Tile],
        banker: str,
        banker_streak: int,
    ) -> None:
        super().__init__(config, seats)
        if len(self.seats) != SEATS:
            raise InvalidInput(f"Tien Gow is played by exactly {SEATS} seats")
        # The stacks brought into the game bound what each seat can win or lose (the cap).
        self.stacks = {s.id: require_amount(s.stack, f"stack of seat {s.id}") for s in self.seats}
        self.deck: tuple[Tile, ...] = tuple(deck)
        self.banker = banker
        self.banker_streak = banker_streak
        self.multiplier = banker_multiplier(banker_streak)
        ids = self.seat_ids()
        start = ids.index(banker)
        self.order: list[str] = ids[start:] + ids[:start]  # counter-clockwise from the banker
        self.hands: dict[str, list[int]] = {s: [] for s in ids}
        for batch in range(len(self.deck) // DEAL_BATCH):
            seat = self.order[batch % SEATS]
            self.hands[seat].extend(range(batch * DEAL_BATCH, (batch + 1) * DEAL_BATCH))
        self.dong: dict[str, int] = dict.fromkeys(ids, 0)
        self.tricks: list[Trick] = []
        self.trick = Trick(1, banker, [])
        self.turn: str | None = banker
        self.zun: list[tuple[str, str, int]] = []  # (seat, play name, trick number)
        self.winner: str | None = None

    # ----- construction -------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        config: TienGowConfig,
        seats: Sequence[Seat],
        rng: Rng,
        context: Mapping[str, Any] | None = None,
    ) -> Self:
        ids = [s.id for s in seats]
        if len(ids) != SEATS:
            raise InvalidInput(f"Tien Gow is played by exactly {SEATS} seats")
        context = context or {}
        if not isinstance(context, Mapping):
            raise InvalidInput("a Tien Gow context is an object like {'banker': 'E'}")
        unknown = sorted(set(context) - {"banker", "banker_streak"})
        if unknown:
            raise InvalidInput(f"unknown Tien Gow context key(s): {', '.join(map(str, unknown))}")
        banker = context.get("banker")
        if banker is None and "banker_streak" in context:
            raise InvalidInput("a banker_streak needs the banker it belongs to")
        if banker is None:
            banker = rng.fork("banker").choice(
                ids
            )  # docs/rules/tiengow.md#first-banker Decision: first banker at random
            streak = 1
        else:
            if banker not in ids:
                raise InvalidInput(f"context banker {banker!r} is not a seat")
            streak = context.get("banker_streak", 1)
            banker_multiplier(streak)  # validates
        deck = full_set()
        rng.fork("deal").shuffle(deck)
        return cls(config, seats, deck, banker, streak)

    # ----- state ----------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return "finished" if self.winner is not None else "play"

    @property
    def deadline_s(self) -> float | None:
        return None if self.turn is None else float(self.config.turn_seconds)

    def awaiting(self) -> list[str]:
        return [] if self.turn is None else [self.turn]

    def next_seat(self, seat: str) -> str:
        ids = self.seat_ids()
        return ids[(ids.index(seat) + 1) % SEATS]

    def hand_of(self, seat: str) -> list[tuple[int, Tile]]:
        return [(i, self.deck[i]) for i in sorted(self.hands[seat])]

    def is_last_trick(self) -> bool:
        """The trick in progress empties every hand (hand sizes are equal at a trick's start)."""
        size = self.trick.size
        leader_left = len(self.hands[self.trick.leader]) + (size or 0)
        return size is not None and size == leader_left

    def _best(self) -> Play | None:
        return self.trick.entries[self.trick.best].play if self.trick.entries else None

    def _leads(self, seat: str) -> list[tuple[tuple[int, ...], Play]]:
        hand = self.hand_of(seat)
        leads = legal_leads(hand, self.config.wen_zun)
        # docs/rules/tiengow.md#two-dong-rule, two-栋 rule, applied to a lead that would be the last trick (never binds in
        # practice: the leader won the previous trick, so it holds at least one 栋).
        return [
            (ids, p)
            for ids, p in leads
            if len(ids) < len(hand) or may_win_last_trick(self.dong[seat], len(ids))
        ]

    def _beats(self, seat: str, best: Play) -> list[tuple[tuple[int, ...], Play]]:
        """Every set of the seat's tiles that beats `best` and that it may play now (the two-栋
        rule on the last trick): what `legal_actions` offers and all that `_check` accepts."""
        return legal_beats(
            self.hand_of(seat),
            best,
            self.config.wen_zun,
            last_trick=self.is_last_trick(),
            dong=self.dong[seat],
        )

    def legal_actions(self, seat: str) -> list[ActionSpec]:
        """Leading: `play` with `plays` (every legal lead as id lists). Following: `play` with the
        exact beats (omitted when there are none) and `discard` with `count` and `choices`."""
        if self.finished or seat != self.turn:
            return []
        best = self._best()
        if best is None:
            plays = [list(ids) for ids, _ in self._leads(seat)]
            return [ActionSpec("play", {"lead": True, "plays": plays})]
        size = best.size
        specs: list[ActionSpec] = []
        beats_ = self._beats(seat, best)
        if beats_:
            specs.append(ActionSpec("play", {"lead": False, "plays": [list(i) for i, _ in beats_]}))
        choices = [list(ids) for ids in legal_discards(self.hand_of(seat), size)]
        specs.append(ActionSpec("discard", {"count": size, "choices": choices}))
        return specs

    # ----- moves ----------------------------------------------------------------------------
    Action = actions.Action

    def _check(self, seat: str, action: actions.Action) -> tuple[str, tuple[int, ...], Play | None]:
        if seat != self.turn:
            raise OutOfTurn(f"it is {self.turn}'s turn, not {seat}'s")
        kind = action.type
        ids = tuple(sorted(action.tiles))
        missing = [t for t in ids if t not in self.hands[seat]]
        if missing:
            raise IllegalAction(f"tiles {missing} are not in your hand")
        # One source with `legal_actions`: a play is accepted only if it is one of the plays
        # offered (`_leads`, `_beats`); a discard is any `size` tiles of the hand
        # (`legal_discards`). The rest only says why a play is not among them.
        best = self._best()
        if best is None:
            if kind == "discard":
                raise IllegalAction("the leader must lead a play; discarding is for followers")
            lead = _offered(self._leads(seat), ids)
            if lead is None:
                if classify([self.deck[i] for i in ids], self.config.wen_zun) is None:
                    names = " ".join(str(self.deck[i]) for i in ids)
                    raise IllegalAction(f"{names} is not one of the nine kinds of play")
                raise IllegalAction("the two-栋 rule forbids winning the last trick with it")
            return kind, ids, lead
        if len(ids) != best.size:
            raise IllegalAction(f"this trick takes {best.size} tile(s) from each player")
        if kind == "discard":
            return kind, ids, None
        play = _offered(self._beats(seat, best), ids)
        if play is None:
            tried = classify([self.deck[i] for i in ids], self.config.wen_zun)
            if tried is None or not beats(tried, best):
                raise IllegalAction(
                    f"that does not beat {best.name}; play a higher {best.kind.value} or discard"
                )
            raise IllegalAction(
                "the two-栋 rule: with fewer than 2 栋 after winning, you may not win the last trick"
            )
        return kind, ids, play

    def _apply(self, seat: str, checked: tuple[str, tuple[int, ...], Play | None]) -> list[Event]:
        _, ids, play = checked
        for i in ids:
            self.hands[seat].remove(i)
        trick = self.trick
        trick.entries.append(Entry(seat, ids, play))
        events: list[Event] = []
        if play is None:
            events.append(Event("discard", {"seat": seat, "count": len(ids)}))
            events.append(
                Event(
                    "discard_tiles",
                    {"seat": seat, "tiles": [tile_json(i, self.deck[i]) for i in ids]},
                    to=(seat,),
                )
            )
        else:
            if len(trick.entries) > 1:
                trick.best = len(trick.entries) - 1
            events.append(
                Event(
                    "play",
                    {
                        "seat": seat,
                        "tiles": [tile_json(i, self.deck[i]) for i in ids],
                        "play": play.to_json(),
                        "lead": len(trick.entries) == 1,
                    },
                )
            )
            if play.zun:
                # docs/rules/tiengow.md#zun-money 尊钱: every other player at once pays the player of 至尊.
                self.zun.append((seat, play.name, trick.number))
                units = self.config.zun_units
                events.append(
                    Event(
                        "zun",
                        {
                            "seat": seat,
                            "zh": play.name,
                            "en": play.name_en,
                            "units": units,
                            "amount_each": units * self.config.base,
                            "payers": [s for s in self.seat_ids() if s != seat],
                        },
                    )
                )
        if len(trick.entries) < SEATS:
            self.turn = self.next_seat(seat)
            events.append(Event("turn", {"seat": self.turn}))
            return events
        # The trick is complete: the best play takes as many 栋 as tiles each player put in.
        size = len(trick.entries[0].tiles)
        winner = trick.entries[trick.best].seat
        trick.winner = winner
        self.dong[winner] += size
        self.tricks.append(trick)
        events.append(
            Event(
                "trick",
                {"number": trick.number, "winner": winner, "won": size, "dong": dict(self.dong)},
            )
        )
        if not self.hands[winner]:
            # 结: the winner of the last trick wins the game.
            self.winner = winner
            self.turn = None
            events.append(Event("end", self._details()))
            return events
        self.trick = Trick(trick.number + 1, winner, [])
        self.turn = winner
        events.append(Event("turn", {"seat": winner}))
        return events

    def _expire(self) -> list[Event]:
        seat = self.turn
        if seat is None:  # pragma: no cover - finished rounds refuse expire in the base class
            raise WrongPhase("nobody is awaited")
        best = self._best()
        hand = self.hand_of(seat)
        order = silence_order(hand, self.config.wen_zun)
        if best is None:
            # Decision: silence when leading = lead the lowest single, or the 尊 pair when that
            # is all the hand holds (it is a legal lead, docs/rules/tiengow.md#kinds-of-play table of plays).
            zun = zun_pair_ids(hand, self.config.wen_zun)
            tiles = zun if len(hand) == len(zun) else order[:1]
            action: actions.Action = actions.Play(tiles=tuple(tiles))
        else:
            # Decision: silence when following = discard the lowest tiles, a 尊 pair last.
            action = actions.Discard(tiles=tuple(order[: best.size]))
        return self._apply(seat, self._check(seat, action))

    # ----- output ---------------------------------------------------------------------------
    def _entry_json(self, entry: Entry, viewer: str | None) -> JSON:
        if entry.play is not None:
            return {
                "seat": entry.seat,
                "action": "play",
                "tiles": [tile_json(i, self.deck[i]) for i in entry.tiles],
                "play": entry.play.to_json(),
            }
        out: JSON = {"seat": entry.seat, "action": "discard", "count": len(entry.tiles)}
        if viewer == entry.seat:  # a discard is seen by its own player only, forever
            out["tiles"] = [tile_json(i, self.deck[i]) for i in entry.tiles]
        return out

    def _trick_json(self, trick: Trick, viewer: str | None) -> JSON:
        lead = trick.lead
        out: JSON = {
            "number": trick.number,
            "leader": trick.leader,
            "size": trick.size,
            "kind": None if lead is None else lead.kind.value,
            "best": trick.entries[trick.best].seat if trick.entries else None,
            "entries": [self._entry_json(e, viewer) for e in trick.entries],
        }
        if trick.winner is not None:
            out["winner"] = trick.winner
            out["dong"] = trick.size
        return out

    def view(self, seat: str | None) -> JSON:
        if seat is not None and seat not in self.seat_ids():
            raise OutOfTurn(f"seat {seat!r} is not in this round")
        me = None
        if seat is not None:
            me = {"id": seat, "hand": [tile_json(i, t) for i, t in self.hand_of(seat)]}
        return {
            "game": self.game,
            "phase": self.phase,
            "countdown_s": self.deadline_s,
            "awaiting": self.awaiting(),
            "me": me,
            "seats": self.seat_ids(),
            "banker": self.banker,
            "banker_streak": self.banker_streak,
            "multiplier": self.multiplier,
            "config": self.config.to_json(),
            "hand_counts": {s: len(h) for s, h in self.hands.items()},
            "dong": dict(self.dong),
            "turn": self.turn,
            "leader": self.trick.leader,
            "last_trick": self.winner is None and self.is_last_trick(),
            "trick": None if self.winner is not None else self._trick_json(self.trick, seat),
            "tricks": [self._trick_json(t, seat) for t in self.tricks],
            "zun": [
                {"seat": s, "zh": n, "en": ZUN_EN[n], "units": self.config.zun_units, "trick": k}
                for s, n, k in self.zun
            ],
            "result": self._details() if self.winner is not None else None,
        }

    def history_for(self, seat: str | None) -> list[JSON]:
        """Every play and discard so far, in order, as `seat` may see it (the history a player
        may recall): other seats' discards show only their count, forever."""
        tricks = self.tricks if self.winner is not None else [*self.tricks, self.trick]
        return [{"trick": t.number, **self._entry_json(e, seat)} for t in tricks for e in t.entries]

    def transfers(self) -> list[Transfer]:
        """Every transfer of the game in base units: 尊钱 first (in play order), then the score."""
        self.require_finished()
        assert self.winner is not None
        ids = self.seat_ids()
        units = self.config.zun_units
        out = [
            Transfer(s, z, units, units, 1, "zun") for z, _, _ in self.zun for s in ids if s != z
        ]
        return out + score(ids, self.banker, self.banker_streak, self.winner, self.dong)

    def settled_nets(self) -> tuple[dict[str, int], dict[str, int], bool]:
        """(each seat's net after the cap, before it, whether the cap changed anything), in
        minor units (docs/rules/tiengow.md#tricks Decision, cap)."""
        assert self.winner is not None
        ids = self.seat_ids()
        units = net_units(ids, self.transfers())
        base = self.config.base
        nets, capped = capped_nets(ids, self.winner, units, base, self.stacks)
        return nets, {s: u * base for s, u in units.items()}, capped

    def won_so_far(self) -> dict[str, int]:
        """The 尊钱 paid so far (docs/rules/tiengow.md#zun-money: paid at once when 至尊 is played), each payer's
        payments limited to its stack; once finished, the whole settled result."""
        if self.winner is not None:
            return self.settled_nets()[0]
        each = self.config.zun_units * self.config.base
        left = dict(self.stacks)
        nets = dict.fromkeys(self.seat_ids(), 0)
        for player, _, _ in self.zun:
            for payer in self.seat_ids():
                if payer != player:
                    paid = min(each, left[payer])
                    left[payer] -= paid
                    nets[payer] -= paid
                    nets[player] += paid
        return {s: n for s, n in nets.items() if n}

    def _details(self) -> JSON:
        assert self.winner is not None
        ids = self.seat_ids()
        transfers = self.transfers()
        units = net_units(ids, transfers)
        base = self.config.base
        nxt = self.next_context()
        nets, raw, capped = self.settled_nets()
        return {
            "winner": self.winner,
            "banker": self.banker,
            "banker_streak": self.banker_streak,
            "multiplier": self.multiplier,
            "base": base,
            "dong": dict(self.dong),
            "units": units,
            "net": nets,
            "raw_net": raw,
            "capped": capped,
            "stacks": dict(self.stacks),
            "breakdown": [{**t.to_json(), "amount": t.units * base} for t in transfers],
            "next_banker": nxt["banker"],
            "next_banker_streak": nxt["banker_streak"],
        }

    def result(self) -> RoundResult:
        """Postings: 尊钱 and the score as two lines per seat, or, when the cap changed a result,
        one line per seat with the capped net."""
        self.require_finished()
        base = self.config.base
        postings: list[Posting] = []
        nets, _, capped = self.settled_nets()
        if capped:
            postings = [Posting(s, n, "tiengow (capped)") for s, n in nets.items() if n]
        else:
            for memo, reasons in (
                ("tiengow 尊钱", {"zun"}),
                ("tiengow score", {"short", "empty", "ru"}),
            ):
                transfers = [t for t in self.transfers() if t.reason in reasons]
                units = net_units(self.seat_ids(), transfers)
                postings += [Posting(s, u * base, memo) for s, u in units.items() if u]
        details = self._details()
        details["tricks"] = [self._trick_json(t, None) for t in self.tricks]
        return RoundResult(tuple(postings), details)

    def next_context(self) -> dict[str, Any]:
        """docs/rules/tiengow.md#ending: the winner (结) banks next; a banker who wins keeps the bank (连庄)."""
        assert self.winner is not None
        if self.winner == self.banker:
            return {"banker": self.banker, "banker_streak": self.banker_streak + 1}
        return {"banker": self.winner, "banker_streak": 1}

    def next_round(self) -> NextRound:
        self.require_finished()
        return NextRound(reuse_seed=False, context=self.next_context())


def _offered(plays: list[tuple[tuple[int, ...], Play]], ids: tuple[int, ...]) -> Play | None:
    """The play of `ids` (sorted) among the offered plays, or None."""
    for offered, play in plays:
        if tuple(sorted(offered)) == ids:
            return play
    return None
