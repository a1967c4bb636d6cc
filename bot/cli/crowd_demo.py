"""``bst demo --players N --size S --turns T``: a crowd's game, timed phase by phase.

Any game that declares how a crowd plays it (``Game.crowd``: bst).

A fresh SQLite database in a temporary folder, the host as ``bst run`` builds it (its
commands, turn clock, outbox and relay, on a virtual clock) and the files adapter of
``bst demo`` (public posts into ``--out``, the first captain's DMs beside them). It
prints one line per phase as each ends, with the seconds it took (wall clock, and the
process's CPU seconds: the machine may be shared) and the process's peak memory:

- seating: the players join (``rules.join``, one at a time, as the host calls it) and
  their seats are written to the store in one transaction. Through the host's ``join``
  command each join stores the whole state again, which for a crowd costs more than
  everything else (100,000 captains: 2 s to encode, 21 MB, a join), so the crowd is
  seated as a bulk import is;
- placement: every player sends the crowd's setup order (bst: ``random``), first come
  first placed (one ``rules.accept`` each, as the host calls them), and the state is
  stored once;
- start: the host's ``start`` (the beginning and every captain's board into the outbox),
  then the relay sends it;
- each turn: every captain in the battle sends an order through the host as a message
  (a shot in public, a move or rotation by DM); the rules resolve those orders once on
  their own (timed apart, nothing stored); then the turn's deadline passes and the
  host's turn clock resolves it, stores it and writes every post and board into the
  outbox; then the relay draws and sends them (pictures only for the public channel
  and the followed captain: the simulated captains read no pictures).

The players' orders are the game's crowd's (:class:`bot.games.base.Crowd`): each from its
own view alone, in a time that does not grow with the crowd.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import shutil
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from bot.adapters.files_adapter import PLATFORM, FilesAdapter
from bot.cli.demo import CHANNEL, captain_names, simulated
from bot.config import Config
from bot.games.base import Channel, Crowd, Game, GameError, Given, PlayerRef
from bot.games.catalog import game_names, get_game
from bot.games.duration import parse_duration
from bot.host.commands.inbox import Outcome
from bot.host.runtime.clock import VirtualClock
from bot.host.runtime.collector import collector_paused
from bot.store import NewPlayer, Store, dumps
from bot.wiring import build_host, no_network, sqlite_url

CROWD_FROM = 100
"""More captains than this (or ``--turns`` given) and ``bst demo`` is this crowd demo:
the full demo plays to the end and films the replay, which is for a table, not a crowd."""
DEFAULT_TURNS = 3
MAX_DEMO_TURNS = 100
DEFAULT_TURN = "8h"
"""The turn length unless ``--turn`` says (bst's own default)."""

T = TypeVar("T")


def wanted(args: argparse.Namespace) -> bool:
    """Whether ``bst demo`` with these options is the crowd demo."""
    # (--turns with another game is the crowd demo too: it refuses it, saying why.)
    return args.turns is not None or (
        crowd_of(args.game) is not None and args.players is not None and args.players > CROWD_FROM
    )


def crowd_of(kind: str) -> Crowd | None:
    """How a crowd plays game ``kind`` (None: it is a table game, or no game of this host)."""
    try:
        return get_game(kind).crowd
    except GameError:
        return None


def args_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the crowd demo's options (filling in the defaults), or None."""
    crowd = crowd_of(args.game)
    if crowd is None:
        crowds = [name for name in game_names() if crowd_of(name) is not None]
        return (
            f"--turns: only {' and '.join(crowds) or 'no game'} plays as a crowd "
            f"(--game {crowds[0] if crowds else 'KIND'}); the {args.game} demo plays its game "
            "to the end (leave out --turns)"
        )
    game = get_game(args.game)
    if args.turns is None:
        args.turns = DEFAULT_TURNS
    if not 1 <= args.turns <= MAX_DEMO_TURNS:
        return f"--turns must be from 1 to {MAX_DEMO_TURNS} (e.g. --turns 3), got {args.turns}"
    if args.players is None:
        args.players = 1000
    if args.players < 2:
        return f"--players must be at least 2 (e.g. --players 1000), got {args.players}"
    if args.size is None:
        args.size = crowd.size_for(args.players) or crowd.size_for(2)
    if args.turn is None:
        args.turn = DEFAULT_TURN
    try:
        parse_duration(args.turn)
    except GameError as error:
        return f"--turn: {error.message}"
    try:
        room = crowd.room(game.rules.new_game({"size": args.size, "turn": args.turn}))
    except GameError as error:
        return f"--size {args.size!r}: {error.message} (e.g. --size 1000 or --size 300x500)"
    if args.players > room:
        fits = crowd.size_for(args.players)
        bigger = f"--size {fits}" if fits is not None else "fewer --players"
        return (
            f"--players {args.players:,} do not fit on --size {args.size}: at most {room:,} "
            f"{game.words.player_word(room)} fit there as a crowd; try {bigger}"
        )
    names = captain_names(args.players)
    if args.follow is not None and args.follow not in names:
        return f"--follow {args.follow!r} is not a captain; captains are {', '.join(names[:6])}, …"
    return None


class CrowdDemo:
    def __init__(self, args: argparse.Namespace, folder: Path) -> None:
        self.args = args
        self.game: Game[Any, Any] = get_game(args.game)
        crowd = self.game.crowd
        assert crowd is not None  # (args_problem refused a game without one)
        self.crowd: Crowd = crowd
        self.out = Path(args.out)
        _clear(self.out)
        self.names = captain_names(args.players)
        self.follow = args.follow or self.names[0]
        self.clock = VirtualClock(datetime(2026, 1, 1, tzinfo=UTC).timestamp())
        self.store = Store(sqlite_url(folder / "demo.db"))
        self.adapter = FilesAdapter(self.out, follow=self.follow)
        self.host = build_host(
            self.store, self.clock, {PLATFORM: self.adapter}, Config(), avatar_fetch=no_network
        )
        self.rng = random.Random(args.seed)
        self.sequence = 0
        self.phases: list[tuple[str, float, float]] = []

    async def say(self, name: str, text: str, *, public: bool) -> Outcome:
        self.sequence += 1
        said = simulated(name, text, public=public, number=self.sequence, now=self.clock.now())
        return (await self.host.on_inbound(said)).outcome

    @contextmanager
    def phase(self, name: str, what: str = "") -> Iterator[list[str]]:
        """Time a phase and print its line: its name and what it does as it begins, the
        times, the peak memory and any notes the phase added (yielded) when it ends."""
        print(f"{name:<34} {what:<32}", end="", flush=True)
        notes: list[str] = []
        wall, cpu = time.perf_counter(), time.process_time()
        yield notes
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        self.phases.append((name, wall, cpu))
        print(
            f"  {wall:8.2f} s (CPU {cpu:.2f} s), peak {peak_mb():,.0f} MB",
            *(f"; {note}" for note in notes),
            sep="",
            flush=True,
        )

    async def timed(self, name: str, what: str, work: Callable[[], Awaitable[T]]) -> T:
        with self.phase(name, what):
            return await work()

    async def sent(self, name: str) -> None:
        """The relay sends everything due, as a phase of its own."""
        with self.phase(name) as notes:
            notes.append(f"{await self.send_all():,} messages")

    async def run(self) -> int:
        args = self.args
        print(
            f"bst demo: {args.players:,} {self.game.words.player_word(args.players)} on "
            f"{args.size}, {args.turns} turn(s) "
            f"(seed {args.seed}); public posts in {self.out}/, {self.follow}'s DMs beside them"
        )
        opened = await self.say(
            "host", f"new size={args.size} turn={args.turn} seed={args.seed}", public=True
        )
        if opened is not Outcome.HANDLED:
            print(f"bst demo: the host refused the game: {self.host_said()}")
            return 2
        game_id, state = self.stored()
        with self.phase("seating", f"{args.players:,} joins"):
            state = self.seat(game_id, state)
        with self.phase("placement", f"{args.players:,} placements, first come"):
            state = self.place(game_id, state)
        started = await self.timed(
            "start", "the host's `start`", lambda: self.say("host", "start", public=True)
        )
        if started is not Outcome.HANDLED:
            print(f"bst demo: the battle could not start: {self.host_said()}")
            return 2
        await self.sent("start: draw and send")
        for turn in range(1, args.turns + 1):
            game_id, state = self.stored()
            if self.game.rules.outcome(state) is not None:
                print(f"the game ended after turn {turn - 1}")
                break
            acting = self.seats(self.game.rules.to_act(state))
            with self.phase(f"turn {turn}: orders", f"{len(acting):,} through the host"):
                givens = await self.orders(state, acting)
            # (The collector paused, as the host's turn clock pauses it: bot.host.runtime.collector.)
            with self.phase(f"turn {turn}: resolve (the rules alone)"), collector_paused():
                self.game.rules.resolve(state, givens, random.Random(turn))
            with self.phase(f"turn {turn}: resolve, store and outbox"):
                await self.close_turn(game_id)
            await self.sent(f"turn {turn}: draw and send")
        wall = sum(wall for _, wall, _ in self.phases)
        cpu = sum(cpu for _, _, cpu in self.phases)
        print(f"all phases {wall:.2f} s (CPU {cpu:.2f} s); peak memory {peak_mb():,.0f} MB")
        self.store.dispose()
        return 0

    async def send_all(self) -> int:
        """The relay sends everything due (a crowd's turn is more than one call's worth)."""
        sent = 0
        while delivered := await self.host.relay.flush():
            sent += delivered
        return sent

    def stored(self) -> tuple[int, Any]:
        with self.store.transaction() as tx:
            row = tx.latest_game_in(PLATFORM, CHANNEL)
            assert row is not None
            # The host's own decoded state (its cache's): a crowd's is hundreds of
            # megabytes decoded, and a copy of the demo's own would be one more.
            return row.id, self.host.commands.states.of(self.game, row)

    def host_said(self) -> str:
        """The host's last answer to the demo's host (why it refused, say)."""
        with self.store.transaction() as tx:
            rows = [r for r in tx.outbox() if r.recipient == f"{PLATFORM}:id-host"]
        return rows[-1].text if rows else "no reason given"

    def seats(self, players: frozenset[str]) -> list[tuple[str, str]]:
        """(key, name) of ``players``, in the order they were seated."""
        return [
            (f"p{seat}", name)
            for seat, name in enumerate(self.names, start=1)
            if f"p{seat}" in players
        ]

    def seat(self, game_id: int, state: Any) -> Any:
        """Every player joins, seats written in one transaction (see the module docstring)."""
        seats = []
        for seat, name in enumerate(self.names, start=1):
            key = f"p{seat}"
            state = self.game.rules.join(state, PlayerRef(key, name))
            seats.append(
                NewPlayer(game_id=game_id, key=key, platform=PLATFORM,
                          user_id=f"id-{name}", name=name, join_order=seat)
            )  # fmt: skip
        with self.store.transaction() as tx:
            tx.add_players(seats)
            tx.set_game_state(game_id, dumps(self.game.codec.encode_state(state)))
        return state

    def place(self, game_id: int, state: Any) -> Any:
        """Every player sends the crowd's setup order, first come first placed; stored once."""
        rng = random.Random(f"{self.args.seed}:placement")
        rules = self.game.rules
        setup = rules.parse(self.crowd.setup_order)
        for key, _name in self.seats(rules.to_act(state)):
            state = rules.accept(state, key, setup, Channel.PRIVATE, rng).state
        with self.store.transaction() as tx:
            tx.set_game_state(game_id, dumps(self.game.codec.encode_state(state)))
        return state

    async def orders(self, state: Any, acting: list[tuple[str, str]]) -> list[Given[Any]]:
        """Each player who may act says its order; the orders as the rules take them."""
        givens: list[Given[Any]] = []
        for key, name in acting:
            text, public = self.crowd.order(self.game.views.view(state, key), self.rng)
            await self.say(name, text, public=public)
            order = self.game.rules.parse(text)
            givens.append(Given(key, order, self.clock.now(), len(givens)))
        return givens

    async def close_turn(self, game_id: int) -> None:
        """The turn's deadline passes; the host's turn clock resolves it (nothing sent yet)."""
        with self.store.transaction() as tx:
            row = tx.game(game_id)
            assert row is not None
            deadline = row.deadline
        self.clock.set(max(deadline or self.clock.now(), self.clock.now()))
        await self.host.tick(send=False)


def peak_mb() -> float:
    """The process's peak resident memory so far (Linux reports it in KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _clear(out: Path) -> None:
    """What an earlier demo wrote into ``out`` (and only that): a new game, a clean folder."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "public.txt").unlink(missing_ok=True)
    for log in out.glob("dm-*.txt"):
        log.unlink()
    for folder in [out / "public", *out.glob("dm-*")]:
        if folder.is_dir():
            shutil.rmtree(folder)


def run_crowd_demo(args: argparse.Namespace) -> int:
    problem = args_problem(args)
    if problem is not None:
        print(f"bst demo: {problem}")
        return 2
    with tempfile.TemporaryDirectory(prefix="bst-crowd-demo-") as folder:
        return asyncio.run(CrowdDemo(args, Path(folder)).run())
