"""``bst demo [--game KIND]``: a whole game with simulated players, through the real host.

A fresh SQLite file, the same commands, turn clock (on a virtual clock),
outbox and relay as in production, and the files adapter writing every public
post and the followed player's DMs into ``--out``. Nothing is special-cased:
the players send text orders like people and the host answers them.

Every game declares its simulated player on its game value (``robot``, a
``bot.games.base.Robot``), which sees only what its player sees: one path for every game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from bot.adapters.files_adapter import PLATFORM, FilesAdapter
from bot.config import Config
from bot.games.base import Game, GameError, GamePhase, Robot
from bot.games.catalog import get_game
from bot.games.duration import parse_duration
from bot.host.commands.inbox import Outcome
from bot.host.messages import Inbound, InboundKind, Sender
from bot.host.outbox import posts
from bot.host.play.record import game_record
from bot.host.runtime.clock import VirtualClock, to_datetime
from bot.store import Store, loads, records
from bot.wiring import build_host, no_network, sqlite_url

NAMES = [
    "ahab",
    "nemo",
    "hornblower",
    "aubrey",
    "bligh",
    "drake",
    "raleigh",
    "frobisher",
    "nelson",
    "jones",
    "cook",
    "queequeg",
    "starbuck",
    "flint",
    "sparrow",
    "kidd",
    "morgan",
    "barbossa",
    "haddock",
    "picard",
    "janeway",
    "kirk",
    "sisko",
    "archer",
]
CHANNEL = "demo"
MAX_TURNS = 250
MAX_STEPS = 3000
"""A robots' game stops after this many rounds of orders (each game has its own end)."""


def captain_names(count: int) -> list[str]:
    names = []
    for i in range(count):
        base = NAMES[i % len(NAMES)]
        names.append(base if i < len(NAMES) else f"{base}{i // len(NAMES) + 1}")
    return names


def simulated(name: str, text: str, *, public: bool, number: int, now: float) -> Inbound:
    """What a simulated player (or ``host``, the game's creator) sends, as the files
    adapter's platform delivers it: in the demo's channel, or by DM; ``number`` makes its
    message id."""
    return Inbound(
        platform=PLATFORM,
        channel=CHANNEL,
        sender=Sender(PLATFORM, f"id-{name}", name, None, is_channel_admin=name == "host"),
        kind=InboundKind.PUBLIC if public else InboundKind.DM,
        text=text,
        message_id=f"m{number}",
        sent_at=to_datetime(now),
    )


class Demo:
    def __init__(self, args: argparse.Namespace, console: Console) -> None:
        self.args = args
        self.console = console
        self.out = Path(args.out)
        self.out.mkdir(parents=True, exist_ok=True)
        # What an earlier demo wrote here (and only that): a new game, a clean folder.
        for stale in ("public.txt", "record.json", "demo.db", "demo.db-wal", "demo.db-shm"):
            (self.out / stale).unlink(missing_ok=True)
        for log in self.out.glob("dm-*.txt"):
            log.unlink()
        for folder in [self.out / "public", *self.out.glob("dm-*")]:
            if folder.is_dir():
                shutil.rmtree(folder)
        self.names = captain_names(args.players)
        self.follow = args.follow or self.names[0]
        self.clock = VirtualClock(datetime(2026, 1, 1, tzinfo=UTC).timestamp())
        self.store = Store(sqlite_url(self.out / "demo.db"))
        self.adapter = FilesAdapter(self.out, follow=self.follow)
        config = Config()
        self.host = build_host(
            self.store, self.clock, {PLATFORM: self.adapter}, config, avatar_fetch=no_network
        )
        self.sequence = 0

    async def say(self, name: str, text: str, *, public: bool) -> Outcome:
        self.sequence += 1
        said = simulated(name, text, public=public, number=self.sequence, now=self.clock.now())
        effect = await self.host.on_inbound(said)
        return effect.outcome

    def game(self) -> tuple[records.Game, dict[str, str]]:
        """The demo's game as the host stored it, and each captain's player key."""
        with self.store.transaction() as tx:
            row = tx.latest_game_in(PLATFORM, CHANNEL)
            assert row is not None
            return row, {p.name: p.key for p in tx.players(row.id)}

    def host_said(self) -> str:
        """The host's last answer to the demo's host (why it refused, say)."""
        with self.store.transaction() as tx:
            rows = [r for r in tx.outbox() if r.recipient == f"{PLATFORM}:id-host"]
        return rows[-1].text if rows else "no reason given"

    async def run(self) -> int:
        """A game of robots: each sees its own view and says what it would type."""
        args = self.args
        game = get_game(args.game)
        robot = game.robot
        assert robot is not None  # (checked with the options)
        options = " ".join(
            f"{key}={value}" for key, value in demo_options(game, args, seed=True).items()
        )
        options = f"{game.tag} new {game.name} {options}"
        if await self.say("host", options, public=True) is not Outcome.HANDLED:
            self.console.print(
                f"[red]bst demo: the host refused the game: {self.host_said()}[/red]"
            )
            return 2
        row, _ = self.game()
        game_id = row.id
        assert game_id is not None
        rng = random.Random(args.seed)
        for name in self.names:
            await self.say(name, f"{game.tag} join", public=True)
        await self.robots_speak(game, robot, rng, everyone=True)
        if await self.say("host", "start", public=True) is not Outcome.HANDLED:
            self.console.print(f"[red]bst demo: the game could not start: {self.host_said()}[/red]")
            return 2
        with Progress(
            TextColumn(f"[bold blue]{game.tag} demo"),
            BarColumn(),
            TextColumn("{task.description}"),
            TimeElapsedColumn(),
            console=self.console,
            transient=False,
        ) as progress:
            task = progress.add_task("turn 1", total=None)
            thinking = random.Random(f"{args.seed}:thinking")
            for _ in range(MAX_STEPS):
                row, _ = self.game()
                if row.phase != GamePhase.RUNNING:
                    break
                before = (row.turn, row.state)
                if not game.simultaneous:
                    self.think(row, thinking)
                await self.robots_speak(game, robot, rng, everyone=False)
                row, _ = self.game()
                progress.update(task, description=f"turn {row.turn}")
                if game.simultaneous or (row.turn, row.state) == before:
                    # Orders stand until the timer falls (or nobody could act): let it fall.
                    if row.deadline is not None:
                        self.clock.set(max(row.deadline, self.clock.now()))
                    await self.host.tick()
            else:
                await self.say("host", f"{game.tag} host end", public=True)
            progress.update(task, description="drawing the replay")
            await self.host.relay.flush()
        record = game_record(self.store, game_id)
        record_path = self.out / "record.json"
        record_path.write_text(
            json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        self.summary(record, record_path)
        return 0

    def think(self, row: records.Game, rng: random.Random) -> None:
        """In a game played in turn, the player to move takes a while, as a person would:
        the virtual clock moves on by a part of the time left (so each turn's deadline
        follows from when the last move was made, as in a real game)."""
        if row.deadline is None or row.paused_remaining is not None:
            return
        left = row.deadline - self.clock.now()
        if left > 0:
            self.clock.set(self.clock.now() + int(left * rng.uniform(0.05, 0.5)))

    async def robots_speak(
        self, game: Any, robot: Robot, rng: random.Random, *, everyone: bool
    ) -> None:
        """Each player who may act (in setup: everyone) says what its robot would type,
        from the view the game gives that player and nothing else."""
        row, players = self.game()
        state = game.codec.decode_state(loads(row.state))
        acting = game.rules.to_act(state)
        for name in self.names:
            key = players.get(name)
            if key is None or not (everyone or key in acting):
                continue
            for said in robot.orders(game.views.view(state, key), key, rng):
                await self.say(name, f"{game.tag} {said.text}" if said.public else said.text,
                               public=said.public)  # fmt: skip

    def summary(self, record: dict[str, object], record_path: Path) -> None:
        info = record["game"]
        assert isinstance(info, dict)
        winners = info["winners"]
        if info["draw"]:
            result = "a draw between " + ", ".join(winners) if winners else "a draw"
        else:
            # Every winner: a U-Boat crew wins together (the first by name is no captain).
            together = " and ".join(", ".join(winners).rsplit(", ", 1))
            result = (
                f"{together} {'wins' if len(winners) == 1 else 'win'}" if winners else "no winner"
            )
        videos = [p for p in self.adapter.files if p.suffix in (".mp4", ".gif")]
        maps = [p for p in self.adapter.files if re.search(r"-map\.png$", p.name)]
        self.console.print()
        # In the game's own word: U-Boat plays rounds.
        turns = info.get("turn")
        kind = info.get("kind")
        word = posts.turn_word(get_game(kind), 1) if isinstance(kind, str) else "turn"
        self.console.print(
            f"[bold]Result:[/bold] {result} after {turns} {word}{'' if turns == 1 else 's'}."
        )
        self.console.print(f"[bold]Files[/bold] in {self.out}/:")
        self.console.print(
            f"  public posts  {self.out / 'public.txt'} ({len(maps)} maps in public/)"
        )
        self.console.print(
            f"  DMs           {self.out / f'dm-{self.follow}.txt'} ({self.follow}'s, boards in "
            f"dm-{self.follow}/)"
        )
        for video in videos:
            self.console.print(f"  replay        {video}")
        self.console.print(f"  record        {record_path}")


def demo_options(game: Game[Any, Any], args: argparse.Namespace, *, seed: bool) -> dict[str, str]:
    """The options the demo opens its game with: the board size and turn length asked for,
    and a cap on its length, each where the game has such an option."""
    declared = {arg.name for arg in game.option_args}
    options = {"seed": str(args.seed)} if seed else {}
    if args.size is not None:
        options["size"] = args.size
    if args.turn is not None:
        options["turn"] = args.turn
    if "max_turns" in declared:
        options["max_turns"] = str(MAX_TURNS)
    return options


def demo_args_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the demo's options, checked before any file is touched."""
    try:
        game = get_game(args.game)
    except GameError as error:
        return f"--game: {error.message}"
    if game.robot is None:
        return f"--game {game.name}: this game has no simulated players yet"
    if args.players is None:
        args.players = game.robot.demo_players
    if args.players < 2:
        return f"--players must be at least 2 (e.g. --players {game.robot.demo_players}), got {args.players}"
    declared = {arg.name for arg in game.option_args}
    for flag in ("size", "turn"):
        if getattr(args, flag) is not None and flag not in declared:
            return f"--{flag}: {game.title} has no {flag} option"
    if args.turn is not None:
        try:
            parse_duration(args.turn)
        except GameError as error:
            return f"--turn: {error.message}"
    try:
        game.rules.new_game(demo_options(game, args, seed=False))
    except GameError as error:
        if args.size is None:
            return f"{game.title}: {error.message}"
        return f"--size {args.size!r}: {error.message} (e.g. --size 20 or --size 12x16)"
    names = captain_names(args.players)
    if args.follow is not None and args.follow not in names:
        shown = ", ".join(names[:12]) + (", …" if len(names) > 12 else "")
        word = game.words.player_word(1)
        return f"--follow {args.follow!r} is not a {word}; {game.words.player_word(2)} are {shown}"
    return None


def run_demo(args: argparse.Namespace) -> int:
    console = Console()
    problem = demo_args_problem(args)
    if problem is not None:
        console.print(f"[red]bst demo: {problem}[/red]")
        return 2
    return asyncio.run(Demo(args, console).run())
