"""A small stand-in for the host, to drive Sonar's rules the way the host does.

:class:`Table` plays script lines (``shared/contracts/games.md``) through the game
object alone: ``join``/``leave`` and the host lines become ``join``/``remove``/
``start``/``finish``; every other message goes through ``parse`` then ``accept``,
and an accepted order that completes the turn is resolved at once with the turn's
orders; timers run on a virtual clock (``@wait``, ``@close``, ``@host pause`` …) and
fall through ``expire``. Every change is kept as the host keeps it, a ``Step`` of the
turn it happened in, so the record is built exactly as the host will build it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games.base import (
    Accepted,
    Channel,
    GameError,
    Given,
    PlayerRef,
    RecordContext,
    Resolution,
    Step,
)
from bot.games.duration import parse_duration
from bot.games.sonar import SONAR, Order, SonarState

EXAMPLES = Path(__file__).resolve().parents[4] / "shared" / "examples"
SCRIPTS = Path(__file__).resolve().parent / "scripts"

_TAG = re.compile(r"^\s*(?:@\w+\s+)*#sonar\b\s*", re.IGNORECASE)
_HOST_WORDS = {"help", "rules", "status", "board"}


@dataclass
class Refusal:
    line: str
    message: str
    kind: str


@dataclass
class Table:
    """One game of Sonar on a virtual clock, as the host would run it."""

    options: dict[str, str] = field(default_factory=dict)
    seed: int = 0
    state: SonarState = field(init=False)
    now: float = 0.0
    deadlines: dict[str, float] = field(default_factory=dict)
    held: dict[str, float] = field(default_factory=dict)
    paused: bool = False
    history: list[Step] = field(default_factory=list)
    given: list[Given[Order]] = field(default_factory=list)
    ids: dict[str, str] = field(default_factory=dict)
    refusals: list[Refusal] = field(default_factory=list)
    notices: list[tuple[str | None, str]] = field(default_factory=list)
    messages: int = 0

    def __post_init__(self) -> None:
        self.state = SONAR.rules.new_game(self.options)

    # --- the host's plumbing ---------------------------------------------------

    def rng(self) -> random.Random:
        """A seeded source per message, as the host seeds one from the game's seed."""
        self.messages += 1
        return random.Random(f"{self.seed}:{self.messages}")

    def pid(self, name: str) -> str:
        return self.ids[name]

    @property
    def names(self) -> dict[str, str]:
        return {pid: name for name, pid in self.ids.items()}

    def _store(self, turn: int, orders: Iterable[Any], events: Iterable[Any]) -> None:
        self.history.append(Step(turn, tuple(orders), tuple(e.record() for e in events)))

    def _resolved(self, resolution: Resolution[SonarState], at: float) -> None:
        before = SONAR.rules.turn(self.state)
        self._store(before, resolution.orders, resolution.events)
        self.notices += [(n.to, n.text) for n in resolution.notices]
        self.state = resolution.state
        if SONAR.rules.turn(self.state) != before:
            self.given = []
        self._sync(at)

    def _sync(self, at: float) -> None:
        declared = {timer.key: timer for timer in SONAR.rules.timers(self.state)}
        for key in list(self.deadlines):
            if key not in declared:
                del self.deadlines[key]
        for key in list(self.held):
            if key not in declared:
                del self.held[key]
        for key, timer in declared.items():
            if key not in self.deadlines and key not in self.held:
                if self.paused:
                    self.held[key] = timer.seconds
                else:
                    self.deadlines[key] = at + timer.seconds

    def _refuse(self, line: str, error: GameError) -> None:
        self.refusals.append(Refusal(line, error.message, type(error).__name__))

    # --- script lines ------------------------------------------------------------

    def play(self, lines: Iterable[str]) -> Table:
        for line in lines:
            self.line(line)
        return self

    def line(self, line: str) -> None:
        line = line.strip()
        if not line or line.startswith("#"):
            return
        if line.startswith("@"):
            self._host_line(line)
            return
        name, _, rest = line.partition(" ")
        kind, _, text = rest.partition(":")
        channel = Channel.PUBLIC if kind.strip() == "public" else Channel.PRIVATE
        self.say(name, text.strip(), channel)

    def say(self, name: str, text: str, channel: Channel) -> None:
        if channel is Channel.PUBLIC:
            if not _TAG.match(text):
                return  # chat, not for the game
            text = _TAG.sub("", text)
        word = text.strip().lower()
        try:
            if word == "join":
                pid = self.ids.setdefault(name, f"p{len(self.ids) + 1}")
                self.state = SONAR.rules.join(self.state, PlayerRef(pid, name))
                self.notices.append((pid, SONAR.words.welcome(self.state, pid, 1)))
                return
            if word in _HOST_WORDS:
                return
            pid = self.ids.get(name, f"stranger-{name}")
            if word == "leave":
                self._leave(pid)
                return
            if self.paused and self.state.phase.value == "battle":
                raise GameError("the game is paused: orders wait until the host resumes it")
            order = SONAR.rules.parse(text)
            accepted = SONAR.rules.accept(self.state, pid, order, channel, self.rng())
            self._accepted(pid, accepted)
        except GameError as error:
            self._refuse(f"{name}: {text}", error)

    def _accepted(self, pid: str, accepted: Accepted[SonarState, Order]) -> None:
        before = SONAR.rules.turn(self.state)
        self.notices += [(n.to, n.text) for n in accepted.notices]
        if accepted.events or accepted.orders:
            self._store(before, accepted.orders, accepted.events)
        self.state = accepted.state
        if accepted.standing is not None:
            self.given.append(Given(pid, accepted.standing, self.now, len(self.given)))
        if accepted.resolve_now:
            self._resolved(SONAR.rules.resolve(self.state, self.given, self.rng()), self.now)
        else:
            self._sync(self.now)

    def _leave(self, pid: str) -> None:
        if self.paused and self.state.phase.value == "battle":
            raise GameError("the game is paused: leaving waits until the host resumes it")
        self._resolved(SONAR.rules.remove(self.state, pid), self.now)

    def _host_line(self, line: str) -> None:
        words = line.split()
        head = words[0].lower()
        try:
            if head == "@game":
                options = dict(word.split("=", 1) for word in words[2:])
                self.seed = int(options.pop("seed", 0))
                self.options = options
                self.state = SONAR.rules.new_game(options)
            elif head == "@start":
                first = self.pid(words[1]) if len(words) > 1 else None
                self._resolved(SONAR.rules.start(self.state, self.rng(), first), self.now)
            elif head == "@wait":
                self.wait(parse_duration(words[1]).total_seconds())
            elif head == "@close":
                self.close()
            elif head == "@host":
                self._host_word(words[1].lower(), words[2:])
            else:
                raise ValueError(f"unknown script line {line!r}")
        except GameError as error:
            self._refuse(line, error)

    def _host_word(self, word: str, args: list[str]) -> None:
        if word == "pause" and not self.paused:
            self.paused = True
            self.held = {key: deadline - self.now for key, deadline in self.deadlines.items()}
            self.deadlines = {}
        elif word == "resume" and self.paused:
            self.paused = False
            self.deadlines = {key: self.now + left for key, left in self.held.items()}
            self.held = {}
        elif word == "extend":
            extra = parse_duration(args[0]).total_seconds()
            self.deadlines = {key: deadline + extra for key, deadline in self.deadlines.items()}
        elif word == "kick":
            self._leave(self.pid(args[0]))
        elif word == "end":
            self._resolved(SONAR.rules.finish(self.state), self.now)

    # --- the clock -----------------------------------------------------------------

    def wait(self, seconds: float) -> None:
        target = self.now + seconds
        while not self.paused and self.deadlines:
            key, deadline = min(self.deadlines.items(), key=lambda item: (item[1], item[0]))
            if deadline > target:
                break
            self._fire(key, deadline)
        self.now = target

    def close(self) -> None:
        if self.paused or not self.deadlines:
            return
        key, deadline = min(self.deadlines.items(), key=lambda item: (item[1], item[0]))
        self._fire(key, deadline)

    def _fire(self, key: str, deadline: float) -> None:
        self.now = deadline
        del self.deadlines[key]
        self._resolved(SONAR.rules.expire(self.state, key, self.given, self.rng()), deadline)

    # --- what the host shows ---------------------------------------------------------

    def record(self) -> dict[str, Any]:
        context = RecordContext(1, self.names, self.state.phase.value, {})
        return SONAR.codec.record(self.state, self.history, context)


def script_lines(path: Path) -> list[str]:
    """A script's lines, with ``\\n`` in a message kept as the two characters typed."""
    return path.read_text(encoding="utf-8").splitlines()


def play_script(path: Path) -> Table:
    return Table().play(script_lines(path))


def turn_of(record: dict[str, Any], number: int) -> dict[str, Any]:
    return dict(next(turn for turn in record["turns"] if turn["number"] == number))


def player_of(record: dict[str, Any], name: str) -> dict[str, Any]:
    return dict(next(player for player in record["players"] if player["name"] == name))


def given_game(fleets: dict[str, str], **options: str) -> Table:
    """A battle with the given fleets (``placement=given``), joined in this order."""
    ships = len(re.split(r"\\n|[\n;,]", next(iter(fleets.values()))))
    table = Table({"placement": "given", "ships": str(ships), **options})
    for name, fleet in fleets.items():
        table.say(name, "join", Channel.PRIVATE)
        if fleet:
            table.say(name, fleet, Channel.PRIVATE)
    assert not table.refusals, table.refusals
    table.line("@start")
    assert not table.refusals, table.refusals
    return table
