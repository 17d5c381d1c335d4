# ----- highcard: one shuffle dealt from its end, then a card to each seat that switched -------
def highcard(key, inputs):
    seats = inputs["seats"]
    order = Stream(key, "deck").shuffle(cards())
    deck = list(order)
    hands = {}
    for seat in seats:
        hands[seat] = deck.pop()
    for seat in seats:
        if seat in (inputs.get("switched") or []):
            hands[seat] = deck.pop()
    return {"game": "highcard", "deck": order, "cards": hands}


def describe_highcard(deal):
    return ["deck: " + " ".join(deal["deck"])] + [
        f"  {seat}: {card}" for seat, card in deal["cards"].items()
    ]


def compare_highcard(deal, dealt, checks):
    expected = {"cards": {s: [c] for s, c in deal["cards"].items()}}
    compare_items(expected, dealt, checks, ["cards"])


GAMES["highcard"] = (highcard, describe_highcard, compare_highcard)
