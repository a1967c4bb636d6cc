"""A small driver for the U-Boat Shootout rules: it plays script lines
(``shared/contracts/games.md``) through the game object the way the host would —
``join``, ``start``, ``parse``/``accept``, the round's orders kept as ``Given``,
``timers`` armed on a virtual clock, ``expire`` when a deadline falls, every
change stored as a history ``Step`` — and builds the record."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
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
from bot.games.uboat import UBOAT, Order, UboatState

_TAG = re.compile(r"^\s*#uboat\b\s*", re.IGNORECASE)


@dataclass
class Reply:
    name: str
    text: str
    refused: bool


@dataclass
class Driver:
    seed: int = 0
    state: UboatState | None = None
    now: float = 0.0
    ids: dict[str, str] = field(default_factory=dict)  # name → id
    pending: dict[str, float] = field(default_factory=dict)  # timer key → deadline
    given: dict[int, list[Given[Order]]] = field(default_factory=dict)
    history: list[Step] = field(default_factory=list)
    replies: list[Reply] = field(default_factory=list)
    resolutions: list[tuple[str, Resolution[UboatState]]] = field(default_factory=list)
    accepted: list[Accepted[UboatState, Order]] = field(default_factory=list)
    sequence: int = 0
    rng: random.Random = field(default_factory=random.Random)

    # --- playing ---------------------------------------------------------------

    def play(self, script: str) -> Driver:
        for line in script.splitlines():
            self.line(line)
        return self

    def line(self, line: str) -> None:
        line = line.strip()
        if not line or line.startswith("#"):
            return
        if line.startswith("@game"):
            words = line.split()[2:]
            options = dict(word.split("=", 1) for word in words)
            if "seed" in options:
                self.seed = int(options.pop("seed"))
            self.rng = random.Random(self.seed)
            self.state = UBOAT.rules.new_game(options)
            return
        if line.startswith("@start"):
            words = line.split()
            first = self.ids[words[1]] if len(words) > 1 else None
            self._change("start", lambda s: UBOAT.rules.start(s, self.rng, first))
            return
        if line.startswith("@close"):
            if self.pending:
                key, deadline = min(self.pending.items(), key=lambda item: (item[1], item[0]))
                self.now = deadline
                self.fire(key)
            return
        if line.startswith("@wait"):
            target = self.now + parse_duration(line.split()[1]).total_seconds()
            while self.pending and min(self.pending.values()) <= target:
                key, deadline = min(self.pending.items(), key=lambda item: (item[1], item[0]))
                self.now = deadline
                self.fire(key)
            self.now = target
            return
        name, _, rest = line.partition(" ")
        kind, _, text = rest.partition(":")
        self.say(name, text.strip(), public=kind.strip() == "public")

    def say(self, name: str, text: str, public: bool = False) -> Accepted[UboatState, Order] | None:
        """A player's message; returns what the game accepted (None: refused or a join)."""
        assert self.state is not None
        body = _TAG.sub("", text)
        if body.strip().lower() == "join":
            try:
                player_id = self.ids.get(name, f"p{len(self.ids) + 1}")
                self.state = UBOAT.rules.join(self.state, PlayerRef(player_id, name))
                self.ids[name] = player_id
            except GameError as error:
                self.replies.append(Reply(name, error.message, True))
            return None
        try:
            order = UBOAT.rules.parse(body)
            player = self.ids.get(name, f"stranger-{name}")
            channel = Channel.PUBLIC if public else Channel.PRIVATE
            accepted = UBOAT.rules.accept(self.state, player, order, channel, random.Random(0))
        except GameError as error:
            self.replies.append(Reply(name, error.message, True))
            return None
        turn = UBOAT.rules.turn(self.state)
        self.state = accepted.state
        self.accepted.append(accepted)
        for notice in accepted.notices:
            self.replies.append(Reply(name, notice.text, False))
        if accepted.standing is not None:
            self.sequence += 1
            self.given.setdefault(turn, []).append(
                Given(player, accepted.standing, self.now, self.sequence)
            )
        if accepted.events or accepted.orders:
            self.history.append(
                Step(turn, accepted.orders, tuple(e.record() for e in accepted.events), "action")
            )
        self._arm()
        return accepted

    def fire(self, key: str) -> None:
        del self.pending[key]
        assert self.state is not None
        turn = UBOAT.rules.turn(self.state)
        orders = tuple(self.given.get(turn, ()))
        self._change(key, lambda s: UBOAT.rules.expire(s, key, orders, self.rng))

    def _change(self, cause: str, change: Any) -> None:
        assert self.state is not None
        turn = UBOAT.rules.turn(self.state)
        try:
            resolution = change(self.state)
        except GameError as error:
            self.replies.append(Reply("@host", error.message, True))
            return
        self.state = resolution.state
        self.resolutions.append((cause, resolution))
        self.history.append(
            Step(turn, resolution.orders, tuple(e.record() for e in resolution.events), cause)
        )
        self._arm()

    def _arm(self) -> None:
        assert self.state is not None
        declared = {timer.key: timer for timer in UBOAT.rules.timers(self.state)}
        for key in list(self.pending):
            if key not in declared:
                del self.pending[key]
        for key, timer in declared.items():
            self.pending.setdefault(key, self.now + timer.seconds)

    # --- reading ---------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        assert self.state is not None
        names = {player_id: name for name, player_id in self.ids.items()}
        context = RecordContext(1, names, self.state.phase.value, {})
        return UBOAT.codec.record(self.state, self.history, context)

    def refusals(self, name: str | None = None) -> list[str]:
        return [r.text for r in self.replies if r.refused and (name is None or r.name == name)]

    def player(self, record: dict[str, Any], name: str) -> dict[str, Any]:
        return next(p for p in record["players"] if p["name"] == name)

    def turn(self, record: dict[str, Any], number: int) -> dict[str, Any]:
        return next(t for t in record["turns"] if t["number"] == number)


def play(script: str, seed: int = 0) -> Driver:
    return Driver(seed=seed).play(script)


def events_of(turn: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [event for event in turn["events"] if event["type"] == kind]


def begin(starts: dict[str, str | None], options: str = "", seed: int = 0) -> Driver:
    """A game with these players (in join order) and starting cells, started."""
    driver = Driver(seed=seed)
    driver.line(f"@game uboat {options}")
    for name in starts:
        driver.line(f"{name} dm: join")
    for name, cell in starts.items():
        if cell is not None:
            driver.line(f"{name} dm: start {cell}")
    driver.line("@start")
    return driver


def give_island(driver: Driver, number: int, colour: str | None) -> None:
    """Hand an island to a boat before a round (tests of powers and scoring)."""
    from dataclasses import replace

    from bot.games.uboat.values import Colour

    assert driver.state is not None
    owners = list(driver.state.owners)
    index = [island.number for island in driver.state.options.islands].index(number)
    owners[index] = Colour(colour) if colour else None
    driver.state = replace(driver.state, owners=tuple(owners))


def set_boat(driver: Driver, colour: str, **changes: Any) -> None:
    """Change a boat's health, cell or run of fire before a round."""
    from dataclasses import replace

    from bot.games.uboat.cells import parse_cell
    from bot.games.uboat.values import Colour

    assert driver.state is not None
    boat = driver.state.boat(Colour(colour))
    assert boat is not None
    if "cell" in changes:
        changes["cell"] = parse_cell(changes["cell"])
    driver.state = driver.state.with_boat(replace(boat, **changes))


def last_events(driver: Driver) -> list[dict[str, Any]]:
    """The events of the last resolution, as record dicts (player ids, not names)."""
    return [event.record() for event in driver.resolutions[-1][1].events]


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event["type"] == kind]


def cell_of(driver: Driver, colour: str) -> str:
    from bot.games.uboat.values import Colour

    assert driver.state is not None
    boat = driver.state.boat(Colour(colour))
    assert boat is not None
    return str(boat.cell)


def health_of(driver: Driver, colour: str) -> int:
    from bot.games.uboat.values import Colour

    assert driver.state is not None
    boat = driver.state.boat(Colour(colour))
    assert boat is not None
    return boat.health
