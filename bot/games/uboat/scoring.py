"""The end of a U-Boat Shootout game (``shared/rules/uboat.md`` §6).

When one U-boat is left, its crew wins. When the last U-boats are destroyed in
the same round, it is a draw between their crews. After ``rounds`` rounds the
crew whose islands' numbers sum highest wins; a tie goes to the crew holding the
single largest-numbered island among the tied (numbers are distinct, so a tie
above 0 always has a winner); tied crews holding no island draw.

The awards (§6, "Awards") change neither the winners nor the standings: a mark of
victory to each winning boat's captain (none on a draw), and the First Duelist, the
player who joined the losing boat's crew last (its captain if no one joined it). The
losing boat is the one that went down last when one boat is left (the earliest
colour of several), the runner-up afloat after the last round; a draw has none.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from bot.games.base import PlayerId
from bot.games.uboat.state import Ending, UboatState
from bot.games.uboat.values import Colour


def island_sums(state: UboatState) -> tuple[tuple[Colour, int], ...]:
    """Every boat afloat → the sum of its islands' numbers, in colour order."""
    return tuple(
        (boat.colour, sum(island.number for island in state.islands_of(boat.colour)))
        for boat in state.afloat
    )


def by_name(state: UboatState, players: Iterable[PlayerId]) -> tuple[PlayerId, ...]:
    """Players sorted by name (the record's order for winners), then id."""

    def key(player: PlayerId) -> tuple[str, str]:
        found = state.player(player)
        return (found.name if found else "", player)

    return tuple(sorted(set(players), key=key))


def crews(state: UboatState, boats: Iterable[Colour]) -> tuple[PlayerId, ...]:
    return by_name(state, (p.id for colour in boats for p in state.crew_of(colour)))


def last_boat_standing(state: UboatState) -> Ending:
    """One boat afloat: its crew wins."""
    (boat,) = state.afloat
    return Ending(crews(state, [boat.colour]), False, (boat.colour,), island_sums(state))


def sunk_together(winners: Sequence[PlayerId], boats: Sequence[Colour]) -> Ending:
    """The last boats sank in the same round: a draw between their crews."""
    return Ending(tuple(winners), True, tuple(boats), ())


def count_islands(state: UboatState) -> Ending:
    """After the last round: the highest island sum wins; ties as the rules say."""
    sums = island_sums(state)
    best = max(total for _, total in sums)
    tied = [colour for colour, total in sums if total == best]
    if len(tied) > 1 and best > 0:
        largest = max(
            (island.number, colour) for colour in tied for island in state.islands_of(colour)
        )
        tied = [largest[1]]
    return Ending(crews(state, tied), len(tied) > 1, tuple(tied), sums)


def host_ends(state: UboatState) -> Ending:
    """The host ended the game: a draw between every crew afloat (in setup: everyone)."""
    if not state.boats:
        return Ending(by_name(state, (p.id for p in state.present)), True, (), ())
    afloat = [boat.colour for boat in state.afloat]
    return Ending(crews(state, afloat), True, tuple(afloat), island_sums(state))


def runner_up(state: UboatState, ending: Ending) -> Colour | None:
    """After the last round with a winner: the best boat afloat that did not win (the
    highest island sum, then the single largest island, then the earliest colour)."""
    if ending.draw:
        return None

    def rank(colour: Colour) -> tuple[int, int, int]:
        numbers = [island.number for island in state.islands_of(colour)]
        return (sum(numbers), max(numbers, default=0), -colour.index)

    others = [boat.colour for boat in state.afloat if boat.colour not in ending.boats]
    return max(others, key=rank, default=None)


def with_awards(state: UboatState, ending: Ending, losing: Colour | None) -> Ending:
    """``ending`` with its marks of victory and its First Duelist (``losing``: the
    losing boat, None where there is none)."""
    if ending.draw:
        return ending
    captains = (boat.captain for boat in state.boats if boat.colour in ending.boats)
    marks = by_name(state, (captain for captain in captains if captain in ending.winners))
    duelist = None
    if losing is not None:
        joined = [player for player, crew in state.joins if crew is losing]
        boat = state.boat(losing)
        duelist = joined[-1] if joined else boat.captain if boat else None
    return replace(ending, marks=marks, first_duelist=duelist)


def finished_event_data(ending: Ending) -> dict[str, object]:
    return {
        "winners": list(ending.winners),
        "draw": ending.draw,
        "boats": [colour.value for colour in ending.boats],
        "scores": {colour.value: total for colour, total in ending.scores},
        "marks": list(ending.marks),
        "first_duelist": ending.first_duelist,
    }
