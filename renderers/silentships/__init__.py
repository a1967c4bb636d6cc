"""The pictures of a Silent Ships game (rules §6): the public board, a player's own board
with their hand as whole cards, and the replay of the whole battle with every card
face-up, each drawn from the view the rules give (never the state). The card art — a
face for each ship with its name, attack value and ability — is drawn here too.

``PICTURES`` declares them (:mod:`renderers.catalog` lists it).
"""

from __future__ import annotations

from bot.games.silentships.views import PrivateView, PublicView, RevealedView
from renderers.game_pictures import Drawing, GamePictures
from renderers.silentships.alt_text import private_alt_text, public_alt_text
from renderers.silentships.frames import render_replay
from renderers.silentships.picture import render_private, render_public


def move_label(number: int, step: int) -> str:
    # Every order that acts is a stored step of its turn: one frame each.
    return f"Turn {number}, move {step + 1}"


PICTURES = GamePictures(
    game="Silent Ships",
    public_picture=Drawing(PublicView, "public board", render_public, public_alt_text),
    private_picture=Drawing(PrivateView, "private board", render_private, private_alt_text),
    revealed_view=RevealedView,
    replay_video=render_replay,
    start_label="The start: three cards each",
    turn_label=move_label,
)
