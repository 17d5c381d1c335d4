# ----- niuniu: its deal (docs/fairness.md, "The games"), its description, its comparison ---
def niuniu(key, inputs):
    seats = inputs["seats"]
    n = len(seats)
    deck = Stream(key, "deck").shuffle(cards())
    deal = {
        "game": "niuniu",
        "deck": deck,
        "initial": {s: [deck[k * n + i] for k in range(4)] for i, s in enumerate(seats)},
        "received": None,
        "fifth": None,
        "banker": None,
        "banker_by": None,
    }
    swaps = _zeros(inputs.get("swaps"))
    if swaps is not None:
        top = 4 * n
        deal["received"] = {}
        for seat in seats:
            deal["received"][seat] = deck[top : top + swaps[seat]]
            top += swaps[seat]
        deal["fifth"] = {s: deck[top + i] for i, s in enumerate(seats)}
    bids = _zeros(inputs.get("bids"))
    if bids is not None:
        stacks = inputs.get("stacks") or {s: 0 for s in seats}
        banker, how = banker_from_bids(Stream(key, "banker"), seats, bids, stacks)
        deal["banker"] = banker
        deal["banker_by"] = {"nobody-bid": "random", "highest-bid": "bid", "tie": "tie"}[how]
    return deal


def describe_niuniu(deal):
    out = []
    out.append("deck: " + " ".join(deal["deck"]))
    for seat, c in deal["initial"].items():
        extra = ""
        if deal["received"] is not None:
            extra = " | in: {} | fifth: {}".format(
                " ".join(deal["received"][seat]), deal["fifth"][seat]
            )
        out.append("  {}: {}{}".format(seat, " ".join(c), extra))
    if deal["banker"]:
        out.append("banker {} ({})".format(deal["banker"], deal["banker_by"]))
    return out


def compare_niuniu(deal, dealt, checks):
    checks.append(("banker as chosen", dealt.get("banker") == deal["banker"], deal["banker"]))
    for seat, first4 in deal["initial"].items():
        hand = (dealt.get("hands") or {}).get(seat) or []
        swapped = [hand[i] for i in range(min(4, len(hand))) if hand[i] != first4[i]]
        ok = (
            len(hand) == 5
            and hand[4] == (deal["fifth"] or {}).get(seat)
            and swapped == (deal["received"] or {}).get(seat)
        )
        checks.append((f"{seat}'s hand as dealt", ok, " ".join(hand)))


GAMES["niuniu"] = (niuniu, describe_niuniu, compare_niuniu)
