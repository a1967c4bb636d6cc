"""The words beside a U-Boat Shootout map, as rows of pieces: colour chips, text, arrows.

A row is what a picture prints on one line under the sea: the last round's blasts with
the boats hit and the damage, captures, each move's and ram's route drawn as arrows that
start nowhere (directions, never cells; "moved" alone under Fog), rams' struck tiles,
sinkings and crew joins (rules §4); then a row of the islands with their powers and
owners, and one of the U-boats with their crews. Built from a :class:`~bot.games.uboat.views.PublicView` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.grid import Direction
from bot.games.uboat.state import Phase
from bot.games.uboat.values import Colour
from bot.games.uboat.views import HitView, PublicView


@dataclass(frozen=True)
class Chip:
    """A boat's colour as a small hull."""

    colour: Colour


@dataclass(frozen=True)
class Words:
    text: str
    dim: bool = False
    alert: bool = False
    strong: bool = False  # a heading


@dataclass(frozen=True)
class Arrows:
    """A route as arrows, in the boat's colour."""

    colour: Colour
    route: tuple[Direction, ...]


Piece = Chip | Words | Arrows
Row = tuple[Piece, ...]


def _hits(hits: Sequence[HitView]) -> list[Piece]:
    if not hits:
        return [Words("no hit", dim=True)]
    pieces: list[Piece] = []
    for i, hit in enumerate(hits):
        comma = "," if i < len(hits) - 1 else ""
        pieces += [Chip(hit.boat), Words(f"{hit.boat.title} -{hit.damage}{comma}", alert=True)]
    return pieces


def round_rows(view: PublicView) -> list[Row]:
    """The last round's public facts, in the order they happened."""
    rows: list[Row] = []
    for blast in view.blasts:
        rows.append(
            (
                Chip(blast.shooter),
                Words(f"{blast.shooter.title} fired at {blast.cell}:"),
                *_hits(blast.hits),
            )
        )
    for capture in view.captures:
        taken = f" from {capture.previous.title}" if capture.previous else ""
        rows.append(
            (
                Chip(capture.boat),
                Words(f"{capture.boat.title} captured island {capture.island}{taken}"),
            )
        )
    for course in view.courses:
        head: list[Piece] = [Chip(course.boat)]
        if course.ram:
            head.append(Words(f"{course.boat.title} rammed"))
            if not course.fog:
                head.append(Arrows(course.boat, course.route))
            head += [Words(f"striking {course.struck}:"), *_hits(course.hits)]
        elif course.fog:
            head.append(Words(f"{course.boat.title} moved (fog)"))
        else:
            head += [Words(f"{course.boat.title}:"), Arrows(course.boat, course.route)]
        rows.append(tuple(head))
    for sinking in view.sinkings:
        freed = ""
        if sinking.freed:
            numbers = ", ".join(map(str, sinking.freed))
            freed = f"; island{'s' if len(sinking.freed) > 1 else ''} {numbers} free"
        rows.append(
            (Chip(sinking.boat), Words(f"{sinking.boat.title} was sunk{freed}", alert=True))
        )
    for join in view.joins:
        rows.append((Chip(join.crew), Words(f"{join.name} joined {join.crew.title}'s crew")))
    return rows


def heading(view: PublicView) -> str:
    """What the rows of :func:`round_rows` are about."""
    if not view.last_round:
        if view.phase is Phase.SETUP:
            return "Setup: each captain sends a secret starting cell by DM"
        return "The hunt begins"
    if not round_rows(view):
        return f"Round {view.last_round}: all quiet"
    return f"Round {view.last_round}"


def island_row(view: PublicView) -> Row | None:
    """The islands in one row: number, power, and the owner's colour when owned (the map
    shows where each is)."""
    if not view.islands:
        return None
    pieces: list[Piece] = [Words("Islands:", strong=True)]
    for index, island in enumerate(view.islands):
        power = f" {island.power.label}" if island.power else ""
        pieces.append(Words(f"{'· ' if index else ''}{island.number}{power}"))
        if island.owner is not None:
            pieces.append(Chip(island.owner))
    return tuple(pieces)


def boat_row(view: PublicView) -> Row:
    """The U-boats in one row: each colour with its crew (in setup: who joined)."""
    names = {p.id: p.name for p in view.players}
    pieces: list[Piece] = [Words("U-boats:", strong=True)]
    if view.phase is Phase.SETUP:
        for player in view.players:
            if player.colour is not None:
                pieces += [Chip(player.colour), Words(player.name)]
        return tuple(pieces)
    for boat in view.boats:
        crew = ", ".join(names.get(member, member) for member in boat.crew) or "no crew"
        if not boat.afloat:
            pieces += [Chip(boat.colour), Words(f"{crew} (sunk)", dim=True)]
        else:
            pieces += [
                Chip(boat.colour),
                Words(crew + (" (may evade)" if boat.evade_window else "")),
            ]
    return tuple(pieces)


def status(view: PublicView) -> str:
    if view.phase is Phase.SETUP:
        return "Setup"
    if view.phase is Phase.FINISHED:
        return "Finished"
    return f"Round {view.round} of {view.rounds}"


def result(view: PublicView) -> str | None:
    """How the game ended, in a line (None while it runs)."""
    if view.phase is not Phase.FINISHED:
        return None
    names = {p.id: p.name for p in view.players}
    winners = ", ".join(names.get(w, w) for w in view.winners) or "no one"
    boats = " and ".join(colour.title for colour in view.winning_boats)
    if view.draw:
        return f"A draw{' between ' + boats if boats else ''}: {winners}"
    return f"{boats} wins: {winners}"


def scores(view: PublicView) -> str | None:
    if not view.scores:
        return None
    return "Islands: " + ", ".join(f"{colour.title} {total}" for colour, total in view.scores)
