"""The `qipai` command line: serve, settle, advise, rtp, simulate, verify, audit, operator.

Each command is a thin shell around a pure function elsewhere; heavy modules are imported inside
the command so that `qipai --help` stays fast.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from qipai import __version__
from qipai.core.errors import GameError, InvalidInput

app = typer.Typer(
    name="qipai",
    help="qipai: rules engine, card room and exact analysis for Pok Deng, Pai Gow, "
    "Texas Hold'em Bonus, Swap Niu Niu and Tien Gow.",
    no_args_is_help=True,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"qipai {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """qipai command line."""


def fail(message: str, code: int = 2) -> NoReturn:
    """One-line error on stderr and a non-zero exit (2 = bad input)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def read_json_input(source: str) -> Any:
    """Read a JSON document from a file path or `-` (stdin); bad JSON is a one-line error."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read {source}: {exc.strerror}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"invalid JSON in {source}: {exc.msg} at line {exc.lineno} column {exc.colno}")


def print_json(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


@app.command()
def settle(
    source: Annotated[str, typer.Argument(help="A JSON file describing one dealt round, or -")],
) -> None:
    """Settle one dealt round from JSON and print the result as JSON (audit and disputes)."""
    from qipai.games import settle_document

    doc = read_json_input(source)
    try:
        result = settle_document(doc)
    except GameError as exc:
        fail(exc.message)
    print_json(result)


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Interface to listen on [127.0.0.1].")] = None,
    port: Annotated[int | None, typer.Option(help="TCP port [8000].")] = None,
    db: Annotated[
        str | None, typer.Option(help="SQLite file or database URL (default: user data dir).")
    ] = None,
    log_level: Annotated[
        str | None, typer.Option(help="critical, error, warning, info or debug [info].")
    ] = None,
    bot_delay: Annotated[float | None, typer.Option(help="Seconds a bot thinks [0.9].")] = None,
    between_rounds: Annotated[
        float | None, typer.Option(help="Seconds between two rounds [5].")
    ] = None,
    countdown_scale: Annotated[
        float | None, typer.Option(help="Factor on every countdown [1].")
    ] = None,
    session_idle_s: Annotated[
        float | None, typer.Option(help="A sign-in unused this long expires [43200].")
    ] = None,
    session_max_s: Annotated[
        float | None, typer.Option(help="A sign-in expires this long after it began [604800].")
    ] = None,
    demo: Annotated[
        bool | None,
        typer.Option("--demo/--no-demo", help="Play-money deposits; off: operators approve [on]."),
    ] = None,
    processes: Annotated[
        int,
        typer.Option(
            min=1, max=64, help="Table hosts behind the address (PostgreSQL and Redis) [1]."
        ),
    ] = 1,
    redis: Annotated[
        str | None,
        typer.Option(
            help="Redis URL joining the processes into one room "
            "[with --processes > 1: redis://127.0.0.1:6379/0]."
        ),
    ] = None,
) -> None:
    """Start the card room: server, browser client and bots.

    Every setting can also come from the environment as QIPAI_<NAME> (e.g. QIPAI_PORT,
    QIPAI_DATABASE_URL, QIPAI_LOGIN_RATE; all of them in qipai/server/settings.py); a flag
    overrides the environment."""
    from pydantic import ValidationError

    from qipai.server import Settings, run

    flags: dict[str, Any] = {
        "host": host,
        "port": port,
        "database_url": db,
        "log_level": log_level,
        "bot_delay": bot_delay,
        "between_rounds": between_rounds,
        "countdown_scale": countdown_scale,
        "session_idle_s": session_idle_s,
        "session_max_s": session_max_s,
    }
    if demo is not None:
        flags["authority"] = {"demo": demo}
    try:
        settings = Settings(**{k: v for k, v in flags.items() if v is not None})
    except ValidationError as exc:
        first = exc.errors()[0]
        name = ".".join(str(p) for p in first["loc"])
        fail(f"setting {name}: {first['msg']}")
    if processes > 1 or redis is not None or settings.cluster.redis_url is not None:
        settings = _cluster_settings(settings, processes, redis)
    if processes > 1:
        from qipai.cluster import launcher

        _print_address(settings, f", {processes} table hosts")
        launcher.run(settings, processes)
        return
    run(settings)


def _cluster_settings(settings: Any, processes: int, redis: str | None) -> Any:
    """Settings of a table host of a room of several processes: PostgreSQL and Redis
    (refused on SQLite: two processes on one file would run the same tables twice)."""
    from sqlalchemy.engine import make_url

    from qipai.ledger.db import resolve_url

    url = resolve_url(settings.database_url)
    if make_url(url).get_backend_name() != "postgresql":
        fail(
            "more than one process (--processes, --redis) needs PostgreSQL "
            "(--db postgresql+psycopg://…): SQLite is served by one process alone"
        )
    redis_url = redis or settings.cluster.redis_url or "redis://127.0.0.1:6379/0"
    try:
        import redis as redis_mod

        redis_mod.Redis.from_url(redis_url, socket_connect_timeout=3).ping()
    except Exception as exc:
        fail(f"Redis at {redis_url} does not answer: {exc}")
    cluster = settings.cluster.model_copy(update={"redis_url": redis_url})
    if processes == 1 and cluster.advertise is None:
        from qipai.cluster.launcher import advertised

        cluster = cluster.model_copy(update={"advertise": advertised(settings.host, settings.port)})
    return settings.model_copy(update={"cluster": cluster})


def _print_address(settings: Any, extra: str = "") -> None:
    from sqlalchemy.engine import make_url

    from qipai.ledger.db import resolve_url

    shown = "localhost" if settings.host in ("127.0.0.1", "0.0.0.0", "::") else settings.host
    url = make_url(resolve_url(settings.database_url)).render_as_string(hide_password=True)
    print(f"qipai card room: http://{shown}:{settings.port}/  (database: {url}{extra})", flush=True)


@app.command()
def rtp(
    game: Annotated[str, typer.Argument(help="A registered game's name (e.g. niuniu).")],
    mode: Annotated[
        str | None, typer.Option(help="A mode or rule variant of the game (default: all).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print markdown (default).")] = True,
) -> None:
    """Exact return to player, house edge, outcome probabilities and sd of every bet."""
    from qipai.analysis.report import render
    from qipai.analysis.rtp import reports

    try:
        found = reports(game, mode)
    except GameError as exc:
        fail(exc.message)
    typer.echo(render(found, "json" if as_json else "markdown"))


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="A registered game's name (e.g. niuniu).")],
    rounds: Annotated[int, typer.Option(help="Rounds to play.")] = 10_000,
    seed: Annotated[int, typer.Option(help="Seed of the simulation (reproducible).")] = 1,
    mode: Annotated[str | None, typer.Option(help="A mode of the game.")] = None,
    workers: Annotated[
        int | None,
        typer.Option(help="Processes (default: every core; the result does not depend on it)."),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(help="The room's bot level for every seat, or one per seat comma-separated."),
    ] = None,
    settings: Annotated[
        Path | None,
        typer.Option(
            help='JSON file of table settings, or a template ({"game": …, "settings": {…}}).'
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Play N rounds through the real round engine with bots; observed return ± 95 % CI."""
    from qipai.analysis.simulate import SimulationOptions, render_simulation, simulate_game

    try:
        table: dict[str, Any] = {}
        if settings is not None:
            table = _json_object(settings)
            if "settings" in table:  # a template
                if table.get("game", game) != game:
                    raise InvalidInput(f"{settings} is a template of {table.get('game')!r}")
                table = table["settings"]
                if not isinstance(table, dict):
                    raise InvalidInput(f"{settings}: a template's 'settings' is an object")
        options = SimulationOptions(tuple(bots.split(",")) if bots else (), table)
        result = simulate_game(game, rounds, seed, mode, workers, options)
    except GameError as exc:
        fail(exc.message)
    typer.echo(render_simulation(result, "json" if as_json else "markdown"))


@app.command()
def verify(
    round_id: Annotated[
        str | None, typer.Argument(help="The round's id (from the journal or history).")
    ] = None,
    offline: Annotated[
        str | None,
        typer.Option(
            "--offline",
            metavar="FILE",
            help="Check a round exported by the API (GET /api/rounds/{id}; - = stdin) "
            "without the database.",
        ),
    ] = None,
    db: Annotated[
        str | None, typer.Option(help="SQLite file or database URL (default: user data dir).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Recompute a round's deal from its seed (docs/fairness.md) and print it card by card.

    With ROUND_ID (operators, with the database) the journal is also replayed: seed vs
    commitment, deal, result and money. With --offline FILE anyone checks an exported round."""
    from qipai.fairness.command import verify_offline_command, verify_round_command

    if (round_id is None) == (offline is None):
        fail("give a ROUND_ID or --offline FILE (one of them)")
    if offline is not None:
        text, code = verify_offline_command(offline, as_json)
    else:
        assert round_id is not None
        text, code = verify_round_command(round_id, db, as_json)
    typer.echo(text, err=code == 2)
    raise typer.Exit(code)


@app.command()
def audit(
    db: Annotated[
        str | None, typer.Option(help="SQLite file or database URL (default: user data dir).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    replay: Annotated[bool, typer.Option(help="Replay every settled round.")] = True,
    heads: Annotated[
        bool, typer.Option("--heads", help="Print each chain's head (keep it to check later).")
    ] = False,
    expect_heads: Annotated[
        str | None,
        typer.Option(help="A file of heads printed earlier by --heads: each must still be there."),
    ] = None,
    app_role: Annotated[
        str | None,
        typer.Option(help="PostgreSQL: the card room's role to check (default: this one)."),
    ] = None,
) -> None:
    """Check the ledger's invariants and recompute its MAC chains; exits 1 on any violation."""
    from qipai.ledger.commands import audit_command

    text, code = audit_command(
        db, as_json, replay, heads=heads, expect_heads=expect_heads, app_role=app_role
    )
    typer.echo(text, err=code == 2)
    raise typer.Exit(code)


operator_app = typer.Typer(
    help="Operator accounts of the back office (password + TOTP; see docs/protocol.md).",
    no_args_is_help=True,
)
app.add_typer(operator_app, name="operator")

DbOption = Annotated[
    str | None, typer.Option(help="SQLite file or database URL (default: user data dir).")
]


def _operators(db: str | None) -> Any:
    from qipai.authority import Authority
    from qipai.ledger import Ledger

    ledger = Ledger.open(db)
    return ledger, Authority(ledger.engine, ledger=ledger).operators


@operator_app.command("add")
def operator_add(
    name: Annotated[str, typer.Argument(help="Sign-in name: lowercase letters, digits, _ . -")],
    role: Annotated[
        str,
        typer.Option(
            help="supervisor (runs the room), cashier, floor, finance or auditor (reads only); "
            "docs/operators.md §2."
        ),
    ] = "supervisor",
    db: DbOption = None,
) -> None:
    """Create an operator and print a one-time password (changed at first sign-in, when the
    operator also enrols a TOTP authenticator)."""
    from qipai.authority.errors import AuthorityError

    ledger, ops = _operators(db)
    try:
        password = ops.add(name, role)
    except AuthorityError as exc:
        fail(exc.message)
    finally:
        ledger.close()
    typer.echo(f"operator {name} ({role}) created; one-time password:\n{password}")


@operator_app.command("reset")
def operator_reset(
    name: Annotated[str, typer.Argument(help="The operator.")],
    reason: Annotated[str, typer.Option(help="Why (written to the operator log).")] = "",
    db: DbOption = None,
) -> None:
    """A new one-time password and a new TOTP enrolment (a lost authenticator)."""
    from qipai.authority.errors import AuthorityError
    from qipai.authority.oplog import CLI

    ledger, ops = _operators(db)
    try:
        password = ops.reset(name, CLI, reason)
    except AuthorityError as exc:
        fail(exc.message)
    finally:
        ledger.close()
    typer.echo(f"operator {name} reset; one-time password:\n{password}")


@operator_app.command("disable")
def operator_disable(
    name: Annotated[str, typer.Argument(help="The operator.")],
    reason: Annotated[str, typer.Option(help="Why (written to the operator log).")] = "",
    enable: Annotated[bool, typer.Option("--enable", help="Enable it again instead.")] = False,
    db: DbOption = None,
) -> None:
    """Disable an operator (every session ends) or enable it again."""
    from qipai.authority.errors import AuthorityError
    from qipai.authority.oplog import CLI

    ledger, ops = _operators(db)
    try:
        ops.set_disabled(name, not enable, CLI, reason)
    except AuthorityError as exc:
        fail(exc.message)
    finally:
        ledger.close()
    typer.echo(f"operator {name} {'enabled' if enable else 'disabled'}")


@operator_app.command("list")
def operator_list(
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Every operator: role, TOTP, whether the one-time password is still to change."""
    ledger, ops = _operators(db)
    try:
        rows = ops.all()
    finally:
        ledger.close()
    if as_json:
        print_json(rows)
        return
    for r in rows:
        flags = [
            "totp" if r["totp_enabled"] else "no totp yet",
            *(["must change password"] if r["must_change_password"] else []),
            *(["disabled"] if r["disabled"] else []),
            *(["locked"] if r["locked"] else []),
        ]
        typer.echo(f"{r['name']:<20} {r['role']:<9} {', '.join(flags)}")


@app.command()
def schema(
    write: Annotated[bool, typer.Option("--write", help="Write the schemas.")] = False,
    check: Annotated[bool, typer.Option("--check", help="Fail if any is out of date.")] = False,
    directory: Annotated[Path, typer.Option("--dir", help="Where they live.")] = Path(
        "docs/schema"
    ),
) -> None:
    """JSON Schemas of every game's actions, settings and views (docs/schema/)."""
    from qipai.core import schema as schemas

    if write:
        names = schemas.write(directory)
        typer.echo(f"wrote {len(names)} schemas to {directory}")
    elif check:
        problems = schemas.check(directory)
        if problems:
            for problem in problems:
                typer.echo(f"error: {problem} (run `uv run qipai schema --write`)", err=True)
            raise typer.Exit(1)
        typer.echo(f"{directory}: every schema is current")
    else:
        typer.echo("\n".join(f"{name}.json" for name in schemas.sources()))


@app.command()
def docs(
    write: Annotated[bool, typer.Option("--write", help="Write the generated files.")] = False,
    check: Annotated[bool, typer.Option("--check", help="Fail if any is out of date.")] = False,
) -> None:
    """Files written from the package: docs/verify_deal.py (the standalone verifier, from
    qipai/fairness/standalone/ and each game's verify_deal.py) and docs/players.md (the player's
    guide, from qipai/server/guide/)."""
    from qipai.fairness import verify_script
    from qipai.server import player_guide

    generated = [
        (verify_script.SCRIPT, verify_script.write, verify_script.stale),
        (player_guide.DOCS_PAGE, player_guide.write, player_guide.stale),
    ]
    if write:
        for path, write_file, _ in generated:
            changed = write_file(path)
            typer.echo(f"{'wrote' if changed else 'unchanged:'} {path}")
    elif check:
        stale = [path for path, _, is_stale in generated if is_stale(path)]
        for path in stale:
            typer.echo(f"error: {path} is out of date (run `uv run qipai docs --write`)", err=True)
        if stale:
            raise typer.Exit(1)
        for path, _, _ in generated:
            typer.echo(f"{path}: current")
    else:
        for path, _, _ in generated:
            typer.echo(str(path))


@app.command()
def migrate(
    db: Annotated[
        str | None, typer.Option(help="SQLite file or database URL (default: user data dir).")
    ] = None,
    app_role: Annotated[
        str | None,
        typer.Option(help="PostgreSQL: the card room's role to grant its privileges to."),
    ] = None,
) -> None:
    """Bring the ledger's database to the latest schema (as its owner) and seal older records
    into their chains; the card room then runs as `--app-role` (see docs/ledger.md)."""
    from qipai.ledger.commands import migrate_command

    text, code = migrate_command(db, app_role)
    typer.echo(text, err=code == 2)
    raise typer.Exit(code)


@app.command()
def par(
    target: Annotated[
        str,
        typer.Argument(
            help="A registered game (qipai --help lists them in rtp) or a template JSON "
            'file ({"game": …, "settings": {…}}, as the back office lists it)'
        ),
    ],
    settings: Annotated[
        Path | None,
        typer.Option(
            help="JSON file of table settings, plus the game's PAR-only options "
            "(GameSpec.par_options, e.g. Niu Niu's multipliers and stack_units)."
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="JSON with exact integer ratios.")
    ] = False,
    markdown: Annotated[bool, typer.Option("--markdown", help="Markdown (the default).")] = False,
    as_html: Annotated[bool, typer.Option("--html", help="A printable HTML page.")] = False,
) -> None:
    """The PAR sheet of a game or template: per bet the exact outcome table, RTP, hit
    frequency, sd, volatility index and return ranges; the house's hold. Each game's sheet
    comes from its folder (GameSpec.par); a game without one says which games have one."""
    from qipai.analysis.par import par_for, render

    if sum((as_json, markdown, as_html)) > 1:
        fail("choose one of --json, --markdown, --html")
    try:
        game, data = _par_target(target)
        if settings is not None:
            data |= _json_object(settings)
        sheet = par_for(game, data)
    except GameError as exc:
        fail(exc.message)
    typer.echo(render(sheet, "json" if as_json else "html" if as_html else "markdown"))


def _json_object(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInput(f"cannot read {path}: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidInput(f"{path} does not hold a JSON object")
    return data


def _par_target(target: str) -> tuple[str, dict[str, Any]]:
    """(game, settings) from a game name or a template JSON file."""
    path = Path(target)
    if not target.endswith(".json"):
        return target, {}
    doc = _json_object(path)
    game, data = doc.get("game"), doc.get("settings", {})
    if not isinstance(game, str) or not isinstance(data, dict):
        raise InvalidInput(f"{path}: a template has a 'game' name and a 'settings' object")
    return game, dict(data)


@app.command()
def advise(
    game: Annotated[str, typer.Argument(help="A game with an advisor (GameSpec.advise).")],
    cards: Annotated[
        list[str] | None,
        typer.Argument(
            help="Your cards or tiles, e.g. As Kd 5c 6h or '10♠ K♦ 5♣ 6♥' (Pai Gow: tiles shown)"
        ),
    ] = None,
    seen: Annotated[str, typer.Option(help="Other cards you can see (out of the deck).")] = "",
    board: Annotated[str, typer.Option(help="Hold'em Bonus: the board cards shown (3 or 4).")] = "",
    mode: Annotated[
        str | None,
        typer.Option(help="holdem-bonus: source|common rule; pokdeng: classic|banker-player."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON: numbers, and exact ratios as integers.")
    ] = False,
) -> None:
    """Best decision for a hand: Niu Niu's 16 swaps ranked by expected money against the
    banker; Hold'em Bonus play/fold, bet/check with both exact EVs; Pai Gow's expectation for
    the coming round; Pok Deng's bets by exact return. Each game's advisor is in its folder
    (GameSpec.advise); a game without one says which games have one."""
    from qipai.analysis.advise import advise as run

    try:
        text = run(game, " ".join(cards or []), seen, board, mode, as_json)
    except GameError as exc:
        fail(exc.message)
    typer.echo(text)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
