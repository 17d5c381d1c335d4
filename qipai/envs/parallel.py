"""The PettingZoo parallel API over the same engine as the AEC environment (docs/envs.md).

    from qipai.envs import parallel_env
    e = parallel_env("niuniu", players=4)
    observations, infos = e.reset(seed=1)
    while e.agents:
        actions = {a: policy(observations[a]) for a in e.agents}
        observations, rewards, terminations, truncations, infos = e.step(actions)

In the card room the seats of a betting, bidding or swapping phase act at the same time, each
seeing the table as it stood; the AEC environment takes them one after another (a later seat
sees an earlier one's bet, as the room would show it). Here they really act together: every step
gives each agent the round awaits an observation of the *same* state, with its own action mask,
and takes one action from each of them, applied in seat order. An agent the round does not await
(it has acted, or it is another seat's turn in a sequential game such as Tien Gow) has an
all-zero mask and its action, if given, is ignored — so Tien Gow runs here one player per step.

If one seat's action leaves another's chosen action illegal before it is applied (the rules
limit a phase's actions jointly), the step refuses with `ValueError` naming both and changes
nothing of the later seats: the round stands after the earlier seats' actions.
Rewards are each seat's net money when the round ends (× `reward_scale`), as in the AEC
environment; an episode is one round and every agent terminates with it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import ParallelEnv

from qipai.envs.base import QipaiEnv

Observation = dict[str, npt.NDArray[Any]]


class QipaiParallelEnv(ParallelEnv[str, Observation, int]):  # type: ignore[misc]
    """A PettingZoo parallel environment over one qipai game (see the module docstring)."""

    def __init__(self, aec: QipaiEnv) -> None:
        self.aec = aec
        self.possible_agents = list(aec.possible_agents)
        self.agents: list[str] = []
        self.render_mode = aec.render_mode
        self.metadata = {**aec.metadata, "is_parallelizable": True}
        self.metadata["name"] = str(aec.metadata["name"]).replace("_v0", "_parallel_v0")

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.action_space(agent)

    # ----- what each agent may do now ---------------------------------------------------------
    def legal_indices(self, agent: str) -> list[int]:
        """The action indices `agent` may take in the current state (empty: not awaited)."""
        aec = self.aec
        round_ = aec.round
        seat = aec._seat_of[agent]
        if round_.finished or seat not in set(round_.awaiting()):
            return []
        specs = aec._specs(seat)
        if not specs:
            return []
        assert aec._table is not None
        return aec.encoder.legal(aec._table, seat, specs)

    def _observe_all(self) -> dict[str, Observation]:
        aec = self.aec
        assert aec._table is not None
        out: dict[str, Observation] = {}
        for agent in self.agents:
            seat = aec._seat_of[agent]
            vector = aec.encoder.encode(aec._table, seat, aec.round.view(seat))
            mask = np.zeros(len(aec.encoder.actions), dtype=np.int8)
            mask[self.legal_indices(agent)] = 1
            out[agent] = {"observation": vector, "action_mask": mask}
        return out

    # ----- episodes -----------------------------------------------------------------------------
    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        return self._observe_all(), {a: dict(self.aec.infos[a]) for a in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        aec = self.aec
        if not self.agents:
            raise ValueError("the round is over: call reset()")
        # every awaited agent's choice, checked against the state all of them observed
        chosen: list[tuple[str, int]] = []
        for agent in self.agents:
            legal = self.legal_indices(agent)
            if not legal:
                continue
            if actions.get(agent) is None:
                raise ValueError(f"{agent} must act: the round awaits it (legal: {legal})")
            index = int(actions[agent])
            if index not in legal:
                raise ValueError(
                    f"action {index} ({aec.action_label(index)}) is not legal for {agent} now; "
                    f"legal: {legal}"
                )
            chosen.append((agent, index))
        assert aec._table is not None
        applied: list[str] = []
        for agent, index in chosen:  # in seat order (agents are listed in seat order)
            if index not in self.legal_indices(agent):
                raise ValueError(
                    f"action {index} ({aec.action_label(index)}) of {agent} became illegal "
                    f"after {', '.join(applied)} acted in the same step; the round stands "
                    "after their actions"
                )
            seat = aec._seat_of[agent]
            aec.round.act(seat, aec.encoder.action(aec._table, seat, index))
            applied.append(agent)
        aec._play_bots()
        agents = list(self.agents)
        rewards = dict.fromkeys(agents, 0.0)
        finished = aec.round.finished
        infos: dict[str, dict[str, Any]] = {a: {"seat": aec._seat_of[a]} for a in agents}
        if finished:
            result = aec.round.result()
            for a in agents:
                rewards[a] = float(result.net(aec._seat_of[a])) * aec.reward_scale
                infos[a]["result"] = result.to_json()
        observations = self._observe_all()
        terminations = dict.fromkeys(agents, finished)
        truncations = dict.fromkeys(agents, False)
        if finished:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def state(self) -> npt.NDArray[Any]:
        raise NotImplementedError("the full state holds hidden cards: agents observe their view")
