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
from renderers.pictures import Picture, Pictures, Replay
from renderers.sonar.alt_text import private_alt_text, public_alt_text
from renderers.sonar.frames import render_replay
from renderers.sonar.picture import compose_private, compose_public


def _expect(view: Any, kind: type, what: str) -> None:
    """A view of another type is a host bug (the wrong viewer, or another game's view)."""
    if not isinstance(view, kind):
        raise TypeError(
            f"Sonar's {what} is drawn from a {kind.__name__}, got {type(view).__name__}"
        )


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
        _expect(view, PublicView, "public board")
        image = compose_public(view, title=title, deadline=deadline, now=now)
        return Picture(
            png_bytes(image), public_alt_text(view, title=title, deadline=deadline, now=now)
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
        _expect(view, PrivateView, "own board")
        image = compose_private(view, title=title, deadline=deadline, now=now)
        return Picture(
            png_bytes(image), private_alt_text(view, title=title, deadline=deadline, now=now)
        )

    def replay(self, boards: Sequence[tuple[Any, str]], *, title: str, gif: bool) -> Replay:
        for board, _ in boards:
            _expect(board, RevealedView, "replay")
        return render_replay(list(boards), title=title, gif=gif)

    def frame_label(self, number: int, step: int) -> str:
        if number == 0:
            return "The fleets at the start"
        # One frame per turn: every sub sails, then the charges of the captain to move.
        return f"Turn {number}"

    def end_label(self) -> str:
        return "The end"


PICTURES: Pictures = SonarPictures()
