"""The pictures of a Sugar Dog game: the public map of announced contacts, impacts and
pings; each captain's own map, as the original asks them to keep it (their submarine,
torpedoes and mines, and every contact heard, marked with its turn and fading with age);
and the end-of-game replay with everything revealed. Each is drawn from the view the
rules give, never from the state.

``PICTURES`` is what the host finds with :func:`renderers.pictures.pictures_for`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from PIL import Image

from bot.games.sugardog.views import PrivateView, PublicView, RevealedView
from renderers.pictures import Picture, Pictures, Replay
from renderers.sugardog.alt_text import private_alt_text, public_alt_text
from renderers.sugardog.frames import ReplayFrame, render_replay
from renderers.sugardog.sea import render_private_map, render_public_map


def _expect(view: Any, kind: type, what: str) -> None:
    """A view of another type is a host bug (the wrong viewer, or another game's view)."""
    if not isinstance(view, kind):
        raise TypeError(
            f"Sugar Dog's {what} is drawn from a {kind.__name__}, got {type(view).__name__}"
        )


class SugarDogPictures:
    """Sugar Dog's :class:`~renderers.pictures.Pictures`. Avatars are not used: a captain
    is their colour (the maps' key names them)."""

    def public(
        self,
        view: Any,
        *,
        avatars: Mapping[str, Image.Image],
        title: str,
        deadline: datetime | None,
        now: datetime | None,
    ) -> Picture:
        _expect(view, PublicView, "public map")
        return Picture(
            render_public_map(view, title=title, deadline=deadline, now=now),
            public_alt_text(view, title=title, deadline=deadline, now=now),
        )

    def private(
        self,
        view: Any,
        *,
        avatars: Mapping[str, Image.Image],
        title: str,
        deadline: datetime | None,
        now: datetime | None,
    ) -> Picture:
        _expect(view, PrivateView, "captain's map")
        return Picture(
            render_private_map(view, title=title, deadline=deadline, now=now),
            private_alt_text(view, title=title, deadline=deadline, now=now),
        )

    def replay(self, boards: Sequence[tuple[Any, str]], *, title: str, gif: bool) -> Replay:
        frames = []
        for board, label in boards:
            _expect(board, RevealedView, "replay")
            frames.append(ReplayFrame(board, label))
        return render_replay(frames, title=title, gif=gif)

    def frame_label(self, number: int, step: int) -> str:
        if number == 0:
            return "The submarines at the start"
        return f"Turn {number}"

    def end_label(self) -> str:
        return "The end"


PICTURES: Pictures = SugarDogPictures()
