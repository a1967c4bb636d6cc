"""What a game's pictures provide, and how the host finds them.

A game's pictures follow :class:`Pictures`: a game declares them as a
:class:`~renderers.game_pictures.GamePictures` of its drawing functions, and
:mod:`renderers.catalog` lists them by the game's name; the host looks them up with
:func:`~renderers.catalog.pictures_for` and, for a game with none, posts the game's text board alone.
Every method is a pure function of a view (design rule 8): the same view and
options give the same bytes. :func:`expect_view` and :func:`revealed_boards` are the checks
made of every view a game's pictures are given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypeVar

from PIL import Image

from renderers.tiles import Tiles


@dataclass(frozen=True)
class Picture:
    """A PNG and the words that describe it to someone who cannot see it."""

    png: bytes
    alt: str


@dataclass(frozen=True)
class Replay:
    mp4: bytes
    gif: bytes
    """The animated GIF, or ``b""`` when none was asked for."""
    frame_count: int
    """Pictures in the replay: the title card, one per frame, the final card."""
    duration_s: float
    final: bytes = b""
    """The picture of the end post as a PNG: the game's end card (:mod:`renderers.end_card`:
    the winner, the top of the standings and the board as it ended, everything revealed),
    or the replay's last picture for a replay without one."""


class Pictures(Protocol):
    """One game's pictures, drawn from the views its rules give."""

    def public(
        self,
        view: Any,
        *,
        avatars: Mapping[str, Image.Image],
        title: str,
        deadline: datetime | None,
        now: datetime | None,
    ) -> Picture:
        """The public picture of the game (``view(state, None)``)."""
        ...

    def private(
        self,
        view: Any,
        *,
        avatars: Mapping[str, Image.Image],
        title: str,
        deadline: datetime | None,
        now: datetime | None,
    ) -> Picture:
        """One player's own picture (``view(state, player)``)."""
        ...

    def replay(self, boards: Sequence[tuple[Any, str]], *, title: str, gif: bool) -> Replay:
        """The end-of-game replay: one frame per ``(reveal(state), label)``, in order."""
        ...

    def frame_label(self, number: int, step: int) -> str:
        """The label of the replay's frame after stored step ``step`` of turn ``number``
        (turn 0 is the close of setup), in the game's words (bst: ``Turn 3``)."""
        ...

    def end_label(self) -> str:
        """The label of a last frame showing the game as it ended, when that differs from
        its last stored step (bst: ``The end``)."""
        ...

    @property
    def tiles(self) -> Tiles | None:
        """The public board in tiles (:mod:`renderers.tiles`), or None when the one picture
        always shows it whole."""
        ...


ViewT = TypeVar("ViewT")


def expect_view(view: object, kind: type[ViewT], *, game: str, what: str) -> ViewT:
    """``view``, which ``game``'s picture ``what`` is drawn from, if it is a ``kind``. A view
    of another type is a host bug (the wrong viewer, or another game's view): TypeError."""
    if not isinstance(view, kind):
        owner = f"{game}'" if game.endswith("s") else f"{game}'s"
        raise TypeError(
            f"{owner} {what} is drawn from a {kind.__name__}, got {type(view).__name__}"
        )
    return view


def revealed_boards(
    boards: Sequence[tuple[Any, str]], kind: type[ViewT], *, game: str
) -> list[tuple[ViewT, str]]:
    """The ``(board, label)`` pairs of :meth:`Pictures.replay`, each board checked to be the
    game's revealed view, ``kind`` (:func:`expect_view`)."""
    return [(expect_view(board, kind, game=game, what="replay"), label) for board, label in boards]


__all__ = [
    "Picture",
    "Pictures",
    "Replay",
    "expect_view",
    "revealed_boards",
]
