"""An independent reading of docs/rules/pokdeng.md#payouts / pokdeng.zh.txt, written from the rule text's words
with card *strings* (never the engine's tables): the yardstick the engine is tested against."""

from __future__ import annotations

from decimal import ROUND_FLOOR, Decimal

RANKS = "23456789TJQKA"
SUITS = "cdhs"
ALL_CARDS = [r + s for r in RANKS for s in SUITS]  # the 52 faces

# 点数: A 到 9 以牌面作为其点数, 10, J, Q, K 则以 0 作计算.
FACE_POINTS = {"A": 1, **{str(n): n for n in range(2, 10)}, "T": 0, "J": 0, "Q": 0, "K": 0}
LETTERS = {"J", "Q", "K"}  # 牌面为英文字母 (the picture cards; A is not counted as one here)


def oracle_hand(c1: str, c2: str) -> dict[str, object]:
    """points, rank (text as in the source: "9", "7.4", "0"), suited, pair, double."""
    r1, s1, r2, s2 = c1[0], c1[1], c2[0], c2[1]
    points = (FACE_POINTS[r1] + FACE_POINTS[r2]) % 10
    suited = s1 == s2
    pair = r1 == r2
    specials = []
    # 1. 点数7.5, A和K 必须为同花。
    if {r1, r2} == {"A", "K"} and suited:
        specials.append("7.5")
    # 2. 只有对子A, 对子5, 对子6, 对子10 (不计花式) 算作特殊对子。
    if pair and r1 in {"A", "5", "6", "T"}:
        specials.append("7.4")
    # 3. 两张牌的牌面为英文字母 (不计花式和英文字母) 算作王公组合。
    if r1 in LETTERS and r2 in LETTERS:
        specials.append("7.3")
    # 4. 牌面10与任何英文字母配搭 (不计花式) 算作十公组合。
    if (r1 == "T" and r2 in LETTERS) or (r2 == "T" and r1 in LETTERS):
        specials.append("7.2")
    # 5. 两张牌为非英文字母, 牌面相加为0 并且同花式, 算作同花0点。
    if r1 not in LETTERS and r2 not in LETTERS and points == 0 and suited:
        specials.append("7.1")
    if points >= 8:  # 9 > 8 > 7.5 …: eight and nine outrank every special
        rank = str(points)
    elif specials:
        rank = max(specials, key=Decimal)
    else:
        rank = str(points)
    # 当赢家手牌是同花、对子、特殊牌型 …
    double = suited or pair or bool(specials and rank in specials)
    return {"points": points, "rank": rank, "suited": suited, "pair": pair, "double": double}


def rank_value(hand: dict[str, object]) -> Decimal:
    return Decimal(str(hand["rank"]))


def oracle_returned(mode: str, spot: str, amount: int, hands: dict[str, dict[str, object]]) -> int:
    """What a bet of `amount` on `spot` returns to the balance (stake + hold included)."""
    if spot.endswith("pair"):
        hand = hands[spot.split()[0]]
        return 12 * amount if hand["pair"] else 0  # 赢的赔率为11倍: 下注金额 + 11x
    position = "P" + spot[1]
    banker, player = hands["B"], hands[position]
    if spot.startswith("B"):  # banker-player Bn: the banker's side
        mine, other = banker, player
    else:
        mine, other = player, banker
    held = 2 * amount  # 扣除200 (预扣)
    if rank_value(mine) == rank_value(other):
        return held  # 和局, 退还
    if rank_value(mine) > rank_value(other):
        winner_double = bool(mine["double"])
        if mode == "classic":
            times = 2 if winner_double else 1
            # a) 若庄的点数总和为0或6时, 赔率则为1赔1; b) 闲为8点或9点时不受a限制.
            banker_zero_or_six = rank_value(other) in (Decimal(0), Decimal(6))
            if times == 2 and banker_zero_or_six and rank_value(mine) not in (8, 9):
                times = 1
            return held + times * amount
        rate = Decimal("1.9") if winner_double else Decimal("0.95")
        return held + int((amount * rate).to_integral_value(rounding=ROUND_FLOOR))
    times = 2 if other["double"] else 1  # the winner's double hand costs the loser 2x
    return held - times * amount


def allowed_returns(mode: str, spot: str, amount: int) -> set[int]:
    """Every `returned` docs/rules/pokdeng.md#payouts allows for a bet, whatever the cards."""
    a = amount
    if spot.endswith("pair"):
        return {12 * a, 0}
    if mode == "classic":
        return {3 * a, 4 * a, 2 * a, a, 0}
    win1 = int((a * Decimal("0.95")).to_integral_value(rounding=ROUND_FLOOR))
    win2 = int((a * Decimal("1.9")).to_integral_value(rounding=ROUND_FLOOR))
    return {2 * a + win1, 2 * a + win2, 2 * a, a, 0}
