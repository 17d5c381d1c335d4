"""A fast Tien Gow simulator on tile *faces* for bots and search (same rules as `plays`/`round`).

Hands are sorted tuples of face indices (0..20, `FACES`, the docs/rules/paigow.md#single-tile-order single-tile order), so a
bot can play thousands of games per second: the valid plays are a fixed table of 61 face
combinations (`Table`), each with the list of combinations that beat it. Tests check this table
against `plays.classify` and whole simulated games against `TienGowRound`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement

from qipai.core.tiles import TILE_INFO, TILE_KINDS, Tile
from qipai.games.tiengow.plays import Kind, Play, beats, classify

FACES: tuple[Tile, ...] = TILE_KINDS
FACE_INDEX: dict[Tile, int] = {t: i for i, t in enumerate(FACES)}
COPIES: tuple[int, ...] = tuple(TILE_INFO[t].copies for t in FACES)
NFACES = len(FACES)
KINDS: tuple[Kind, ...] = tuple(Kind)
SUPREME = KINDS.index(Kind.SUPREME)
NSEATS = 4
GUARDS = sum(4 << (3 * f) for f in range(NFACES))
PACKED_ALL = sum(COPIES[f] << (3 * f) for f in range(NFACES))


@dataclass(frozen=True)
class Combo:
    faces: tuple[int, ...]
    play: Play
    kind: int  # index into KINDS
    size: int


class Table:
    """Every valid play as a face combination, with who beats whom, for one 文尊 setting."""

    def __init__(self, wen_zun: bool) -> None:
        self.wen_zun = wen_zun
        combos: list[Combo] = []
        for size in range(1, 5):
            for faces in combinations_with_replacement(range(NFACES), size):
                if any(faces.count(f) > COPIES[f] for f in set(faces)):
                    continue
                play = classify([FACES[f] for f in faces], wen_zun)
                if play is not None:
                    combos.append(Combo(faces, play, KINDS.index(play.kind), size))
        self.combos: tuple[Combo, ...] = tuple(combos)
        n = len(combos)
        self.beaters: tuple[frozenset[int], ...] = tuple(
            frozenset(j for j in range(n) if beats(combos[j].play, combos[i].play))
            for i in range(n)
        )
        self.needs: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((f, c.faces.count(f)) for f in sorted(set(c.faces))) for c in combos
        )
        self.packed_needs: tuple[int, ...] = tuple(
            sum(1 << (3 * f) for f in c.faces) for c in combos
        )
        self.zun: tuple[bool, ...] = tuple(c.play.zun for c in combos)
        self.by_faces: dict[tuple[int, ...], int] = {c.faces: i for i, c in enumerate(combos)}
        self._cache = lru_cache(maxsize=250_000)(self._combos_in)

    def _combos_in(self, hand: tuple[int, ...]) -> tuple[int, ...]:
        # SWAR containment: each face is a 3-bit field holding (count | 4); subtracting a play's
        # needs leaves every guard bit set exactly when the hand holds the play.
        packed = GUARDS
        for f in hand:
            packed += 1 << (3 * f)
        return tuple(
            i for i, need in enumerate(self.packed_needs) if (packed - need) & GUARDS == GUARDS
        )

    def combos_in(self, hand: tuple[int, ...]) -> tuple[int, ...]:
        """Indices of every valid play contained in the hand (cached by hand)."""
        return self._cache(hand)


_TABLES: dict[bool, Table] = {}


def table(wen_zun: bool) -> Table:
    if wen_zun not in _TABLES:
        _TABLES[wen_zun] = Table(wen_zun)
    return _TABLES[wen_zun]


def remove(hand: tuple[int, ...], faces: Sequence[int]) -> tuple[int, ...]:
    """The hand without these faces (one copy each)."""
    out = list(hand)
    for f in faces:
        out.remove(f)
    return tuple(out)


class State:
    """A full-information game state (a determinization, for a bot: other hands are guesses)."""

    __slots__ = (
        "banker",
        "best_combo",
        "best_seat",
        "disc",
        "dong",
        "gone",
        "hands",
        "last",
        "leader",
        "mult",
        "n_acted",
        "size",
        "tab",
        "turn",
        "unseen_counts",
        "unseen_packed",
        "winner",
        "zun_net",
        "zun_units",
    )

    def __init__(
        self,
        tab: Table,
        hands: list[tuple[int, ...]],
        banker: int,
        mult: int,
        zun_units: int = 1,
    ) -> None:
        self.tab = tab
        self.hands = hands
        self.banker = banker
        self.mult = mult
        self.zun_units = zun_units
        self.dong = [0] * NSEATS
        self.gone = [0] * NFACES  # faces played face up so far (public)
        self.disc = [[0] * NFACES for _ in range(NSEATS)]  # each seat's own discards
        self.leader = banker
        self.turn = banker
        self.n_acted = 0
        self.size = 0
        self.best_combo = -1
        self.best_seat = -1
        self.last = False
        self.winner = -1
        self.zun_net = [0] * NSEATS
        self.unseen_counts = [list(COPIES) for _ in range(NSEATS)]
        self.unseen_packed = [GUARDS + PACKED_ALL for _ in range(NSEATS)]
        for p, hand in enumerate(hands):
            for f in hand:
                self.unseen_counts[p][f] -= 1
                self.unseen_packed[p] -= 1 << (3 * f)

    def copy(self) -> State:
        s = State.__new__(State)
        s.tab = self.tab
        s.hands = list(self.hands)
        s.banker = self.banker
        s.mult = self.mult
        s.zun_units = self.zun_units
        s.dong = list(self.dong)
        s.gone = list(self.gone)
        s.disc = [list(d) for d in self.disc]
        s.leader = self.leader
        s.turn = self.turn
        s.n_acted = self.n_acted
        s.size = self.size
        s.best_combo = self.best_combo
        s.best_seat = self.best_seat
        s.last = self.last
        s.winner = self.winner
        s.zun_net = list(self.zun_net)
        s.unseen_counts = [list(u) for u in self.unseen_counts]
        s.unseen_packed = list(self.unseen_packed)
        return s

    # ----- rules ---------------------------------------------------------------------------
    def leads(self, p: int) -> tuple[int, ...]:
        return self.tab.combos_in(self.hands[p])

    def beats(self, p: int) -> list[int]:
        """Legal beats of seat p now (the two-栋 rule applied on the last trick)."""
        if self.last and self.dong[p] + self.size < 2:
            return []
        beaters = self.tab.beaters[self.best_combo]
        return [c for c in self.tab.combos_in(self.hands[p]) if c in beaters]

    def unseen(self, p: int) -> list[int]:
        """Face counts seat p cannot see: not in its hand, not played face up, not its discard."""
        return self.unseen_counts[p]

    def play(self, p: int, combo: int) -> None:
        """Seat p leads or beats with a combination."""
        faces = self.tab.combos[combo].faces
        hand = self.hands[p]
        if self.n_acted == 0:
            self.size = len(faces)
            self.last = len(hand) == self.size
        self.hands[p] = remove(hand, faces)
        for f in faces:
            self.gone[f] += 1
        need = self.tab.packed_needs[combo]
        for q in range(NSEATS):
            if q != p:
                self.unseen_packed[q] -= need
                uq = self.unseen_counts[q]
                for f in faces:
                    uq[f] -= 1
        self.best_combo = combo
        self.best_seat = p
        if self.tab.zun[combo]:
            u = self.zun_units
            for q in range(NSEATS):
                self.zun_net[q] -= u
            self.zun_net[p] += NSEATS * u
        self._advance()

    def discard(self, p: int, faces: Sequence[int]) -> None:
        self.hands[p] = remove(self.hands[p], faces)
        d = self.disc[p]
        for f in faces:
            d[f] += 1
        self._advance()

    def _advance(self) -> None:
        self.n_acted += 1
        if self.n_acted < NSEATS:
            self.turn = (self.turn + 1) % NSEATS
            return
        w = self.best_seat
        self.dong[w] += self.size
        self.n_acted = 0
        self.leader = self.turn = w
        self.best_combo = -1
        if not self.hands[w]:
            self.winner = w

    # ----- scoring -------------------------------------------------------------------------
    def net_units(self) -> list[int]:
        """Every seat's result in base units (docs/rules/tiengow.md#scoring scoring + 尊钱), once finished."""
        w = self.winner
        net = list(self.zun_net)
        for q in range(NSEATS):
            if q == w:
                continue
            d = self.dong[q]
            if d <= 4:
                u = 5 if d == 0 else 4 - d
                if self.banker in (w, q):
                    u *= self.mult
                net[q] -= u
                net[w] += u
            else:
                u = min(d - 4, 2)
                if self.banker == w:
                    u *= self.mult
                net[q] += u
                net[w] -= u
        return net


# A policy chooses for seat p in a state: (combo index, ()) to play, or (-1, faces) to discard.
Policy = Callable[[State, int], tuple[int, tuple[int, ...]]]


def play_out(state: State, policies: Sequence[Policy]) -> list[int]:
    """Play the state to its end with one policy per seat; return each seat's net units."""
    while state.winner < 0:
        p = state.turn
        combo, faces = policies[p](state, p)
        if combo >= 0:
            state.play(p, combo)
        else:
            state.discard(p, faces)
    return state.net_units()


# ----- the rule-of-thumb policy ------------------------------------------------------------------
def higher_faces(tab: Table) -> tuple[tuple[int, ...], ...]:
    """For each face, the faces of the same suit that beat it as a single."""
    singles = {c.faces[0]: i for i, c in enumerate(tab.combos) if c.size == 1}
    return tuple(
        tuple(tab.combos[j].faces[0] for j in tab.beaters[singles[f]]) for f in range(NFACES)
    )


_HIGHER = higher_faces(table(False))


def threat(face: int, unseen: Sequence[int]) -> int:
    """How many unseen tiles beat this tile as a single (0 = it cannot lose when led)."""
    return sum(unseen[g] for g in _HIGHER[face])


def sure(tab: Table, combo: int, unseen_packed: int) -> bool:
    """No play the unseen tiles could make beats this one."""
    needs = tab.packed_needs
    return not any((unseen_packed - needs[b]) & GUARDS == GUARDS for b in tab.beaters[combo])


def weakest(hand: tuple[int, ...], n: int, unseen: Sequence[int]) -> tuple[int, ...]:
    """The n tiles most easily beaten (most unseen beaters; ties: lower single order)."""
    order = sorted(hand, key=lambda f: (-threat(f, unseen), -f))
    return tuple(order[:n])


def rule_of_thumb(state: State, p: int) -> tuple[int, tuple[int, ...]]:
    """Beat cheaply, keep high tiles for the last tricks, respect the two-栋 rule.

    Leading: the whole hand if it is one play; 至尊 at once; else the largest play nobody can
    beat; else (with a spare unbeatable single) that single; else the most easily beaten single.
    Following: on the last trick or a multi-tile trick, beat with the cheapest beat; on a single,
    beat unless that would spend the best tile kept for the end (but take a 栋 when holding none);
    otherwise discard the most easily beaten tiles.
    """
    tab = state.tab
    hand = state.hands[p]
    unseen = state.unseen(p)
    if state.n_acted == 0:
        leads = tab.combos_in(hand)
        best_lead = -1
        for c in leads:
            size = tab.combos[c].size
            if size == len(hand):
                return c, ()
            if tab.zun[c]:
                return c, ()
            if (
                size >= 2
                and sure(tab, c, state.unseen_packed[p])
                and (best_lead < 0 or size > tab.combos[best_lead].size)
            ):
                best_lead = c
        if best_lead >= 0:
            return best_lead, ()
        singles = [c for c in leads if tab.combos[c].size == 1]
        safe = [c for c in singles if threat(tab.combos[c].faces[0], unseen) == 0]
        if len(safe) >= 2:
            return safe[0], ()
        worst = weakest(hand, 1, unseen)[0]
        return tab.by_faces[(worst,)], ()
    options = state.beats(p)
    n = state.size
    if options:
        cheapest = max(options, key=lambda c: tab.combos[c].play.rank)
        if state.last or n >= 2 or len(hand) <= 2 or state.dong[p] == 0:
            return cheapest, ()
        keep = min(hand, key=lambda f: (threat(f, unseen), f))
        face = tab.combos[cheapest].faces[0]
        if face != keep or hand.count(face) > 1:
            return cheapest, ()
    return -1, weakest(hand, n, unseen)
