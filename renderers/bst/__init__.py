"""The pictures of a bst game (rules §6): the public map, a captain's private board, and the
replay of the whole battle, each drawn from the view the rules give (never the state).

``PICTURES`` declares them (:mod:`renderers.catalog` lists it); a crowd's sea (issue 33) is
drawn as a digest of where the turn's shots, hits and wrecks are dense, and a captain's own
picture as their neighbourhood, both in milliseconds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from PIL import Image

from bot.games.bst.views import PrivateView, PublicView, RevealedView
from renderers.bst.alt_text import private_alt_text, public_alt_text
from renderers.bst.digest import digest_alt_text, render_digest
from renderers.bst.frames import ReplayFrame, render_replay
from renderers.bst.neighbourhood import is_crowd_board, neighbourhood_alt_text, render_neighbourhood
from renderers.bst.private_board import render_private_board
from renderers.bst.public_map import render_public_map
from renderers.bst.tiles import render_private_tile, render_public_tile, tiled_size
from renderers.game_pictures import Drawing, GamePictures, GameTiles
from renderers.pictures import Replay


def public_png(
    view: PublicView,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    avatars: Mapping[str, Image.Image],
) -> bytes:
    if is_crowd_board(view):
        return render_digest(view, title=title, deadline=deadline, now=now)
    return render_public_map(view, title=title, deadline=deadline, now=now, avatars=avatars)


def public_alt(
    view: PublicView, *, title: str, deadline: datetime | None, now: datetime | None
) -> str:
    describe = digest_alt_text if is_crowd_board(view) else public_alt_text
    return describe(view, title=title, deadline=deadline, now=now)


def private_png(
    view: PrivateView,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    avatars: Mapping[str, Image.Image],
) -> bytes:
    if is_crowd_board(view.public):
        return render_neighbourhood(view, title=title)
    return render_private_board(view, title=title, deadline=deadline, now=now, avatars=avatars)


def private_alt(
    view: PrivateView, *, title: str, deadline: datetime | None, now: datetime | None
) -> str:
    describe = neighbourhood_alt_text if is_crowd_board(view.public) else private_alt_text
    return describe(view, title=title, deadline=deadline, now=now)


def replay_video(boards: Sequence[tuple[RevealedView, str]], *, title: str, gif: bool) -> Replay:
    frames = [ReplayFrame(board=board, label=label) for board, label in boards]
    return render_replay(frames, title=title, gif=gif)


TILES = GameTiles(
    game="bst",
    view=PublicView,
    size=tiled_size,
    tile=render_public_tile,
    private_view=PrivateView,
    private_size=lambda own: tiled_size(own.public),
    private=render_private_tile,
)
"""The board in tiles, for a board too big for the one picture's detail: the public one,
and a captain's own (the public tile with their own layers, from their view alone)."""

PICTURES = GamePictures(
    game="bst",
    public_picture=Drawing(PublicView, "public map", public_png, public_alt),
    private_picture=Drawing(PrivateView, "private board", private_png, private_alt),
    revealed_view=RevealedView,
    replay_video=replay_video,
    start_label="The fleets at the start",
    # Then "Turn 3": a bst turn resolves all at once, its one frame is the turn (a leave or
    # kick stored in the same turn is a step too, but makes no frame of its own).
    tiles=TILES,
)
