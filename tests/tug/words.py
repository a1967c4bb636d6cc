"""Tug's words: only the sentences that differ from the neutral ones (``NeutralWords``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from bot.games.base import Event, GamePhase, NeutralWords
from bot.games.seating import seat_of
from bot.games.verb_orders import VerbOrder

if TYPE_CHECKING:  # the rules import these words to declare the game
    from tests.tug.game import TugState

SAID = {
    "pulled": "{by} pulled {steps}: rope at {rope}.",
    "dared": "The {seat} crew dares.",
    "answered": "The {seat} crew answers {answer}: rope at {rope}.",
    "timeout": "The {seat} crew ran out of time.",
}
HELP = "Tug: `pull 1`–`pull 3` on your crew's turn, or `dare`; answer a dare with `give` or `hold` by DM."


class TugWords(NeutralWords["TugState", VerbOrder]):
    """Tug's words, where they differ from the neutral ones."""

    def describe(self, order: VerbOrder) -> str:
        return " ".join((order.verb, *order.values))

    def opening(self, state: TugState) -> str:
        return "is open: send `join` to take a seat (north, south, north…)."

    def welcome(self, state: TugState, player: str, number: int) -> str:
        name = next(p.name for p in state.players if p.id == player)
        return f"{name} joined game {number} on the {seat_of(state, player)} crew."

    def beginning(self, state: TugState, names: Mapping[str, str]) -> str:
        return f"the rope is taut; the {state.first} crew moves first."

    def hint(self, state: TugState) -> str:
        return "Send `pull 1`–`pull 3` or `dare`."

    def result(self, state: TugState, names: Mapping[str, str]) -> str:
        if state.phase is not GamePhase.FINISHED:
            return ""
        if state.draw:
            return "The game ends in a draw."
        return f"The {seat_of(state, state.winners[0])} crew wins!"

    def reminder(self, state: TugState, left: str) -> str:
        return f"your crew's move ends in {left}."

    def example(self) -> str:
        return "`pull 2`"

    def public_report(self, events: Sequence[Event], names: Mapping[str, str]) -> list[str]:
        said = [(SAID[e.type], e.data) for e in events if e.type in SAID]
        return [text.format(**{**data, "by": names.get(data.get("by", ""))}) for text, data in said]

    def summary(self, state: TugState, viewer: str | None) -> str:
        target = state.options.target
        return f"Rope at {state.rope} (north wins at -{target}, south at +{target})."

    def text_board(self, state: TugState, viewer: str | None) -> str:
        rope = ["-"] * (2 * state.options.target + 1)
        rope[state.rope + state.options.target] = "|"
        return "N " + "".join(rope) + " S\nKey: | the rope's knot."

    def help_text(self) -> str:
        return HELP

    rules_text = help_text
