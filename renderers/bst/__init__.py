"""The pictures of a bst game (rules §6): the public map, a captain's private board, and the
replay of the whole battle, each drawn from the view the rules give (never the state).

``PICTURES`` is what the host finds with :func:`renderers.pictures.pictures_for`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from PIL import Image

from bot.games.bst.views import PrivateView, PublicView, RevealedView
from renderers.bst.alt_text import private_alt_text, public_alt_text
from renderers.bst.digest import digest_alt_text, render_digest
from renderers.bst.frames import ReplayFrame, render_replay
from renderers.bst.neighbourhood import is_crowd_board, neighbourhood_alt_text, render_neighbourhood
from renderers.bst.private_board import render_private_board
from renderers.bst.public_map import render_public_map
from renderers.bst.tiles import BstTiles
from renderers.pictures import Picture, Pictures, Replay, expect_view, revealed_boards
from renderers.tiles import Tiles

GAME = "bst"
"""The game's name in the refusal of a view of the wrong kind."""


class BstPictures:
    """bst's :class:`~renderers.pictures.Pictures`."""

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
        if is_crowd_board(public):
            # A crowd's sea (issue 33): where the turn's shots, hits and wrecks are dense.
            return Picture(
                render_digest(public, title=title, deadline=deadline, now=now),
                digest_alt_text(public, title=title, deadline=deadline, now=now),
            )
        return Picture(
            render_public_map(public, title=title, deadline=deadline, now=now, avatars=avatars),
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
        if is_crowd_board(own.public):
            # A crowd's sea (issue 33): the captain's neighbourhood, in milliseconds.
            return Picture(
                render_neighbourhood(own, title=title),
                neighbourhood_alt_text(own, title=title, deadline=deadline, now=now),
            )
        return Picture(
            render_private_board(own, title=title, deadline=deadline, now=now, avatars=avatars),
            private_alt_text(own, title=title, deadline=deadline, now=now),
        )

    def replay(self, boards: Sequence[tuple[Any, str]], *, title: str, gif: bool) -> Replay:
        frames = [
            ReplayFrame(board=board, label=label)
            for board, label in revealed_boards(boards, RevealedView, game=GAME)
        ]
        return render_replay(frames, title=title, gif=gif)

    def frame_label(self, number: int, step: int) -> str:
        if number == 0:
            return "The fleets at the start"
        # A bst turn resolves all at once: its one frame is the turn (a leave or kick
        # stored in the same turn is a step too, but makes no frame of its own).
        return f"Turn {number}"

    def end_label(self) -> str:
        return "The end"


PICTURES: Pictures = BstPictures()

TILES: Tiles = BstTiles()
"""The public board in tiles, for a board too big for the one picture's detail."""
