# ----- paigow: its deal (docs/fairness.md, "The games"), its description, its comparison ---
def paigow(key, inputs):
    seats = inputs["seats"]
    n = inputs.get("round", 1)
    order = Stream(key, "tiles").shuffle(tiles())
    mine = order[8 * (n - 1) : 8 * n]
    deal = {
        "game": "paigow",
        "tiles": order,
        "round": n,
        "round_tiles": mine,
        "banker": None,
        "banker_by": None,
        "dice": None,
        "first_seat": None,
        "deal_order": None,
        "hands": None,
    }
    bids = _zeros(inputs.get("bids"))
    if bids is None:
        return deal
    stacks = inputs.get("stacks") or {s: 0 for s in seats}
    banker, how = banker_from_bids(Stream(key, f"round{n}/banker"), seats, bids, stacks)
    dice_stream = Stream(key, f"round{n}/dice")
    dice = [1 + dice_stream.below(6), 1 + dice_stream.below(6)]
    first = (seats.index(banker) + dice[0] + dice[1] - 1) % 4
    deal_order = [seats[(first - k) % 4] for k in range(4)] * 2
    hands = {s: [] for s in seats}
    for seat, tile in zip(deal_order, mine, strict=False):
        hands[seat].append(tile)
    deal.update(
        banker=banker,
        banker_by=how,
        dice=dice,
        first_seat=seats[first],
        deal_order=deal_order,
        hands=hands,
    )
    return deal


def describe_paigow(deal):
    out = []
    out.append("tiles: " + " ".join(deal["tiles"]))
    if deal["hands"]:
        out.append(
            "banker {} ({}), dice {}, first seat {}".format(
                deal["banker"], deal["banker_by"], deal["dice"], deal["first_seat"]
            )
        )
        out += ["  {}: {}".format(s, " ".join(t)) for s, t in deal["hands"].items()]
    return out


def compare_paigow(deal, dealt, checks):
    compare_items(deal, dealt, checks, ["banker", "dice", "first_seat", "deal_order", "hands"])


GAMES["paigow"] = (paigow, describe_paigow, compare_paigow)
