# ----- pokdeng: its deal (docs/fairness.md, "The games"), its description, its comparison ---
def pokdeng(key, inputs):
    decks = inputs.get("decks", 8)
    lo, hi = inputs.get("cut_behind", [52, 104])
    position = inputs.get("position", 0)
    shoe = Stream(key, "shoe").shuffle(cards(decks))
    behind = lo + Stream(key, "cut").below(hi - lo + 1)
    cut_index = len(shoe) - behind
    dealt = shoe[position + 1 : position + 13]  # card `position` is burned
    spots = ["P1", "P2", "P3", "P4", "P5", "B"]
    return {
        "game": "pokdeng",
        "shoe": shoe,
        "behind_cut": behind,
        "cut_index": cut_index,
        "position": position,
        "burn": shoe[position],
        "hands": {spot: [dealt[i], dealt[i + 6]] for i, spot in enumerate(spots)},
        "last_round": position + 13 > cut_index,
    }


def describe_pokdeng(deal):
    out = []
    out.append(
        f"shoe: {len(deal['shoe'])} cards, {deal['behind_cut']} behind the cut card"
        f" (before index {deal['cut_index']})"
    )
    out.append(f"position {deal['position']}: burn {deal['burn']}")
    out += ["  {}: {}".format(spot, " ".join(c)) for spot, c in deal["hands"].items()]
    return out


def compare_pokdeng(deal, dealt, checks):
    compare_items(deal, dealt, checks, ["hands"])


GAMES["pokdeng"] = (pokdeng, describe_pokdeng, compare_pokdeng)
