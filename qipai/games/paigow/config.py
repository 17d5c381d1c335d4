"""Table settings for bid-for-banker Pai Gow (抢庄牌九), with the docs/rules/paigow.md#table-settings defaults, validated.

Every point docs/rules/paigow.md#decisions marks as a Decision that another casino could choose otherwise is a
setting here: the tie policy, the reading of 天高九/地高九, the bid and bet multiples.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from qipai.core.model import Amount, Commission, Model, Multiples, WholeSeconds
from qipai.core.money import to_rate

TiePolicy = Literal["banker", "push"]
HighNine = Literal["any-seven", "named"]
TIE_POLICIES: tuple[TiePolicy, ...] = ("banker", "push")
HIGH_NINES: tuple[HighNine, ...] = ("any-seven", "named")
SEATS = 4  # docs/rules/paigow.md#bidding: 4 seats, 8 tiles a round, two rounds from one set of 32
# docs/rules/paigow.md#bidding: nobody bids → a random seat banks at multiple 1.
NO_BID_MULTIPLE = 1


class PaigowConfig(Model):
    """One table's settings.

    * `base` — A of the settlement formula, in minor units.
    * `commission` — 抽水 on each participant's net win, a decimal string in [0, 1) (docs/rules/paigow.md#equal-hands:
      5 %).
    * `tie_policy` — docs/rules/paigow.md#equal-hands Decision: equal hands (same named hand, both 0 points, or equal
      points with equal tiles) go to the banker (`banker`) or are a push (`push`).
    * `high_nine` — docs/rules/paigow.md#high-nine Decision: 天高九/地高九 take any 7-point tile (`any-seven`), or only
      the forms the source's text names, 天 + 二五 and 地 + 高脚七 (`named`).
    * `bid_choices` — banker bids besides "none" (0); docs/rules/paigow.md#bidding Decision: 1–4.
    * `bet_choices` — players' bet multiples; docs/rules/paigow.md#betting Decision: 1–5 (silence = the lowest).
      Multiples are distinct, increasing, 1–10.
    * `bid_seconds`, `bet_seconds`, `reveal_seconds` — the countdowns (3–120 s).
    """

    base: Amount = 100
    commission: Commission = "0.05"
    tie_policy: TiePolicy = "banker"
    high_nine: HighNine = "any-seven"
    bid_choices: Multiples = (1, 2, 3, 4)
    bet_choices: Multiples = (1, 2, 3, 4, 5)
    bid_seconds: WholeSeconds = 8
    bet_seconds: WholeSeconds = 12
    reveal_seconds: WholeSeconds = 3

    @property
    def commission_rate(self) -> Fraction:
        return to_rate(self.commission)
