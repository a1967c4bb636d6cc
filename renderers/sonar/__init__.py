"""The pictures of a Sonar game (``shared/rules/sonar.md`` §5): the public board after each
turn, a captain's own board with the turn before below it, and the replay of the whole hunt,
each drawn from the view the rules give (never the state).

``PICTURES`` is what the host finds with :func:`renderers.pictures.pictures_for`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from PIL import Image

from bot.games.sonar.views import PrivateView, PublicView, RevealedView
from renderers.encode import png_bytes
from renderers.pictures import Picture, Pictures, Replay, expect_view, revealed_boards
from renderers.sonar.alt_text import private_alt_text, public_alt_text
from renderers.sonar.frames import render_replay
from renderers.sonar.picture import compose_private, compose_public

GAME = "Sonar"
"""The game's name in the refusal of a view of the wrong kind."""


class SonarPictures:
    """Sonar's :class:`~renderers.pictures.Pictures`."""

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
        image = compose_public(public, title=title, deadline=deadline, now=now)
        return Picture(
            png_bytes(image), public_alt_text(public, title=title, deadline=deadline, now=now)
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
            # Someone who is not (or no longer) a captain of the game sees the public board.
            return self.public(view, avatars=avatars, title=title, deadline=deadline, now=now)
        own = expect_view(view, PrivateView, game=GAME, what="own board")
        image = compose_private(own, title=title, deadline=deadline, now=now)
        return Picture(
            png_bytes(image), private_alt_text(own, title=title, deadline=deadline, now=now)
        )

    def replay(self, boards: Sequence[tuple[Any, str]], *, title: str, gif: bool) -> Replay:
        return render_replay(revealed_boards(boards, RevealedView, game=GAME), title=title, gif=gif)

    def frame_label(self, number: int, step: int) -> str:
        if number == 0:
            return "The fleets at the start"
        # One frame per turn: every sub sails, then the charges of the captain to move.
        return f"Turn {number}"

    def end_label(self) -> str:
        return "The end"


PICTURES: Pictures = SonarPictures()
