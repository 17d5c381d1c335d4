# ----- sangong: its deal (docs/fairness.md, "The games"), its description, its comparison ---
def sangong(key, inputs):
    """One shuffle of the 52 cards by `deck`; the banker from the bids (`banker`); one card at
    a time, three passes, clockwise from the seat after the banker."""
    seats = inputs["seats"]
    deck = Stream(key, "deck").shuffle(cards())
    deal = {
        "game": "sangong",
        "deck": deck,
        "banker": None,
        "banker_by": None,
        "deal_order": None,
        "hands": None,
    }
    bids = _zeros(inputs.get("bids"))
    if bids is None:
        return deal
    stacks = inputs.get("stacks") or {s: 0 for s in seats}
    banker, how = banker_from_bids(Stream(key, "banker"), seats, bids, stacks)
    start = seats.index(banker) + 1
    order = seats[start:] + seats[:start]
    n = len(order)
    deal["banker"] = banker
    deal["banker_by"] = {"nobody-bid": "random", "highest-bid": "bid", "tie": "tie"}[how]
    deal["deal_order"] = order
    deal["hands"] = {s: [deck[p * n + i] for p in range(3)] for i, s in enumerate(order)}
    return deal


def describe_sangong(deal):
    out = ["deck: " + " ".join(deal["deck"])]
    if deal["hands"]:
        out.append(
            "banker {} ({}), dealt from {}".format(
                deal["banker"], deal["banker_by"], deal["deal_order"][0]
            )
        )
        out += ["  {}: {}".format(s, " ".join(c)) for s, c in deal["hands"].items()]
    return out


def compare_sangong(deal, dealt, checks):
    compare_items(deal, dealt, checks, ["banker", "deal_order", "hands"])


GAMES["sangong"] = (sangong, describe_sangong, compare_sangong)
