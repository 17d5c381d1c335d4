"""PAR sheets: what a pricing team reads off one set of table settings (`qipai par`).

For every bet, from its exact outcome table (probability, net per unit staked — each game's own
analysis builds it beside its other exact figures):

* return to player (RTP) = 1 + E[net]; house edge = −E[net]; hit frequency = P(net > 0);
* standard deviation σ of the net per unit;
* volatility index VI = z₉₀ · σ with z₉₀ = 1.6449 (the usual slot-PAR definition: the half-width
  of the 90 % range of the average result is VI/√n);
* the 90 % and 95 % ranges of the player's return after n = 10³ … 10⁶ rounds: RTP ± z·σ/√n
  (normal approximation to the average of n independent rounds; a stated approximation, not an
  exact quantile — tests compare it with the exact binomial quantiles of a two-outcome bet).

For the games where the house's income is a commission both sides of a pairing lose it, so a sheet also states the house's hold: the commission expected per round of
one pairing, per unit of the pairing's stake, and per unit of handle (both sides' stakes).

Every probability and expectation is an exact Fraction; JSON gives them as {numerator,
denominator} integer ratios beside a float; markdown and HTML give a printable page.

Each game builds its sheet from its own folder (`GameSpec.par`, with the PAR-only options it
names in `par_options`); this module holds the figures, the formats and the dispatch through
the registry, and names no game.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from qipai.analysis.distribution import BetFigures, percent
from qipai.core.errors import InvalidInput

Z90 = 1.6448536269514722  # standard normal quantile 0.95: a two-sided 90 % range
Z95 = 1.959963984540054  # standard normal quantile 0.975: a two-sided 95 % range
ROUNDS = (10**3, 10**4, 10**5, 10**6)


def ratio(value: Fraction) -> dict[str, Any]:
    """An exact value as JSON: integer numerator and denominator, and a float to read."""
    return {"numerator": value.numerator, "denominator": value.denominator, "value": float(value)}


@dataclass(frozen=True)
class BetPar:
    """One bet's PAR figures, all derived from its exact outcome table."""

    figures: BetFigures

    @property
    def rtp(self) -> Fraction:
        return self.figures.rtp

    @property
    def hit_frequency(self) -> Fraction:
        """P(the bet returns more than it staked)."""
        return sum((o.probability for o in self.figures.outcomes if o.net > 0), Fraction(0))

    @property
    def sd(self) -> float:
        return self.figures.sd

    @property
    def volatility_index(self) -> float:
        return Z90 * self.sd

    def return_range(self, rounds: int, z: float) -> tuple[float, float]:
        """The range the player's return (total returned / total staked) falls in after
        `rounds` independent rounds of one unit, with the normal approximation at quantile z."""
        half = z * self.sd / math.sqrt(rounds)
        return float(self.rtp) - half, float(self.rtp) + half

    def to_json(self) -> dict[str, Any]:
        f = self.figures
        return {
            "bet": f.bet,
            "note": f.note,
            "outcomes": [
                {"outcome": o.label, "net": ratio(o.net), "probability": ratio(o.probability)}
                for o in f.outcomes
            ],
            "rtp": ratio(f.rtp),
            "house_edge": ratio(f.house_edge),
            "hit_frequency": ratio(self.hit_frequency),
            "variance": ratio(f.variance),
            "sd": self.sd,
            "volatility_index": self.volatility_index,
            "ranges": [
                {
                    "rounds": n,
                    "p90": list(self.return_range(n, Z90)),
                    "p95": list(self.return_range(n, Z95)),
                }
                for n in ROUNDS
            ],
        }


@dataclass(frozen=True)
class Hold:
    """The house's commission income from one pairing (one banker, one player), exact."""

    player_ev: Fraction  # the player's expectation per unit of the pairing's stake
    banker_ev: Fraction  # the banker's, per the same unit

    @property
    def per_round(self) -> Fraction:
        """Commission per round of one pairing, per unit of its stake (the game is zero-sum
        between the two sides but for the commission)."""
        return -(self.player_ev + self.banker_ev)

    @property
    def per_handle(self) -> Fraction:
        """Per unit of handle: both sides put the pairing's stake at risk."""
        return self.per_round / 2

    def to_json(self) -> dict[str, Any]:
        return {
            "player_ev": ratio(self.player_ev),
            "banker_ev": ratio(self.banker_ev),
            "per_round": ratio(self.per_round),
            "per_handle": ratio(self.per_handle),
        }


@dataclass(frozen=True)
class ParSheet:
    """The PAR sheet of one game under one set of settings."""

    game: str
    title: str
    settings: Mapping[str, Any]
    bets: tuple[BetPar, ...]
    hold: Hold | None = None
    notes: tuple[str, ...] = ()
    facts: Mapping[str, Any] = field(default_factory=dict)

    def bet(self, name: str) -> BetPar:
        for b in self.bets:
            if b.figures.bet == name:
                return b
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "title": self.title,
            "settings": dict(self.settings),
            "bets": [b.to_json() for b in self.bets],
            "hold": None if self.hold is None else self.hold.to_json(),
            "facts": {k: ratio(v) if isinstance(v, Fraction) else v for k, v in self.facts.items()},
            "notes": list(self.notes),
            "definitions": {
                "volatility_index": "1.6449 × sd of the net per unit (90 % two-sided)",
                "ranges": "RTP ± z·sd/√n, z = 1.6449 (90 %) or 1.9600 (95 %): normal "
                "approximation to the average return of n independent one-unit rounds",
            },
        }

    def to_markdown(self) -> str:
        out = [f"# PAR sheet: {self.title}", ""]
        out.append("Settings: " + ", ".join(f"`{k}={_text(v)}`" for k, v in self.settings.items()))
        out.append("")
        out.append("| bet | RTP | house edge | hit frequency | sd | volatility index |")
        out.append("|---|---:|---:|---:|---:|---:|")
        for b in self.bets:
            f = b.figures
            out.append(
                f"| {f.bet} | {percent(f.rtp)} | {percent(f.house_edge)} | "
                f"{percent(b.hit_frequency)} | {b.sd:.4f} | {b.volatility_index:.4f} |"
            )
        out.append("")
        if self.hold is not None:
            h = self.hold
            out += [
                "House hold (commission), one pairing, exact:",
                "",
                "| player EV | banker EV | hold per round (per unit of stake) | hold per unit "
                "of handle |",
                "|---:|---:|---:|---:|",
                f"| {float(h.player_ev):+.6f} | {float(h.banker_ev):+.6f} | "
                f"{percent(h.per_round)} | {percent(h.per_handle)} |",
                "",
            ]
        for b in self.bets:
            f = b.figures
            out += [f"## {f.bet}", ""]
            if f.note:
                out += [f.note, ""]
            out += [
                "| outcome | pays (net per unit) | probability | exact |",
                "|---|---:|---:|---|",
            ]
            for o in f.outcomes:
                out.append(
                    f"| {o.label} | {_net(o.net)} | {float(o.probability):.10f} | "
                    f"{o.probability.numerator}/{o.probability.denominator} |"
                )
            out += [
                "",
                "| rounds | 90 % range of return | 95 % range of return |",
                "|---:|---|---|",
            ]
            for n in ROUNDS:
                lo90, hi90 = b.return_range(n, Z90)
                lo95, hi95 = b.return_range(n, Z95)
                out.append(
                    f"| {n:,} | {lo90 * 100:.3f} % – {hi90 * 100:.3f} % | "
                    f"{lo95 * 100:.3f} % – {hi95 * 100:.3f} % |"
                )
            out.append("")
        for k, v in self.facts.items():
            out.append(f"* {k}: {_text(v)}")
        for note in self.notes:
            out.append(f"* {note}")
        out.append(
            "* Volatility index = 1.6449 × sd; ranges = RTP ± z·sd/√n (normal approximation)."
        )
        return "\n".join(out) + "\n"

    def to_html(self) -> str:
        """A printable page (one self-contained HTML document)."""
        rows: list[str] = []
        for line in self.to_markdown().splitlines():
            if line.startswith("|---"):
                continue
            if line.startswith("|"):
                cells = [html.escape(c.strip()) for c in line.strip("|").split("|")]
                rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
            else:
                rows.append(_block(line))
        body = "\n".join(_merge_tables(rows))
        return (
            "<!doctype html><html><head><meta charset='utf-8'>"
            f"<title>{html.escape(self.title)} — PAR</title><style>"
            "body{font:12px/1.4 system-ui,sans-serif;margin:2em}"
            "table{border-collapse:collapse;margin:.5em 0}"
            "td{border:1px solid #999;padding:2px 6px;text-align:right}"
            "td:first-child{text-align:left}@media print{body{margin:0}}"
            f"</style></head><body>\n{body}\n</body></html>\n"
        )


def _block(line: str) -> str:
    text = html.escape(line.replace("`", ""))
    if line.startswith("# "):
        return f"<h1>{text[2:]}</h1>"
    if line.startswith("## "):
        return f"<h2>{text[3:]}</h2>"
    if line.startswith("* "):
        return f"<p>• {text[2:]}</p>"
    return f"<p>{text}</p>" if text else ""


def _table(rows: list[str]) -> str:
    return "<table>" + "".join(rows) + "</table>"


def _merge_tables(parts: list[str]) -> list[str]:
    """Consecutive <tr> rows into one <table>."""
    out: list[str] = []
    run: list[str] = []
    for p in parts:
        if p.startswith("<tr>"):
            run.append(p)
            continue
        if run:
            out.append(_table(run))
            run = []
        if p:
            out.append(p)
    if run:
        out.append(_table(run))
    return out


def _net(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{float(value):+.6f}"


def _text(v: Any) -> str:
    if isinstance(v, Fraction):
        return f"{v} ({float(v):.6g})"
    return str(v)


def sheet(
    game: str,
    title: str,
    settings: Mapping[str, Any],
    bets: Sequence[BetFigures],
    hold: Hold | None = None,
    notes: Sequence[str] = (),
    facts: Mapping[str, Any] | None = None,
) -> ParSheet:
    return ParSheet(
        game, title, dict(settings), tuple(BetPar(b) for b in bets), hold, tuple(notes), facts or {}
    )


def render(par: ParSheet, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(par.to_json(), ensure_ascii=False, indent=2)
    if fmt == "html":
        return par.to_html()
    return par.to_markdown()


def par_for(game: str, settings: Mapping[str, Any] | None = None) -> ParSheet:
    """The PAR sheet of `game` under `settings`: a template's settings plus the PAR-only
    options the game declares (`GameSpec.par_options`: free pricing settings a table does not
    have). An unknown game names the registered ones; a game without a PAR sheet gets
    `NotOffered` naming those with one; InvalidInput names a bad setting."""
    from qipai.games.registry import get

    out = get(game).par_sheet(settings)
    if not isinstance(out, ParSheet):
        raise TypeError(f"{game}'s GameSpec.par returned {type(out).__name__}, not a ParSheet")
    return out


def int_mapping(value: Any, name: str) -> dict[str, int] | None:
    """A PAR-only option that maps names to whole numbers (None when not given)."""
    if value is None:
        return None
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
        for k, v in value.items()
    ):
        raise InvalidInput(f'{name} is an object of whole numbers, e.g. {{"bull_bull": 4}}')
    return dict(value)


def positive_fraction(value: Any, name: str) -> Fraction:
    """A PAR-only option that is a positive number, exactly."""
    try:
        out = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise InvalidInput(f"{name} is a number, got {value!r}") from None
    if out <= 0 or isinstance(value, bool):
        raise InvalidInput(f"{name} must be positive, got {value!r}")
    return out
