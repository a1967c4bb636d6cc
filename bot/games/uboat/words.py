"""U-Boat Shootout's words: every sentence the host posts about a game, where it differs
from the neutral ones (:class:`bot.games.base.NeutralWords`). A game is a match of
rounds, each order a DM that stands until the round ends (``shared/rules/uboat.md``);
the reports of a round and the text boards are written in :mod:`bot.games.uboat.text`.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.base import NeutralWords, PlayerId
from bot.games.uboat import scoring, text
from bot.games.uboat.orders import Evade, Hold, JoinCrew, Order, StartAt, describe_order
from bot.games.uboat.state import UboatState
from bot.games.uboat.views import view


def _slot(order: Order) -> type:
    """Which of a player's standing orders ``order`` takes the place of."""
    if isinstance(order, Evade | JoinCrew | StartAt):
        return type(order)
    return Hold  # fire, move, ram and hold share one slot: the round's action


class UboatWords(NeutralWords[UboatState, Order]):
    """U-Boat's words, where they differ from the neutral ones."""

    describe = staticmethod(describe_order)
    public_report = staticmethod(text.public_lines)
    private_report = staticmethod(text.private_lines)
    rules_text = staticmethod(text.rules_text)

    def acknowledge(self, turn: int, standing: Order, replaced: Order | None) -> str:
        # The host names the sender's previous order of the round, whatever its kind; an
        # evasion and a round order are separate slots, so one never replaces the other.
        if replaced is not None and _slot(replaced) != _slot(standing):
            replaced = None
        again = f" (replaces `{describe_order(replaced)}`)" if replaced is not None else ""
        said = f"`{describe_order(standing)}`"
        if isinstance(standing, JoinCrew):
            return (
                f"Round {turn}: you chose {said}{again}: you join {standing.boat.title}'s crew "
                "when this round ends (if it is still afloat; otherwise the crew with fewest "
                "members)."
            )
        if isinstance(standing, Evade):
            return (
                f"Round {turn}: your evasion is {said}{again}: an unseen move when the evade "
                "window closes. A new evasion replaces it."
            )
        if isinstance(standing, Hold):
            return f"Round {turn}: your order is {said}{again}: nothing this round."
        return f"Round {turn}: your order is {said}{again}. A new order replaces it."

    def opening(self, state: UboatState) -> str:
        opts = state.options
        islands = (
            f"islands {text.island_list(opts.islands, opts.island_powers)}"
            if opts.islands
            else "no islands"
        )
        texts = opts.text()
        return (
            f"is open on a {opts.size}x{opts.size} sea that wraps around, with "
            f"{islands}; {opts.rounds} rounds of {texts['round']} (evade window "
            f"{texts['evade_window']}). 2 to 6 players: send `#uboat join`, then your secret "
            f"starting cell by DM: {text.START_PATTERN}."
        )

    def welcome(self, state: UboatState, player: PlayerId, number: int) -> str:
        found = state.player(player)
        name = found.name if found else player
        colour = found.colour.title if found and found.colour else "a U-boat"
        count = len(state.present)
        return (
            f"{name} joined game {number} as captain of {colour} ({count} "
            f"{self.player_word(count)}). Send your secret starting cell by DM: "
            f"{text.START_PATTERN}; send none and you are placed at random."
        )

    def beginning(self, state: UboatState, names: Mapping[PlayerId, str]) -> str:
        boats = ", ".join(
            f"{boat.colour.title} ({names.get(boat.captain, boat.captain)})" for boat in state.boats
        )
        return (
            f"the hunt begins! {len(state.boats)} U-boats: {boats}. "
            f"{state.options.rounds} rounds; the islands' numbers decide if more than one is left."
        )

    def hint(self, state: UboatState) -> str:
        return f"Each round send one order by DM: {text.ORDER_PATTERNS}."

    def report_title(self, turn: int) -> str:
        return f"round {turn}"

    def quiet_report(self) -> str:
        return "All quiet: no U-boat fired, moved or rammed."

    def board_heading(self, title: str, turn: int) -> str:
        if turn == 0:
            return f"{title}: your U-boat as the hunt begins."
        # ``turn`` is the round the board shows: the one just opened (its evade window
        # included), or the last once the hunt is over.
        return f"{title}, round {turn}:"

    def result(self, state: UboatState, names: Mapping[PlayerId, str]) -> str:
        if state.ending is None:
            return ""
        return text.finished_text(scoring.finished_event_data(state.ending), names)

    def reminder(self, state: UboatState, left: str) -> str:
        orders = "(by DM: `fire E6`, `move up up left`, `ram right right` or `hold`)"
        if state.window_open:
            # The earliest deadline, which the host counts ``left`` to, is the window's.
            return (
                f"round {state.turn}'s evade window closes in {left}, the round later, and "
                f"your U-boat has no order yet {orders}."
            )
        return f"round {state.turn} closes in {left} and your U-boat has no order yet {orders}."

    def replay_caption(self) -> str:
        return "the replay of the whole hunt."

    def example(self) -> str:
        return "fire E6"

    def player_word(self, count: int) -> str:
        return "captain" if count == 1 else "captains"

    def summary(self, state: UboatState, viewer: PlayerId | None) -> str:
        # The text beside a picture says what the viewer's view shows, nothing more.
        return text.summary_text(view(state, viewer))

    def text_board(self, state: UboatState, viewer: PlayerId | None) -> str:
        return text.board_text(view(state, viewer))

    def help_text(self) -> str:
        return text.HELP_TEXT

    def running_phase(self) -> str:
        return "match"  # "a live match for four" (the rules' opening)
