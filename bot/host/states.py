"""Decoded game states and stored orders, kept between messages.

Decoding a game's state from its stored JSON is the largest part of handling an
order that does not change it, so the decoded states of the games being played
right now are kept, keyed by game id and checked against the exact JSON the
transaction read: a cached state is used only when the stored string is the one
it was decoded from, so it can never be stale. States are immutable values.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from bot.games.base import Game
from bot.store import GameRow, loads
from bot.store.repository import GameSnapshot

STATE_CACHE_SIZE = 64  # decoded game states kept (the games being played right now)
DECODED_CACHE_SIZE = 4096  # decoded stored orders kept, for acknowledgements


class States:
    def __init__(self, size: int = STATE_CACHE_SIZE) -> None:
        self._size = size
        # game id → (the state JSON as stored, its decoded state).
        self._states: OrderedDict[int, tuple[str, Any]] = OrderedDict()
        self._lock = threading.Lock()  # the worker thread and the turn clock share it

    def of(self, game: Game[Any, Any], game_row: GameRow | GameSnapshot) -> Any:
        """The decoded state of the game row as read in this transaction."""
        stored = game_row.state
        assert game_row.id is not None
        key = game_row.id
        with self._lock:
            cached = self._states.get(key)
            if cached is not None and (cached[0] is stored or cached[0] == stored):
                self._states.move_to_end(key)
                return cached[1]
        state = game.codec.decode_state(loads(stored))
        self.remember(key, stored, state)
        return state

    def remember(self, game_id: int, stored: str, state: Any) -> None:
        with self._lock:
            self._states[game_id] = (stored, state)
            self._states.move_to_end(game_id)
            while len(self._states) > self._size:
                self._states.popitem(last=False)


class Descriptions:
    """Stored orders decoded again for acknowledgements (``replaces: …``), kept: an
    order's JSON decodes to the same immutable order every time."""

    def __init__(self) -> None:
        self._decoded: dict[tuple[str, str], Any] = {}

    def decoded(self, game: Any, order_json: str) -> Any:
        key = (game.name, order_json)
        found = self._decoded.get(key)
        if found is None:
            found = game.codec.decode_order(loads(order_json))
            if len(self._decoded) >= DECODED_CACHE_SIZE:
                self._decoded.clear()
            self._decoded[key] = found
        return found
