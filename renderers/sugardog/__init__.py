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
from renderers.pictures import Picture, Pictures, Replay, expect_view, revealed_boards
from renderers.sugardog.alt_text import private_alt_text, public_alt_text
from renderers.sugardog.frames import ReplayFrame, render_replay
from renderers.sugardog.sea import render_private_map, render_public_map

GAME = "Sugar Dog"
"""The game's name in the refusal of a view of the wrong kind."""


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
        public = expect_view(view, PublicView, game=GAME, what="public map")
        return Picture(
            render_public_map(public, title=title, deadline=deadline, now=now),
            public_alt_text(public, title=title, deadline=deadline, now=now),
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
        own = expect_view(view, PrivateView, game=GAME, what="captain's map")
        return Picture(
            render_private_map(own, title=title, deadline=deadline, now=now),
            private_alt_text(own, title=title, deadline=deadline, now=now),
        )

    def replay(self, boards: Sequence[tuple[Any, str]], *, title: str, gif: bool) -> Replay:
        frames = [
            ReplayFrame(board, label)
            for board, label in revealed_boards(boards, RevealedView, game=GAME)
        ]
        return render_replay(frames, title=title, gif=gif)

    def frame_label(self, number: int, step: int) -> str:
        if number == 0:
            return "The submarines at the start"
        return f"Turn {number}"

    def end_label(self) -> str:
        return "The end"


PICTURES: Pictures = SugarDogPictures()
