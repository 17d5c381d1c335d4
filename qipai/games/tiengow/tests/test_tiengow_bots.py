"""The face-level simulator agrees with the rules engine; bots play only legal actions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from qipai.core.protocol import Seat
from qipai.core.rng import Rng
from qipai.core.tiles import full_set
from qipai.games.tiengow.bots import (
    Observation,
    RandomBot,
    RuleOfThumbBot,
    StrongBot,
    play_game,
)
from qipai.games.tiengow.config import TienGowConfig
from qipai.games.tiengow.plays import legal_beats, legal_leads
from qipai.games.tiengow.round import TienGowRound
from qipai.games.tiengow.sim import FACE_INDEX, FACES, State, play_out, rule_of_thumb, table

from .helpers import SEATS, discard, ids, make_round, play
from .test_tiengow_round import HANDS, run_singles

# Stacks that no game can exhaust: the cap (docs/rules/tiengow.md) changes nothing.
RICH = 10**9


def test_sim_table_is_every_play() -> None:
    for wen_zun in (False, True):
        tab = table(wen_zun)
        assert len(tab.combos) == 61  # 21 singles, 11+4+8+1 pairs, 8+4 triples, 4 fours
        assert sum(tab.zun) == (2 if wen_zun else 1)


@settings(max_examples=60, deadline=None)
@given(st.permutations(list(range(32))), st.integers(1, 8), st.booleans())
def test_sim_leads_and_beats_match_the_rules_engine(
    order: list[int], n: int, wen_zun: bool
) -> None:
    tiles = full_set()
    hand = [(i, tiles[i]) for i in order[:n]]
    faces = tuple(sorted(FACE_INDEX[t] for _, t in hand))
    tab = table(wen_zun)
    engine = {
        tuple(sorted(FACE_INDEX[tiles[i]] for i in ids)) for ids, _ in legal_leads(hand, wen_zun)
    }
    assert {tab.combos[c].faces for c in tab.combos_in(faces)} == engine
    for best in range(len(tab.combos)):
        play = tab.combos[best].play
        want = {
            tuple(sorted(FACE_INDEX[tiles[i]] for i in ids))
            for ids, _ in legal_beats(hand, play, wen_zun)
        }
        got = {tab.combos[c].faces for c in tab.combos_in(faces) if c in tab.beaters[best]}
        assert got == want


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(["E", "S", "W", "N"]), st.integers(1, 3))
def test_rule_of_thumb_games_agree_between_engine_and_simulator(
    seed: int, banker: str, streak: int
) -> None:
    """The same deal played by four rule-of-thumb bots gives the same money in both engines."""
    config = TienGowConfig()
    seats = [Seat(s, RICH) for s in SEATS]
    ctx = {"banker": banker, "banker_streak": streak}
    r = TienGowRound.start(config, seats, Rng(seed.to_bytes(32, "big")), ctx)
    hands = [tuple(sorted(FACE_INDEX[r.deck[i]] for i in r.hands[s])) for s in SEATS]
    state = State(table(False), hands, SEATS.index(banker), streak + 1)
    expected = play_out(state, [rule_of_thumb] * 4)
    bot = RuleOfThumbBot()
    play_game(r, dict.fromkeys(SEATS, bot), Rng(b"\x01" * 32))
    assert [r.result().net(s) // config.base for s in SEATS] == expected
    assert state.dong == [r.dong[s] for s in SEATS]


def test_observation_sees_exactly_what_the_view_shows() -> None:
    r = TienGowRound.start(TienGowConfig(), [Seat(s, RICH) for s in SEATS], Rng(b"\x05" * 32))
    rng = Rng(b"\x06" * 32)
    bot = RandomBot()
    for _ in range(9):
        seat = r.turn
        assert seat is not None
        r.act(seat, bot.choose(r.view(seat), r.legal_actions(seat), rng))
    seat = r.turn
    assert seat is not None
    obs = Observation.from_view(r.view(seat))
    assert obs.hand == tuple(sorted(FACE_INDEX[r.deck[i]] for i in r.hands[seat]))
    unseen = obs.unseen()
    assert sum(unseen) == sum(len(r.hands[s]) for s in SEATS if s != seat) + sum(
        obs.discard_counts[i] for i, s in enumerate(SEATS) if s != seat
    )
    # Every determinization deals exactly the unseen tiles, in the known numbers.
    for k in range(20):
        state = obs.sample(Rng(bytes([k]) * 32))
        for i, s in enumerate(SEATS):
            assert len(state.hands[i]) == len(r.hands[s])
        assert state.hands[obs.me] == obs.hand
        dealt = [f for i, h in enumerate(state.hands) if i != obs.me for f in h]
        dealt += [
            f
            for i, d in enumerate(state.disc)
            if i != obs.me
            for f, c in enumerate(d)
            for _ in range(c)
        ]
        assert sorted(dealt) == [f for f, c in enumerate(unseen) for _ in range(c)]


def test_every_bot_plays_only_legal_actions_to_the_end() -> None:
    bots = {
        "E": StrongBot(rollouts=24, min_deals=2),
        "S": RuleOfThumbBot(),
        "W": RandomBot(),
        "N": RuleOfThumbBot(),
    }
    for seed in range(6):
        r = TienGowRound.start(
            TienGowConfig(wen_zun=seed % 2 == 1),
            [Seat(s, RICH) for s in SEATS],
            Rng(seed.to_bytes(32, "big")),
        )
        play_game(r, bots, Rng(bytes([seed + 1]) * 32))  # act() refuses any illegal choice
        assert r.finished and sum(r.dong.values()) == 8


def test_strong_bot_is_deterministic_for_a_seed() -> None:
    r = TienGowRound.start(TienGowConfig(), [Seat(s, RICH) for s in SEATS], Rng(b"\x09" * 32))
    seat = r.turn
    assert seat is not None
    view, legal = r.view(seat), r.legal_actions(seat)
    bot = StrongBot(rollouts=40, min_deals=4)
    assert bot.choose(view, legal, Rng(b"\x02" * 32)) == bot.choose(view, legal, Rng(b"\x02" * 32))


def test_strong_bot_takes_a_sure_last_trick() -> None:
    """With 天 as its last tile, 1 栋 and 地 led on the last trick, the strong bot beats."""
    r = make_round(HANDS)
    play(r, "E", "2-2")
    play(r, "S", "1-1")
    discard(r, "W", "3-4")
    discard(r, "N", "1-4")
    play(r, "S", "1-6")
    discard(r, "W", "3-5")
    discard(r, "N", "2-3")
    play(r, "E", "5-6")
    run_singles(r, ["5-6", "6-6", "4-4", "1-3", "3-3"], {"S": "6-6"})
    play(r, "E", "1-1")
    choice = StrongBot(rollouts=20, min_deals=2).choose(
        r.view("S"), r.legal_actions("S"), Rng(b"\x03" * 32)
    )
    assert choice == {"type": "play", "tiles": ids(r, "S", "6-6")}


def test_faces_are_the_tile_kinds() -> None:
    assert len(FACES) == 21 and set(FACES) == set(full_set())
