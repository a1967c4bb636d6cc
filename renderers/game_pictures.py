"""One game's pictures as a declaration: its drawing functions, and the views each is drawn from.

A game's pictures package is its drawing code and one :class:`GamePictures` value naming the
functions that draw its public picture, a player's own picture and its replay, the view each
expects, and the labels of its replay frames. The value is the game's
:class:`~renderers.pictures.Pictures`: it checks every view it is given
(:func:`~renderers.pictures.expect_view`), so a game's drawing functions are called only with
the view they are written for, and a view of the wrong kind is refused in the same words for
every game. :mod:`renderers.catalog` lists each game's value by the game's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from PIL import Image

from renderers.pictures import Picture, Replay, expect_view, revealed_boards
from renderers.tiles import TileRect, Tiles

ViewT = TypeVar("ViewT")
PublicT = TypeVar("PublicT")
PrivateT = TypeVar("PrivateT")
RevealedT = TypeVar("RevealedT")
ViewT_contra = TypeVar("ViewT_contra", contravariant=True)


class DrawPng(Protocol[ViewT_contra]):
    """A picture of a view as PNG bytes: the same arguments, the same bytes. A game that draws
    no avatars takes ``avatars`` and leaves it alone."""

    def __call__(
        self,
        view: ViewT_contra,
        /,
        *,
        title: str,
        deadline: datetime | None,
        now: datetime | None,
        avatars: Mapping[str, Image.Image],
    ) -> bytes: ...


class Describe(Protocol[ViewT_contra]):
    """The words beside a picture of a view, for someone who cannot see it."""

    def __call__(
        self, view: ViewT_contra, /, *, title: str, deadline: datetime | None, now: datetime | None
    ) -> str: ...


class DrawReplay(Protocol[ViewT_contra]):
    """The end-of-game video: one frame per ``(revealed view, label)``, in order."""

    def __call__(
        self, boards: Sequence[tuple[ViewT_contra, str]], /, *, title: str, gif: bool
    ) -> Replay: ...


@dataclass(frozen=True)
class Drawing(Generic[ViewT]):
    """How one of a game's pictures is drawn: from which view, by which functions."""

    view: type[ViewT]
    what: str
    """The picture's name in the refusal of a view of the wrong kind (``public map``)."""
    png: DrawPng[ViewT]
    alt: Describe[ViewT]

    def draw(
        self,
        view: ViewT,
        *,
        avatars: Mapping[str, Image.Image],
        title: str,
        deadline: datetime | None,
        now: datetime | None,
    ) -> Picture:
        return Picture(
            self.png(view, title=title, deadline=deadline, now=now, avatars=avatars),
            self.alt(view, title=title, deadline=deadline, now=now),
        )


def turn_label(number: int, step: int) -> str:
    """The label of a turn's frame in most games: one frame a turn, ``Turn 3``."""
    return f"Turn {number}"


@dataclass(frozen=True)
class GameTiles(Generic[ViewT, PrivateT]):
    """A game's :class:`~renderers.tiles.Tiles`, declared by its drawing functions: the public
    board's from the public view and, where the game offers them, a player's own from their
    view alone; each view is checked like every picture's."""

    game: str
    view: type[ViewT]
    size: Callable[[ViewT], tuple[int, int] | None]
    """(rows, columns) of a board offered in tiles, None for one the one picture shows."""
    tile: Callable[[ViewT, TileRect], bytes]
    private_view: type[PrivateT] | None = None
    """A player's view, where their own board is offered in tiles too. None: only the public
    board is, and a player's view is refused like any view of the wrong kind (so a game whose
    players' pages may show a big board declares theirs)."""
    private_size: Callable[[PrivateT], tuple[int, int] | None] | None = None
    private: Callable[[PrivateT, TileRect], bytes] | None = None

    def board_size(self, view: Any) -> tuple[int, int] | None:
        if self.private_view is not None and isinstance(view, self.private_view):
            return None if self.private_size is None else self.private_size(view)
        return self.size(expect_view(view, self.view, game=self.game, what="tiled board"))

    def public_tile(self, view: Any, rect: TileRect) -> bytes:
        return self.tile(expect_view(view, self.view, game=self.game, what="tiled board"), rect)

    def private_tile(self, view: Any, rect: TileRect) -> bytes:
        if self.private_view is None or self.private is None:
            raise TypeError(f"{self.game} offers no player's board in tiles")
        own = expect_view(view, self.private_view, game=self.game, what="private tiled board")
        return self.private(own, rect)


@dataclass(frozen=True)
class GamePictures(Generic[PublicT, PrivateT, RevealedT]):
    """A game's :class:`~renderers.pictures.Pictures`, declared by its drawing functions."""

    game: str
    """The game's name in the refusal of a view of the wrong kind (``Sugar Dog``)."""
    public_picture: Drawing[PublicT]
    private_picture: Drawing[PrivateT]
    revealed_view: type[RevealedT]
    replay_video: DrawReplay[RevealedT]
    start_label: str
    """The label of the replay's first frame, the close of setup (``The fleets at the
    start``)."""
    turn_label: Callable[[int, int], str] = turn_label
    """The label of the frame after stored step ``step`` of turn ``number``."""
    last_label: str = "The end"
    outsiders_see_public: bool = False
    """Whether someone the game does not seat (never, or no longer) is given the public view
    as their own, and sees the public picture; otherwise a public view is refused there."""
    tiles: Tiles | None = None
    """The public board in tiles, for a board too big for the one picture's detail."""

    def public(
        self,
        view: Any,
        *,
        avatars: Mapping[str, Image.Image],
        title: str,
        deadline: datetime | None,
        now: datetime | None,
    ) -> Picture:
        drawing = self.public_picture
        public = expect_view(view, drawing.view, game=self.game, what=drawing.what)
        return drawing.draw(public, avatars=avatars, title=title, deadline=deadline, now=now)

    def private(
        self,
        view: Any,
        *,
        avatars: Mapping[str, Image.Image],
        title: str,
        deadline: datetime | None,
        now: datetime | None,
    ) -> Picture:
        if self.outsiders_see_public and isinstance(view, self.public_picture.view):
            return self.public(view, avatars=avatars, title=title, deadline=deadline, now=now)
        drawing = self.private_picture
        own = expect_view(view, drawing.view, game=self.game, what=drawing.what)
        return drawing.draw(own, avatars=avatars, title=title, deadline=deadline, now=now)

    def replay(self, boards: Sequence[tuple[Any, str]], *, title: str, gif: bool) -> Replay:
        revealed = revealed_boards(boards, self.revealed_view, game=self.game)
        return self.replay_video(revealed, title=title, gif=gif)

    def frame_label(self, number: int, step: int) -> str:
        return self.start_label if number == 0 else self.turn_label(number, step)

    def end_label(self) -> str:
        return self.last_label
