"""The pictures of a U-Boat Shootout game (rules §4): the public map of a round, each crew's
private board, and the replay of the whole hunt with every boat revealed — each drawn from
the view the rules give (never the state).

``PICTURES`` is what the host finds with :func:`renderers.pictures.pictures_for`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from PIL import Image

from bot.games.uboat.views import PrivateView, PublicView, RevealedView
from renderers.encode import png_bytes
from renderers.pictures import Picture, Pictures, Replay, expect_view, revealed_boards
from renderers.uboat.alt_text import private_alt_text, public_alt_text
from renderers.uboat.board import compose_board
from renderers.uboat.frames import render_replay
from renderers.uboat.maps import Extras, compose

GAME = "uboat"
"""The game's name in the refusal of a view of the wrong kind."""


def render_public_map(
    view: PublicView, *, title: str, deadline: datetime | None, now: datetime | None
) -> bytes:
    """The public map as PNG bytes. Same arguments, same bytes."""
    return png_bytes(compose(view, title=title, deadline=deadline, now=now, extras=Extras()))


def render_private_board(
    view: PrivateView, *, title: str, deadline: datetime | None, now: datetime | None
) -> bytes:
    """A crew's board as PNG bytes. Same arguments, same bytes."""
    return png_bytes(compose_board(view, title=title, deadline=deadline, now=now))


class UboatPictures:
    """U-Boat Shootout's :class:`~renderers.pictures.Pictures`. Boats are drawn in their
    colours, so the players' avatars are not used."""

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
        if isinstance(view, PublicView):
            # A player the game no longer seats (gone) sees what everyone sees.
            return self.public(view, avatars=avatars, title=title, deadline=deadline, now=now)
        own = expect_view(view, PrivateView, game=GAME, what="private board")
        return Picture(
            render_private_board(own, title=title, deadline=deadline, now=now),
            private_alt_text(own, title=title, deadline=deadline, now=now),
        )

    def replay(self, boards: Sequence[tuple[Any, str]], *, title: str, gif: bool) -> Replay:
        return render_replay(revealed_boards(boards, RevealedView, game=GAME), title=title, gif=gif)

    def frame_label(self, number: int, step: int) -> str:
        # Round N's frames: its evade window closing (when it had one), then its end; the
        # replay tells them apart by what changed (renderers.uboat.frames).
        return "The start" if number == 0 else f"Round {number}"

    def end_label(self) -> str:
        return "The end"


PICTURES: Pictures = UboatPictures()
