"""Helpers for the Sugar Dog rules tests: a small driver that plays script lines
(shared/contracts/games.md) through the game object the way the host would.

It keeps a virtual clock from 0 (seconds), the timers the game declares (a new
key starts at the moment of the change that declared it), the orders of the
turn in progress, the history of steps the host would store, and every notice
and refusal. It is deliberately simple: no pause, no platform, no database.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games.base import (
    Channel,
    GameError,
    Given,
    Notice,
    PlayerRef,
    RecordContext,
    Resolution,
    Step,
)
from bot.games.duration import parse_duration
from bot.games.sugardog import SUGARDOG, Order, SugarDogState

GAME = SUGARDOG
SCRIPTS = Path(__file__).resolve().parent / "scripts"
SHARED = Path(__file__).resolve().parents[4] / "shared"
"""The specifications beside the work tree (absent in some checkouts: tests then skip)."""
SHARED_EXAMPLES = SHARED / "examples"


@dataclass(frozen=True)
class SeededContext(RecordContext):
    """RecordContext plus the seed the host took from the options (see the report)."""

    seed: str | None = None


@dataclass
class Refusal:
    name: str
    text: str
    message: str
    kind: str


@dataclass
class Table:
    """One game played from script lines."""

    seed: str | None = None
    state: SugarDogState | None = None
    now: float = 0.0
    ids: dict[str, str] = field(default_factory=dict)
    deadlines: dict[str, float] = field(default_factory=dict)
    given: list[Given[Order]] = field(default_factory=list)
    history: list[Step] = field(default_factory=list)
    step_times: list[float] = field(default_factory=list)
    notices: list[tuple[str | None, str]] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    draws: int = 0

    # --------------------------------------------------------------- plumbing

    @property
    def names(self) -> dict[str, str]:
        return {pid: name for name, pid in self.ids.items()}

    def rng(self, purpose: str) -> random.Random:
        self.draws += 1
        return random.Random(f"{self.seed or 0}:{purpose}:{self.draws}")

    def game_state(self) -> SugarDogState:
        assert self.state is not None, "no @game line yet"
        return self.state

    def sync_timers(self, at: float) -> None:
        declared = GAME.rules.timers(self.game_state())
        kept = {t.key for t in declared}
        self.deadlines = {k: v for k, v in self.deadlines.items() if k in kept}
        for timer in declared:
            self.deadlines.setdefault(timer.key, at + timer.seconds)

    def tell(self, notices: Iterable[Notice]) -> None:
        for notice in notices:
            self.notices.append((None if notice.to is None else self.names[notice.to], notice.text))

    def store(
        self, before: SugarDogState, resolution: Resolution[SugarDogState], at: float
    ) -> None:
        self.history.append(
            Step(
                GAME.rules.turn(before),
                tuple(resolution.orders),
                tuple(event.record() for event in resolution.events),
            )
        )
        self.step_times.append(at)
        self.state = resolution.state
        turn_over = GAME.rules.turn(resolution.state) != GAME.rules.turn(before)
        if turn_over:
            self.given = []
        self.post(before, resolution, turn_over)
        self.tell(resolution.notices)
        self.sync_timers(at)

    def post(
        self, before: SugarDogState, resolution: Resolution[SugarDogState], turn_over: bool
    ) -> None:
        """What the host posts of a change (bot/host/play/lifecycle.py, posts.py): the public
        report when a turn ended, the game did, or something public happened, headed
        ``Turn N:`` here; each changed captain's private report."""
        names = self.names
        lines = GAME.words.public_report(resolution.events, names)
        result = GAME.words.result(resolution.state, names)
        if turn_over or result or lines:
            head = f"Turn {GAME.rules.turn(before)}:" if turn_over or result else ""
            self.notices.append((None, " ".join(p for p in (head, *lines, result) if p)))
        for player in sorted(resolution.changed):
            private = GAME.words.private_report(resolution.events, player)
            if private and player in names:
                self.notices.append((names[player], " ".join(private)))

    # --------------------------------------------------------------- lines

    def play(self, lines: Iterable[str]) -> Table:
        for line in lines:
            self.line(line)
        return self

    def line(self, line: str) -> None:
        line = line.strip()
        if not line or line.startswith("#"):
            return
        if line.startswith("@game"):
            words = line.split()[2:]
            options = dict(word.split("=", 1) for word in words)
            self.seed = options.pop("seed", None)
            self.state = GAME.rules.new_game(options)
            return
        if line.startswith("@start"):
            name = line[len("@start") :].strip()
            first = self.ids.get(name, f"unknown-{name}") if name else None
            before = self.game_state()
            try:
                self.store(before, GAME.rules.start(before, self.rng("start"), first), self.now)
            except GameError as error:
                self.refusals.append(Refusal("@host", line, error.message, type(error).__name__))
            return
        if line == "@close":
            if self.deadlines:
                self.fire(min(self.deadlines, key=lambda k: self.deadlines[k]))
            return
        if line.startswith("@wait"):
            target = self.now + parse_duration(line.split(None, 1)[1]).total_seconds()
            while self.deadlines and min(self.deadlines.values()) <= target:
                self.fire(min(self.deadlines, key=lambda k: self.deadlines[k]))
            self.now = target
            return
        if line.startswith("@host"):
            self.host(line.split()[1:])
            return
        match = re.match(r"^([\w-]+) (public|dm): (.*)$", line)
        assert match, f"not a script line: {line!r}"
        self.message(match.group(1), match.group(2) == "public", match.group(3))

    def host(self, words: list[str]) -> None:
        before = self.game_state()
        if words[0] == "end":
            self.store(before, GAME.rules.finish(before), self.now)
        elif words[0] == "kick":
            self.store(before, GAME.rules.remove(before, self.ids[words[1]]), self.now)

    def fire(self, key: str) -> None:
        at = self.deadlines.pop(key)
        self.now = at
        before = self.game_state()
        self.store(before, GAME.rules.expire(before, key, list(self.given), self.rng("expire")), at)

    def message(self, name: str, public: bool, text: str) -> None:
        if public:
            if not re.match(r"^#sugardog\b", text, re.IGNORECASE):
                return  # not for the host
            text = re.sub(r"^#sugardog\s*", "", text, flags=re.IGNORECASE)
        word = text.strip().lower()
        try:
            if word == "join":
                self.ids.setdefault(name, f"p{len(self.ids) + 1}")
                self.state = GAME.rules.join(self.game_state(), PlayerRef(self.ids[name], name))
                return
            if word == "leave":
                before = self.game_state()
                self.store(before, GAME.rules.remove(before, self.ids[name]), self.now)
                return
            self.order(name, public, text)
        except GameError as error:
            self.refusals.append(Refusal(name, text, error.message, type(error).__name__))

    def order(self, name: str, public: bool, text: str) -> None:
        order = GAME.rules.parse(text)
        if name not in self.ids:
            raise GameError("you are not in this game: send `join` to play")
        player = self.ids[name]
        channel = Channel.PUBLIC if public else Channel.PRIVATE
        before = self.game_state()
        accepted = GAME.rules.accept(before, player, order, channel, self.rng("accept"))
        self.tell(accepted.notices)
        if accepted.standing is not None:
            self.given.append(Given(player, accepted.standing, self.now, len(self.given)))
        if accepted.resolve_now:
            rng = self.rng("resolve")
            self.store(before, GAME.rules.resolve(accepted.state, list(self.given), rng), self.now)
        elif accepted.events or accepted.orders:
            self.store(
                before,
                Resolution(accepted.state, accepted.events, accepted.changed, (), accepted.orders),
                self.now,
            )
        else:
            self.state = accepted.state

    # --------------------------------------------------------------- results

    def record(self) -> dict[str, Any]:
        state = self.game_state()
        phase = state.phase.value
        context = SeededContext(1, self.names, phase, {}, seed=self.seed)
        record = GAME.codec.record(state, self.history, context)
        assert json.loads(json.dumps(record)) == record
        return record

    def turn(self, number: int) -> dict[str, Any]:
        turns: dict[int, dict[str, Any]] = {t["number"]: t for t in self.record()["turns"]}
        return turns[number]

    def events(self, number: int) -> list[dict[str, Any]]:
        return list(self.turn(number)["events"])

    def dms(self, name: str) -> list[str]:
        return [text for to, text in self.notices if to == name]

    def public(self) -> list[str]:
        return [text for to, text in self.notices if to is None]


def play(text: str) -> Table:
    return Table().play(text.splitlines())


def play_file(path: Path) -> Table:
    return Table().play(path.read_text(encoding="utf-8").splitlines())


def contact(player: str, cell: str, torpedo: int | None = None) -> dict[str, Any]:
    if torpedo is None:
        return {"type": "contact", "player": player, "unit": "submarine", "cell": cell}
    return {
        "type": "contact",
        "player": player,
        "unit": "torpedo",
        "torpedo": torpedo,
        "cell": cell,
    }


def seen(
    player: str, unit: str, cell: str, distance: int, torpedo: int | None = None
) -> dict[str, Any]:
    item: dict[str, Any] = {"player": player, "unit": unit}
    if torpedo is not None:
        item["torpedo"] = torpedo
    return {**item, "cell": cell, "distance": distance}


def setup_game(
    cells: dict[str, str], first: str | None = None, options: str = "move_time=12h"
) -> Table:
    """Join the captains in the given order with their starting cells, and start."""
    lines = [f"@game sugardog {options}"]
    lines += [f"{name} dm: join" for name in cells]
    lines += [f"{name} dm: {cell}" for name, cell in cells.items() if cell]
    lines.append(f"@start {first}" if first else "@start")
    return play("\n".join(lines))


def captain(table: Table, name: str) -> dict[str, Any]:
    return next(p for p in table.record()["players"] if p["name"] == name)
