"""The ``bst`` command (``python -m bot`` is the same).

Subcommands: ``run`` (the hosted bot), ``demo`` (a whole game with simulated
players), ``play`` (the console), ``script`` (play a script, write a record),
``export`` (a game's record), ``verify`` (a record's luck and receipts), ``check-config``, ``migrate`` and
``discord sync``. Exit codes: 0 done, 1 failed while running, 2 bad input
(a config, a script, an argument).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path

from bot import __version__
from bot.config import Config, ConfigError, load_config, missing_secrets, redacted_url
from bot.logs import quiet_libraries


def _fail(message: str, code: int = 2) -> int:
    print(f"bst: {message}", file=sys.stderr)
    return code


def _load(path: str | None) -> Config:
    if path is None and Path("config.toml").exists():
        path = "config.toml"
    return load_config(path)


def cmd_check_config(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.file)
    except ConfigError as error:
        return _fail(str(error))
    missing = missing_secrets(config)
    if missing:
        return _fail(f"{args.file}: " + "; ".join(missing))
    platforms = ", ".join(config.enabled_platforms) or "none (the console runs)"
    try:
        database = redacted_url(config.database_url())
    except ConfigError as error:
        return _fail(str(error))
    print(f"{args.file}: OK. Database {database}; platforms enabled: {platforms}.")
    if args.online:
        return _check_online(config)
    return 0


def _check_online(config: Config) -> int:
    """Ask each enabled platform whether it will take the bot: the token and keys, the
    intents, the permissions, the reads. 0 when all is well, 2 when something must be
    fixed first (each line says what)."""
    from bot import platforms

    fine: list[str] = []
    wrong: list[str] = []

    async def ask() -> None:
        for declared in platforms.platforms():
            section = config.section(declared.name)
            if not section.enabled or declared.check_online is None:
                continue
            found = await declared.check_online(section)
            fine.extend(found[0])
            wrong.extend(found[1])

    asyncio.run(ask())
    for line in fine:
        print(f"  ok: {line}")
    for line in wrong:
        print(f"bst: {line}", file=sys.stderr)
    if not config.enabled_platforms:
        print("  (no platform is enabled: nothing to ask online)")
    return 2 if wrong else 0


def cmd_migrate(args: argparse.Namespace) -> int:
    from bot.store import Store
    from bot.store.database import SchemaTooNew, head_revision

    try:
        url = _load(args.config).database_url()
    except ConfigError as error:
        return _fail(str(error))
    where = redacted_url(url)
    store = Store(url, auto_migrate=False)
    try:
        done = store.migrate()
    except SchemaTooNew as error:
        return _fail(f"{where}: {error}", code=1)
    finally:
        store.dispose()
    if not done:
        print(f"{where}: up to date (revision {head_revision()})")
        return 0
    print(f"{where}: migrated to revision {head_revision()}:")
    for step in done:
        print(f"  {step}")
    return 0


def cmd_script(args: argparse.Namespace) -> int:
    from bot.adapters.script_adapter import ScriptError
    from bot.cli.script import run_script

    path = Path(args.file)
    if not path.exists():
        return _fail(f"{path}: no such script")
    try:
        config = _load(args.config) if args.config else None
    except ConfigError as error:
        return _fail(str(error))
    if args.database:
        from bot.config import _check_url

        try:
            _check_url(args.database, "--database")
        except ConfigError as error:
            return _fail(str(error))
    try:
        asyncio.run(
            run_script(
                path,
                record_path=Path(args.record) if args.record else None,
                out_dir=Path(args.out) if args.out else None,
                database_url=args.database,
                config=config,
            )
        )
    except ScriptError as error:
        return _fail(str(error))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Exit 0 when everything it could check matches, 1 at the first mismatch (named),
    2 for a file that is not a record."""
    from bot.cli.verify import BadRecord, Mismatch, read_record, verify, verify_path

    if args.path is not None or args.root is not None:
        if not (args.receipt and args.path is not None and args.root):
            return _fail(
                "a path is checked with its receipt and its turn's root: "
                "bst verify --receipt HEX --path R0a1b…,L2c3d… --root HEX"
            )
        try:
            verify_path(args.receipt, args.path, args.root, print)
        except Mismatch as error:
            return _fail(f"MISMATCH: {error}", code=1)
        if args.record is None:
            return 0
    if args.record is None:
        return _fail("say which record to check: bst verify RECORD.json [--receipt HEX]")
    try:
        verify(read_record(args.record), print, args.receipt or "")
    except BadRecord as error:
        return _fail(f"{args.record}: not a record bst can check: {error}")
    except Mismatch as error:
        return _fail(f"MISMATCH: {error}", code=1)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from bot.host.play.record import RecordError, game_record
    from bot.store import Store

    try:
        url = _load(args.config).database_url()
    except ConfigError as error:
        return _fail(str(error))
    import bot.games.catalog  # noqa: F401  (registers every game, whichever the record is of)

    try:
        game_id = int(str(args.game).lstrip("#"))
    except ValueError:
        return _fail(f"expected a game number such as 3, got {args.game!r}")
    where = redacted_url(url)
    if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).exists():
        return _fail(f"no database at {where}: name yours with --config (its [database] url)")
    store = Store(url)
    try:
        record = game_record(store, game_id)
    except RecordError as error:
        return _fail(f"{error} in {where}")
    text = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote the record of game {game_id} to {args.out}")
    else:
        sys.stdout.write(text)
    return 0


def _command(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser], name: str, summary: str
) -> argparse.ArgumentParser:
    """A subcommand whose one-line summary is both its entry in ``bst --help`` and the
    description at the top of its own ``--help``."""
    return subparsers.add_parser(name, help=summary, description=summary)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def cmd_demo(args: argparse.Namespace) -> int:
    from bot.cli import crowd_demo
    from bot.cli.demo import run_demo

    if crowd_demo.wanted(args):
        return crowd_demo.run_crowd_demo(args)
    return run_demo(args)


def cmd_play(args: argparse.Namespace) -> int:
    from bot.cli.play import run_play

    return run_play(args)


def cmd_run(args: argparse.Namespace) -> int:
    from bot.cli.run import run_hosted

    try:
        config = _load(args.config)
    except ConfigError as error:
        return _fail(str(error))
    missing = missing_secrets(config)
    if missing:
        return _fail(f"{config.source}: " + "; ".join(missing))
    return run_hosted(config, args)


def cmd_web(args: argparse.Namespace) -> int:
    from bot.cli.web import run_web

    try:
        config = _load(args.config)
        if args.database:
            from bot.config import _check_url

            _check_url(args.database, "--database")
    except ConfigError as error:
        return _fail(str(error))
    if args.port is not None and not 0 <= args.port <= 65535:
        return _fail(f"--port: expected 0 to 65535 (e.g. 8080), got {args.port}")
    return run_web(config, args)


def cmd_discord_sync(args: argparse.Namespace) -> int:
    from bot.cli.run import sync_discord

    try:
        config = _load(args.config)
    except ConfigError as error:
        return _fail(str(error))
    return sync_discord(config, args.guild)


def build_parser() -> argparse.ArgumentParser:
    from bot.games.catalog import game_names, games

    kinds = ", ".join(game_names())
    parser = argparse.ArgumentParser(
        prog="bst",
        description=(
            "Host hidden-information naval games on Discord, X or your terminal: "
            + ", ".join(f"{game.name} ({game.title})" for game in games())
            + "."
        ),
    )
    parser.add_argument("--version", action="version", version=f"bst {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log more")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = _command(sub, "run", "run the bot (Discord/X from config; the console if none)")
    run.add_argument("--config", help="config file (default: ./config.toml if present)")
    run.set_defaults(func=cmd_run)

    demo = _command(sub, "demo", "play a whole game with simulated players, no tokens")
    demo.add_argument("--game", default="bst", help=f"which game: {kinds}")
    demo.add_argument(
        "--players",
        type=int,
        default=None,
        help="players (default: as many as the game's robots play best)",
    )
    demo.add_argument(
        "--size", default=None, help="board size, where the game has one (default: the game's)"
    )
    demo.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    demo.add_argument(
        "--turn", default=None, help="turn length, where the game has one (default: the game's)"
    )
    demo.add_argument("--out", default="bst-demo", help="output folder (default ./bst-demo)")
    demo.add_argument(
        "--follow", default=None, help="player whose DMs are written (default: the first)"
    )
    demo.add_argument(
        "--turns",
        type=int,
        default=None,
        help=(
            "bst: play only this many turns as a crowd, timing each phase (the default, 3, "
            "for more than 100 --players)"
        ),
    )
    demo.set_defaults(func=cmd_demo)

    play = _command(sub, "play", "play by hand in the terminal, speaking as any player")
    play.add_argument("--game", default="bst", help=f"which game: {kinds}")
    play.add_argument(
        "--size", default=None, help="board size, where the game has one (default: the game's)"
    )
    play.add_argument(
        "--robots",
        default=None,
        help="robots seated as the game opens: N or N:LEVEL, e.g. 2 or 2:strong",
    )
    play.add_argument("--out", default="bst-console", help="folder for images")
    play.add_argument("--database", default=None, help="SQLite file (default: a fresh one)")
    play.set_defaults(func=cmd_play)

    script = _command(sub, "script", "play a script file and write the game record")
    script.add_argument("file", help="the script (see the README: @game, NAME public: TEXT, …)")
    script.add_argument("--record", help="write the record JSON here")
    script.add_argument("--out", help="folder for images and videos (default: a temp folder)")
    script.add_argument(
        "--database",
        help="keep the game in this database, e.g. sqlite:///games.db, beside the games "
        "there (default: a temporary one); `bst web --database` serves it",
    )
    script.add_argument(
        "--config",
        help="the settings a hosted bot would have, as `bst run --config` takes them (e.g. "
        "[web] base_url for the players' private links); its database is not used",
    )
    script.set_defaults(func=cmd_script)

    web = _command(sub, "web", "serve the games' web page: spectators, history, private links")
    web.add_argument("--config", help="config file (default: ./config.toml if present)")
    web.add_argument(
        "--database", help="database URL, e.g. sqlite:///bst.db (default: the config's)"
    )
    web.add_argument("--host", help="address to listen on (default: [web] host, 127.0.0.1)")
    web.add_argument("--port", type=int, help="port (default: [web] port, 8080)")
    web.set_defaults(func=cmd_web)

    export = _command(sub, "export", "write the record of a game as JSON")
    export.add_argument("game", help="game number")
    export.add_argument("--out", help="file (default: standard output)")
    export.add_argument("--config", help="config file (for the database URL)")
    export.set_defaults(func=cmd_export)

    check_record = _command(sub, "verify", "check a finished game's luck and receipts")
    check_record.add_argument(
        "record", nargs="?", help="the game's record, e.g. record.json (not needed for --path)"
    )
    check_record.add_argument("--receipt", help="your receipt (at least its first 8 hex digits)")
    check_record.add_argument(
        "--path", help="your receipt's path to its turn's root, as your DM gives it"
    )
    check_record.add_argument("--root", help="the turn's root, as its public post gives it")
    check_record.set_defaults(func=cmd_verify)

    check = _command(sub, "check-config", "check a config file")
    check.add_argument("file", help="the config file, e.g. config.toml")
    check.add_argument(
        "--online",
        action="store_true",
        help="also ask each enabled platform: token and keys, intents, permissions, reads",
    )
    check.set_defaults(func=cmd_check_config)

    migrate = _command(sub, "migrate", "create or upgrade the database schema")
    migrate.add_argument("--config", help="config file (for the database URL)")
    migrate.set_defaults(func=cmd_migrate)

    discord = _command(sub, "discord", "Discord tools")
    discord_sub = discord.add_subparsers(dest="discord_command", metavar="ACTION")
    sync = _command(discord_sub, "sync", "register every game's slash commands with Discord")
    sync.add_argument("--guild", type=int, default=None, help="only this server (instant)")
    sync.add_argument("--config", help="config file")
    sync.set_defaults(func=cmd_discord_sync)
    discord.set_defaults(func=lambda _args: _usage(discord))
    return parser


def _unreachable_database(error: Exception) -> str:
    """The words for a database that does not answer ("" when the error is something
    else): a server that is down or a wrong host is the host's to fix, not a bug to report.
    The driver's own first line says why (refused, timed out, no such host) and never
    holds the password."""
    from bot.store.database import unreachable_reason

    reason = unreachable_reason(error)
    if reason is None:
        return ""
    return (
        f"bst: cannot reach the database ({reason}). Check that the server is running and "
        "the [database] url in your config, e.g. postgresql://bst@db.example:5432/bst."
    )


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    quiet_libraries()  # -v: our DEBUG, never the platform libraries' (boards, tokens)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        unreachable = _unreachable_database(error)
        if unreachable:
            print(unreachable, file=sys.stderr)
            return 1
        # A crash is a bug: say so plainly; the traceback is for -v and bug reports.
        if args.verbose:
            raise
        print(
            f"bst: unexpected error ({type(error).__name__}: {str(error).splitlines()[0][:200]}). "
            "Run again with -v for details, and please report it.",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
