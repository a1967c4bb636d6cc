"""Silent Ships states for the picture tests, made by playing orders through the game
object itself (the same rules as the host), so that the views drawn are real ones.

``play(lines)`` takes ``NAME: ORDER`` lines (``ahab: play frigate at D1``; ``!`` in front
sends it in public) after a start with listed decks, and returns the state after each line.
"""

from __future__ import annotations

import random

from bot.games.base import Channel, PlayerRef
from bot.games.silentships import SILENT_SHIPS, SilentShipsState

GAME = SILENT_SHIPS
PLAYERS = {"ahab": "p1", "nemo": "p2"}

FIRST_GAME_OPTIONS = {
    "first": "joined",
    "deck1": "frigate,salvage,ram,speed,patrol",
    "deck2": "sub,missile,fire,ammo,flag",
}
FIRST_GAME = (
    "ahab: play frigate at D1",
    "ahab: move D1 to D2 discard patrol",
    "ahab: play ram at C1",
    "ahab: !end",
    "nemo: play sub at D4",
    "nemo: move D4 to D3 discard fire",
    "nemo: play missile at C4",
    "nemo: !end",
    "ahab: move C1 to C2 discard salvage",
    "ahab: move C2 to C3 discard specops",
    "ahab: move D2 to D3 discard speed",
    "ahab: support from C3 discard fire",
    "ahab: !go",
    "nemo: pass",
)
"""shared/examples/silentships-first-game.txt, as orders: an attack with a support that
sinks a Submarine."""

AFTER_GO = FIRST_GAME.index("ahab: !go") + 1
AFTER_COMBAT = len(FIRST_GAME)


def started(options: dict[str, str]) -> SilentShipsState:
    state = GAME.rules.new_game(options)
    for name, pid in PLAYERS.items():
        state = GAME.rules.join(state, PlayerRef(pid, name))
    return GAME.rules.start(state, random.Random(0), None).state


def play(lines: tuple[str, ...], options: dict[str, str] | None = None) -> list[SilentShipsState]:
    """The state after the start, then after each line."""
    state = started(FIRST_GAME_OPTIONS if options is None else options)
    states = [state]
    for line in lines:
        name, text = line.split(": ", 1)
        channel = Channel.PUBLIC if text.startswith("!") else Channel.PRIVATE
        player = PLAYERS[name]
        accepted = GAME.rules.accept(
            state, player, GAME.rules.parse(text.lstrip("!")), channel, random.Random(1)
        )
        state = accepted.state
        if accepted.resolve_now:
            state = GAME.rules.resolve(state, (), random.Random(2)).state
        states.append(state)
    return states


def first_game() -> list[SilentShipsState]:
    return play(FIRST_GAME)


FLAG_SHIP_GAME_OPTIONS = {
    "first": "joined",
    "deck1": "speed,frigate,patrol,sub,ram",
    "deck2": "flag,fire,salvage,missile,ammo",
}
FLAG_SHIP_GAME = (
    "ahab: play speed at C1",
    "ahab: !reveal C1",
    "ahab: move C1 to C3 discard patrol",
    "ahab: play frigate at D1",
    "ahab: move D1 to D2 discard sub",
    "ahab: end",
    "nemo: play flag at C4",
    "nemo: end",
    "ahab: move D2 to D3 discard salvage",
    "ahab: move D3 to D4 discard specops",
    "ahab: end",
    "nemo: end",
    "ahab: move C3 to C4 discard ram",
    "ahab: support from D4 discard fire",
    "ahab: !go",
    "nemo: pass",
)
"""tests/games/silentships/scripts/s5_flag_ship_sunk.txt, as orders: a game that ends."""


def flag_ship_game() -> list[SilentShipsState]:
    return play(FLAG_SHIP_GAME, FLAG_SHIP_GAME_OPTIONS)
