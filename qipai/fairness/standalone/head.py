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
