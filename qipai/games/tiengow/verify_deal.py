# ----- tiengow: its deal (docs/fairness.md, "The games"), its description, its comparison ---
def tiengow(key, inputs):
    seats = inputs["seats"]
    banker = inputs.get("banker")
    how = "previous-game"
    if banker is None:
        banker, how = Stream(key, "banker").choice(seats), "random"
    order = Stream(key, "deal").shuffle(tiles())
    start = seats.index(banker)
    turn = seats[start:] + seats[:start]  # counter-clockwise from the banker
    hands = {s: [] for s in seats}
    for batch in range(8):
        hands[turn[batch % 4]] += order[4 * batch : 4 * batch + 4]
    salts = Stream(key, "salts")
    leaves = [tile_leaf(i, order[i], salts.next_bytes(32)) for i in range(32)]
    return {
        "game": "tiengow",
        "tiles": order,
        "banker": banker,
        "banker_by": how,
        "hands": hands,
        "tiles_root": tiles_root(leaves).hex(),
    }


def describe_tiengow(deal):
    out = []
    out.append("tiles: " + " ".join(deal["tiles"]))
    out.append("banker {} ({})".format(deal["banker"], deal["banker_by"]))
    out += ["  {}: {}".format(s, " ".join(t)) for s, t in deal["hands"].items()]
    out.append("tile root: " + deal["tiles_root"])
    return out


def compare_tiengow(deal, dealt, checks):
    compare_items(deal, dealt, checks, ["banker", "hands"])


GAMES["tiengow"] = (tiengow, describe_tiengow, compare_tiengow)
