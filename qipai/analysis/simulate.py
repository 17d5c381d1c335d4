"""`qipai simulate GAME`: play rounds through the real round engines with the game's bots and
compare each bet's observed return (with a 95 % confidence interval) with the exact figure.

Nothing here settles a bet: the round engine deals (from `qipai.core.rng.Rng` seeds derived
from the simulation seed), the bots act through `view`/`legal_actions`/`act` only, and the
figures are read from `round.result()`. A bet type's observed return is Σ net / Σ staked over
all its bets (a ratio estimator); its confidence interval comes from the per-round totals
(delta method), so bets of different sizes and several bets per round are handled.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import compress
from typing import Any

from qipai.analysis.parallel import CHUNK, WORKERS, Chunk, chunks, run_chunks
from qipai.core.errors import InvalidInput
from qipai.core.protocol import ActionSpec, Round, Seat
from qipai.core.rng import Rng


@dataclass(frozen=True)
class SimulationOptions:
    """What `qipai simulate` takes besides the game, rounds, seed and mode: the bot level of
    every seat (one level for all, or one per seat) and the table's settings (a template's
    `settings` object), validated by the game's own config model."""

    bots: tuple[str, ...] = ()
    settings: Mapping[str, Any] = field(default_factory=dict)


OPTIONS: ContextVar[SimulationOptions | None] = ContextVar("qipai_simulate_options", default=None)


def current_options() -> SimulationOptions:
    return OPTIONS.get() or SimulationOptions()


# Which simulators read which options (by the function's name, as `GameSpec.simulate` names
# it); `simulate_game` refuses an option the game's simulator does not read, before any work.
ACCEPTS: dict[str, frozenset[str]] = {
    "simulate_pokdeng": frozenset({"bots"}),
    "simulate_niuniu": frozenset({"bots", "settings"}),
    "simulate_paigow": frozenset({"bots", "settings"}),
}


def seat_levels(levels: tuple[str, ...], seats: Sequence[str], known: Sequence[str]) -> list[str]:
    """One bot level per seat from `--bots` (one level for every seat, or one per seat)."""
    if len(levels) == 1:
        levels = levels * len(seats)
    if len(levels) != len(seats) or any(level not in known for level in levels):
        raise InvalidInput(
            f"bots: one level or {len(seats)} comma-separated levels of {', '.join(known)}"
        )
    return list(levels)


@dataclass
class Tally:
    """Per-round sums of one bet type: net results and amounts staked."""

    nets: list[float] = field(default_factory=list)
    stakes: list[float] = field(default_factory=list)
    bets: int = 0

    def add_round(self, net: float, staked: float, count: int) -> None:
        self.nets.append(net)
        self.stakes.append(staked)
        self.bets += count

    def estimate(self) -> tuple[float, float]:
        """(observed return to player, 95 % CI half-width) from the ratio estimator."""
        n = len(self.nets)
        total_stake = sum(self.stakes)
        if n < 2 or total_stake == 0:
            return math.nan, math.nan
        ratio = sum(self.nets) / total_stake
        mean_stake = total_stake / n
        resid = [x - ratio * y for x, y in zip(self.nets, self.stakes, strict=True)]
        mean_r = sum(resid) / n
        var = sum((r - mean_r) ** 2 for r in resid) / (n - 1)
        half = 1.96 * math.sqrt(var / n) / mean_stake
        return 1 + ratio, half


@dataclass
class SimulationResult:
    game: str
    mode: str
    rounds: int
    seed: int
    seconds: float
    rows: list[dict[str, Any]]
    notes: list[str]
    cpu_seconds: float = 0.0

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds else math.inf

    @property
    def rounds_per_cpu_second(self) -> float:
        return self.rounds / self.cpu_seconds if self.cpu_seconds else math.inf

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "mode": self.mode,
            "rounds": self.rounds,
            "seed": self.seed,
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
            "rounds_per_second": self.rounds_per_second,
            "rounds_per_cpu_second": self.rounds_per_cpu_second,
            "bets": self.rows,
            "notes": self.notes,
        }


def round_seed(seed: int, n: int) -> bytes:
    """The deal seed of the n-th deal unit (shoe, tile set, deck) of a simulation."""
    return hashlib.sha256(f"qipai-simulate:{seed}:{n}".encode()).digest()


class LazyView(Mapping[str, Any]):
    """`round.view(seat)`, built only if the bot reads it (most betting bots read only the
    legal actions); the bot still sees exactly what the seat may see."""

    def __init__(self, rnd: Round[Any], seat: str) -> None:
        self._rnd = rnd
        self._seat = seat
        self._view: Mapping[str, Any] | None = None

    def _get(self) -> Mapping[str, Any]:
        if self._view is None:
            self._view = self._rnd.view(self._seat)
        return self._view

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


class CoverageBot:
    """Bets the table minimum on every spot of a Pok Deng table each round, so that every bet
    type is observed every round (the tightest confidence intervals per round played)."""

    name = "coverage"

    def choose(self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng) -> Any:
        for spec in legal:
            if spec.type == "bets" and not spec.options.get("current"):
                spots = spec.options["spots"]
                chips = [{"spot": s, "amount": info["min"]} for s, info in spots.items()]
                return {"type": "bets", "bets": chips, "done": True}
        return {"type": "done"}


def play_round(rnd: Round[Any], bots: Mapping[str, Any], rng: Rng) -> None:
    """Drive one round to the end: every awaited seat's bot acts; silence → the countdown."""
    while not rnd.finished:
        acted = False
        for seat in rnd.awaiting():
            legal: Sequence[ActionSpec] = rnd.legal_actions(seat)
            if not legal:
                continue
            action = bots[seat].choose(LazyView(rnd, seat), legal, rng)
            rnd.act(seat, action)
            acted = True
            if rnd.finished:
                break
        if not acted and not rnd.finished:
            rnd.expire()


# ----- per game -------------------------------------------------------------------------------


def _pokdeng_chunk(part: Chunk) -> list[list[RoundRow]]:
    """Rounds [first, last) of Pok Deng through `PokDengRound` with the room's bots: per round,
    each bet kind's (net, stake, bets) from the engine's own settlement. The chunk starts a
    fresh shoe; its shoes are numbered from the chunk's index."""
    from qipai.games.pokdeng import PokDengConfig, PokDengRound
    from qipai.games.pokdeng.spec import SPEC

    mode, levels = part.options
    config = PokDengConfig(mode=mode)
    kinds = {
        spot: "pair" if spot.endswith("pair") else ("Pn" if spot.startswith("P") else "Bn")
        for spot in config.spots
    }
    names = ("Pn", "pair") if mode == "classic" else ("Pn", "Bn", "pair")
    seats = tuple(Seat(f"s{i}", 10**12) for i in range(1, 6))
    bots = {s.id: SPEC.make_bot(level) for s, level in zip(seats, levels, strict=True)}
    unit, context = part.index * CHUNK, None  # a chunk deals at most CHUNK shoes
    out = []
    for n in range(part.first, part.last):
        rnd = PokDengRound.start(config, seats, Rng(round_seed(part.seed, unit)), context)
        play_round(rnd, bots, Rng(round_seed(part.seed, n), "bots"))
        settlement = rnd.settlement  # the engine's own settlement of every bet
        row = []
        for k in range(len(names)):
            mask = [names.index(kinds[spot]) == k for _, spot in settlement.keys]
            row.append(
                (
                    float(sum(compress(settlement.bet_nets, mask))),
                    float(sum(compress(settlement.amounts, mask))),
                    sum(mask),
                )
            )
        out.append(row)
        nxt = rnd.next_round()
        if nxt.reuse_seed:
            context = nxt.context
        else:
            unit, context = unit + 1, None
    return out


def simulate_pokdeng(
    rounds: int, seed: int, mode: str | None, bots_kind: str = "coverage"
) -> SimulationResult:
    """Pok Deng: the coverage bot's bets (every spot at the table minimum, every round) through
    the batch simulator `qipai.games.pokdeng.sim`, which deals the engine's shoes from the same
    seeds and is checked against `PokDengRound` round by round; `bots_kind="random"` plays five
    random bots through the round engine itself."""
    from qipai.games.pokdeng import PokDengConfig, PokDengRound
    from qipai.games.pokdeng import sim as batch
    from qipai.games.pokdeng.analysis import analyse

    mode = mode or "classic"
    if mode not in ("classic", "banker-player"):
        raise InvalidInput(f"Pok Deng mode {mode!r}: expected classic or banker-player")
    config = PokDengConfig(mode=mode)  # type: ignore[arg-type]
    kinds = {
        spot: "pair" if spot.endswith("pair") else ("Pn" if spot.startswith("P") else "Bn")
        for spot in config.spots
    }
    names = ("Pn", "pair") if mode == "classic" else ("Pn", "Bn", "pair")
    round_tallies = [Tally() for _ in names]
    start = time.perf_counter()
    cpu = time.process_time()
    levels = current_options().bots
    if bots_kind == "random" and not levels:
        levels = ("random",)
    if levels:
        from qipai.games.pokdeng.spec import SPEC

        levels = tuple(seat_levels(levels, ["s"] * 5, SPEC.bot_levels))
        work = chunks(rounds, seed, (mode, levels))
        run = run_chunks(_pokdeng_chunk, work, None, "Pok Deng rounds")
        for part in run.results:
            for row in part:
                for tally, one in zip(round_tallies, row, strict=True):
                    tally.add_round(*one)
        cpu = run.cpu_seconds
    else:
        # The coverage bot decides once, from a fresh round's view and legal actions (every
        # fresh round offers it the same choice); the batch plays that decision every round.
        first = PokDengRound.start(config, (Seat("s1", 10**12),), Rng(round_seed(seed, 0)))
        decision = CoverageBot().choose(
            LazyView(first, "s1"), first.legal_actions("s1"), Rng(round_seed(seed, -1), "bots")
        )
        bets = [(chip["spot"], chip["amount"]) for chip in decision["bets"]]
        groups = [[i for i, (spot, _) in enumerate(bets) if kinds[spot] == k] for k in names]
        staked = [sum(bets[i][1] for i in group) for group in groups]
        plan = list(zip(round_tallies, groups, staked, strict=True))
        for played in batch.play(config, bets, rounds, lambda n: round_seed(seed, n)):
            bet_nets = played.bet_nets
            for tally, group, stake in plan:
                tally.nets.append(sum([bet_nets[i] for i in group]))
                tally.stakes.append(stake)
                tally.bets += len(group)
    seconds = time.perf_counter() - start
    if not levels:
        cpu = time.process_time() - cpu
    tallies = dict(zip(names, round_tallies, strict=True))
    report = analyse(mode)
    exact = {"Pn": report.bets[0].rtp, "pair": report.bet(report.bets[-1].bet).rtp}
    if mode != "classic":
        exact["Bn"] = report.bet("Bn").rtp
    how = (
        f"bots: {', '.join(levels)} (qipai.games.pokdeng.bots) on five seats; shoe play with the "
        f"cut card, through PokDengRound; {_processes_note(run.workers)}"
        if levels
        else "bot: one seat betting the minimum on every spot (CoverageBot); shoe play with "
        "the cut card, through the batch simulator qipai.games.pokdeng.sim (checked against "
        "PokDengRound round by round)"
    )
    return SimulationResult(
        "pokdeng", mode, rounds, seed, seconds, _rows(tallies, exact), [how], cpu
    )


def _against_banker(details: Mapping[str, Any], base: int) -> tuple[float, float, int]:
    """A banker-multiple round's players' bets against the banker (Niu Niu, Pai Gow): their net,
    their stake (base × banker multiple × player multiple: docs/rules/niuniu.md#settlement,
    docs/rules/paigow.md#settlement) and how many bets; seats with no bet are left out."""
    x = details["banker_multiple"]
    net = 0.0
    staked = 0.0
    count = 0
    for seat, y in details["bets"].items():
        if seat == details["banker"] or not y:
            continue
        net += details["seats"][seat]["net"]
        staked += base * x * y
        count += 1
    return net, staked, count


class _NiuniuFlatBot:
    """Never bids (so the banker is a random seat, as the exact figure assumes), bets the
    minimum multiple, and swaps like the game's sensible bot (the hint) or not at all."""

    name = "flat"

    def __init__(self, swap: bool) -> None:
        from qipai.games.niuniu.bots import SensibleBot

        self.swap = swap
        self.sensible = SensibleBot()

    def choose(self, view: Mapping[str, Any], legal: Sequence[ActionSpec], rng: Rng) -> Any:
        kind = legal[0].type
        if kind == "swap":
            if self.swap:
                return self.sensible.choose(view, legal, rng)
            return {"type": "swap", "cards": []}
        if kind == "bid":
            return {"type": "bid", "multiple": 0}
        return {"type": kind, "multiple": min(legal[0].options["choices"])}


RoundRow = tuple[float, float, int]


def _niuniu_chunk(part: Chunk) -> list[RoundRow]:
    """Rounds [first, last) of a Niu Niu simulation: the players' (net, stake, bets) against
    the banker each. Round n's deal and bots' stream come from n alone. `part.options`:
    (swap, bot levels per seat or (), settings)."""
    from qipai.games.niuniu.config import NiuniuConfig
    from qipai.games.niuniu.round import NiuniuRound
    from qipai.games.niuniu.spec import SPEC

    swap, levels, settings = part.options
    config = NiuniuConfig.model_validate(settings)
    seats = [Seat(f"s{i}", 10**12) for i in range(1, 5)]
    bots: dict[str, Any] = (
        {s.id: SPEC.make_bot(level) for s, level in zip(seats, levels, strict=True)}
        if levels
        else {s.id: _NiuniuFlatBot(swap) for s in seats}
    )
    out = []
    for n in range(part.first, part.last):
        rnd = NiuniuRound.start(config, seats, Rng(round_seed(part.seed, n)))
        play_round(rnd, bots, Rng(round_seed(part.seed, n), "bots"))
        out.append(_against_banker(rnd.result().details, config.base))
    return out


def simulate_niuniu(rounds: int, seed: int, mode: str | None) -> SimulationResult:
    from qipai.games.niuniu.analysis import player_ev_no_swap
    from qipai.games.niuniu.config import NiuniuConfig
    from qipai.games.niuniu.spec import SPEC

    swap = (mode or "no-swap") == "swap"
    if mode not in (None, "swap", "no-swap"):
        raise InvalidInput(f"Niu Niu mode {mode!r}: expected swap or no-swap")
    opts = current_options()
    config = _validated(NiuniuConfig, opts.settings)
    levels = tuple(seat_levels(opts.bots, ["s1"] * 4, SPEC.bot_levels)) if opts.bots else ()
    player = Tally()
    start = time.perf_counter()
    work = chunks(rounds, seed, (swap, levels, dict(opts.settings)))
    run = run_chunks(_niuniu_chunk, work, None, "Niu Niu rounds")
    for part in run.results:
        for row in part:
            player.add_round(*row)
    seconds = time.perf_counter() - start
    from qipai.core.money import to_rate

    rate = to_rate(config.commission)
    exact = {} if swap or levels else {"player vs banker": 1 + player_ev_no_swap(rate)}
    notes = [
        f"bots: {', '.join(levels)} (qipai.games.niuniu.bots, the room's); they bid, bet and swap "
        "by their view, so no exact figure: the 95 % interval only"
        if levels
        else "bots: no bids (random banker), minimum bets; swaps by qipai.games.niuniu.bots."
        "SensibleBot (the hint: highest expected net against the banker); no exact figure with "
        "swaps (docs/rtp.md section 2: about 96.0 % when every seat follows the hint)"
        if swap
        else "bots: no bids (random banker), minimum bets, no swaps",
        f"per unit of base × banker multiple × player multiple, after the {float(rate):.2%} "
        "commission",
        _processes_note(run.workers),
    ]
    return SimulationResult(
        "niuniu",
        f"bots {','.join(levels)}" if levels else "swap" if swap else "no-swap",
        rounds,
        seed,
        seconds,
        _rows({"player vs banker": player}, exact),
        notes,
        run.cpu_seconds,
    )


def _validated(model: Any, settings: Mapping[str, Any]) -> Any:
    """The game's config from a template's settings, or a typed error naming the problem."""
    try:
        return model.model_validate(dict(settings))
    except ValueError as exc:
        raise InvalidInput(f"settings: {exc}") from None


def _processes_note(workers: int) -> str:
    return (
        f"{workers} process(es); rounds run in chunks of {CHUNK} whose deals and bot streams "
        "come from the seed and their own indices, so the result does not depend on the count"
    )


def _paigow_chunk(part: Chunk) -> list[tuple[int, RoundRow]]:
    """Rounds [first, last) of a Pai Gow simulation: (round of the tile set, the players'
    (net, stake, bets) against the banker) each. The chunk starts a fresh tile set; its deal
    units are numbered from the chunk's index, so no chunk depends on another."""
    from qipai.games.paigow.config import PaigowConfig
    from qipai.games.paigow.round import PaigowRound
    from qipai.games.paigow.spec import SPEC

    levels, settings = part.options
    config = PaigowConfig.model_validate(settings)
    seats = [Seat(f"s{i}", 10**12) for i in range(1, 5)]
    bots = {s.id: SPEC.make_bot(level) for s, level in zip(seats, levels, strict=True)}
    unit = part.index * CHUNK  # a chunk deals at most CHUNK units
    context: Mapping[str, Any] | None = None
    out = []
    for n in range(part.first, part.last):
        rnd = PaigowRound.start(config, seats, Rng(round_seed(part.seed, unit)), context)
        play_round(rnd, bots, Rng(round_seed(part.seed, n), "bots"))
        d = rnd.result().details
        out.append((int(d["round"]), _against_banker(d, config.base)))
        nxt = rnd.next_round()
        if nxt.reuse_seed:
            context = nxt.context
        else:
            unit += 1
            context = None
    return out


def simulate_paigow(rounds: int, seed: int, mode: str | None) -> SimulationResult:
    from qipai.core.money import to_rate
    from qipai.games.paigow.analysis import player_figures
    from qipai.games.paigow.config import PaigowConfig
    from qipai.games.paigow.spec import SPEC

    opts = current_options()
    settings = dict(opts.settings)
    if mode is not None:
        if mode not in ("banker", "push"):
            raise InvalidInput(f"Pai Gow mode {mode!r}: expected banker or push")
        if settings.get("tie_policy", mode) != mode:
            raise InvalidInput("Pai Gow: the mode and the settings' tie_policy differ")
        settings["tie_policy"] = mode
    config = _validated(PaigowConfig, settings)
    policy = config.tie_policy
    levels = tuple(seat_levels(opts.bots or ("paigow-random",), ["s"] * 4, SPEC.bot_levels))
    rounds_by_number = {1: Tally(), 2: Tally()}
    start = time.perf_counter()
    work = chunks(rounds, seed, (levels, settings))
    run = run_chunks(_paigow_chunk, work, None, "Pai Gow rounds")
    for part in run.results:
        for number, row in part:
            rounds_by_number[number].add_round(*row)
    seconds = time.perf_counter() - start
    rate = to_rate(config.commission)
    ev = player_figures(config.high_nine, policy, rate).rtp
    tallies = {f"player vs banker, round {k}": t for k, t in rounds_by_number.items()}
    # Round 1's bids and bets come before the deal, so every bot's pairings return the exact
    # figure per unit; in round 2 a bot may bet by the tiles seen in round 1, so the exact
    # figure holds there only for bots that ignore them (the random bot).
    blind = all(level == "paigow-random" for level in levels)
    exact = {name: ev for k, name in enumerate(tallies, 1) if k == 1 or blind}
    return SimulationResult(
        "paigow",
        policy,
        rounds,
        seed,
        seconds,
        _rows(tallies, exact),
        [
            f"bots: {', '.join(levels)} (qipai.games.paigow.bots); per unit of A·X·Y after the "
            f"{float(rate):.2%} commission; round 2 has an exact figure only when no bot reads "
            "the tiles seen in round 1",
            _processes_note(run.workers),
        ],
        run.cpu_seconds,
    )


def _holdem_chunk(part: Chunk) -> list[tuple[RoundRow, RoundRow, RoundRow]]:
    """Rounds [first, last) of a Hold'em Bonus simulation: the (net, stake, bets) of the main
    bets per ante, the bonus bets and the pool bets each round. The jackpot carries from round
    to round within the chunk (the round's context) and opens at the table's pool seed at the
    chunk's start."""
    from qipai.games.holdem_bonus import HoldemBonusConfig, HoldemBonusRound
    from qipai.games.holdem_bonus.analysis import simple_strategy
    from qipai.games.holdem_bonus.bots import SensibleBot
    from qipai.games.holdem_bonus.strategy import optimal_strategy

    optimal = part.options == "optimal"
    strategy = optimal_strategy("source") if optimal else simple_strategy
    config = HoldemBonusConfig()
    seats = [Seat(box, 10**12) for box in config.boxes]
    bots = {s.id: SensibleBot(strategy=strategy, bonus=True, pool=True) for s in seats}
    context: Mapping[str, Any] | None = None
    out = []
    for n in range(part.first, part.last):
        rnd = HoldemBonusRound.start(config, seats, Rng(round_seed(part.seed, n)), context)
        play_round(rnd, bots, Rng(round_seed(part.seed, n), "bots"))
        boxes = rnd.result().details["boxes"]
        sums = [[0.0, 0.0, 0] for _ in range(3)]
        for box in boxes.values():
            nets, bets = box["nets"], box["bets"]
            for k, (net, stake) in enumerate(
                (
                    (nets["ante"] + nets["flop"] + nets["turn"] + nets["river"], bets["ante"]),
                    (nets["bonus"], bets["bonus"]),
                    (nets["pool"], bets["pool"]),
                )
            ):
                sums[k][0] += net
                sums[k][1] += stake
                sums[k][2] += 1 if stake else 0
        main, bonus, pool = ((float(a), float(b), int(c)) for a, b, c in sums)
        out.append((main, bonus, pool))
        context = rnd.next_round().context
    return out


def simulate_holdem(rounds: int, seed: int, mode: str | None) -> SimulationResult:
    from qipai.games.holdem_bonus.analysis import analyse

    # The engine plays the source turn/river rule (the common rule is not a table setting, so
    # it is analysed, not simulated); the mode names the players' strategy: `optimal` is the
    # room's default bot (qipai.games.holdem_bonus.bots.optimal_bot), `simple` the published
    # rule of thumb ("source" is kept as the name of the simple run).
    if mode not in (None, "source", "simple", "optimal"):
        raise InvalidInput(
            "Hold'em Bonus mode: simple or optimal (the strategy; the engine plays the source rule)"
        )
    optimal = mode == "optimal"
    label = "optimal" if optimal else "simple"
    tallies_list = [Tally(), Tally(), Tally()]
    start = time.perf_counter()
    run = run_chunks(_holdem_chunk, chunks(rounds, seed, label), None, "Hold'em Bonus rounds")
    for part in run.results:
        for row in part:
            for tally, one in zip(tallies_list, row, strict=True):
                tally.add_round(*one)
    seconds = time.perf_counter() - start
    report = analyse("source")[0]
    main_name = f"main bets per ante ({label} strategy)"
    pool_name = "pool (jackpot) bet"
    exact = {
        main_name: report.bet(f"ante, {label} strategy, source rule").rtp,
        "bonus (source pay table)": report.bet("bonus (source pay table)").rtp,
    }
    tallies = dict(
        zip((main_name, "bonus (source pay table)", pool_name), tallies_list, strict=True)
    )
    return SimulationResult(
        "holdem-bonus",
        label,
        rounds,
        seed,
        seconds,
        _rows(tallies, exact),
        [
            "bots: qipai.games.holdem_bonus.bots.SensibleBot on every box with the bonus and pool "
            "bets, playing "
            + (
                "the optimal strategy (qipai.games.holdem_bonus.strategy.optimal_strategy: the room's default bot)"
                if optimal
                else "the simple strategy (holdem_report.simple_strategy)"
            ),
            "pool bet: no exact figure (its return depends on the pool's size, docs/rtp.md §4); "
            f"the pool opens at the table's seed every {CHUNK} rounds (each chunk)",
            _processes_note(run.workers),
        ],
        run.cpu_seconds,
    )


def _rows(tallies: Mapping[str, Tally], exact: Mapping[str, Fraction]) -> list[dict[str, Any]]:
    rows = []
    for name, tally in tallies.items():
        observed, half = tally.estimate()
        ex = exact.get(name)
        rows.append(
            {
                "bet": name,
                "bets": tally.bets,
                "observed_rtp": observed,
                "ci95": half,
                "exact_rtp": None if ex is None else float(ex),
                "agrees": None if ex is None else abs(observed - float(ex)) <= half,
                "z": None if ex is None else z_score(observed, float(ex), half),
            }
        )
    return rows


def z_score(observed: float, exact: float, half95: float) -> float | None:
    """(observed − exact) in standard errors (the 95 % half-width is 1.96 of them)."""
    if not half95 or math.isnan(half95):
        return None
    return (observed - exact) / (half95 / 1.96)


TIENGOW_LEVELS = ("random", "rule-of-thumb", "strong")


def _tiengow_chunk(args: tuple[int, int, int, tuple[str, ...]]) -> list[tuple[str, dict[str, int]]]:
    """Games [first, last) of a Tien Gow simulation: (first banker, net per seat in base units)
    each. Every game's deal and bots' streams come from its own index, so the result does not
    depend on how the games are split among processes."""
    from qipai.games.tiengow.config import TienGowConfig
    from qipai.games.tiengow.round import TienGowRound
    from qipai.games.tiengow.spec import SPEC

    first, last, seed, levels = args
    config = TienGowConfig()
    ids = SPEC.seat_ids
    out = []
    for n in range(first, last):
        seats = [Seat(i, 10**12) for i in ids]
        rnd = TienGowRound.start(config, seats, Rng(round_seed(seed, n)))
        bots = {i: SPEC.make_bot(level) for i, level in zip(ids, levels, strict=True)}
        from qipai.games.tiengow.bots import play_game

        play_game(rnd, bots, Rng(round_seed(seed, n), "bots"))
        nets = {i: 0 for i in ids}
        for p in rnd.result().postings:
            nets[p.account] += p.amount
        out.append((rnd.banker, {k: v // config.base for k, v in nets.items()}))
    return out


def _tiengow_part(part: Chunk) -> list[tuple[str, dict[str, int]]]:
    return _tiengow_chunk((part.first, part.last, part.seed, part.options))


def simulate_tiengow(rounds: int, seed: int, mode: str | None) -> SimulationResult:
    """Tien Gow games between bots (`mode`: one level for every seat, or four comma-separated
    levels for E, S, W, N; default rule-of-thumb): each seat's mean net per game in base units
    with its 95 % interval, by seat and by whether it was the first banker. With the same bot
    at every seat each seat's exact expectation is 0 (symmetry: a uniformly random first banker,
    the same rules from every seat), so the z-scores test for a seat-position effect. Games run
    in processes on every core; the result is the same whatever their number."""
    from qipai.games.tiengow.spec import SPEC

    levels = tuple((mode or "rule-of-thumb").split(","))
    if len(levels) == 1:
        levels = levels * 4
    if len(levels) != 4 or any(level not in TIENGOW_LEVELS for level in levels):
        raise InvalidInput(
            f"Tien Gow mode {mode!r}: one level or four comma-separated levels of "
            f"{', '.join(TIENGOW_LEVELS)}"
        )
    ids = SPEC.seat_ids
    start = time.perf_counter()
    run = run_chunks(_tiengow_part, chunks(rounds, seed, levels), None, "Tien Gow games")
    games: list[tuple[str, dict[str, int]]] = [g for part in run.results for g in part]
    workers = run.workers
    seconds = time.perf_counter() - start
    cpu = run.cpu_seconds
    same = len(set(levels)) == 1
    rows = []
    groups: list[tuple[str, list[float]]] = [
        (f"seat {i} ({lv}): net per game / base", [g[1][i] for g in games])
        for i, lv in zip(ids, levels, strict=True)
    ]
    groups += [
        ("first banker: net per game / base", [g[1][g[0]] for g in games]),
        (
            "a non-banker seat: net per game / base",
            [sum(v for k, v in g[1].items() if k != g[0]) / 3 for g in games],
        ),
    ]
    for name, values in groups:
        n = len(values)
        mean = sum(values) / n
        var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else math.nan
        half = 1.96 * math.sqrt(var / n) if n > 1 else math.nan
        exact = 0.0 if same and name.startswith("seat") else None
        rows.append(
            {
                "bet": name,
                "bets": n,
                "mean": mean,
                "ci95": half,
                "exact": exact,
                "z": None if exact is None else z_score(mean, exact, half),
            }
        )
    return SimulationResult(
        "tiengow",
        ",".join(levels),
        rounds,
        seed,
        seconds,
        rows,
        [
            f"bots: {', '.join(f'{i} {lv}' for i, lv in zip(ids, levels, strict=True))}; "
            "first banker at random each game; nets in units of the base (尊钱 and score)",
            f"{workers} process(es); each game's deal and bot streams come from its index",
            "exact: 0 for a seat when every seat plays the same bot (symmetry); none otherwise",
        ],
        cpu,
    )


def simulated_games() -> list[str]:
    """Games whose spec has a simulator (`GameSpec.simulate`)."""
    from qipai.games import registry

    return [name for name, spec in registry.available().items() if callable(spec.simulate)]


MAX_ROUNDS = 10**9


def simulate_game(
    game: str,
    rounds: int,
    seed: int,
    mode: str | None = None,
    workers: int | None = None,
    options: SimulationOptions | None = None,
) -> SimulationResult:
    """Play `rounds` rounds of `game` and compare each bet's observed return with the exact one,
    on `workers` processes (default: every core; the result does not depend on the count)."""
    from qipai.analysis.parallel import MAX_WORKERS
    from qipai.games import registry

    if not 2 <= rounds <= MAX_ROUNDS:
        raise InvalidInput(f"simulate 2 to {MAX_ROUNDS:,} rounds, got {rounds}")
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise InvalidInput(f"workers is 1 to {MAX_WORKERS}, got {workers}")
    options = options or SimulationOptions()
    spec = registry.get(game)  # an unknown game names the registered ones
    given = {
        name for name, value in (("bots", options.bots), ("settings", options.settings)) if value
    }
    accepted = ACCEPTS.get(getattr(spec.simulate, "__name__", ""), frozenset())
    if given - accepted:
        raise InvalidInput(
            f"{game}'s simulation takes no {' or '.join(sorted(given - accepted))} option "
            "(use --mode)"
        )
    token = WORKERS.set(workers)
    token_options = OPTIONS.set(options)
    try:
        # a game that declares no simulator says so
        result: SimulationResult = spec.simulation(rounds, seed, mode)
    finally:
        WORKERS.reset(token)
        OPTIONS.reset(token_options)
    return result


def render_simulation(result: SimulationResult, fmt: str) -> str:
    """The result as JSON or as a markdown table."""
    if fmt == "json":
        return json.dumps(result.to_json(), indent=2)
    out = [
        f"## Simulation: {result.game} ({result.mode}), {result.rounds:,} rounds, seed {result.seed}",
        "",
        f"{result.seconds:.2f} s wall, {result.cpu_seconds:.2f} s CPU: "
        f"{result.rounds_per_second:,.0f} rounds/s wall, "
        f"{result.rounds_per_cpu_second:,.0f} rounds per CPU second",
        "",
    ]
    if any("mean" in row for row in result.rows):
        out += [
            "| figure | games | observed mean | 95 % CI | exact | z |",
            "|---|---:|---:|---:|---:|---:|",
        ]
    else:
        out += [
            "| bet | bets | observed return | 95 % CI | exact return | agrees | z |",
            "|---|---:|---:|---:|---:|---|---:|",
        ]
    for row in result.rows:
        z = "—" if row.get("z") is None else f"{row['z']:+.2f}"
        if "mean" in row:
            exact = "—" if row["exact"] is None else f"{row['exact']:+.4f}"
            out.append(
                f"| {row['bet']} | {row['bets']:,} | {row['mean']:+.4f} | ± {row['ci95']:.4f} | "
                f"{exact} | {z} |"
            )
            continue
        exact = "—" if row["exact_rtp"] is None else f"{row['exact_rtp'] * 100:.4f} %"
        agrees = "—" if row["agrees"] is None else ("yes" if row["agrees"] else "NO")
        out.append(
            f"| {row['bet']} | {row['bets']:,} | {row['observed_rtp'] * 100:.4f} % | "
            f"± {row['ci95'] * 100:.4f} % | {exact} | {agrees} | {z} |"
        )
    out.append("")
    out.extend(f"* {n}" for n in result.notes)
    return "\n".join(out)
