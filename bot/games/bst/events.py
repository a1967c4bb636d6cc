"""The events of bst, in the record's vocabulary (``shared/contracts/script-and-record.md``).

A turn's events come in resolution order: movement (``moved``, ``rotated``,
``collision``), then ``shot`` (sorted by captain name), then ``destroyed``,
``eliminated``, and ``finished`` last when the game ended. A leaver's ships become
wrecks as ``destroyed`` events (§7). Events carry player ids; the record names them.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.games.base import Event, PlayerId
from bot.games.bst.fleet import Ship


def ship_event(kind: str, owner: PlayerId, ship: Ship) -> Event:
    """``moved``, ``rotated``, ``collision`` or ``destroyed``: a ship and where it is now."""
    # A ship's cells are kept in board order, so the record's sorted order needs no sort.
    return Event(
        kind, {"player": owner, "ship": ship.kind.value, "cells": list(map(str, ship.cells))}
    )


def finished(winners: Iterable[PlayerId], draw: bool) -> Event:
    """The last event of a game: who won, or who drew."""
    return Event("finished", {"winners": list(winners), "draw": draw})
