"""Alt text for the Sugar Dog maps: what a screen reader says instead of the picture.

The turn, who moves and the last turn come first; then where each thing was last heard
(most recent first) and, on a captain's own map, their own things. X takes at most 1000
characters, so long lists end with "and N more".
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.games.sugardog.views import Heard, PrivateView, PublicView, UnitView, last_heard
from renderers.alt_text import MAX_ALT_TEXT, list_within
from renderers.sugardog.sea import last_turn_text, next_text, own_text, status_text


def _unit(unit: UnitView) -> str:
    if unit.torpedo is not None:
        return f"{unit.owner_name}'s torpedo {unit.torpedo}"
    return f"{unit.owner_name}'s {unit.kind.value}"


def _heard(heard: Heard) -> str:
    how = "pinged" if heard.pinged else "heard"
    return f"{_unit(heard.unit)} {how} at {heard.cell} on turn {heard.turn}"


def _text(
    public: PublicView,
    title: str,
    head: Sequence[str],
    hide: str | None,
    deadline: datetime | None,
    now: datetime | None,
) -> str:
    parts = [f"{title}, Sugar Dog map {public.size}×{public.size}, {status_text(public).lower()}."]
    parts += head
    last = last_turn_text(public)
    if last:
        parts.append(last)
    parts.append(next_text(public, deadline, now))
    text = " ".join(parts)
    heard = [h for h in reversed(last_heard(public)) if h.unit.owner != hide]
    if heard:
        budget = MAX_ALT_TEXT - len(text) - len(" Last heard: .")
        listed = list_within([_heard(h) for h in heard], budget)
        if listed:
            text += f" Last heard: {listed}."
    return text[:MAX_ALT_TEXT]


def public_alt_text(
    view: PublicView, *, title: str, deadline: datetime | None, now: datetime | None
) -> str:
    return _text(view, title, (), None, deadline, now)


def private_alt_text(
    view: PrivateView, *, title: str, deadline: datetime | None, now: datetime | None
) -> str:
    return _text(view.public, title, (own_text(view),), view.viewer, deadline, now)
