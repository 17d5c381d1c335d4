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
