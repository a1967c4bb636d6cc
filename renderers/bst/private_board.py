"""A captain's private board (rules §6): the public map plus the viewer's own ships (damage
marked, sunk ships darker) and the viewer's own collisions of the turn just resolved.

Everything drawn comes from the :class:`~bot.games.bst.views.PrivateView`, which holds only
the viewer's own ships, so another captain's fleet cannot change this picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from PIL import Image, ImageDraw

from bot.games.bst.cells import Cell
from bot.games.bst.views import OwnShipView, PrivateView
from renderers import grid, marks, style
from renderers.bst.public_map import BADGE, Layer, LegendItem, MapExtras, compose_map
from renderers.encode import png_bytes
from renderers.grid import GridLayout


def ship_text(ship: OwnShipView) -> str:
    """``carrier C1-C5 (hit C3)``, ``submarine A2``, ``cruiser E5-G5 (sunk)``."""
    ordered = sorted(ship.cells)
    where = str(ordered[0]) if len(ordered) == 1 else f"{ordered[0]}-{ordered[-1]}"
    if ship.destroyed:
        return f"{ship.kind.value} {where} (sunk)"
    if ship.damaged:
        return f"{ship.kind.value} {where} (hit {', '.join(str(c) for c in sorted(ship.damaged))})"
    return f"{ship.kind.value} {where}"


def fleet_line(view: PrivateView) -> str:
    if not view.ships:
        return "Your fleet: no ships placed yet"
    return "Your fleet: " + ", ".join(ship_text(s) for s in view.ships)


def badged_cells(view: PrivateView) -> frozenset[Cell]:
    """The viewer's damaged cells someone shot this turn: each gets a badge in its corner,
    out of the shooters' way (:data:`renderers.bst.public_map.BADGED_FAN`)."""
    shot_at = {shot.cell for shot in view.public.shots}
    return frozenset(cell for ship in view.ships for cell in ship.damaged if cell in shot_at)


def private_layers(view: PrivateView) -> tuple[list[Layer], list[Layer]]:
    """What the viewer's board adds to the public map, as (layers under the shots, layers
    over them): their own ships and damage, their collisions. The one picture and the
    tiles of a big board (:mod:`renderers.bst.tiles`) draw the same layers."""
    shot_at = {shot.cell for shot in view.public.shots}

    def ships(image: Image.Image, layout: GridLayout) -> None:
        for ship in view.ships:
            fill = style.OWN_SHIP_SUNK if ship.destroyed else style.OWN_SHIP
            grid.hull(image, layout, ship.cells, fill, style.OWN_SHIP_EDGE)
        for ship in view.ships:
            for cell in sorted(ship.damaged):
                if not layout.on_board(cell) or (layout.detailed and cell in shot_at):
                    continue  # (drawn over the shooters' avatars: see damage_badges)
                box = layout.box(cell)
                if layout.detailed:
                    c = layout.cell
                    marks.cross(image, marks.inset(box, c * 0.24), style.TEXT, c * 0.16)
                    marks.cross(image, marks.inset(box, c * 0.27), style.HIT, c * 0.1)
                else:
                    grid.cell_marker(image, layout, cell, style.HIT)

    def damage_badges(image: Image.Image, layout: GridLayout) -> None:
        """Damage where someone shot this turn: a badge in the cell's corner, which the
        shooters' avatars leave free, so that neither hides the other."""
        if not layout.detailed:
            return
        c = layout.cell
        radius = c * BADGE
        for ship in view.ships:
            for cell in sorted(ship.damaged & shot_at):
                if not layout.on_board(cell):
                    continue
                _, _, x1, y1 = layout.box(cell)
                centre = (x1 - radius - 1, y1 - radius - 1)
                marks.disc(image, centre, radius, style.TEXT)
                marks.disc(image, centre, radius * 0.82, style.BACKGROUND)
                box = (
                    round(centre[0] - radius * 0.55),
                    round(centre[1] - radius * 0.55),
                    round(centre[0] + radius * 0.55),
                    round(centre[1] + radius * 0.55),
                )
                marks.cross(image, box, style.HIT, max(2.0, radius * 0.3))

    def collisions(image: Image.Image, layout: GridLayout) -> None:
        draw = ImageDraw.Draw(image)
        for cell in sorted(set(view.collisions)):
            if not layout.on_board(cell):
                continue
            x0, y0, x1, y1 = layout.box(cell)
            if not layout.detailed:
                draw.rectangle((x0 - 1, y0 - 1, x1, y1), outline=style.COLLISION)
                continue
            width = max(3, layout.cell // 10)
            draw.rectangle((x0, y0, x1, y1), outline=style.COLLISION, width=width)
            radius = layout.cell * 0.2
            spot = (x1 - radius - 1, y0 + radius + 1)
            marks.disc(image, spot, radius, style.COLLISION)
            draw.text(
                spot,
                "!",
                font=style.font(max(9, round(radius * 1.6))),
                fill=style.BACKGROUND,
                anchor="mm",
            )

    return [ships], [damage_badges, collisions]


def render_private_board(
    view: PrivateView,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    avatars: Mapping[str, Image.Image] | None = None,
) -> bytes:
    """The viewer's board as PNG bytes. Same arguments, same bytes."""
    under_shots, over_shots = private_layers(view)
    extras = MapExtras(
        lines=[f"{view.viewer_name}'s board. {fleet_line(view)}"],
        legend=[LegendItem("own", "your ship"), LegendItem("damage", "damage")]
        + ([LegendItem("collision", "collision")] if view.collisions else []),
        under_shots=under_shots,
        over_shots=over_shots,
        badged=badged_cells(view),
    )
    image = compose_map(
        view.public, title=title, deadline=deadline, now=now, avatars=avatars, extras=extras
    )
    return png_bytes(image)
