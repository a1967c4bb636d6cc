"""The pictures of a Sugar Dog game: the public map of announced contacts, impacts and
pings; each captain's own map, as the original asks them to keep it (their submarine,
torpedoes and mines, and every contact heard, marked with its turn and fading with age);
and the end-of-game replay with everything revealed. Each is drawn from the view the
rules give, never from the state. Avatars are not used: a captain is their colour (the
maps' key names them).

``PICTURES`` declares them (:mod:`renderers.catalog` lists it).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.sugardog.views import PrivateView, PublicView, RevealedView
from renderers.game_pictures import Drawing, GamePictures
from renderers.pictures import Replay
from renderers.sugardog.alt_text import private_alt_text, public_alt_text
from renderers.sugardog.frames import ReplayFrame, render_replay
from renderers.sugardog.sea import render_private_map, render_public_map


def replay_video(boards: Sequence[tuple[RevealedView, str]], *, title: str, gif: bool) -> Replay:
    return render_replay(
        [ReplayFrame(board, label) for board, label in boards], title=title, gif=gif
    )


PICTURES = GamePictures(
    game="Sugar Dog",
    public_picture=Drawing(PublicView, "public map", render_public_map, public_alt_text),
    private_picture=Drawing(PrivateView, "captain's map", render_private_map, private_alt_text),
    revealed_view=RevealedView,
    replay_video=replay_video,
    start_label="The submarines at the start",
)
