"""What one change of a Silent Ships game did, gathered as it happens.

Every change (an order acting at once, a turn's end, a deadline) produces the
record's events in the order they happen and the record entries of the orders
it consumed (the host's timeouts marked ``"timeout": true``), with player ids
where the record shows names. A :class:`Log` collects them while the rules
compute the new state; the state itself is never changed in place.
"""

from __future__ import annotations

from typing import Any

from bot.games.base import Event, PlayerId


class Log:
    """The events and order entries of one change, in order."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.orders: list[dict[str, Any]] = []
        self.changed: set[PlayerId] = set()

    def event(self, type_: str, data: dict[str, Any]) -> None:
        """An event with the record's keys, in the record's order (``from`` is one of them)."""
        self.events.append(Event(type_, data))

    def order(self, player: PlayerId, entry: dict[str, Any], timeout: bool = False) -> None:
        record = {"player": player, **entry}
        if timeout:
            record["timeout"] = True
        self.orders.append(record)

    def touch(self, *players: PlayerId) -> None:
        """Mark players whose private board changed."""
        self.changed.update(players)
