"""Tien Gow bots: random legal, rule of thumb, and a determinized Monte Carlo searcher.

Every bot sees only `round.view(seat)` and `round.legal_actions(seat)` (qipai/bots/base.py). The
view holds the seat's hand, every face-up play, the seat's own discards and the other seats' tile
counts; `Observation` turns it into the fast face-level simulator's terms (`tiengow.sim`).

* `RandomBot`: a uniformly random legal action.
* `RuleOfThumbBot`: `sim.rule_of_thumb` — beats cheaply, keeps high tiles for the last tricks,
  respects the two-栋 rule, leads what nobody can beat.
* `StrongBot`: flat determinized Monte Carlo. It deals the tiles it cannot see (the other hands
  and their face-down discards, in the known numbers) at random, tries every distinct candidate
  action on the same deals (common random numbers), plays each deal out with the rule-of-thumb
  policy for all four seats, and takes the action with the best mean result in base units
  (score + 尊钱, banker multiplier included). Nothing it uses is hidden from its seat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.protocol import ActionSpec
from qipai.core.rng import Rng
from qipai.core.tiles import parse_tile
from qipai.games.tiengow.sim import (
    COPIES,
    FACE_INDEX,
    GUARDS,
    NFACES,
    NSEATS,
    State,
    Table,
    play_out,
    rule_of_thumb,
    table,
    threat,
)

Action = dict[str, Any]


@dataclass
class Observation:
    """What one seat knows, in simulator terms (seat indices in play order, faces)."""

    me: int
    seats: list[str]
    hand_ids: dict[int, int]  # tile id -> face
    hand_counts: list[int]
    discard_counts: list[int]  # tiles each seat has discarded face down so far
    gone: list[int]  # faces played face up
    my_discards: list[int]  # faces I discarded
    dong: list[int]
    banker: int
    mult: int
    zun_units: int
    tab: Table
    leader: int
    n_acted: int
    size: int
    best_combo: int
    best_seat: int
    last: bool

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Observation:
        seats = list(view["seats"])
        me_block = view.get("me") or {}
        if me_block.get("id") not in seats:
            raise InvalidInput("a bot needs the view of its own seat")
        me = seats.index(me_block["id"])
        tab = table(bool(view["config"]["wen_zun"]))
        hand_ids = {t["id"]: FACE_INDEX[parse_tile(t["tile"])] for t in me_block["hand"]}
        gone = [0] * NFACES
        my_discards = [0] * NFACES
        discard_counts = [0] * NSEATS
        trick = view.get("trick")
        tricks = list(view["tricks"]) + ([trick] if trick else [])
        for t in tricks:
            for e in t["entries"]:
                q = seats.index(e["seat"])
                if e["action"] == "play":
                    for tile in e["tiles"]:
                        gone[FACE_INDEX[parse_tile(tile["tile"])]] += 1
                else:
                    discard_counts[q] += e["count"]
                    if q == me:
                        for tile in e["tiles"]:
                            my_discards[FACE_INDEX[parse_tile(tile["tile"])]] += 1
        leader = seats.index(view["leader"])
        n_acted, size, best_combo, best_seat = 0, 0, -1, -1
        if trick and trick["entries"]:
            n_acted = len(trick["entries"])
            size = int(trick["size"])
            best = next(
                e for e in trick["entries"] if e["seat"] == trick["best"] and e["action"] == "play"
            )
            faces = tuple(sorted(FACE_INDEX[parse_tile(t["tile"])] for t in best["tiles"]))
            best_combo = tab.by_faces[faces]
            best_seat = seats.index(best["seat"])
        return cls(
            me=me,
            seats=seats,
            hand_ids=hand_ids,
            hand_counts=[int(view["hand_counts"][s]) for s in seats],
            discard_counts=discard_counts,
            gone=gone,
            my_discards=my_discards,
            dong=[int(view["dong"][s]) for s in seats],
            banker=seats.index(view["banker"]),
            mult=int(view["multiplier"]),
            zun_units=int(view["config"]["zun_units"]),
            tab=tab,
            leader=leader,
            n_acted=n_acted,
            size=size,
            best_combo=best_combo,
            best_seat=best_seat,
            last=bool(view.get("last_trick", False)),
        )

    @property
    def hand(self) -> tuple[int, ...]:
        return tuple(sorted(self.hand_ids.values()))

    def unseen(self) -> list[int]:
        out = [COPIES[f] - self.gone[f] - self.my_discards[f] for f in range(NFACES)]
        for f in self.hand_ids.values():
            out[f] -= 1
        return out

    def state(self, hands: list[tuple[int, ...]], discards: list[list[int]]) -> State:
        """A full simulator state with these (guessed) hands and face-down discards."""
        s = State(self.tab, hands, self.banker, self.mult, self.zun_units)
        s.dong = list(self.dong)
        s.gone = list(self.gone)
        s.disc = discards
        for q in range(NSEATS):
            counts = [COPIES[f] - self.gone[f] - discards[q][f] for f in range(NFACES)]
            for f in hands[q]:
                counts[f] -= 1
            s.unseen_counts[q] = counts
            s.unseen_packed[q] = GUARDS + sum(c << (3 * f) for f, c in enumerate(counts))
        s.leader = self.leader
        s.turn = self.me
        s.n_acted = self.n_acted
        s.size = self.size
        s.best_combo = self.best_combo
        s.best_seat = self.best_seat
        s.last = self.last
        return s

    def known_state(self) -> State:
        """The state with the other hands left empty (enough for policies that use only the
        seat's own knowledge, like the rule of thumb)."""
        hands: list[tuple[int, ...]] = [() for _ in range(NSEATS)]
        hands[self.me] = self.hand
        discards = [[0] * NFACES for _ in range(NSEATS)]
        discards[self.me] = list(self.my_discards)
        return self.state(hands, discards)

    def sample(self, rng: Rng) -> State:
        """A determinization: deal the unseen tiles to the other hands and their discards."""
        pool = [f for f, c in enumerate(self.unseen()) for _ in range(c)]
        rng.shuffle(pool)
        hands: list[tuple[int, ...]] = []
        discards: list[list[int]] = []
        at = 0
        for q in range(NSEATS):
            if q == self.me:
                hands.append(self.hand)
                discards.append(list(self.my_discards))
                continue
            n = self.hand_counts[q]
            hands.append(tuple(sorted(pool[at : at + n])))
            at += n
            d = [0] * NFACES
            for f in pool[at : at + self.discard_counts[q]]:
                d[f] += 1
            at += self.discard_counts[q]
            discards.append(d)
        return self.state(hands, discards)

    def ids_for(self, faces: Sequence[int]) -> list[int]:
        """Tile ids of my hand showing these faces (lowest ids first)."""
        out: list[int] = []
        for f in faces:
            out.append(min(i for i, g in self.hand_ids.items() if g == f and i not in out))
        return sorted(out)


def _options(legal: Sequence[ActionSpec]) -> list[Action]:
    out: list[Action] = []
    for spec in legal:
        key = "plays" if spec.type == "play" else "choices"
        out += [{"type": spec.type, "tiles": list(ids)} for ids in spec.options[key]]
    return out


class RandomBot:
    """A uniformly random legal action (a baseline and a fuzzer)."""

    name = "random"

    def choose(self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng) -> Action:
        options = _options(legal)
        if not options:
            raise InvalidInput("no legal action to choose from")
        return rng.choice(options)


def _to_action(obs: Observation, combo: int, faces: Sequence[int]) -> Action:
    if combo >= 0:
        return {"type": "play", "tiles": obs.ids_for(obs.tab.combos[combo].faces)}
    return {"type": "discard", "tiles": obs.ids_for(faces)}


class RuleOfThumbBot:
    """Beats cheaply, keeps high tiles for the end, respects the two-栋 rule (`sim.rule_of_thumb`)."""

    name = "rule-of-thumb"

    def choose(self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng) -> Action:
        obs = Observation.from_view(view)
        combo, faces = rule_of_thumb(obs.known_state(), obs.me)
        return _to_action(obs, combo, faces)


Candidate = tuple[int, tuple[int, ...]]


def candidates(obs: Observation, state: State, limit: int) -> list[Candidate]:
    """Distinct face-level actions: every lead or beat, and the `limit` most natural discards."""
    tab, me = obs.tab, obs.me
    hand = obs.hand
    if obs.n_acted == 0:
        return [(c, ()) for c in tab.combos_in(hand)]
    out: list[Candidate] = [(c, ()) for c in state.beats(me)]
    unseen = obs.unseen()
    discards = sorted(
        set(combinations(hand, obs.size)),
        key=lambda fs: (-sum(threat(f, unseen) for f in fs), fs),
    )
    out += [(-1, fs) for fs in discards[:limit]]
    return out


class StrongBot:
    """Determinized Monte Carlo over the unseen tiles with rule-of-thumb playouts.

    `rollouts` is the budget per decision (shared among the candidates, at least `min_deals`
    deals each); the same deals are used for every candidate so that they are compared fairly.
    """

    name = "strong"

    def __init__(self, rollouts: int = 160, min_deals: int = 8, discard_limit: int = 5) -> None:
        self.rollouts = rollouts
        self.min_deals = min_deals
        self.discard_limit = discard_limit

    def choose(self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng) -> Action:
        obs = Observation.from_view(view)
        known = obs.known_state()
        cands = candidates(obs, known, self.discard_limit)
        if len(cands) == 1:
            return _to_action(obs, *cands[0])
        deals = max(self.min_deals, self.rollouts // len(cands))
        totals = [0] * len(cands)
        policies = [rule_of_thumb] * NSEATS
        me = obs.me
        for _ in range(deals):
            base = obs.sample(rng)
            for k, (combo, faces) in enumerate(cands):
                s = base.copy()
                if combo >= 0:
                    s.play(me, combo)
                else:
                    s.discard(me, faces)
                totals[k] += play_out(s, policies)[me]
        # Ties go to the earlier candidate (the enumeration order is deterministic).
        best = max(range(len(cands)), key=lambda k: (totals[k], -k))
        return _to_action(obs, *cands[best])


BOTS: dict[str, type[RandomBot] | type[RuleOfThumbBot] | type[StrongBot]] = {
    "random": RandomBot,
    "rule-of-thumb": RuleOfThumbBot,
    "strong": StrongBot,
}


def play_game(
    round_: Any,
    bots: Mapping[str, Any],
    rng: Rng,
    timings: dict[str, list[tuple[float, float]]] | None = None,
) -> Any:
    """Drive a started round to its end with one bot per seat (each with its own rng fork);
    when `timings` is given, record each decision's (wall, CPU) thinking time in seconds."""
    import time

    streams = {seat: rng.fork(f"bot/{seat}") for seat in bots}
    while not round_.finished:
        seat = round_.turn
        view = round_.view(seat)
        legal = round_.legal_actions(seat)
        wall, cpu = time.perf_counter(), time.thread_time()
        action = bots[seat].choose(view, legal, streams[seat])
        if timings is not None:
            timings.setdefault(seat, []).append(
                (time.perf_counter() - wall, time.thread_time() - cpu)
            )
        round_.act(seat, action)
    return round_
