"""U-Boat Shootout's final standings: the winning crew first, then every boat by its
island score (the game's own measure); each player is placed with the crew they ended
on, and named with their boat, its health and its score. Places count crews (1, 1, 2):
a crew shares its place."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import PlayerId, Standing, Step
from bot.games.standings import plural
from bot.games.uboat.state import Phase, UboatState


def standings(state: UboatState, history: Sequence[Step]) -> tuple[Standing, ...]:
    ending = state.ending
    if state.phase is not Phase.FINISHED or ending is None:
        return ()
    scores = dict(ending.scores)
    boats = {boat.colour: boat for boat in state.boats}
    players = [p.id for p in state.players if p.colour is not None or p.crew is not None]
    on = {p.id: p.crew for p in state.players}

    def figures(player: PlayerId) -> tuple[str, ...]:
        crew = on.get(player)
        if crew is None:
            return ("adrift at the end",)
        boat = boats.get(crew)
        health = "sunk" if boat is None or boat.health <= 0 else f"health {boat.health}"
        return (f"{crew.value} boat", health, plural(scores.get(crew, 0), "point"))

    def key(player: PlayerId) -> tuple[int, int]:
        crew = on.get(player)
        return (1 if player in ending.winners else 0, scores.get(crew, -1) if crew else -1)

    # Places count crews, not people: a winning crew of two shares 1st, and the boat that
    # came next is 2nd (not "3rd, shared" for each of its crew).
    keys = {p: key(p) for p in players}
    better = sorted(set(keys.values()), reverse=True)
    place = {p: better.index(keys[p]) + 1 for p in players}
    order = sorted(players, key=lambda p: (place[p], players.index(p)))
    return tuple(Standing(p, place[p], figures(p)) for p in order)
