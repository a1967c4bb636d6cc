"""The pictures of a Sonar game (``shared/rules/sonar.md`` §5): the public board after each
turn, a captain's own board with the turn before below it, and the replay of the whole hunt,
each drawn from the view the rules give (never the state).

``PICTURES`` declares them (:mod:`renderers.catalog` lists it).
"""

from __future__ import annotations

from bot.games.sonar.views import PrivateView, PublicView, RevealedView
from renderers.game_pictures import Drawing, GamePictures
from renderers.sonar.alt_text import private_alt_text, public_alt_text
from renderers.sonar.frames import render_replay
from renderers.sonar.picture import render_private, render_public

PICTURES = GamePictures(
    game="Sonar",
    public_picture=Drawing(PublicView, "public board", render_public, public_alt_text),
    private_picture=Drawing(PrivateView, "own board", render_private, private_alt_text),
    revealed_view=RevealedView,
    replay_video=render_replay,
    # Then "Turn 3": one frame per turn, every sub sails, then the charges of the captain
    # to move.
    start_label="The fleets at the start",
    # Someone who is not (or no longer) a captain of the game sees the public board.
    outsiders_see_public=True,
)
