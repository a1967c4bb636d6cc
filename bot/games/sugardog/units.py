"""Units in the water and the events that name them (shared/rules/sugardog.md §3,
§4; shared/contracts/sugardog.md, "Record").

A unit is a captain's submarine, one of their mines, or one of their numbered
torpedoes. Events name units as the record does (``{"player", "unit"}`` plus
``torpedo`` for a torpedo) and always sort them the same way: by captain name,
then submarine, mine, torpedo, then torpedo number. Everything that builds an
event of Sugar Dog builds it here, so its keys are written in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.base import Event, PlayerId
from bot.games.grid import Direction
from bot.games.sugardog.board import Cell
from bot.games.sugardog.state import UnitKind


@dataclass(frozen=True)
class Unit:
    owner: PlayerId
    kind: UnitKind
    torpedo: int | None = None

    def record(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"player": self.owner, "unit": self.kind.value}
        if self.torpedo is not None:
            entry["torpedo"] = self.torpedo
        return entry


def submarine(owner: PlayerId) -> Unit:
    return Unit(owner, UnitKind.SUBMARINE)


def mine(owner: PlayerId) -> Unit:
    return Unit(owner, UnitKind.MINE)


def torpedo(owner: PlayerId, number: int) -> Unit:
    return Unit(owner, UnitKind.TORPEDO, number)


NameOf = Callable[[PlayerId], str]


def unit_order(name_of: NameOf) -> Callable[[Unit], tuple[str, int, int, str]]:
    """The rules' order of units: captain name, kind, torpedo number (then id, for
    two captains who share a name)."""

    def key(unit: Unit) -> tuple[str, int, int, str]:
        return (name_of(unit.owner), unit.kind.rank, unit.torpedo or 0, unit.owner)

    return key


def sorted_units(units: Iterable[Unit], name_of: NameOf) -> list[Unit]:
    return sorted(units, key=unit_order(name_of))


# --------------------------------------------------------------------- events


def contact(unit: Unit, cell: Cell) -> Event:
    return Event("contact", {**unit.record(), "cell": str(cell)})


def impact(cell: Cell, entering: Unit, destroyed: Sequence[Unit]) -> Event:
    return Event(
        "impact",
        {"cell": str(cell), **entering.record(), "destroyed": [u.record() for u in destroyed]},
    )


def eliminated(player: PlayerId) -> Event:
    return Event("eliminated", {"player": player})


def finished(winners: Sequence[PlayerId], draw: bool) -> Event:
    return Event("finished", {"winners": list(winners), "draw": draw})


def lost(owner: PlayerId, number: int) -> Event:
    return Event("lost", {"player": owner, "torpedo": number})


def silent(player: PlayerId, cell: Cell) -> Event:
    return Event("silent", {"player": player, "cell": str(cell)})


@dataclass(frozen=True)
class TimedOutSilence(Event):
    """The ``silent`` event of a captain whose time ran out, as a resolution hands it to
    the host. Its record is any ``silent`` event's (the turn's order says ``timeout``);
    the class alone lets the turn's public report say "time ran out", since the host
    gives the report the events and nothing else. The stored state keeps plain events."""

    @classmethod
    def of(cls, event: Event) -> TimedOutSilence:
        return cls(event.type, event.data)


def launched(player: PlayerId, number: int, cell: Cell, direction: Direction) -> Event:
    return Event(
        "launched",
        {"player": player, "torpedo": number, "cell": str(cell), "direction": direction.value},
    )


def mine_laid(player: PlayerId, cell: Cell, left: int) -> Event:
    return Event("mine", {"player": player, "cell": str(cell), "left": left})


def left(player: PlayerId) -> Event:
    return Event("left", {"player": player})


@dataclass(frozen=True)
class Sighting:
    """One line of a ping's report."""

    unit: Unit
    cell: Cell
    distance: int

    def record(self) -> dict[str, Any]:
        return {**self.unit.record(), "cell": str(self.cell), "distance": self.distance}


def ping(player: PlayerId, cell: Cell, report: Sequence[Sighting]) -> Event:
    return Event(
        "ping", {"player": player, "cell": str(cell), "report": [s.record() for s in report]}
    )


PRIVATE_EVENTS = frozenset({"silent", "launched", "mine", "lost"})
"""Told only to the acting captain (contract "What is public"); every other event is public."""
