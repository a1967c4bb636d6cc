"""The pictures of a U-Boat Shootout game (rules §4): the public map of a round, each crew's
private board, and the replay of the whole hunt with every boat revealed — each drawn from
the view the rules give (never the state).

``PICTURES`` declares them (:mod:`renderers.catalog` lists it).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from PIL import Image

from bot.games.uboat.views import PrivateView, PublicView, RevealedView
from renderers.encode import png_bytes
from renderers.game_pictures import Drawing, GamePictures
from renderers.uboat.alt_text import private_alt_text, public_alt_text
from renderers.uboat.board import compose_board
from renderers.uboat.frames import render_replay
from renderers.uboat.maps import Extras, compose


def render_public_map(
    view: PublicView,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    avatars: Mapping[str, Image.Image] | None = None,
) -> bytes:
    """The public map as PNG bytes. Same arguments, same bytes. Boats are drawn in their
    colours, so the players' avatars are not used."""
    return png_bytes(compose(view, title=title, deadline=deadline, now=now, extras=Extras()))


def render_private_board(
    view: PrivateView,
    *,
    title: str,
    deadline: datetime | None,
    now: datetime | None,
    avatars: Mapping[str, Image.Image] | None = None,
) -> bytes:
    """A crew's board as PNG bytes. Same arguments, same bytes."""
    return png_bytes(compose_board(view, title=title, deadline=deadline, now=now))


def round_label(number: int, step: int) -> str:
    # Round N's frames: its evade window closing (when it had one), then its end; the
    # replay tells them apart by what changed (renderers.uboat.frames).
    return f"Round {number}"


PICTURES = GamePictures(
    game="uboat",
    public_picture=Drawing(PublicView, "public map", render_public_map, public_alt_text),
    private_picture=Drawing(PrivateView, "private board", render_private_board, private_alt_text),
    revealed_view=RevealedView,
    replay_video=render_replay,
    start_label="The start",
    turn_label=round_label,
    # A player the game no longer seats (gone) sees what everyone sees.
    outsiders_see_public=True,
)
