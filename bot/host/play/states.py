"""Decoded game states and stored orders, kept between messages.

Decoding a game's state from its stored JSON is the largest part of handling an
order that does not change it, so the decoded states of the games being played
right now are kept, keyed by game id and checked against the digest stored with the
state (``games.state_digest``, written with every state): a cached state is used only
when it was decoded from the state stored now, so it can never be stale, and the state
itself is not read to know it (a crowd's is tens of megabytes; see bot.store.records.Game.state).
States are immutable values.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from bot.games.base import Game
from bot.store import loads, records, state_digest

STATE_CACHE_SIZE = 64  # decoded game states kept (the games being played right now)
DECODED_CACHE_SIZE = 4096  # decoded stored orders kept, for acknowledgements


class States:
    def __init__(self, size: int = STATE_CACHE_SIZE) -> None:
        self._size = size
        # game id → (the digest of the state as stored, its decoded state).
        self._states: OrderedDict[int, tuple[str, Any]] = OrderedDict()
        self._lock = threading.Lock()  # the worker thread and the turn clock share it

    def of(self, game: Game[Any, Any], game_row: records.Game) -> Any:
        """The decoded state of the game row as read in this transaction."""
        key = game_row.id
        digest = game_row.state_digest
        if digest is None:  # (a game whose state was last written before 0011)
            digest = state_digest(game_row.state)
        with self._lock:
            cached = self._states.get(key)
            if cached is not None and cached[0] == digest:
                self._states.move_to_end(key)
                return cached[1]
        state = game.codec.decode_state(loads(game_row.state))
        # Kept under the digest stored now: reading the state of a game whose state was
        # staged (Tx.stage_game_state) writes it, and its token gives way to the digest.
        self.remember(key, game_row.stored_digest() or digest, state)
        return state

    def remember(self, game_id: int, digest: str | None, state: Any) -> None:
        """``state`` is the decoded state of the game's stored state, whose digest this is
        (None: not known, nothing kept)."""
        if digest is None:
            return
        with self._lock:
            self._states[game_id] = (digest, state)
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
