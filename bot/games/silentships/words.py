"""Silent Ships' words part (``Words`` in ``bot/games/base.py``): the sentences the host
posts about a game are ``text.py``'s; here is what it says of a turn as a whole (its
title, when it is pictured, what is not posted on its own)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.games.base import Event, NeutralWords, PlayerId
from bot.games.silentships import text
from bot.games.silentships.orders import Order, describe_order
from bot.games.silentships.state import SilentShipsState

_ROUTINE = frozenset({"played", "moved", "attack"})
"""Events a turn holds many of, told in public by the turn's map rather than a post each
(an attack and its supports by the post that sends it to the defender, at `go`)."""


def _routine(event: Event) -> bool:
    return event.type in _ROUTINE or (event.type == "support" and event.data["side"] == "attack")


class SilentShipsWords(NeutralWords[SilentShipsState, Order]):
    """Silent Ships' words, where they differ from the neutral ones."""

    player_words = ("admiral", "admirals")
    describe = staticmethod(describe_order)
    opening = staticmethod(text.opening)
    welcome = staticmethod(text.welcome)
    beginning = staticmethod(text.beginning)
    result = staticmethod(text.result)
    reminder = staticmethod(text.reminder)
    public_report_in_full = staticmethod(text.public_report)
    private_report = staticmethod(text.private_report)
    summary = staticmethod(text.summary)
    text_board = staticmethod(text.board)

    def acknowledge(self, turn: int, standing: Order, replaced: Order | None) -> str:
        return f"Turn {turn}: {describe_order(standing)}."

    def hint(self, state: SilentShipsState) -> str:
        return text.HINT

    def report_title(self, turn: int) -> str:
        # The post that closes a turn mostly tells of the next one (its draw): say whose ended.
        return f"turn {turn} is over"

    def quiet_report(self) -> str:
        # (a turn's plays, moves and combats were posted as they happened: "nothing
        # happened" would be false after them)
        return "nothing more to report."

    def board_heading(self, title: str, turn: int) -> str:
        return f"{title}, as the battle begins:" if turn == 0 else f"{title}, turn {turn}:"

    def replay_caption(self) -> str:
        return "the replay of the whole battle, every card face-up."

    def example(self) -> str:
        # Public words name no ship (acceptance checks scan them): a placeholder instead.
        return "move C1 to C2 discard SHIP"

    def public_report(self, events: Sequence[Event], names: Mapping[PlayerId, str]) -> list[str]:
        # A face-down play or a plain move is not posted on its own (a turn holds many:
        # one post each flooded the channel); the turn's end posts the map that shows
        # them, and the game's web page tells each in full.
        if all(_routine(event) for event in events):
            return []
        return text.public_report(events, names)

    def pictured(self, events: Sequence[Event]) -> bool:
        # A turn holds many plays and moves: they are told in words, and the picture
        # comes with each combat and at the turn's end (one picture a turn, not one an
        # action).
        return any(event.type == "combat" for event in events)

    def help_text(self) -> str:
        return text.HELP

    def rules_text(self) -> str:
        return text.RULES
