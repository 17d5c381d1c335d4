"""The back office's reports (docs/operators.md): the house's results and each bet's observed return.

Everything is read from the ledger's own rows, never from a cache the card room keeps:

* **House results** (`house_results`): per round, the sums of its transactions' entries by kind
  of account — people's stacks, bots' stacks (house money, `qipai.ledger.accounts`), the table's
  `house`, `commission` and `rounding` accounts and the jackpot pools (a contribution is money
  into a pool, an award money out of it) — and the stakes of its bets (turnover, 有效投注額:
  every amount staked on bets that settle against the house or the banker, as each game's
  result details list them — a Hold'em box's ante, bonus, pool, flop, turn and river bets alike
  — or what the game's rules count instead (`GameSpec.turnover`, `turnover_of`): Pai Gow each
  seat's result before commission, docs/rules/paigow.md#valid-bet; Tien Gow, where nobody
  stakes before the game and the players settle with each other, each seat's settled amount,
  |net|, docs/rules/tiengow.md#turnover). The jackpot's seed and top-ups (the house's money into a
  pool in a round, `qipai.ledger.jackpot`) are posted from the table's house account but are
  the jackpot's cost: they are their own columns and `house` is the table's play result without
  them. Because every transaction balances, for every round

      people + bots + house + commission + rounding + contributions − awards = 0

  and the gross gaming revenue from people is `ggr = −people` (what people lost). Rows are kept
  per (day, game, template, version, table) and summed by whatever the console asks for.
* **Exact vs observed return** (`observed_returns`): for each template version (its config hash,
  which every round records in its `meta`) and each bet its exact return to player (the
  template's figures, `qipai.analysis` via `Authority.rtp`) beside the observed return over the
  settled rounds: Σ net / Σ staked, with a 95 % interval from the per-round totals (ratio
  estimator, delta method, as `qipai simulate` computes it), the z-score and a flag. The
  reference is the exact figure where it holds for the room's play, else (`GameSpec.exact_assumes`:
  Niu Niu's figure is for no bids and no swaps) the simulated return of the room's bots at the
  template's settings with its own interval (`qipai.authority.references`); each row says which
  (`reference`: exact or simulated) and its z-score combines both errors. The flags are corrected
  for the many bets compared at once (Holm's procedure over every flaggable row of the report,
  family-wise 5 %: `qipai.authority.comparisons`), so a report of many fair bets flags none
  95 % of the time. Hold'em Bonus's main bets are shown twice: the house bots' boxes (the optimal bot:
  its figure is the optimal one, so a deviation is an engine or payout fault) and the people's
  boxes against the optimal strategy (what people give up by their own decisions is
  `exact − observed`; a report, not a fault, so it is never flagged).

The functions take a SQLAlchemy connection and return JSON-ready dicts; they are pure reads.
"""

from __future__ import annotations

import csv
import io
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any

from sqlalchemy import Connection, select

from qipai.authority import comparisons
from qipai.core.spec import GameSpec, StakedBet
from qipai.ledger import accounts as acct
from qipai.ledger import jackpot as jackpot_terms
from qipai.ledger.schema import accounts, entries, round_ends, round_players, rounds, transactions

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the standard normal distribution."""

BOT_PREFIX = "bot."
"""House bots' user ids (`qipai.tables.table.Table.add_bot`)."""


# ----- the bets of a settled round -------------------------------------------------------------
Bet = StakedBet
"""One bet of a settled round (`qipai.core.spec.StakedBet`): each game's spec lists them
(`GameSpec.stakes`, in the game's folder)."""


def _spec(game: str) -> GameSpec | None:
    """The game's spec; None only for a game this installation does not have at all (rows of a
    game since removed): every registered game declares its stakes (`MissingCapability`)."""
    from qipai.games import registry

    return registry.available().get(game)


def turnover_of(
    game: str, config: Mapping[str, Any], result: Mapping[str, Any] | None
) -> list[tuple[str, int]]:
    """(seat, amount) of a settled round's turnover (有效投注額): each bet's stake, or what the
    game counts instead (`GameSpec.turnover`: Tien Gow's |net|, docs/rules/tiengow.md#turnover)."""
    spec = _spec(game)
    if spec is None or not result:
        return []
    return spec.turnover_of(config or {}, result.get("details") or {})


def bets_of(game: str, config: Mapping[str, Any], result: Mapping[str, Any] | None) -> list[Bet]:
    """The bets of a settled round from its recorded result (`GameSpec.bets_of`)."""
    spec = _spec(game)
    if spec is None or not result:
        return []
    return spec.bets_of(config or {}, result.get("details") or {})


# ----- reading the settled rounds ----------------------------------------------------------------
@dataclass
class RoundRow:
    round_id: str
    table_id: str
    game: str
    template_id: str | None
    template_version: int | None
    config_hash: str | None
    status: str
    closed_at: datetime
    config: Mapping[str, Any]
    result: Mapping[str, Any] | None
    seat_users: dict[str, str] = field(default_factory=dict)
    legs: dict[str, int] = field(default_factory=dict)
    """Entries of the round's transactions summed by account name."""


def _ended_rounds(
    conn: Connection,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    game: str | None = None,
    table_id: str | None = None,
) -> list[RoundRow]:
    query = (
        select(
            rounds.c.id,
            rounds.c.table_id,
            rounds.c.game,
            rounds.c.meta,
            rounds.c.config,
            round_ends.c.status,
            round_ends.c.closed_at,
            round_ends.c.result,
        )
        .join(round_ends, round_ends.c.round_id == rounds.c.id)
        .order_by(round_ends.c.closed_at, rounds.c.id)
    )
    if since is not None:
        query = query.where(round_ends.c.closed_at >= since)
    if until is not None:
        query = query.where(round_ends.c.closed_at < until)
    if game is not None:
        query = query.where(rounds.c.game == game)
    if table_id is not None:
        query = query.where(rounds.c.table_id == table_id)
    found: dict[str, RoundRow] = {}
    for r in conn.execute(query).mappings():
        meta = r["meta"] or {}
        version = meta.get("template_version")
        found[str(r["id"])] = RoundRow(
            round_id=str(r["id"]),
            table_id=str(r["table_id"]),
            game=str(r["game"]),
            template_id=meta.get("template_id"),
            template_version=None if version is None else int(version),
            config_hash=meta.get("config_hash"),
            status=str(r["status"]),
            closed_at=r["closed_at"],
            config=r["config"] or {},
            result=r["result"],
        )
    if not found:
        return []
    seat_users, legs = round_parties(conn, list(found))
    for rid, row in found.items():
        row.seat_users = seat_users.get(rid, {})
        row.legs = legs.get(rid, {})
    return list(found.values())


def round_parties(
    conn: Connection, ids: list[str]
) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, int]]]:
    """For the rounds named: seat → user, and the entries of their transactions summed by
    account name."""
    seat_users: dict[str, dict[str, str]] = defaultdict(dict)
    legs: dict[str, dict[str, int]] = defaultdict(dict)
    for chunk in _chunks(ids, 500):
        for rid, seat, user in conn.execute(
            select(round_players.c.round_id, round_players.c.seat, round_players.c.user_id).where(
                round_players.c.round_id.in_(chunk)
            )
        ):
            seat_users[str(rid)][str(seat)] = str(user)
        for rid, name, amount in conn.execute(
            select(transactions.c.round_id, accounts.c.name, entries.c.amount)
            .join(entries, entries.c.tx_id == transactions.c.id)
            .join(accounts, accounts.c.id == entries.c.account_id)
            .where(transactions.c.round_id.in_(chunk))
        ):
            into = legs[str(rid)]
            into[str(name)] = into.get(str(name), 0) + int(amount)
    return dict(seat_users), dict(legs)


def _chunks(items: list[str], size: int) -> Iterable[list[str]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


# ----- house results -------------------------------------------------------------------------------
FIGURES = (
    "rounds",
    "voided",
    "turnover",
    "bot_turnover",
    "people_net",
    "ggr",
    "house",
    "commission",
    "rounding",
    "jackpot_seed",
    "jackpot_top_ups",
    "jackpot_contributions",
    "jackpot_awards",
    "bots_net",
)
"""The columns of a house-results row, in order (all integers, minor units but the counts)."""

KEYS = ("day", "game", "template_id", "template_version", "table_id")
GROUPS = {"day", "game", "template", "table"}


def _is_bot(user: str | None) -> bool:
    return bool(user) and str(user).startswith(BOT_PREFIX)


def _round_figures(row: RoundRow) -> dict[str, int]:
    out = dict.fromkeys(FIGURES, 0)
    out["rounds"] = 1 if row.status == "settled" else 0
    out["voided"] = 1 if row.status == "voided" else 0
    jackpot = 0
    for name, amount in row.legs.items():
        spec = acct.parse(name)
        if spec.kind in ("stack", "hold"):
            out["bots_net" if _is_bot(spec.owner) else "people_net"] += amount
        elif spec.kind in ("house", "commission", "rounding") and name not in (
            acct.BOTS,
            acct.JACKPOT_FUND,
        ):
            out[spec.kind] += amount
        elif spec.kind == "jackpot":
            jackpot += amount
        elif spec.kind == "wallet":  # a hold on a wallet (no table round does this)
            out["people_net"] += amount
    split = jackpot_terms.round_pool((row.result or {}).get("details"), jackpot)
    out["jackpot_seed"] = split.seed
    out["jackpot_top_ups"] = split.top_ups
    out["jackpot_contributions"] = split.contributions
    out["jackpot_awards"] = split.awards
    # the seed and top-ups are posted from the table's house account: the jackpot's cost, kept
    # out of the table's play result (qipai.ledger.jackpot)
    out["house"] += split.seed + split.top_ups
    if row.status == "settled":
        for seat, staked in turnover_of(row.game, row.config, row.result):
            user = row.seat_users.get(seat)
            out["bot_turnover" if _is_bot(user) else "turnover"] += staked
    out["ggr"] = -out["people_net"]
    return out


def house_results(
    conn: Connection,
    *,
    by: Iterable[str] = ("game", "template"),
    since: datetime | None = None,
    until: datetime | None = None,
    game: str | None = None,
    table_id: str | None = None,
) -> dict[str, Any]:
    """The house's results of the ended rounds, grouped `by` any of day, game, template (id and
    version), table; with the totals and the books' own figures (pools, bot bankroll)."""
    group = [g for g in by]
    unknown = sorted(set(group) - GROUPS)
    if unknown:
        from qipai.authority.errors import BadRequest

        raise BadRequest(f"unknown grouping {unknown}: use {sorted(GROUPS)}", "by")
    rows: dict[tuple[Any, ...], dict[str, Any]] = {}
    total = dict.fromkeys(FIGURES, 0)
    for r in _ended_rounds(conn, since=since, until=until, game=game, table_id=table_id):
        figures = _round_figures(r)
        labels: dict[str, Any] = {}
        if "day" in group:
            labels["day"] = r.closed_at.date().isoformat()
        if "game" in group:
            labels["game"] = r.game
        if "template" in group:
            labels["template_id"] = r.template_id
            labels["template_version"] = r.template_version
        if "table" in group:
            labels["table_id"] = r.table_id
        key = tuple(labels.get(k) for k in KEYS)
        into = rows.setdefault(key, {**labels, **dict.fromkeys(FIGURES, 0)})
        for name, value in figures.items():
            into[name] += value
            total[name] += value
    ordered = sorted(rows.values(), key=lambda x: tuple(str(x.get(k) or "") for k in KEYS))
    return {
        "by": group,
        "columns": [k for k in KEYS if any(k in row for row in ordered)] + list(FIGURES),
        "rows": ordered,
        "total": total,
        "books": books(conn),
    }


def books(conn: Connection) -> dict[str, Any]:
    """What the accounts hold now: jackpot liability (every pool's balance, owed to future
    winners), the bot bankroll and bots' money at tables, the house accounts' balances (these
    include operator adjustments, which are no round's)."""
    from qipai.ledger.audit import house_report

    report = house_report(conn)
    pools = {p: v["balance"] for p, v in report["jackpot"]["pools"].items()}
    return {
        "house_at_tables": report["tables"],
        "by_table": report["by_table"],
        "bots": report["bots"],
        "jackpot": report["jackpot"],
        "jackpot_liability": sum(pools.values()),
    }


def to_csv(report: Mapping[str, Any]) -> str:
    """A house-results report as CSV: a header, one line per row, then the total."""
    columns = list(report["columns"])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in report["rows"]:
        writer.writerow(["" if row.get(c) is None else row.get(c) for c in columns])
    total = report["total"]
    writer.writerow(
        ["total" if i == 0 else total.get(c, "") for i, c in enumerate(columns)]
        if columns and columns[0] not in FIGURES
        else [total.get(c, "") for c in columns]
    )
    return out.getvalue()


# ----- exact vs observed return --------------------------------------------------------------------
@dataclass
class Sample:
    """Per-round totals of one bet kind over some seats: Σ net and Σ staked each round."""

    nets: list[int] = field(default_factory=list)
    stakes: list[int] = field(default_factory=list)
    times: list[datetime] = field(default_factory=list)
    bets: int = 0

    def add(self, at: datetime, net: int, staked: int, count: int) -> None:
        self.nets.append(net)
        self.stakes.append(staked)
        self.times.append(at)
        self.bets += count

    def estimate(self, upto: int | None = None) -> tuple[float | None, float | None]:
        """(observed return, standard error) over the first `upto` rounds (all: None): the
        ratio estimator 1 + Σnet/Σstaked, its standard error by the delta method."""
        nets = self.nets if upto is None else self.nets[:upto]
        stakes = self.stakes if upto is None else self.stakes[:upto]
        n = len(nets)
        staked = sum(stakes)
        if n == 0 or staked == 0:
            return None, None
        ratio = sum(nets) / staked
        if n < 2:
            return 1 + ratio, None
        mean_stake = staked / n
        resid = [x - ratio * y for x, y in zip(nets, stakes, strict=True)]
        mean_r = sum(resid) / n
        var = sum((r - mean_r) ** 2 for r in resid) / (n - 1)
        return 1 + ratio, math.sqrt(var / n) / mean_stake


def _compare(
    observed: float | None,
    se: float | None,
    exact: float | None,
    flags: bool,
    ref_se: float = 0.0,
) -> dict[str, Any]:
    """Observed beside its reference (`exact`; `ref_se`: the reference's own standard error,
    0 for an exact figure): the interval, z and the uncorrected p-value; `flag` is set for the
    whole report by `_correct`."""
    half = None if se is None else Z95 * se
    z = None
    both = None if se is None else math.sqrt(se * se + ref_se * ref_se)
    if observed is not None and exact is not None and both:
        z = (observed - exact) / both
    elif observed is not None and exact is not None and both == 0.0:
        z = 0.0 if observed == exact else math.copysign(math.inf, observed - exact)
    return {
        "observed": observed,
        "ci95": half,
        "low": None if half is None or observed is None else observed - half,
        "high": None if half is None or observed is None else observed + half,
        "z": None if z is None or math.isinf(z) else z,
        "p": None if z is None or not flags else comparisons.p_value(z),
        "flag": False,
    }


def _correct(rows: list[dict[str, Any]]) -> None:
    """Flag the rows whose p-value survives Holm's correction over every flaggable row."""
    tested = [r for r in rows if r.get("p") is not None]
    rejected, adjusted = comparisons.holm([float(r["p"]) for r in tested])
    for row, flag, p in zip(tested, rejected, adjusted, strict=True):
        row["flag"] = flag
        row["p_adjusted"] = p


def _series(sample: Sample, exact: float | None, points: int = 60) -> list[dict[str, Any]]:
    """The observed return (and its interval) after each of up to `points` moments."""
    n = len(sample.nets)
    if n == 0:
        return []
    k = min(points, n)
    marks = sorted({max(1, round(n * (i + 1) / k)) for i in range(k)})
    out = []
    for upto in marks:
        obs, se = sample.estimate(upto)
        half = None if se is None else Z95 * se
        out.append(
            {
                "rounds": upto,
                "t": sample.times[upto - 1].timestamp(),
                "observed": obs,
                "low": None if half is None or obs is None else obs - half,
                "high": None if half is None or obs is None else obs + half,
                "exact": exact,
            }
        )
    return out


def _exact_rows(figures: list[dict[str, Any]] | None) -> dict[tuple[str, str | None], float | None]:
    out: dict[tuple[str, str | None], float | None] = {}
    for f in figures or []:
        out[(str(f["bet"]), f.get("strategy"))] = f.get("rtp")
    return out


def observed_returns(
    conn: Connection,
    exact_of: Any,
    *,
    template_id: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    series: bool = False,
    reference_of: Any = None,
) -> list[dict[str, Any]]:
    """Each bet of each template version that was played: its reference beside observed.

    `exact_of(game, config_json, config_hash)` gives the template's exact figures (the list of
    `BetReturn.to_json()`), or None when there are none; `reference_of(template_id, version)`
    the simulated reference of a version whose exact figures do not hold for the room's play
    (a `qipai.authority.references.Reference`, None: the exact figure is the reference)."""
    groups: dict[tuple[str, int | None, str, str], dict[str, Any]] = {}
    samples: dict[tuple[Any, ...], Sample] = defaultdict(Sample)
    for r in _ended_rounds(conn, since=since, until=until):
        if r.status != "settled" or r.template_id is None or r.config_hash is None:
            continue
        if template_id is not None and r.template_id != template_id:
            continue
        gkey = (r.template_id, r.template_version, r.config_hash, r.game)
        groups.setdefault(gkey, {"config": r.config, "rounds": 0})
        groups[gkey]["rounds"] += 1
        per: dict[tuple[str, str], list[int]] = {}
        for bet in bets_of(r.game, r.config, r.result):
            who = "bots" if _is_bot(r.seat_users.get(bet.seat)) else "people"
            for scope in ("all", who):
                tot = per.setdefault((bet.kind, scope), [0, 0, 0])
                tot[0] += bet.net
                tot[1] += bet.staked
                tot[2] += 1
        for (kind, scope), (net, staked, count) in per.items():
            samples[(*gkey, kind, scope)].add(r.closed_at, net, staked, count)
    out = []
    for gkey, info in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
        tid, version, digest, game = gkey
        figures = exact_of(game, info["config"], digest)
        exact = _exact_rows(figures)
        ref = None if reference_of is None else reference_of(tid, version)
        labels = {str(f["bet"]): f.get("label") for f in figures or []}
        kinds = sorted({k[4] for k in samples if k[:4] == gkey} | {b for b, _ in exact})
        for kind in kinds:
            for row in _rows_for(game, kind, exact):
                sample = samples.get((*gkey, kind, row["scope"]), Sample())
                obs, se = sample.estimate()
                ex = row["exact"]
                reference = _reference(row, ref, kind)
                item = {
                    "template_id": tid,
                    "template_version": version,
                    "config_hash": digest,
                    "game": game,
                    "bet": kind,
                    "label": labels.get(kind),
                    "strategy": row["strategy"],
                    "scope": row["scope"],
                    "note": row["note"],
                    "rounds": len(sample.nets),
                    "bets": sample.bets,
                    "staked": sum(sample.stakes),
                    "net": sum(sample.nets),
                    "exact": ex,
                    "given_up": None
                    if not row["decisions"] or obs is None or ex is None
                    else ex - obs,
                    **reference,
                    **_compare(
                        obs,
                        se,
                        reference["reference_rtp"],
                        reference["flaggable"],
                        reference["reference_se"],
                    ),
                }
                del item["flaggable"]
                if series:
                    item["series"] = _series(sample, reference["reference_rtp"])
                out.append(item)
    _correct(out)
    return out


def _reference(row: Mapping[str, Any], ref: Any, kind: str) -> dict[str, Any]:
    """What a row is compared with: its exact figure, or the simulated return of the room's
    policies (`ref`, ready or not) with its standard error and what the exact figure assumes."""
    flaggable = not row["decisions"]
    if ref is None:
        return {
            "reference": "exact",
            "reference_rtp": row["exact"],
            "reference_se": 0.0,
            "reference_ci95": 0.0 if row["exact"] is not None else None,
            "reference_note": "",
            "flaggable": flaggable,
        }
    figure = (ref.figures or {}).get(kind) if ref.status == "ready" else None
    note = f"the exact figure assumes {ref.assumes}: compared with the room's bots ({ref.level}) simulated over {ref.rounds:,} rounds"
    if figure is None:
        return {
            "reference": "simulated",
            "reference_status": ref.status,
            "reference_rtp": None,
            "reference_se": 0.0,
            "reference_ci95": None,
            "reference_note": note,
            "flaggable": False,
        }
    return {
        "reference": "simulated",
        "reference_status": ref.status,
        "reference_rtp": float(figure["rtp"]),
        "reference_se": float(figure["se"]),
        "reference_ci95": float(figure["ci95"]),
        "reference_note": note,
        "flaggable": flaggable,
    }


def _rows_for(
    game: str, kind: str, exact: Mapping[tuple[str, str | None], float | None]
) -> list[dict[str, Any]]:
    """Which comparisons a bet kind gets: one over every seat against its exact figure; for
    Hold'em's main bets, the bots' boxes against the bot's figure and the people's against the
    optimal and the simple strategy (decisions: never flagged, `given_up` reported)."""
    if game == "holdem-bonus" and kind == "main":
        rows = [
            {
                "scope": "bots",
                "strategy": "bot: optimal",
                "exact": exact.get(("main", "bot: optimal")),
                "decisions": False,
                "note": "house bots' boxes: the optimal bot plays the exact optimal strategy",
            },
            {
                "scope": "people",
                "strategy": "optimal",
                "exact": exact.get(("main", "optimal")),
                "decisions": True,
                "note": "people's boxes against optimal play: given_up is what their "
                "decisions cost per ante",
            },
            {
                "scope": "people",
                "strategy": "simple",
                "exact": exact.get(("main", "simple")),
                "decisions": True,
                "note": "people's boxes against the simple strategy",
            },
        ]
        return rows
    matches = [(s, v) for (b, s), v in exact.items() if b == kind]
    strategy, value = matches[0] if matches else (None, None)
    note = ""
    return [
        {
            "scope": "all",
            "strategy": strategy,
            "exact": value,
            "decisions": False,
            "note": note,
        }
    ]


# ----- Hold'em Bonus: what people's own decisions cost against optimal play -------------------------
def holdem_decisions(
    conn: Connection,
    *,
    template_id: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: int = 2_000,
) -> list[dict[str, Any]]:
    """Per Hold'em Bonus template version, the people's decisions of the last `limit` boxes
    against the optimal strategy (`qipai.games.holdem_bonus.strategy`, docs/rules/holdem-bonus.md#differences's source rule):

    * flop (play 2x or fold): how many differ from the optimal choice (its expected values are
      not tabulated per hand, so no cost is given);
    * turn and river (bet 1x or check): how many differ, and what they cost exactly — the
      optimal choice's expected net minus the chosen one's, per unit ante, times the ante —
      summed, and per ante staked (`given_up_per_ante`).

    An exact figure per decision, where the observed `given_up` of `observed_returns` is a
    noisy estimate over the same boxes."""
    from qipai.core.cards import parse_cards
    from qipai.games.holdem_bonus.strategy import flop_decision, river_decision, turn_decision

    boxes: list[tuple[tuple[Any, ...], Mapping[str, Any], list[str]]] = []
    for r in _ended_rounds(conn, since=since, until=until, game="holdem-bonus"):
        if r.status != "settled" or r.template_id is None or not r.result:
            continue
        if template_id is not None and r.template_id != template_id:
            continue
        details = r.result.get("details") or {}
        board = list(details.get("board") or [])
        for box in (details.get("boxes") or {}).values():
            seat = str(box.get("player", box.get("box")))
            if _is_bot(r.seat_users.get(seat)) or len(board) != 5 or not box.get("hole"):
                continue
            boxes.append(((r.template_id, r.template_version), box, board))
    out: dict[tuple[Any, ...], dict[str, Any]] = {}
    for key, box, board in boxes[-limit:]:
        row = out.setdefault(
            key,
            {
                "template_id": key[0],
                "template_version": key[1],
                "boxes": 0,
                "antes": 0,
                "flop_decisions": 0,
                "flop_deviations": 0,
                "later_decisions": 0,
                "later_deviations": 0,
                "given_up": Fraction(0),
            },
        )
        bets = box["bets"]
        ante = int(bets["ante"])
        hole = parse_cards(box["hole"])
        cards = parse_cards(board)
        row["boxes"] += 1
        row["antes"] += ante
        played = int(bets.get("flop") or 0) > 0
        row["flop_decisions"] += 1
        row["flop_deviations"] += int(played != flop_decision(hole))
        if not played:
            continue
        bet_turn = int(bets.get("turn") or 0) > 0
        _later_decision(row, turn_decision(hole, cards[:3]), bet_turn, ante)
        if bet_turn:  # the source rule: a turn check gives up the river bet
            bet_river = int(bets.get("river") or 0) > 0
            _later_decision(row, river_decision(hole, cards[:4], True), bet_river, ante)
    result = []
    for row in out.values():
        given = row.pop("given_up")
        row["given_up"] = float(given)
        row["given_up_per_ante"] = float(given / row["antes"]) if row["antes"] else None
        result.append(row)
    return sorted(result, key=lambda x: (x["template_id"], x["template_version"] or 0))


def _later_decision(row: dict[str, Any], decision: Any, bet: bool, ante: int) -> None:
    """Count one turn or river decision (bet 1x or check) against the optimal one: a deviation
    costs the optimal choice's expected net minus the chosen one's, per unit ante, times the
    ante (docs/rules/holdem-bonus.md#differences, the source rule)."""
    row["later_decisions"] += 1
    best = max(decision.ev_bet, decision.ev_check)
    chosen = decision.ev_bet if bet else decision.ev_check
    row["later_deviations"] += int(chosen != best)
    row["given_up"] += (best - chosen) * ante


__all__ = [
    "FIGURES",
    "Bet",
    "Sample",
    "bets_of",
    "books",
    "holdem_decisions",
    "house_results",
    "observed_returns",
    "round_parties",
    "to_csv",
    "turnover_of",
]
