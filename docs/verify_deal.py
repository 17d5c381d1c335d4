#!/usr/bin/env python3
"""Recompute a qipai deal from its revealed seed — an independent verifier (deal-spec/1).

This file needs nothing but Python 3.10+ and its standard library; it imports nothing of qipai.
It is written from docs/fairness.md, and each step names the section it follows.

    python3 verify_deal.py ROUND.json            # the body of GET /api/rounds/{id}, saved
    python3 verify_deal.py ROUND.json --seed HEX # the seed revealed later (a Pok Deng shoe ended)
    python3 verify_deal.py - --json < ROUND.json # machine-readable output

It prints the deal card by card (tile by tile), compares it with what the table dealt, checks
the seed against the commitment published before the deal and, for Tien Gow, the openings of
the tiles you were shown against the root published at the start. Exit status: 0 when every
check passes, 1 when one fails, 2 when the input cannot be read.
"""

import hashlib
import hmac
import json
import sys

DEAL_SPEC = "deal-spec/1"
FORMAT = "qipai-round/1"


# ----- §Stream: HMAC-SHA256 in counter mode, one labelled stream per draw ---------------------
class Stream:
    """Block i of the stream `label` under `key` is HMAC-SHA256(key, label ‖ 0x00 ‖ i as 8
    bytes big-endian); the stream is the blocks' bytes in order, each byte used once."""

    def __init__(self, key, label):
        self.key = key
        self.label = label.encode("utf-8")
        self.counter = 0
        self.pending = b""

    def next_bytes(self, n):
        while len(self.pending) < n:
            message = self.label + b"\x00" + self.counter.to_bytes(8, "big")
            self.pending += hmac.new(self.key, message, hashlib.sha256).digest()
            self.counter += 1
        out, self.pending = self.pending[:n], self.pending[n:]
        return out

    def below(self, n):
        """§Integers: uniform in [0, n). Take the fewest whole bytes holding n − 1, read them
        big-endian, keep the low bit_length(n − 1) bits; retry while the value is ≥ n."""
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        width = (bits + 7) // 8
        while True:
            value = int.from_bytes(self.next_bytes(width), "big") & ((1 << bits) - 1)
            if value < n:
                return value

    def shuffle(self, items):
        """§Shuffle: Fisher–Yates from the end: for i = n−1 down to 1, j = below(i + 1), swap."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def choice(self, items):
        return items[self.below(len(items))]

    def weighted(self, items, weights):
        """§Banker draws: point = below(sum of weights); the first item whose running total
        exceeds point. All weights zero: a uniform choice."""
        total = sum(weights)
        if total == 0:
            return self.choice(items)
        point = self.below(total)
        for item, weight in zip(items, weights, strict=False):
            if point < weight:
                return item
            point -= weight
        raise AssertionError("unreachable")


# ----- §Keys ---------------------------------------------------------------------------------
def unit_key(server_seed, client_seeds):
    """No client seeds: the key is the server seed. Otherwise HMAC-SHA256(server seed,
    "deal-spec/1" ‖ 0x00 ‖ for each seat in byte order of its id: len(seat) ‖ seat ‖
    len(client seed) ‖ client seed), each length one byte, the texts ASCII."""
    if not client_seeds:
        return server_seed
    message = DEAL_SPEC.encode("ascii") + b"\x00"
    for seat in sorted(client_seeds, key=lambda s: s.encode("ascii")):
        for text in (seat, client_seeds[seat]):
            raw = text.encode("ascii")
            message += bytes([len(raw)]) + raw
    return hmac.new(server_seed, message, hashlib.sha256).digest()


# ----- §Starting orders ----------------------------------------------------------------------
RANKS = "23456789TJQKA"
SUITS = "cdhs"
TILE_KINDS = [  # highest first, with the number of copies in the set
    ("6-6", 2),
    ("1-1", 2),
    ("4-4", 2),
    ("1-3", 2),
    ("5-5", 2),
    ("3-3", 2),
    ("2-2", 2),
    ("5-6", 2),
    ("4-6", 2),
    ("1-6", 2),
    ("1-5", 2),
    ("3-6", 1),
    ("4-5", 1),
    ("2-6", 1),
    ("3-5", 1),
    ("2-5", 1),
    ("3-4", 1),
    ("1-4", 1),
    ("2-3", 1),
    ("2-4", 1),
    ("1-2", 1),
]


def cards(decks=1):
    """2c 2d 2h 2s 3c … As, `decks` times."""
    return [rank + suit for rank in RANKS for suit in SUITS] * decks


def tiles():
    return [tile for tile, copies in TILE_KINDS for _ in range(copies)]


def banker_from_bids(stream, seats, bids, stacks):
    """§Banker draws: the highest bid banks; nobody bid: choice(seats); a tie: the tied seats
    in seat order, weighted by their stacks."""
    top = max(bids[s] for s in seats)
    if top == 0:
        return stream.choice(seats), "nobody-bid"
    tied = [s for s in seats if bids[s] == top]
    if len(tied) == 1:
        return tied[0], "highest-bid"
    return stream.weighted(tied, [stacks[s] for s in tied]), "tie"


def _zeros(values):
    return None if values is None else {s: (v or 0) for s, v in values.items()}


# ----- §Tien Gow commitments -----------------------------------------------------------------
def tile_leaf(position, tile, salt):
    return hashlib.sha256(
        b"tiengow-tile\x00" + bytes([position]) + tile.encode("ascii") + salt
    ).digest()


def tiles_root(leaves):
    return hashlib.sha256(b"tiengow-root\x00" + b"".join(leaves)).digest()


def check_tiles(block, deal, checks):
    leaves = [bytes.fromhex(x) for x in block.get("leaves") or []]
    root = block.get("root") or ""
    checks.append(
        (
            "tile leaves hash to the root",
            len(leaves) == 32 and tiles_root(leaves).hex() == root.lower(),
            root,
        )
    )
    if block.get("published_root") is not None:
        checks.append(
            (
                "root is the one published at the start",
                block["published_root"] == root,
                block["published_root"],
            )
        )
    for opening in block.get("openings") or []:
        p, tile = opening["position"], opening["tile"]
        ok = (
            0 <= p < 32
            and len(leaves) == 32
            and tile_leaf(p, tile, bytes.fromhex(opening["salt"])) == leaves[p]
        )
        checks.append((f"tile {p} opens as {tile}", ok, ""))
    if deal is not None:
        checks.append(("root is the deal's", deal["tiles_root"] == root, root))


# ----- comparing with what the table dealt ---------------------------------------------------
def compare_items(deal, dealt, checks, names):
    for name in names:
        if name not in dealt:
            continue
        if isinstance(dealt[name], dict):
            for part, shown in dealt[name].items():
                checks.append(
                    (
                        f"{name} {part} as dealt",
                        shown == (deal[name] or {}).get(part),
                        " ".join(shown),
                    )
                )
        else:
            checks.append((f"{name} as dealt", dealt[name] == deal[name], str(dealt[name])))


# game → (deal, describe, compare); each game's section below adds its own
GAMES = {}


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


# ----- verifying an export ------------------------------------------------------------------
def verify(export, seed_hex=None):
    """(deal or None, [(check, ok, detail)], [text lines]) for one round export."""
    if not isinstance(export, dict):
        raise ValueError("not a round export: expected a JSON object")
    if export.get("format") != FORMAT and isinstance(export.get("fairness"), dict):
        export = export["fairness"]
    if export.get("format") != FORMAT:
        raise ValueError(f"not a round export (format {FORMAT!r} expected)")
    if export.get("deal_spec", DEAL_SPEC) != DEAL_SPEC:
        raise ValueError(
            "dealt under {!r}; this verifier knows {}".format(export["deal_spec"], DEAL_SPEC)
        )
    game = export["game"]
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    lines = [
        "round {} ({}, {}) under {}".format(
            export.get("round_id"), game, export.get("status"), DEAL_SPEC
        )
    ]
    checks = []
    deal = None
    seed_hex = seed_hex or export.get("seed")
    if seed_hex:
        seed = bytes.fromhex(seed_hex)
        digest = hashlib.sha256(seed).hexdigest()
        checks.append(
            (
                "seed matches commitment",
                digest == (export.get("commitment") or "").lower(),
                "sha256(seed) = " + digest,
            )
        )
        client_seeds = export.get("client_seeds") or {}
        key = unit_key(seed, client_seeds)
        lines.append("key: " + (key.hex() if client_seeds else "the server seed (no client seeds)"))
        make, describe, compare = GAMES[game]
        deal = make(key, export["inputs"])
        lines += describe(deal)
        if isinstance(export.get("dealt"), dict):
            compare(deal, export["dealt"], checks)
    else:
        lines.append("no seed: it is not revealed (or stays with the operator, Tien Gow)")
    if isinstance(export.get("tiles"), dict):
        check_tiles(export["tiles"], deal, checks)
    if not checks:
        checks.append(("something to check", False, "no seed and no tile openings"))
    return deal, checks, lines


def main(argv):
    args = list(argv)
    as_json = "--json" in args
    if as_json:
        args.remove("--json")
    seed = None
    if "--seed" in args:
        i = args.index("--seed")
        seed = args[i + 1] if i + 1 < len(args) else ""
        del args[i : i + 2]
    if len(args) != 1:
        print(
            __doc__.strip().splitlines()[0]
            + "\nusage: verify_deal.py FILE|- [--seed HEX] [--json]",
            file=sys.stderr,
        )
        return 2
    try:
        if args[0] == "-":
            text = sys.stdin.read()
        else:
            with open(args[0], encoding="utf-8") as handle:
                text = handle.read()
        deal, checks, lines = verify(json.loads(text), seed)
    except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    ok = all(c[1] for c in checks)
    if as_json:
        print(
            json.dumps(
                {
                    "ok": ok,
                    "deal": deal,
                    "checks": [{"check": n, "ok": k, "detail": d} for n, k, d in checks],
                }
            )
        )
    else:
        print("\n".join(lines))
        for name, passed, detail in checks:
            print(
                "{} {}{}".format(
                    "ok  " if passed else "FAIL", name, (": " + detail) if detail else ""
                )
            )
        print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
