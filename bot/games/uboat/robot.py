"""A simulated U-Boat Shootout crew for ``bst demo`` (``ROBOT``; :class:`bot.games.base.Robot`).

It plays from its own view only — its boat's cell, health and range, and what was
announced to everyone — and always legally (every target within range, every route
clear of islands, checked as the rules check them). In setup it sends a random starting
cell of water. Each round, once, in this order of concern:

1. **Evade**: its boat was damaged and the evade window is open — an unseen move of 2 or
   3 steps, since everyone heard where the hit landed; its round order waits for the
   window to close (from the new cell, range and routes differ).
2. **A target**: the last round told where an enemy is — a boat hit squarely by a blast
   did not move, and a ram's struck tile and route give the rammer's cell (unless Fog
   hid it). It fires there when in range and not on its own doorstep, else rams it.
3. **Hunting** half the time: a tile within range at random, or now and then a ram along
   a random route (the seed's matches are duels: boats get hit, evade, ram and sink).
4. **An island**: one within range that it does not hold — it fires to capture it, the
   biggest number first (numbers decide the game); else, now and then, hunting again.
5. **Sailing**: else it moves to where it can fire at an island it does not hold next
   round (or at random, far, when it has one health left), which also lets its firing
   range recover.

A sunk boat's player asks to join the crew holding the most islands. Nothing here reads
another crew's hidden facts: everything comes from
:class:`~bot.games.uboat.views.PrivateView`.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from bot.games.base import PlayerId, Said
from bot.games.grid import Direction
from bot.games.uboat.cells import MAX_STEPS, Cell, Route, Sea, route_text
from bot.games.uboat.state import Phase
from bot.games.uboat.values import Colour
from bot.games.uboat.views import OwnBoatView, PrivateView, PublicView

ROUTES: tuple[Route, ...] = tuple(
    route
    for length in range(1, MAX_STEPS + 1)
    for route in itertools.product(tuple(Direction), repeat=length)
)
"""Every route a move, ram or evasion may take (84 of them)."""

BLIND_SHOT = 0.4
"""How often a crew with nothing in sight and no island in range fires at a tile at random."""
HUNT = 0.5
"""How often a crew with nothing in sight hunts (fires at a tile at random) before it
takes an island in range: the seed's matches are duels as much as a race for islands."""
BLIND_RAM = 0.3
"""How often a hunt rams along a random clear route instead of firing: a ram strikes one
tile, not a cross, but moves the boat away from where it was last heard."""
FULL_RANGE = 3
"""A boat's range after a round without fire (without Long guns)."""


def sea_of(public: PublicView) -> Sea:
    return Sea(public.size, frozenset(island.cell for island in public.islands))


def clear_routes(sea: Sea, start: Cell) -> list[Route]:
    """The routes from ``start`` that enter no island (the rules' check)."""
    return [route for route in ROUTES if sea.blocked_step(start, route) is None]


def sightings(public: PublicView, own: Colour) -> dict[Colour, Cell]:
    """Where the last round's public facts put enemy boats as it ended.

    A boat hit squarely by a blast (2 damage or more) was on the tile and, being hit by
    fire, did not move; a rammer ended one step short of its struck tile, back along its
    last step (its route is public unless Fog); a boat hit by a ram was on the struck tile
    after every move. Boats now sunk, and one's own, are left out."""
    sea = sea_of(public)
    seen: dict[Colour, Cell] = {}
    for blast in public.blasts:
        for hit in blast.hits:
            if hit.damage >= 2:
                seen[hit.boat] = blast.cell
    for course in public.courses:
        if course.struck is None:
            continue
        if course.route:
            seen[course.boat] = sea.step(course.struck, course.route[-1].opposite)
        for hit in course.hits:
            seen[hit.boat] = course.struck
    afloat = {boat.colour for boat in public.boats if boat.afloat}
    return {colour: cell for colour, cell in seen.items() if colour in afloat and colour != own}


class UboatRobot:
    """The simulated crew (``ROBOT``)."""

    # A match for four, as the seed played it: a demo shows sinkings, crew changes, rams
    # and evasions.
    demo_players = 4

    def orders(self, view: Any, player: PlayerId, rng: random.Random) -> list[Said]:
        if not isinstance(view, PrivateView):
            return []  # not (or no longer) in the game
        public = view.public
        if public.phase is Phase.SETUP:
            if view.start is not None:
                return []
            return [Said(f"start {rng.choice(sea_of(public).water())}", public=False)]
        if public.phase is not Phase.BATTLE:
            return []
        if view.adrift:
            return self._crew(view)
        boat = view.boat
        if boat is None:
            return []
        if boat.evade_window:
            # The round's order waits for the window to close: from the new cell, what is
            # in range and which routes are clear will differ.
            return [] if boat.evasion is not None else [self._evade(public, boat, rng)]
        if boat.standing is None:
            return [self._round_order(public, boat, rng)]
        return []

    # --- the sunk ------------------------------------------------------------------------

    def _crew(self, view: PrivateView) -> list[Said]:
        if view.crew_choice is not None or not view.crew_choices:
            return []
        held = {colour: 0 for colour in view.crew_choices}
        for island in view.public.islands:
            if island.owner in held:
                held[island.owner] += island.number
        best = max(view.crew_choices, key=lambda colour: (held[colour], -colour.index))
        return [Said(f"crew {best.value}", public=False)]

    # --- the window ----------------------------------------------------------------------

    def _evade(self, public: PublicView, boat: OwnBoatView, rng: random.Random) -> Said:
        routes = [r for r in clear_routes(sea_of(public), boat.cell) if len(r) >= 2]
        route = rng.choice(routes or clear_routes(sea_of(public), boat.cell))
        return Said(f"evade {route_text(route)}", public=False)

    # --- the round ------------------------------------------------------------------------

    def _round_order(self, public: PublicView, boat: OwnBoatView, rng: random.Random) -> Said:
        sea = sea_of(public)
        targets = sightings(public, boat.colour)
        for colour in sorted(targets, key=lambda c: sea.distance(boat.cell, targets[c])):
            order = self._attack(sea, boat, targets[colour])
            if order is not None:
                return Said(order, public=False)
        blind = [tile for tile in sea.water() if 2 <= sea.distance(boat.cell, tile) <= boat.range]
        if rng.random() < HUNT:
            rams = [route for route in clear_routes(sea, boat.cell) if len(route) >= 2]
            if rams and rng.random() < BLIND_RAM:
                return Said(f"ram {route_text(rng.choice(rams))}", public=False)
            if blind:
                return Said(f"fire {rng.choice(blind)}", public=False)
        islands = sorted(
            (
                island
                for island in public.islands
                if island.owner is not boat.colour
                and sea.distance(boat.cell, island.cell) <= boat.range
                and sea.distance(boat.cell, island.cell) >= 2  # its cross would reach us
            ),
            key=lambda island: -island.number,
        )
        if islands:
            return Said(f"fire {islands[0].cell}", public=False)
        if blind and rng.random() < BLIND_SHOT:
            return Said(f"fire {rng.choice(blind)}", public=False)
        return Said(f"move {route_text(self._sail(sea, public, boat, rng))}", public=False)

    def _attack(self, sea: Sea, boat: OwnBoatView, target: Cell) -> str | None:
        """Fire at ``target`` if it is in range and not beside us; else ram it if a clear
        route ends one step short of it; else None."""
        distance = sea.distance(boat.cell, target)
        if 2 <= distance <= boat.range:
            return f"fire {target}"
        rams = [
            route
            for route in clear_routes(sea, boat.cell)
            if sea.struck_tile(boat.cell, route) == target
            and sea.end_of(boat.cell, route) != target
        ]
        if rams:
            return f"ram {route_text(min(rams, key=len))}"
        return None

    def _sail(self, sea: Sea, public: PublicView, boat: OwnBoatView, rng: random.Random) -> Route:
        """Toward a cell from which an island it does not hold can be fired at next round
        (2 or 3 away: closer, the blast would reach the boat itself)."""
        routes = clear_routes(sea, boat.cell)
        goals = [island.cell for island in public.islands if island.owner is not boat.colour]
        if boat.health <= 1 or not goals:
            return rng.choice([route for route in routes if len(route) == MAX_STEPS] or routes)

        def shortfall(route: Route) -> int:
            end = sea.end_of(boat.cell, route)
            gaps = (sea.distance(end, goal) for goal in goals)
            return min(max(2 - gap, gap - FULL_RANGE, 0) for gap in gaps)

        best = min(shortfall(route) for route in routes)
        return rng.choice([route for route in routes if shortfall(route) == best])


ROBOT = UboatRobot()
