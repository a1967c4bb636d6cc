"""A crew's private board (rules §4): the public map plus its own U-boat — where it is, its
health, the tiles within its firing range this round — what stands for it, and its private
news (Sonar, an evasion, a cancelled move, the Dry dock). In setup, the starting cell sent.

Everything drawn comes from the :class:`~bot.games.uboat.views.PrivateView`, which holds
the viewer's own boat only: another boat's cell cannot change this picture.
"""

from __future__ import annotations

from datetime import datetime

from PIL import Image

from bot.games.uboat.state import Phase
from bot.games.uboat.views import OwnBoatView, PrivateView
from renderers import style
from renderers.grid import GridLayout
from renderers.style import RGB
from renderers.uboat import sea
from renderers.uboat.maps import Extras, Key, compose


def _health(health: int) -> str:
    return f"{health}/3"


def own_lines(view: PrivateView) -> list[tuple[str, RGB]]:
    """The header lines only this crew sees."""
    lines: list[tuple[str, RGB]] = []
    boat = view.boat
    if boat is not None:
        role = "captain" if boat.captain else "crew"
        lines.append(
            (
                f"{view.name} ({role}), {boat.colour.title}: at {boat.cell}, health "
                f"{_health(boat.health)}, range {boat.range}",
                sea.boat_rgb(boat.colour) if boat.colour.value != "blue" else style.TEXT,
            )
        )
        if view.public.phase is Phase.BATTLE:
            lines.append((f"This round: {boat.standing or 'hold'}", style.TEXT))
            if boat.evade_window:
                lines.append(
                    (f"Evade window open: {boat.evasion or 'no evasion sent'}", style.TEXT)
                )
        news = _news(boat)
        if news:
            lines.append(("; ".join(news), style.TEXT_DIM))
    elif view.adrift:
        choices = ", ".join(colour.value for colour in view.crew_choices)
        chosen = f" (you chose {view.crew_choice.title})" if view.crew_choice else ""
        lines.append((f"{view.name}: sunk. Join a crew: crew {choices}{chosen}", style.TEXT))
    elif view.public.phase is Phase.SETUP:
        where = f"your starting cell is {view.start}" if view.start else "no starting cell yet"
        lines.append((f"{view.name}: {where}", style.TEXT))
    return lines


def _news(boat: OwnBoatView) -> list[str]:
    news = []
    if boat.evaded is not None:
        route, cell = boat.evaded
        news.append(f"evaded {', '.join(step.value for step in route)} to {cell}")
    if boat.sonar is not None:
        news.append(f"Sonar: nearest enemy {boat.sonar} away")
    if boat.cancelled:
        news.append(f"your {boat.cancelled} was cancelled by a hit")
    if boat.healed is not None:
        news.append(f"Dry dock: health {boat.healed}")
    return news


def _range_layer(view: PrivateView) -> sea.Layer | None:
    boat = view.boat
    if boat is None or view.public.phase is not Phase.BATTLE:
        return None
    size = view.public.size
    islands = {island.cell for island in view.public.islands}

    def layer(image: Image.Image, layout: GridLayout) -> None:
        for cell in sea.within(size, boat.cell, boat.range):
            if cell != boat.cell and cell not in islands:
                sea.draw_reach(image, layout, cell, boat.colour)

    return layer


def _boat_layer(view: PrivateView) -> sea.Layer | None:
    boat = view.boat
    if boat is not None:

        def own(image: Image.Image, layout: GridLayout) -> None:
            sea.draw_boat(image, layout, boat.cell, boat.colour, afloat=boat.health > 0)
            sea.draw_health(image, layout, boat.cell, boat.health, slot=0, slots=1)

        return own
    start = view.start
    if start is not None and view.public.phase is Phase.SETUP:

        def starting(image: Image.Image, layout: GridLayout) -> None:
            sea.draw_start(image, layout, start)

        return starting
    return None


def _keys(view: PrivateView) -> tuple[Key, ...]:
    boat = view.boat
    if boat is not None:
        own = Key("own", "your U-boat", boat.colour)
        if view.public.phase is Phase.BATTLE:
            return (own, Key("range", "in range", boat.colour))
        return (own,)
    if view.start is not None and view.public.phase is Phase.SETUP:
        return (Key("start", "your start"),)
    return ()


def compose_board(
    view: PrivateView, *, title: str, deadline: datetime | None, now: datetime | None
) -> Image.Image:
    layers = tuple(layer for layer in (_range_layer(view), _boat_layer(view)) if layer)
    extras = Extras(lines=tuple(own_lines(view)), layers=layers, keys=_keys(view))
    return compose(view.public, title=title, deadline=deadline, now=now, extras=extras)
