"""The states of one snapshot share what does not depend on the listener: the round's view is
built once per viewer (one public view for every spectator) and the results history once.
Each listener's message is the same as if it had been built alone (`state_for` without
`Shared`), so what a client may hear is unchanged (tests/tables/test_hidden_info.py)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from qipai.core.protocol import JSON, ActionSpec
from qipai.tables.messages import Shared, state_for
from qipai.tables.snapshot import RoundFacts, TableSnapshot
from qipai.tables.versions import VersionCache

SEATS = ["S1", "S2", "S3"]


class CountingRound:
    """A round in its betting phase whose views say who they were built for."""

    def __init__(self) -> None:
        self.views: list[str | None] = []

    @property
    def phase(self) -> str:
        return "bet"

    @property
    def finished(self) -> bool:
        return False

    def seat_ids(self) -> list[str]:
        return list(SEATS)

    def awaiting(self) -> list[str]:
        return list(SEATS)

    def legal_actions(self, seat: str) -> list[ActionSpec]:
        return [ActionSpec("bet", {"min": 1, "max": 10})]

    def view(self, seat: str | None) -> JSON:
        self.views.append(seat)
        return {"game": "counting", "me": seat, "hidden": {s: s == seat for s in SEATS}}


def snapshot(round_: CountingRound, seated: dict[str, str]) -> TableSnapshot:
    return TableSnapshot(
        table={"id": "t1", "game": "counting"},
        seat_of=seated,
        round=RoundFacts(
            round=round_,
            running=True,
            round_id="r1",
            number=1,
            commitment="c",
            deadline=10.0,
            openings={},
        ),
        hint=None,
        fairness={"policy": "server"},
        tiles=None,
        last_result=None,
        results=({"round_id": "r0"},),
        next_start_at=None,
        now=1.0,
        versions=VersionCache(),
    )


@given(
    seated=st.dictionaries(
        st.sampled_from(["p1", "p2", "p3"]), st.sampled_from(SEATS), max_size=3
    ).filter(lambda d: len(set(d.values())) == len(d)),
    spectators=st.integers(min_value=0, max_value=6),
)
def test_one_view_per_viewer_and_the_same_messages(seated: dict[str, str], spectators: int) -> None:
    listeners = [*seated, *(f"watcher{i}" for i in range(spectators))]
    alone_round = CountingRound()
    alone = {p: state_for(snapshot(alone_round, seated), p, [], False) for p in listeners}

    shared_round = CountingRound()
    snap = snapshot(shared_round, seated)
    shared = Shared(snap)
    together = {p: state_for(snap, p, [], False, shared) for p in listeners}

    assert together == alone
    viewers: list[Any] = [seated[p] for p in seated] + ([None] if spectators else [])
    assert sorted(shared_round.views, key=str) == sorted(viewers, key=str)
    if spectators > 1:  # the spectators' view is one object, encoded alike for all
        watchers = [together[p] for p in listeners if p not in seated]
        assert all(w["round"]["view"] is watchers[0]["round"]["view"] for w in watchers)


def test_a_shared_part_of_another_snapshot_is_not_used() -> None:
    first, second = CountingRound(), CountingRound()
    shared = Shared(snapshot(first, {}))
    shared.view(first, None)
    message = state_for(snapshot(second, {}), "watcher", [], False, shared)
    assert second.views == [None]
    assert message["round"]["view"]["me"] is None
