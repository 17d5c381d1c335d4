# ----- holdem-bonus: its deal (docs/fairness.md, "The games"), its description, its comparison ---
def holdem(key, inputs):
    deck = Stream(key, "deck").shuffle(cards())
    deal = {"game": "holdem-bonus", "deck": deck, "boxes": None, "dealer": None, "board": None}
    boxes = inputs.get("boxes")
    if boxes is None:
        return deal
    deal["boxes"] = {}
    if not boxes:
        return deal
    n = len(boxes)
    deal["boxes"] = {box: [deck[i], deck[n + 1 + i]] for i, box in enumerate(boxes)}
    deal["dealer"] = [deck[n], deck[2 * n + 1]]
    deal["board"] = deck[2 * n + 2 : 2 * n + 7]
    return deal


def describe_holdem(deal):
    out = []
    out.append("deck: " + " ".join(deal["deck"]))
    for box, c in (deal["boxes"] or {}).items():
        out.append("  box {}: {}".format(box, " ".join(c)))
    if deal["dealer"]:
        out.append(
            "  dealer: {}  board: {}".format(" ".join(deal["dealer"]), " ".join(deal["board"]))
        )
    return out


def compare_holdem(deal, dealt, checks):
    compare_items(deal, dealt, checks, ["boxes", "dealer", "board"])


GAMES["holdem-bonus"] = (holdem, describe_holdem, compare_holdem)
