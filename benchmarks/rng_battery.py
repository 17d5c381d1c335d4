"""The RNG battery: qipai's deal stream and its scaled outputs through Debian's `dieharder`.

    uv run python benchmarks/rng_battery.py [--report FILE] [--multiplier 0.1] [--seed TEXT]
                                            [--streams raw,cards,dice,bids] [--quick]
                                            [--tests 0,15,100]

Needs `dieharder` on PATH (`apt-get install -y dieharder`). Four bit streams, each made by the
code the games deal with (`qipai.core.rng.Rng`), one key per deal unit as at a table:

* `raw` — the HMAC-SHA256 counter stream itself (`Rng(key, "battery/raw").next_bytes`), one key
  per MiB.
* `cards` — card positions: one Pok Deng shoe per key, the 416 positions shuffled by
  `Rng(key).fork("shoe").shuffle` (the engine's own fast Fisher–Yates, which every game's deck
  and tile set uses; 1- and 2-byte draws). A uniformly random permutation's Lehmer code (digit
  i = how many later cards are lower than card i) has independent digits, digit i uniform in
  [0, 416 − i); a digit d of radix r gives floor(log2 r) bits when d < 2^floor(log2 r) (else
  none). A bias in any card's position shows as a bias in these bits.
* `dice` — `Rng(key).fork("round1/dice")` draws `1 + randbelow(6)` (4096 per key); twelve dice
  make a base-6 number, which gives 31 bits when below 2^31.
* `bids` — banker draws: `Rng(key).fork("round1/banker").randbelow(total)` for the totals a
  draw uses (4 or 5 seats when nobody bids; the tied stacks' sums 125,000 and 7,654,321 for a
  tie), 4096 per key; a point p < 2^floor(log2 total) gives floor(log2 total) bits.

`dice` and `bids` draw through an exact vectorised equivalent of `randbelow` (the same bytes,
masks and rejections); the script checks it against `Rng.dice`/`Rng.randbelow` before it starts.
Each dieharder test reads fresh data (its own keys) from stdin (`-g 200`), with psamples scaled
by `--multiplier` (`-m`) and ambiguous (WEAK) results resolved by dieharder's own re-test
(`-Y 1`). The report (default `benchmarks/results/rng_battery.txt`) lists every result line and a
summary, with the run's wall and CPU time and the machine's load average.

`rgb_minimum_distance` (`-d 201`) is left out: in dieharder 3.31.1 it fails /dev/urandom as
well. `sts_serial` (`-d 102`) runs only with `--multiplier` 1 or more: at 10 psamples (`-m 0.1`)
its p-values are not uniform (up to 2^16 patterns over 100,000 bits), and it fails
/dev/urandom too (`dieharder -g 501 -d 102 -m 0.1 -Y 1`: FAILED in 2 of 3 runs here). `diehard_sums` (`-d 14`, "Do Not Use") too.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from qipai.core.rng import Rng

ALL_TESTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 100, 101, 102]
ALL_TESTS += [200, 202, 203, 204, 205, 206, 207, 208, 209]
# The scaled streams are slower to make (a shoe or 4096 draws per key, ~1–3 MB/s): they run
# the tests needing at most ~60 MB at -m 0.1 (frequencies, serial patterns, ranks, permutations,
# gaps, runs, sums); the raw stream runs every test but the two left out below.
SCALED_TESTS = [0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 15, 16, 100, 101, 102, 202, 203, 204, 206]
# Card positions come slowest (~1 MB/s of CPU: a 416-card shoe and its Lehmer code per key):
# the tests needing at most ~30 MB at -m 0.1.
CARDS_TESTS = [0, 3, 4, 8, 10, 11, 12, 15, 100, 101, 102, 202, 204]
QUICK_TESTS = [0, 3, 4, 15, 100, 101, 102, 202, 204]
BID_TOTALS = (4, 5, 125_000, 7_654_321)
STS_SERIAL = 102  # needs -m 1 or more (module docstring)
RESULT = re.compile(r"^\s*(\w+)\|\s*(\d+)\|\s*(\d+)\|\s*(\d+)\|([0-9.]+)\|\s*(\w+)")


def unit_keys(seed: bytes, stream: str, test: int) -> Iterator[bytes]:
    """Key u of a stream for a test: SHA-256("rng-battery" ‖ seed ‖ stream ‖ test ‖ u)."""
    u = 0
    while True:
        yield hashlib.sha256(
            b"rng-battery\x00%s\x00%s\x00%d\x00%d" % (seed, stream.encode(), test, u)
        ).digest()
        u += 1


def _draws(rng: Rng, total: int, count: int) -> np.ndarray:
    """`count` successive `rng.randbelow(total)` values, vectorised (total < 2^32): draws of
    `width` bytes big-endian, masked to bit_length(total − 1) bits, rejected while ≥ total."""
    bits = (total - 1).bit_length()
    width = (bits + 7) // 8
    out: list[np.ndarray] = []
    got = 0
    while got < count:
        need = count - got
        accept = total / (1 << bits)
        raw = np.frombuffer(rng.next_bytes(width * int(need / accept * 1.05 + 16)), dtype=np.uint8)
        groups = raw.reshape(-1, width).astype(np.uint64)
        values = np.zeros(len(groups), dtype=np.uint64)
        for k in range(width):
            values = (values << np.uint64(8)) | groups[:, k]
        values &= np.uint64((1 << bits) - 1)
        kept = values[values < total]
        if len(kept) > need:
            # Stop where the reference would: the rest of the bytes read stays unused (the next
            # call reads a fresh stream anyway), so only the values matter.
            kept = kept[:need]
        out.append(kept)
        got += len(kept)
    return np.concatenate(out)


def check_vectorised() -> None:
    """The vectorised draws are exactly `Rng.dice` / `Rng.randbelow` (refuse to run if not)."""
    key = hashlib.sha256(b"rng-battery self-check").digest()
    dice = _draws(Rng(key).fork("round1/dice"), 6, 3000) + 1
    ref = Rng(key).fork("round1/dice")
    assert [int(d) for d in dice] == [v for _ in range(1500) for v in ref.dice(2)]
    for total in BID_TOTALS:
        got = _draws(Rng(key).fork("round1/banker"), total, 2000)
        ref = Rng(key).fork("round1/banker")
        assert [int(v) for v in got] == [ref.randbelow(total) for _ in range(2000)], total


def _bits_of(values: np.ndarray, nbits: int) -> np.ndarray:
    """The low `nbits` bits of each value, most significant first, as a 0/1 array."""
    shifts = np.arange(nbits - 1, -1, -1, dtype=np.uint64)
    return ((values[:, None] >> shifts) & np.uint64(1)).astype(np.uint8).ravel()


def raw_stream(keys: Iterator[bytes]) -> Iterator[bytes]:
    for key in keys:
        yield Rng(key, "battery/raw").next_bytes(1 << 20)


def cards_stream(keys: Iterator[bytes], batch: int = 64, n: int = 416) -> Iterator[bytes]:
    radix = n - np.arange(n)  # Lehmer digit i has radix n − i
    m = np.floor(np.log2(radix)).astype(np.int64)
    width = int(m.max())
    shifts = np.arange(width - 1, -1, -1)
    later = np.triu(np.ones((n, n), bool), 1)
    carry = np.zeros(0, dtype=np.uint8)
    while True:
        perms = np.empty((batch, n), dtype=np.int16)
        for row in range(batch):
            positions = list(range(n))  # the shoe's card ids are shuffled the same way
            Rng(next(keys)).fork("shoe").shuffle(positions)
            perms[row] = positions
        lower_later = perms[:, :, None] > perms[:, None, :]
        lower_later &= later
        lehmer = lower_later.view(np.uint8).sum(axis=2, dtype=np.int64)
        accepted = lehmer < (1 << m)
        bits = (lehmer[:, :, None] >> shifts) & 1  # (batch, n, width), most significant first
        valid = accepted[:, :, None] & (shifts[None, None, :] < m[None, :, None])
        stream = np.concatenate([carry, bits[valid].astype(np.uint8)])
        whole = len(stream) // 8 * 8
        carry = stream[whole:]
        yield np.packbits(stream[:whole]).tobytes()


def dice_stream(keys: Iterator[bytes]) -> Iterator[bytes]:
    carry = np.zeros(0, dtype=np.uint8)
    powers = 6 ** np.arange(11, -1, -1, dtype=np.uint64)
    while True:
        chunks = [_draws(Rng(next(keys)).fork("round1/dice"), 6, 4092) for _ in range(64)]
        values = np.concatenate(chunks).reshape(-1, 12)
        number = (values * powers).sum(axis=1)
        kept = number[number < (1 << 31)]
        stream = np.concatenate([carry, _bits_of(kept, 31)])
        whole = len(stream) // 8 * 8
        carry = stream[whole:]
        yield np.packbits(stream[:whole]).tobytes()


def bids_stream(keys: Iterator[bytes]) -> Iterator[bytes]:
    carry = np.zeros(0, dtype=np.uint8)
    turn = 0
    while True:
        total = BID_TOTALS[turn % len(BID_TOTALS)]
        turn += 1
        m = total.bit_length() - 1  # floor(log2 total)
        parts = []
        for _ in range(16):
            points = _draws(Rng(next(keys)).fork("round1/banker"), total, 4096)
            parts.append(_bits_of(points[points < (1 << m)], m))
        stream = np.concatenate([carry, *parts])
        whole = len(stream) // 8 * 8
        carry = stream[whole:]
        yield np.packbits(stream[:whole]).tobytes()


STREAMS: dict[str, Callable[[Iterator[bytes]], Iterator[bytes]]] = {
    "raw": raw_stream,
    "cards": cards_stream,
    "dice": dice_stream,
    "bids": bids_stream,
}


def run_test(stream: str, test: int, seed: bytes, multiplier: float) -> tuple[list[str], int]:
    """One dieharder test on fresh data of `stream`; (its result lines, bytes it read)."""
    proc = subprocess.Popen(
        ["dieharder", "-g", "200", "-d", str(test), "-m", str(multiplier), "-Y", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    sent = [0]

    def feed() -> None:
        assert proc.stdin is not None
        try:
            for chunk in STREAMS[stream](unit_keys(seed, stream, test)):
                proc.stdin.write(chunk)
                sent[0] += len(chunk)
        except (BrokenPipeError, ValueError, OSError):
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    assert proc.stdout is not None
    out = proc.stdout.read()  # not communicate(): that would close dieharder's stdin
    proc.wait()
    writer.join(timeout=60)
    lines = [line for line in out.decode(errors="replace").splitlines() if RESULT.match(line)]
    return lines, sent[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", default="benchmarks/results/rng_battery.txt")
    parser.add_argument("--multiplier", type=float, default=0.1, help="dieharder -m (psamples)")
    parser.add_argument("--seed", default="qipai rng battery 1")
    parser.add_argument("--streams", default="raw,cards,dice,bids")
    parser.add_argument("--quick", action="store_true", help="a few small tests per stream")
    parser.add_argument(
        "--tests", default="", help="dieharder test numbers (-d), comma-separated: these only"
    )
    args = parser.parse_args(argv)
    if shutil.which("dieharder") is None:
        print("error: dieharder is not installed (apt-get install -y dieharder)", file=sys.stderr)
        return 2
    check_vectorised()
    version = subprocess.run(["dieharder", "-l"], capture_output=True, text=True).stdout
    version_line = next((ln for ln in version.splitlines() if "version" in ln), "").strip("#= ")
    seed = args.seed.encode()
    started, cpu0 = time.time(), time.process_time()
    load0 = os.getloadavg()
    lines: list[str] = []
    summary: dict[str, dict[str, int]] = {}
    for stream in args.streams.split(","):
        tests = {"raw": ALL_TESTS, "cards": CARDS_TESTS}.get(stream, SCALED_TESTS)
        if args.quick:
            tests = QUICK_TESTS
        if args.tests:
            tests = [int(t) for t in args.tests.split(",")]
        elif args.multiplier < 1:
            tests = [t for t in tests if t != STS_SERIAL]
        lines.append(f"## stream {stream}")
        counts = summary.setdefault(stream, {"PASSED": 0, "WEAK": 0, "FAILED": 0, "MB": 0})
        for test in tests:
            t0 = time.time()
            results, sent = run_test(stream, test, seed, args.multiplier)
            counts["MB"] += sent >> 20
            for line in results:
                verdict = RESULT.match(line)
                assert verdict is not None
                counts[verdict.group(6)] = counts.get(verdict.group(6), 0) + 1
                lines.append(line)
            note = f"#   -d {test}: {len(results)} result(s), {sent / 2**20:.0f} MiB, {time.time() - t0:.0f} s"
            lines.append(note)
            print(note.replace("#   ", f"{stream}: "), flush=True)
    wall, cpu = time.time() - started, time.process_time() - cpu0
    head = [
        "# qipai RNG battery (benchmarks/rng_battery.py)",
        f"# {version_line}; python {platform.python_version()}; {platform.machine()}",
        f"# seed {args.seed!r}, -m {args.multiplier}, -Y 1 (WEAK results re-tested)",
        f"# wall {wall:.0f} s, this process's CPU {cpu:.0f} s (dieharder's own CPU not counted);"
        f" load average at start {load0[0]:.1f}, at end {os.getloadavg()[0]:.1f}",
        "# summary: "
        + "; ".join(
            f"{s}: {c['PASSED']} passed, {c['WEAK']} weak, {c['FAILED']} failed ({c['MB']} MiB)"
            for s, c in summary.items()
        ),
        "#",
        "#            test_name   |ntup| tsamples |psamples|  p-value |Assessment",
    ]
    report = Path(args.report)
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text("\n".join(head + lines) + "\n", encoding="utf-8")
    print("\n".join(head[:5]))
    print(f"report: {report}")
    failed = sum(c["FAILED"] for c in summary.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
