"""The pictures of a Silent Ships game (rules §6): the public board, a player's own board
with their hand as whole cards, and the replay of the whole battle with every card
face-up, each drawn from the view the rules give (never the state). The card art — a
face for each ship with its name, attack value and ability — is drawn here too.

``PICTURES`` is what the host finds with :func:`renderers.pictures.pictures_for`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from PIL import Image

from bot.games.silentships.views import PrivateView, PublicView, RevealedView
from renderers.pictures import Picture, Pictures, Replay, expect_view, revealed_boards
from renderers.silentships.alt_text import private_alt_text, public_alt_text
from renderers.silentships.frames import render_replay
from renderers.silentships.picture import render_private, render_public

GAME = "Silent Ships"
"""The game's name in the refusal of a view of the wrong kind."""


class SilentShipsPictures:
    """Silent Ships' :class:`~renderers.pictures.Pictures`."""

    def public(
        self,
        view: Any,
        *,
        avatars: Mapping[str, Image.Image],
        title: str,
        deadline: datetime | None,
        now: datetime | None,
    ) -> Picture:
        public = expect_view(view, PublicView, game=GAME, what="public board")
        return Picture(
            render_public(public, title=title, deadline=deadline, now=now, avatars=avatars),
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
        own = expect_view(view, PrivateView, game=GAME, what="private board")
        return Picture(
            render_private(own, title=title, deadline=deadline, now=now, avatars=avatars),
            private_alt_text(own, title=title, deadline=deadline, now=now),
        )

    def replay(self, boards: Sequence[tuple[Any, str]], *, title: str, gif: bool) -> Replay:
        return render_replay(revealed_boards(boards, RevealedView, game=GAME), title=title, gif=gif)

    def frame_label(self, number: int, step: int) -> str:
        if number == 0:
            return "The start: three cards each"
        # Every order that acts is a stored step of its turn: one frame each.
        return f"Turn {number}, move {step + 1}"

    def end_label(self) -> str:
        return "The end"


PICTURES: Pictures = SilentShipsPictures()
