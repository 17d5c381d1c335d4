"""Vectorised environments: many tables per call, numpy arrays in and out (docs/envs.md).

    from qipai.envs.batch import batch_env
    e = batch_env("niuniu", tables=4096, reward="exact")
    obs, info = e.reset(seed=1)                       # obs (4096, obs_size) float32
    acts = info["action_mask"].argmax(axis=1)         # any legal action per table
    obs, reward, terminated, truncated, info = e.step(acts)

Each game declares its batch environment from its folder (`GameSpec.batch_env`, a `BatchEnv`
in its `env.py`). In the player-versus-dealer games the single agent makes one decision per
round (Pok Deng: its bet; Niu Niu: its swap against a banker who swaps by a fixed policy),
so every `step` ends each table's round and deals the next one: `terminated` is all True and
the returned observation is the next round's. What a round is worth comes from the game's own tables (Pok Deng's
`payout.spot_rule`, Niu Niu's hand keys and multipliers), and tests check the batch against the
game engine and the exact figures.

Options shared by the batch environments:

* `reward="result"` (default): the money the round returns, per unit staked; `reward="exact"`:
  the exact expected value of the action taken (qipai knows it: `info["ev"]` holds it for every
  action), which removes the deal's noise from learning.
* `force_play=True`: sitting out is not a legal action (otherwise it is the optimum of a game
  with a house edge, and a learner finds that first).

`GymEnv` wraps one table as a Gymnasium single-agent environment.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt

from qipai.core.errors import InvalidInput

Reward = Literal["result", "exact"]
Obs = npt.NDArray[np.float32]


class BatchEnv(ABC):
    """`tables` independent tables of one game, stepped together."""

    game: str
    actions: tuple[str, ...]
    observation_size: int

    def __init__(self, tables: int, reward: Reward = "result", force_play: bool = False) -> None:
        if not isinstance(tables, int) or isinstance(tables, bool) or tables < 1:
            raise InvalidInput(f"tables is a whole number ≥ 1, got {tables!r}")
        if reward not in ("result", "exact"):
            raise InvalidInput(f"reward is 'result' or 'exact', got {reward!r}")
        self.tables = tables
        self.reward = reward
        self.force_play = force_play
        self._rng = np.random.default_rng()
        self._obs: Obs | None = None

    def reset(self, seed: int | None = None) -> tuple[Obs, dict[str, Any]]:
        """Deal every table's first round. The same seed gives the same rounds."""
        self._rng = np.random.default_rng(seed)
        self._deal()
        return self._observe(), self._info()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        """Play one action per table; return the next rounds' observations, the rewards, and
        `info` with `result` (money per unit), `ev` (the exact value of every action) and the
        next `action_mask`."""
        acts = self.checked_actions(actions)
        ev = self.exact_values()[np.arange(self.tables), acts]
        result = self._play(acts)
        reward = ev if self.reward == "exact" else result
        self._deal()
        done = np.ones(self.tables, np.bool_)
        info = self._info()
        info["result"] = result
        info["chosen_ev"] = ev
        return self._observe(), reward, done, ~done, info

    def checked_actions(self, actions: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """One legal action index per table (InvalidInput naming what is wrong otherwise)."""
        if self._obs is None:
            raise InvalidInput("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.tables,) or not np.issubdtype(acts.dtype, np.integer):
            raise InvalidInput(
                f"actions are ({self.tables},) integers, got {acts.shape} {acts.dtype}"
            )
        mask = self.action_mask()
        if (
            acts.min() < 0
            or acts.max() >= len(self.actions)
            or not mask[np.arange(self.tables), acts].all()
        ):
            raise InvalidInput("an action is not legal at its table (see info['action_mask'])")
        return acts.astype(np.int64)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_mask(), "ev": self.exact_values()}

    def _observe(self) -> Obs:
        self._obs = self.observe()
        return self._obs

    @abstractmethod
    def _deal(self) -> None: ...

    @abstractmethod
    def _play(self, actions: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """The money each table's round returns for these actions, per unit staked."""

    @abstractmethod
    def observe(self) -> Obs: ...

    @abstractmethod
    def action_mask(self) -> npt.NDArray[np.bool_]: ...

    @abstractmethod
    def exact_values(self) -> npt.NDArray[np.float64]:
        """(tables, actions): each action's exact expected value in the current round."""

    def seed_for_kernel(self) -> int:
        """A seed for a compiled kernel's own generator, drawn from this env's stream."""
        return int(self._rng.integers(0, 2**31 - 1))


class GymEnv(gymnasium.Env[Obs, np.int64]):
    """One table of a batch environment as a Gymnasium single-agent environment: each episode
    is one round (its decisions)."""

    def __init__(self, game: str, **options: Any) -> None:
        self.metadata = {"render_modes": []}
        self.batch = batch_env(game, tables=1, **options)
        # The batch observations are flags (or a constant 1) in [0, 1].
        self.observation_space = gymnasium.spaces.Box(
            0.0, 1.0, (self.batch.observation_size,), np.float32
        )
        self.action_space = gymnasium.spaces.Discrete(len(self.batch.actions))
        self._next: tuple[Obs, dict[str, Any]] | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None or self._next is None:
            obs, info = self.batch.reset(seed)
        else:  # the round `step` already dealt, never acted on
            obs, info = self._next
        self._next = None
        return obs[0], _first(info)

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, _, info = self.batch.step(np.array([int(action)], np.int64))
        ended = bool(terminated[0])
        # The episode ends with the round (one decision in Pok Deng and Niu Niu, up to three in
        # Hold'em Bonus); the batch has already dealt the next round, which `reset` returns.
        self._next = (obs, info) if ended else None
        return obs[0], float(reward[0]), ended, False, _first(info)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now (the convention of maskable-PPO implementations)."""
        mask: npt.NDArray[np.bool_] = self.batch.action_mask()[0]
        return mask


def _first(info: dict[str, Any]) -> dict[str, Any]:
    return {k: np.array(v[0]) for k, v in info.items()}  # copies: each call's info is new


def batch_env(game: str, tables: int, **options: Any) -> BatchEnv:
    """The vectorised environment of a game that declares one (`GameSpec.batch_env`; its
    options are the class's: Pok Deng's `mode`, `decks`, `force_play`, `reward`; Niu Niu's
    `commission`, `banker` = the banker's swap policy, `reward`). An unknown game names the
    registered ones; a game without one gets `NotOffered` naming those with one."""
    from qipai.games import registry

    env_type = registry.get(game).batch_env_type()
    env = env_type(tables, **options)
    if not isinstance(env, BatchEnv):
        raise TypeError(f"{game}'s GameSpec.batch_env is not a BatchEnv")
    return env
