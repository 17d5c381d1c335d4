"""What each Pok Deng bet takes, returns and wins: both modes, holds, rounding (docs/rules/pokdeng.md#payouts).

Position bets (`Pn`, and `Bn` in banker-player mode) take stake + hold = 2a from the balance so that
a 2x loss is covered; pair bets take a. `returned` is what comes back to the balance, so a bet's net
is `returned - taken`. Banker-player wins pay 0.95:1 / 1.9:1 rounded down to the minor unit; the
house's side is the true 1:1 / 2:1 less its commission (also rounded down) and the unit between the
two floors, when there is one, is posted to the `rounding` account, so every round balances.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Final, NamedTuple

from qipai.core.protocol import HOUSE, ROUNDING, Posting
from qipai.games.pokdeng.config import BANKER, PokDengConfig
from qipai.games.pokdeng.hands import KLASS_COUNT, KLASSES, Hand

HOLD: Final[dict[str, int]] = {"player": 2, "banker": 2, "pair": 1}
_NO_FULL_DOUBLE: Final = frozenset(
    {0, 60}
)  # docs/rules/pokdeng.md#classic-payouts: banker rank value exactly 0 or 6


class Bet(NamedTuple):
    """One player's total on one spot (chips added to a spot merge into one bet)."""

    id: str
    player: str
    spot: str
    amount: int

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "player": self.player, "spot": self.spot, "amount": self.amount}


class BetOutcome(NamedTuple):
    """How one bet settled. `multiple` is the 1x/2x of a position bet or the pair odds (0 on a
    tie or a lost pair bet); `rounding` is the unit (0 or 1) this bet sent to `rounding`."""

    bet: Bet
    taken: int
    returned: int
    outcome: str  # "win" | "lose" | "tie"
    multiple: int
    rounding: int

    @property
    def net(self) -> int:
        return self.returned - self.taken

    def to_json(self) -> dict[str, object]:
        bet = self.bet
        return {
            "id": bet.id,
            "player": bet.player,
            "spot": bet.spot,
            "amount": bet.amount,
            "taken": self.taken,
            "returned": self.returned,
            "net": self.returned - self.taken,
            "outcome": self.outcome,
            "multiple": self.multiple,
            "rounding": self.rounding,
        }


def classic_result(player: Hand, banker: Hand) -> tuple[str, int]:
    """Classic `Pn` against the banker: (outcome, multiple) from the player's side."""
    if player.rank > banker.rank:
        if not player.double:
            return "win", 1
        # docs/rules/pokdeng.md#classic-payouts: banker 0 or 6 caps a double win at 1:1, unless the player has 8 or 9.
        return "win", 1 if banker.rank in _NO_FULL_DOUBLE and player.rank < 80 else 2
    if player.rank < banker.rank:
        return (
            "lose",
            2 if banker.double else 1,
        )  # docs/rules/pokdeng.md#classic-payouts: banker double hand wins 2x
    return "tie", 0  # docs/rules/pokdeng.md#classic-payouts: tie returns the bet


def banker_player_result(mine: Hand, other: Hand) -> tuple[str, int]:
    """Banker-player `Pn` (mine = position n) or `Bn` (mine = the banker): (outcome, multiple).
    The winning hand being double makes it 2x both ways (docs/rules/pokdeng.md#banker-player-payouts Decision); no 0/6 rule."""
    if mine.rank > other.rank:
        return "win", 2 if mine.double else 1
    if mine.rank < other.rank:
        return "lose", 2 if other.double else 1
    return "tie", 0


def classic_position(amount: int, player: Hand, banker: Hand) -> tuple[int, str, int]:
    """Classic `Pn` bet of `amount` (taken 2·amount): (returned, outcome, multiple)."""
    outcome, multiple = classic_result(player, banker)
    sign = 1 if outcome == "win" else -1
    return 2 * amount + sign * multiple * amount, outcome, multiple


def banker_player_side(
    amount: int, mine: Hand, other: Hand, rates: tuple[Fraction, Fraction]
) -> tuple[int, str, int, int]:
    """Banker-player `Pn` / `Bn` bet of `amount` (taken 2·amount), `rates` = (0.95, 1.9):
    (returned, outcome, multiple, rounding unit)."""
    outcome, multiple = banker_player_result(mine, other)
    if outcome != "win":
        return 2 * amount - multiple * amount, outcome, multiple, 0
    win, rest = divmod(amount * rates[multiple - 1].numerator, rates[multiple - 1].denominator)
    return 2 * amount + win, outcome, multiple, 1 if rest else 0


class SpotRule(NamedTuple):
    """How every bet on one spot settles this round: a bet of a takes `hold`·a and returns
    `hold`·a + floor(a·num/den) — num/den is +multiple (classic, pair odds), the 0.95 / 1.9 rate
    (banker-player), 0 on a tie, or −multiple on a loss."""

    hold: int
    outcome: str
    multiple: int
    num: int
    den: int


def spot_rule(config: PokDengConfig, spot: str, hands: Mapping[str, Hand]) -> SpotRule:
    """The settlement rule of one spot for the dealt hands (docs/rules/pokdeng.md#payouts, both modes)."""
    kind, about = config.spots[spot]
    if kind == "pair":
        if hands[
            about
        ].pair:  # docs/rules/pokdeng.md#pair-bets: pair bet pays 11:1 on two cards of one rank
            return SpotRule(1, "win", config.pair_odds, config.pair_odds, 1)
        return SpotRule(1, "lose", 0, -1, 1)
    if config.mode == "classic":
        outcome, multiple = classic_result(hands[about], hands["B"])
        return SpotRule(2, outcome, multiple, multiple if outcome == "win" else -multiple, 1)
    if kind == "banker":
        outcome, multiple = banker_player_result(hands["B"], hands[about])
    else:
        outcome, multiple = banker_player_result(hands[about], hands["B"])
    if outcome == "win":
        num, den = config.rate_parts[multiple - 1]  # 0.95:1 or 1.9:1
        return SpotRule(2, outcome, multiple, num, den)
    return SpotRule(2, outcome, multiple, -multiple, 1)


def apply_rule(bet: Bet, rule: SpotRule) -> BetOutcome:
    """Settle one bet by its spot's rule. docs/rules/common.md#rounding Decision (rounding): a fractional win is
    rounded down and the cut sends one unit (between the player's and the house's floors) to
    `rounding`."""
    amount = bet.amount
    held = rule.hold * amount
    win, rest = divmod(amount * rule.num, rule.den)
    return BetOutcome(bet, held, held + win, rule.outcome, rule.multiple, 1 if rest else 0)


def settle_bet(config: PokDengConfig, bet: Bet, hands: Mapping[str, Hand]) -> BetOutcome:
    """Settle one bet against the dealt hands (`hands` has "P1"…"P5" and "B" as needed)."""
    return apply_rule(bet, spot_rule(config, bet.spot, hands))


# ----- the round's hot path: per-kind tables of spot rules --------------------------------------
# A spot's rule depends only on the (rank, double, pair) classes of its hand and the banker's, so
# for each table configuration the rules are tabulated once, from `spot_rule` itself.
RuleTable = list[list[SpotRule | None]]  # None: a class that no two cards make
_TABLES: dict[tuple[object, ...], dict[str, tuple[RuleTable, str]]] = {}
_LAST_CONFIG: list[Any] = [None, {}]  # [the config last asked for, its tables]


def rule_tables(config: PokDengConfig) -> dict[str, tuple[RuleTable, str]]:
    """spot → (rules indexed [its hand's klass][banker's klass], the hand it is about)."""
    if config is _LAST_CONFIG[0]:
        last: dict[str, tuple[RuleTable, str]] = _LAST_CONFIG[1]
        return last
    key = (config.mode, config.rate_parts, config.pair_odds)
    tables = _TABLES.get(key)
    if tables is None:
        by_kind: dict[tuple[str, bool], RuleTable] = {}
        tables = {}
        for spot, (kind, about) in config.spots.items():
            # "B pair" reads the banker's hand twice ([banker][banker]): its own table.
            shape = (kind, about == BANKER)
            if shape not in by_kind:
                table: RuleTable = [[None] * KLASS_COUNT for _ in range(KLASS_COUNT)]
                for k, hand in KLASSES.items():
                    for b, banker in KLASSES.items():
                        hands = {about: hand, BANKER: banker} if about != BANKER else {BANKER: hand}
                        table[k][b] = spot_rule(config, spot, hands)
                by_kind[shape] = table
            tables[spot] = (by_kind[shape], about)
        _TABLES[key] = tables
    _LAST_CONFIG[:] = [config, tables]  # configs are frozen: the same object, the same tables
    return tables


class Settlement:
    """The round's settlement: per-player nets, house, rounding; per-bet outcomes on demand.

    Bet `i` is `keys[i]` = (player, spot) with `amounts[i]`; `bet_nets[i]` is its net (cheap, for
    simulators). `bets` (the `Bet` tuples) and `outcomes()` (the full per-bet detail: taken /
    returned / net / outcome / multiple / rounding) are built only when asked for, from the same
    rule tables the nets came from."""

    __slots__ = (
        "_bets",
        "_klasses",
        "_tables",
        "amounts",
        "bet_nets",
        "house",
        "keys",
        "nets",
        "rounding",
    )

    def __init__(
        self,
        keys: Sequence[tuple[str, str]],
        amounts: Sequence[int],
        bet_nets: list[int],
        nets: dict[str, int],
        house: int,
        rounding: int,
        tables: dict[str, tuple[RuleTable, str]],
        klasses: Mapping[str, int],
        bets: tuple[Bet, ...] | None = None,
    ) -> None:
        self.keys = keys
        self.amounts = amounts
        self.bet_nets = bet_nets
        self.nets = nets  # player → net over all their bets
        self.house = house
        self.rounding = rounding
        self._tables = tables
        self._klasses = klasses
        self._bets = bets

    @property
    def bets(self) -> tuple[Bet, ...]:
        """The settled bets in order (a round's bet ids are `player:spot`)."""
        if self._bets is None:
            self._bets = tuple(
                Bet(f"{player}:{spot}", player, spot, amount)
                for (player, spot), amount in zip(self.keys, self.amounts, strict=True)
            )
        return self._bets

    @property
    def rules(self) -> tuple[SpotRule, ...]:
        """Each bet's spot rule (what `bet_nets` were computed with)."""
        klasses, tables = self._klasses, self._tables
        banker = klasses[BANKER]
        out = []
        for _, spot in self.keys:
            table, about = tables[spot]
            rule = table[klasses[about]][banker]
            assert rule is not None
            out.append(rule)
        return tuple(out)

    def outcomes(self) -> tuple[BetOutcome, ...]:
        return tuple(apply_rule(b, r) for b, r in zip(self.bets, self.rules, strict=True))

    def postings(self) -> tuple[Posting, ...]:
        """Each player's net, then the house, then rounding; they sum to zero."""
        out = [Posting(player, net, "pokdeng bets") for player, net in self.nets.items()]
        out.append(Posting(HOUSE, self.house, "pokdeng bets"))
        out.append(Posting(ROUNDING, self.rounding, "0.95x round-down"))
        return tuple(out)


def settle_placed(
    config: PokDengConfig,
    keys: Sequence[tuple[str, str]],
    amounts: Sequence[int],
    klasses: Mapping[str, int],
    bets: tuple[Bet, ...] | None = None,
) -> Settlement:
    """Settle bet `i` = (player, spot) `keys[i]` of `amounts[i]`, the hands being given by their
    classes (`klasses[name]` = `Hand.klass` of "P1"…"P5" and "B" as needed; `bets`, when given,
    are the `Bet`s the keys came from): player nets, house = −(nets + rounding), rounding units.
    Every bet goes through its spot's precomputed rule table (tabulated from `spot_rule`), so the
    result is `settle_bet`'s on each bet (tested)."""
    tables = rule_tables(config)
    banker = klasses[BANKER]
    bet_nets: list[int] = []
    append = bet_nets.append
    nets: dict[str, int] = {}
    rounding = 0
    last = None  # the player of the bets being summed into `net` (usually one player's run)
    net = 0
    for (player, spot), amount in zip(keys, amounts, strict=True):
        table, about = tables[spot]
        rule = table[klasses[about]][banker]
        assert rule is not None
        den = rule[4]  # SpotRule.den
        if den == 1:  # every rule but a banker-player 0.95 / 1.9 win: nothing to round
            win = amount * rule[3]  # SpotRule.num
        else:
            # docs/rules/common.md#rounding Decision (rounding): the win is rounded down; the unit between the
            # player's and the house's floors goes to `rounding`.
            win, rest = divmod(amount * rule[3], den)
            if rest:
                rounding += 1
        append(win)
        if player is not last:  # another player's bets begin: book the run that ended
            if last is not None:
                nets[last] = nets.get(last, 0) + net
            last, net = player, 0
        net += win
    if last is not None:
        nets[last] = nets.get(last, 0) + net
    house = -sum(nets.values()) - rounding
    return Settlement(keys, amounts, bet_nets, nets, house, rounding, tables, klasses, bets)


def settle_bets(
    config: PokDengConfig, bets: Iterable[Bet], hands: Mapping[str, Hand]
) -> Settlement:
    """Settle all bets of a round: player nets, house = −(nets + rounding), rounding units.
    Same results as `settle_bet` on each bet (tested), through the precomputed rule tables."""
    bets = tuple(bets)
    klasses = {name: hand.klass for name, hand in hands.items()}
    keys = tuple((bet.player, bet.spot) for bet in bets)
    return settle_placed(config, keys, tuple(bet.amount for bet in bets), klasses, bets)
