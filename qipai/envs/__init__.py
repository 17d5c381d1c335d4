"""PettingZoo environments for every registered game (docs/envs.md): each game's encoder lives
in its folder (`qipai/games/<game>/env.py`, named by its `GameSpec.encoder`).

    from qipai.envs import env
    e = env("niuniu", players=4, base=100)       # any table setting of the game as a keyword
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

`env(game, **settings)` returns a PettingZoo AEC environment (`pettingzoo.AECEnv`) playing the
game's own round engine. Keywords of the environment itself: `players` (how many seats are played;
default per game), `stack` (what each seat brings to every round, minor units; default 10,000),
`ladder` (Pok Deng and Hold'em Bonus: the bet sizes offered, as multiples of the table minimum),
`reward_scale` (rewards are net money in minor units times this; default 1), `bots` (levels of
the game's own bots for the last seats, e.g. `bots=["paigow-sensible"] * 3`: they act by
themselves from their own view, and only the other seats are agents) and `render_mode` (`None`,
`"ansi"` or `"human"`). `parallel_env(game, **settings)` is the same game under PettingZoo's
parallel API (the seats of a phase act together, `qipai.envs.parallel`). Every other keyword is a table setting of the game, validated by
the game's own config (an unknown or out-of-bounds setting raises `InvalidInput`).
"""

from __future__ import annotations

from typing import Any

from qipai.core.errors import InvalidInput
from qipai.core.spec import GameSpec
from qipai.envs.base import Encoder, QipaiEnv, Segment
from qipai.envs.parallel import QipaiParallelEnv
from qipai.games import registry

__all__ = [
    "Encoder",
    "QipaiEnv",
    "QipaiParallelEnv",
    "Segment",
    "encoder_type",
    "env",
    "games",
    "observation_table",
    "parallel_env",
    "raw_env",
]

DEFAULT_STACK = 10_000


def games() -> list[str]:
    """Every registered game (each declares its encoder, `GameSpec.encoder`)."""
    return registry.names()


def encoder_type(game: str) -> type[Encoder]:
    """The encoder class of a game, from its folder (`qipai/games/<game>/env.py`, imported on
    first use); an unknown game is `InvalidInput` naming the registered ones."""
    kind = registry.get(game).encoder_type()
    if not (isinstance(kind, type) and issubclass(kind, Encoder)):
        raise InvalidInput(f"game {game!r}: its encoder is not a qipai.envs.Encoder", field="game")
    return kind


def _spec(game: str) -> GameSpec:
    """The game's specification (`qipai.games.registry`)."""
    return registry.get(game)


def _parse_config(spec: GameSpec, settings: dict[str, Any]) -> Any:
    return spec.parse_config(settings)


def raw_env(
    game: str,
    *,
    players: int | None = None,
    stack: int = DEFAULT_STACK,
    ladder: tuple[int, ...] | None = None,
    reward_scale: float = 1.0,
    render_mode: str | None = None,
    bots: tuple[str, ...] | list[str] = (),
    **settings: Any,
) -> QipaiEnv:
    """The environment without PettingZoo's checking wrappers (see `env`)."""
    kind = encoder_type(game)
    spec = _spec(game)
    config = _parse_config(spec, settings)
    if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
        raise InvalidInput(f"stack must be a positive integer of minor units, got {stack!r}")
    n = kind.default_players if players is None else players
    if isinstance(n, bool) or not isinstance(n, int):
        raise InvalidInput(f"players must be an integer, got {n!r}")
    encoder = kind(config, n, ladder=ladder)
    low, high = encoder.player_range(int(spec.min_players), len(spec.seat_ids))
    if not low <= n <= high:
        raise InvalidInput(f"{game} is played by {low}–{high} players here, got {n}")
    if isinstance(bots, str) or not all(isinstance(b, str) for b in bots):
        raise InvalidInput(f"bots is a list of bot levels, got {bots!r}")
    return QipaiEnv(
        spec,
        encoder,
        stack=stack,
        reward_scale=reward_scale,
        render_mode=render_mode,
        bots=bots,
    )


def env(game: str, **settings: Any) -> Any:
    """A PettingZoo AEC environment of `game` ("pokdeng", "paigow", "holdem-bonus", "niuniu",
    "tiengow"), wrapped in PettingZoo's order-enforcing wrapper (see the module docstring)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(game, **settings))


def parallel_env(game: str, **settings: Any) -> QipaiParallelEnv:
    """A PettingZoo parallel environment of `game`: the seats a phase awaits act together, each
    on the same observation (`qipai.envs.parallel`); the settings are `raw_env`'s."""
    return QipaiParallelEnv(raw_env(game, **settings))


def observation_table(game: str, **settings: Any) -> str:
    """The observation vector of `game` (default settings unless given) as a markdown table:
    offset, size, range and meaning of each segment. docs/envs.md holds these tables (a test
    keeps them current)."""
    encoder = raw_env(game, **settings).encoder
    lines = [
        f"Observation of `{game}` ({encoder.players} players, default settings): "
        f"{encoder.size} float32; {len(encoder.actions)} actions.",
        "",
        "| offset | size | range | segment | meaning |",
        "|---:|---:|---|---|---|",
    ]
    offset = 0
    for seg in encoder.segments:
        lines.append(
            f"| {offset} | {seg.size} | {seg.low:g}–{seg.high:g} | `{seg.name}` | {seg.doc} |"
        )
        offset += seg.size
    return "\n".join(lines)
