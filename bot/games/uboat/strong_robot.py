"""U-Boat Shootout's ``strong`` robot (:class:`StrongUboatRobot`): it keeps, for every other
boat, the cells it can be on given every public route, blast and hit, fires where that
does most harm or takes the best island, and keeps clear of the tiles others aim at.

From its own :class:`~bot.games.uboat.views.PrivateView` alone, round after round
(``shared/rules/uboat.md`` §3-§4):

* **Where each boat can be.** Anywhere at first. An evasion (a boat damaged last round may
  make one, unseen) lets it be up to three steps further; a blast's shooter was within
  range of its tile; a boat hit squarely was on the tile, one hit by the edge beside it,
  one not hit was not in the cross; a public route moves every cell it can be on along
  it (Fog: up to three steps anywhere); a ram's struck tile puts the rammer one step
  short of it and the struck boat on it.
* **A shot.** The tile within range (and not next to itself: its cross would reach it)
  where the blast's expected damage, over where the boats can be, is highest; it fires
  there when a square hit is likely enough, else at the biggest island it does not hold.
  In the last round an island outranks any shot: the islands' numbers decide the game.
* **Where to be.** Out of every island's cross (others fire at islands), two or three
  steps from the islands it wants, and moving (a round without fire restores range).

Pure: no I/O, randomness only from the source it is given.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import PlayerId, Said
from bot.games.grid import Direction
from bot.games.uboat.cells import Cell, Route, Sea, route_text
from bot.games.uboat.robot import clear_routes, sea_of
from bot.games.uboat.state import Phase
from bot.games.uboat.values import Colour
from bot.games.uboat.views import OwnBoatView, PrivateView, PublicView

MOST_RANGE = 4
"""The most a shooter can reach (3, with Long guns 4)."""
EVADE_STEPS = 3
SQUARE_HIT = 0.45
"""A shot at a boat is fired when a square hit is at least this likely."""


@dataclass
class Tracker:
    """One crew's memory: where each other boat can be, as the last round it read ended."""

    rounds_read: int = 0
    where: dict[Colour, set[Cell]] = field(default_factory=dict)
    damaged: set[Colour] = field(default_factory=set)

    def read(self, public: PublicView, own: Colour) -> None:
        """Take in the last round's public facts (once a round)."""
        sea = sea_of(public)
        water = set(sea.water())
        afloat = {boat.colour for boat in public.boats if boat.afloat and boat.colour != own}
        for colour in afloat:
            self.where.setdefault(colour, set(water))
        for colour in list(self.where):
            if colour not in afloat:
                del self.where[colour]
        if public.last_round <= self.rounds_read or public.last_round == 0:
            return
        self.rounds_read = public.last_round
        for colour in self.damaged & set(self.where):
            self.where[colour] = _within(sea, self.where[colour], EVADE_STEPS)
        hit_now: set[Colour] = set()
        for blast in public.blasts:
            if blast.shooter in self.where:
                self.where[blast.shooter] = {
                    c
                    for c in self.where[blast.shooter]
                    if sea.distance(c, blast.cell) <= MOST_RANGE
                }
            cross = set(sea.cross(blast.cell))
            hits = {hit.boat: hit.damage for hit in blast.hits}
            for colour, cells in self.where.items():
                damage = hits.get(colour)
                if damage is None:
                    self.where[colour] = cells - cross
                elif damage >= 2:
                    self.where[colour] = cells & {blast.cell}
                    hit_now.add(colour)
                else:
                    self.where[colour] = cells & (cross - {blast.cell})
                    hit_now.add(colour)
        for course in public.courses:
            before = self.where.get(course.boat)
            if before is None:
                continue
            if course.fog:
                moved = _within(sea, before, EVADE_STEPS)
            else:
                moved = {
                    sea.end_of(c, course.route)
                    for c in before
                    if sea.blocked_step(c, course.route) is None
                }
            if course.struck is not None and course.route and not course.fog:
                moved = {sea.step(course.struck, course.route[-1].opposite)}
            self.where[course.boat] = moved
            if course.struck is not None:
                for hit in course.hits:
                    if hit.boat in self.where:
                        self.where[hit.boat] = {course.struck}
                    hit_now.add(hit.boat)
        for colour, cells in self.where.items():
            if not cells:
                self.where[colour] = set(water)  # what was seen cannot be: start afresh
        self.damaged = hit_now


def _within(sea: Sea, cells: set[Cell], steps: int) -> set[Cell]:
    """Every water cell a boat on ``cells`` can reach in up to ``steps`` steps."""
    reached = set(cells)
    edge = set(cells)
    islands = sea.islands
    for _ in range(steps):
        nxt = set()
        for cell in edge:
            for direction in Direction:
                step = sea.step(cell, direction)
                if step not in islands and step not in reached:
                    nxt.add(step)
        reached |= nxt
        edge = nxt
    return reached


class StrongUboatRobot:
    """U-Boat Shootout's ``strong`` robot: one :class:`Tracker` a player."""

    demo_players = 4

    def __init__(self) -> None:
        self._trackers: dict[PlayerId, Tracker] = {}

    def orders(self, view: Any, player: PlayerId, rng: random.Random) -> list[Said]:
        if not isinstance(view, PrivateView):
            return []
        public = view.public
        if public.phase is Phase.SETUP:
            self._trackers[player] = Tracker()
            if view.start is not None:
                return []
            return [Said(f"start {self._start(public, rng)}", public=False)]
        if public.phase is not Phase.BATTLE:
            return []
        if view.adrift:
            return self._crew(view)
        boat = view.boat
        if boat is None:
            return []
        tracker = self._trackers.setdefault(player, Tracker())
        tracker.read(public, boat.colour)
        if boat.evade_window:
            if boat.evasion is not None:
                return []
            return [Said(f"evade {route_text(self._evade(public, boat, rng))}", public=False)]
        if boat.standing is not None:
            return []
        return [Said(self._round_order(public, boat, tracker, rng), public=False)]

    # --- setup and the sunk -----------------------------------------------------------

    def _start(self, public: PublicView, rng: random.Random) -> Cell:
        sea = sea_of(public)
        safe = [c for c in sea.water() if self._exposure(sea, public, c) == 0]
        return rng.choice(safe or sea.water())

    def _crew(self, view: PrivateView) -> list[Said]:
        if view.crew_choice is not None or not view.crew_choices:
            return []
        held = {colour: 0 for colour in view.crew_choices}
        for island in view.public.islands:
            if island.owner in held:
                held[island.owner] += island.number
        best = max(view.crew_choices, key=lambda colour: (held[colour], -colour.index))
        return [Said(f"crew {best.value}", public=False)]

    # --- judging cells ------------------------------------------------------------------

    @staticmethod
    def _exposure(sea: Sea, public: PublicView, cell: Cell) -> int:
        """How many islands' crosses cover ``cell`` (others fire at islands)."""
        return sum(cell in sea.cross(island.cell) for island in public.islands)

    def _place_worth(self, sea: Sea, public: PublicView, boat: OwnBoatView, cell: Cell) -> float:
        """How good a cell is to fire at islands from next round: the islands it does not
        hold within 2-3 steps, by number, less the danger of an island's cross."""
        worth = 0.0
        for island in public.islands:
            if island.owner is boat.colour:
                continue
            if 2 <= sea.distance(cell, island.cell) <= 3:
                worth = max(worth, float(island.number))
        return worth - 20.0 * self._exposure(sea, public, cell)

    # --- the window -----------------------------------------------------------------------

    def _evade(self, public: PublicView, boat: OwnBoatView, rng: random.Random) -> Route:
        sea = sea_of(public)
        routes = clear_routes(sea, boat.cell)

        def worth(route: Route) -> tuple[float, int, float]:
            end = sea.end_of(boat.cell, route)
            return (
                self._place_worth(sea, public, boat, end),
                sea.distance(boat.cell, end),
                rng.random(),
            )

        return max(routes, key=worth)

    # --- the round ----------------------------------------------------------------------

    def _round_order(
        self, public: PublicView, boat: OwnBoatView, tracker: Tracker, rng: random.Random
    ) -> str:
        sea = sea_of(public)
        last = public.round >= public.rounds
        where = {
            colour: (_within(sea, cells, EVADE_STEPS) if colour in tracker.damaged else cells)
            for colour, cells in tracker.where.items()
        }
        tiles = [c for c in sea.cells() if 2 <= sea.distance(boat.cell, c) <= boat.range]
        best_tile, best_square, best_damage = None, 0.0, 0.0
        for tile in tiles:
            cross = set(sea.cross(tile))
            square = damage = 0.0
            for cells in where.values():
                if tile in cells:
                    square += 1 / len(cells)
                damage += (len(cells & cross) + (tile in cells)) / len(cells)
            if (square, damage) > (best_square, best_damage):
                best_tile, best_square, best_damage = tile, square, damage
        islands = sorted(
            (
                island
                for island in public.islands
                if island.owner is not boat.colour
                and 2 <= sea.distance(boat.cell, island.cell) <= boat.range
            ),
            key=lambda island: -island.number,
        )
        if islands and (last or best_square < SQUARE_HIT):
            return f"fire {islands[0].cell}"
        if best_tile is not None and best_square >= SQUARE_HIT:
            return f"fire {best_tile}"
        routes = clear_routes(sea, boat.cell)
        scored = [
            (self._place_worth(sea, public, boat, sea.end_of(boat.cell, r)), rng.random(), r)
            for r in routes
        ]
        return f"move {route_text(max(scored)[2])}"


STRONG_ROBOT = StrongUboatRobot()
