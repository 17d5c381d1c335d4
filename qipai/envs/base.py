"""One PettingZoo AEC environment for every game, driven by a per-game `Encoder`.

The environment plays the game's own round (`round_type.start`, `legal_actions`, `act`, `view`,
`result`, `next_round`) — the same engine the card room runs — and sees each seat only through
`round.view(seat)` and `round.legal_actions(seat)`: an agent can never observe what its player
could not (hidden cards, the undealt deck, another seat's discards).

* **Agents** are `player_0` … `player_{n-1}`, sitting in the game's seats in order (`infos[agent]
  ["seat"]` names the seat).
* **Turns.** The agent to act is the first seat, in seat order, that the round awaits. Phases in
  which seats act "at the same time" in the card room (bets, bids, swaps) are taken one seat after
  another; what an earlier seat chose is what the card room would already show (bids and bets are
  public as they are made). A seat may act several times in a row (Pok Deng chips until `done`).
* **Actions** are `Discrete(n)`; each index is one concrete action of the game (the encoder's
  `actions` list documents them) and `observation["action_mask"]` marks exactly those the round's
  `legal_actions` allow now. An index the mask forbids raises `ValueError` and changes nothing.
* **Observations** are `{"observation": float32 vector, "action_mask": int8 vector}`; the vector
  is the concatenation of the encoder's named segments (`Encoder.segments`, in docs/envs.md).
* **Rewards**: every seat's net money in the round (minor units, × `reward_scale`), given to all
  agents when the round ends; 0 before. One episode is one round.
* **Deal units.** `reset(seed=s)` starts a new deal unit from a seed derived from `s`; `reset()`
  without a seed plays the unit's next round when the game has one (the next round of the Pok Deng
  shoe, round 2 of a Pai Gow game, the next Tien Gow game with its banker and streak, the Hold'em
  pool carried on), else a fresh unit from the next derived seed. Every seat starts each round with
  `stack` minor units.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from qipai.core.errors import InvalidInput
from qipai.core.protocol import JSON, ActionSpec, Round, Seat
from qipai.core.rng import Rng

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Segment:
    """One named block of the observation vector: `size` numbers within [low, high]."""

    name: str
    size: int
    low: float
    high: float
    doc: str


@dataclass
class Table:
    """What the encoder may read: the round, this env's seats and settings (never the deck)."""

    round: Round[Any]
    seats: tuple[str, ...]
    config: Any
    stack: int
    extra: dict[str, Any] = field(default_factory=dict)


class Encoder:
    """How one game becomes vectors and action indices. Subclasses set `game`, `segments`,
    `actions` (one label per index) and implement `encode`, `legal` and `action`."""

    game: ClassVar[str] = ""
    default_players: ClassVar[int] = 2
    uses_ladder: ClassVar[bool] = False
    segments: tuple[Segment, ...] = ()
    actions: tuple[str, ...] = ()

    def __init__(self, config: Any, players: int, ladder: Sequence[int] | None = None) -> None:
        if ladder is not None and not self.uses_ladder:
            raise InvalidInput(f"{self.game} has no bet ladder (its choices are the rules')")
        self.config = config
        self.players = players

    # The bet sizes offered by default, as multiples of the table minimum (ladder games).
    DEFAULT_LADDER: ClassVar[tuple[int, ...]] = (1, 2, 5, 10, 25, 50, 100)

    def ladder_steps(self, ladder: Sequence[int] | None) -> tuple[int, ...]:
        """The ladder asked for (None: `DEFAULT_LADDER`); InvalidInput unless positive integers."""
        steps = tuple(self.DEFAULT_LADDER if ladder is None else ladder)
        if not steps or any(isinstance(m, bool) or not isinstance(m, int) or m < 1 for m in steps):
            raise InvalidInput(f"ladder must be positive integer multiples, got {ladder!r}")
        return steps

    # ----- seats and rounds -------------------------------------------------------------------
    def seat_ids(self, spec_seats: Sequence[str]) -> tuple[str, ...]:
        return tuple(spec_seats[: self.players])

    def player_range(self, spec_min: int, spec_max: int) -> tuple[int, int]:
        return spec_min, spec_max

    # ----- the per-game parts -------------------------------------------------------------------
    def start(self, table: Table, previous: Table | None) -> None:
        """A round begins (`previous`: the round before it in the same deal unit, or None): keep
        in `table.extra` what the encoder must remember (only what the seats have seen)."""

    def encode(self, table: Table, seat: str, view: JSON) -> Vector:
        raise NotImplementedError

    def legal(self, table: Table, seat: str, specs: Sequence[ActionSpec]) -> list[int]:
        """The action indices `specs` (the round's legal actions for `seat`) allow."""
        raise NotImplementedError

    def action(self, table: Table, seat: str, index: int) -> JSON:
        """The game action of index `index` for `seat` (only asked for legal indices)."""
        raise NotImplementedError

    # ----- helpers -----------------------------------------------------------------------------
    @property
    def size(self) -> int:
        return sum(s.size for s in self.segments)

    def slice(self, name: str) -> slice:
        """Where segment `name` lies in the observation vector."""
        start = 0
        for seg in self.segments:
            if seg.name == name:
                return slice(start, start + seg.size)
            start += seg.size
        raise KeyError(f"{self.game} has no observation segment {name!r}")

    def space(self) -> spaces.Box:
        low = np.concatenate([np.full(s.size, s.low, np.float32) for s in self.segments])
        high = np.concatenate([np.full(s.size, s.high, np.float32) for s in self.segments])
        return spaces.Box(low, high, dtype=np.float32)

    def vector(self, parts: Mapping[str, Sequence[float] | npt.NDArray[Any] | float]) -> Vector:
        """Concatenate the named parts in segment order, checking each part's size and clipping
        it to its segment's bounds (money ratios can exceed a nominal range)."""
        out: list[Vector] = []
        for seg in self.segments:
            value = np.asarray(parts[seg.name], dtype=np.float32).reshape(-1)
            if value.size != seg.size:
                raise AssertionError(f"{self.game} segment {seg.name}: {value.size} != {seg.size}")
            out.append(np.clip(value, seg.low, seg.high))
        return np.concatenate(out).astype(np.float32, copy=False)


def _derive(base: bytes, counter: int) -> bytes:
    return hashlib.sha256(base + counter.to_bytes(8, "big")).digest()


RENDER_MODES = ("ansi", "human")


class QipaiEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment over one qipai game (see the module docstring)."""

    def __init__(
        self,
        spec: Any,
        encoder: Encoder,
        *,
        stack: int,
        reward_scale: float = 1.0,
        render_mode: str | None = None,
        bots: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self.spec = spec
        self.encoder = encoder
        self.stack = stack
        self.reward_scale = reward_scale
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InvalidInput(f"render_mode must be None or one of {', '.join(RENDER_MODES)}")
        self.render_mode = render_mode
        self.metadata: dict[str, Any] = {
            "render_modes": list(RENDER_MODES),
            "name": f"qipai_{spec.name.replace('-', '_')}_v0",
            "is_parallelizable": False,
        }
        self.seats = encoder.seat_ids(spec.seat_ids)
        bots = tuple(bots)
        if len(bots) >= len(self.seats):
            raise InvalidInput(f"bots take {len(bots)} of {len(self.seats)} seats: no agent left")
        unknown = sorted({level for level in bots if level not in spec.bots})
        if unknown:
            raise InvalidInput(
                f"unknown {spec.name} bot level(s) {', '.join(map(repr, unknown))}; "
                f"the game's bots are {', '.join(spec.bots)}"
            )
        agent_seats = self.seats[: len(self.seats) - len(bots)]
        # The last seats are the game's own bots: they see only their view, like the card room's.
        self._bots = {
            seat: spec.bots[level]()
            for seat, level in zip(self.seats[len(agent_seats) :], bots, strict=True)
        }
        self.possible_agents = [f"player_{i}" for i in range(len(agent_seats))]
        self._seat_of = dict(zip(self.possible_agents, agent_seats, strict=True))
        self._agent_of = {seat: agent for agent, seat in self._seat_of.items()}
        n_actions = len(encoder.actions)
        obs_space = spaces.Dict(
            {
                "observation": encoder.space(),
                "action_mask": spaces.Box(0, 1, shape=(n_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._base_seed = os.urandom(32)
        self._counter = 0
        self._round_seed = b""
        self._legal_cache: dict[str, tuple[tuple[int, int], list[ActionSpec]]] = {}
        self._context: Mapping[str, Any] | None = None
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]
        self._round: Round[Any] | None = None
        self._table: Table | None = None
        self.agents: list[str] = []

    # ----- spaces ------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ----- episodes ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        previous = self._round
        context: Mapping[str, Any] | None = None
        round_seed: bytes | None = None
        same_unit: Table | None = None
        if seed is not None:
            self._base_seed = hashlib.sha256(
                f"qipai.envs:{self.spec.name}:{seed}".encode()
            ).digest()
            self._counter = 0
        elif previous is not None and previous.finished:
            following = previous.next_round()
            context = following.context
            if following.reuse_seed:
                round_seed = self._round_seed
                same_unit = self._table
        if round_seed is None:
            self._counter += 1
            round_seed = _derive(self._base_seed, self._counter)
        self._round_seed = round_seed
        self._context = context or None
        seats = [Seat(s, self.stack) for s in self.seats]
        round_ = self.spec.round_type.start(self.config, seats, Rng(round_seed), context or None)
        self._legal_cache.clear()
        self._bot_rng = Rng(hashlib.sha256(round_seed + b"qipai.envs.bots").digest())
        self._round = round_
        self._table = Table(round_, self.seats, self.config, self.stack)
        self.encoder.start(self._table, same_unit)
        self._play_bots()
        if round_.finished:  # no agent was needed (every agent seat sat the round out)
            raise AssertionError(f"{self.spec.name}: the round finished before any agent acted")
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"seat": self._seat_of[a]} for a in self.agents}
        self._select()

    @property
    def config(self) -> Any:
        return self.encoder.config

    @property
    def round(self) -> Round[Any]:
        """The round being played (for inspection and tests; agents should use `observe`)."""
        assert self._round is not None, "call reset() first"
        return self._round

    def _play_bots(self) -> None:
        """Let the bots act while the round waits for one of them before any agent."""
        round_ = self.round
        while self._bots and not round_.finished:
            waiting = set(round_.awaiting())
            seat = next((s for s in self.seats if s in waiting and self._specs(s)), None)
            if seat is None or seat not in self._bots:
                return
            action = self._bots[seat].choose(round_.view(seat), self._specs(seat), self._bot_rng)
            round_.act(seat, action)

    def _select(self) -> None:
        round_ = self.round
        if round_.finished:
            # Every agent is done; PettingZoo removes them one `step(None)` at a time.
            self.agent_selection = next(a for a in self.possible_agents if a in self.agents)
            return
        waiting = set(round_.awaiting())
        for seat in self.seats:
            if seat in waiting and self._specs(seat):
                self.agent_selection = self._agent_of[seat]
                return
        raise AssertionError(f"{self.spec.name}: the round awaits nobody who can act")

    def _specs(self, seat: str) -> list[ActionSpec]:
        """`round.legal_actions(seat)`, computed once per state (the log grows with every act)."""
        round_ = self.round
        stamp = (id(round_), len(round_.log))
        cached = self._legal_cache.get(seat)
        if cached is None or cached[0] != stamp:
            cached = (stamp, round_.legal_actions(seat))
            self._legal_cache[seat] = cached
        return cached[1]

    # ----- observing -----------------------------------------------------------------------------
    def legal_indices(self, agent: str) -> list[int]:
        """The action indices `agent` may take now (empty when it is not its turn)."""
        assert self._table is not None
        if agent != self.agent_selection or self.round.finished:
            return []
        seat = self._seat_of[agent]
        return self.encoder.legal(self._table, seat, self._specs(seat))

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        assert self._table is not None
        seat = self._seat_of[agent]
        vector = self.encoder.encode(self._table, seat, self.round.view(seat))
        mask = np.zeros(len(self.encoder.actions), dtype=np.int8)
        mask[self.legal_indices(agent)] = 1
        return {"observation": vector, "action_mask": mask}

    # ----- acting ----------------------------------------------------------------------------------
    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: it is its turn and the round is not over")
        index = int(action)
        legal = self.legal_indices(agent)
        if index not in legal:
            raise ValueError(
                f"action {index} ({self._label(index)}) is not legal for {agent} now; "
                f"legal: {legal}"
            )
        assert self._table is not None
        seat = self._seat_of[agent]
        self.round.act(seat, self.encoder.action(self._table, seat, index))
        self._play_bots()
        self._cumulative_rewards[agent] = 0.0
        if self.round.finished:
            result = self.round.result()
            for a in self.agents:
                self.rewards[a] = float(result.net(self._seat_of[a])) * self.reward_scale
                self.terminations[a] = True
                self.infos[a] = {"seat": self._seat_of[a], "result": result.to_json()}
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
        self._accumulate_rewards()
        self._select()
        if self.render_mode == "human":
            print(self.render())

    def _label(self, index: int) -> str:
        labels = self.encoder.actions
        return labels[index] if 0 <= index < len(labels) else "out of range"

    def action_label(self, index: int) -> str:
        """What action index `index` means in this game (the encoder's documented label)."""
        return self._label(index)

    # ----- output ----------------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None or self._round is None:
            return None
        round_ = self._round
        lines = [f"{self.spec.name} phase={round_.phase} turn={self.agent_selection}"]
        if round_.finished:
            result = round_.result()
            lines.append("nets: " + ", ".join(f"{s}={result.net(s)}" for s in self.seats))
        return "\n".join(lines)

    def close(self) -> None:
        pass
