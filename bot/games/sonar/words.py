"""Sonar's words: every sentence the host posts about a game of Sonar, where it differs
from the neutral ones (:class:`bot.games.base.NeutralWords`). The game's own words are
a hunt (``shared/rules/sonar.md``): captains, subs, depth charges; the reports of a turn
and the text boards are written in :mod:`bot.games.sonar.text`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from bot.games.base import NeutralWords, PlayerId
from bot.games.duration import format_duration
from bot.games.sonar import text
from bot.games.sonar.fleet import FLEET_EXAMPLE, lengths_list, lengths_text
from bot.games.sonar.options import MAX_PLAYERS, MIN_PLAYERS, OnTimeout, Placement
from bot.games.sonar.orders import SHOOT_EXAMPLE, AtRandom, Fleet, Order, describe_order
from bot.games.sonar.state import Phase, SonarState
from bot.games.sonar.views import view


class SonarWords(NeutralWords[SonarState, Order]):
    """Sonar's words, where they differ from the neutral ones."""

    public_report = staticmethod(text.public_report)
    private_report = staticmethod(text.private_report)

    def describe(self, order: Order) -> str:
        if isinstance(order, Fleet):
            return f"fleet {describe_order(order)}"
        if isinstance(order, AtRandom):
            return "random"
        return f"fire at {describe_order(order)}"

    def opening(self, state: SonarState) -> str:
        options = state.options
        board = state.board
        ships = (
            f"{options.ships} sub{'s' if options.ships != 1 else ''} each"
            if options.ships is not None
            else "12 subs shared out (6, 4 or 3 each)"
        )
        line = (
            f"is open on a wrapping hex ocean of {board.rows} rows × {board.cols} columns: "
            f"{MIN_PLAYERS} to {MAX_PLAYERS} captains, {ships}, "
            f"{format_duration(timedelta(seconds=options.move_time))} a turn. "
            "Send `#sonar join` to play."
        )
        if options.placement is Placement.GIVEN:
            line += (
                f" Then DM your fleet ({lengths_text(options.ships_for(2))}): the length, bow "
                f"cell and facing of each sub, e.g. {FLEET_EXAMPLE}; or `random` to be "
                "placed by the host."
            )
        return line

    def welcome(self, state: SonarState, player: PlayerId, number: int) -> str:
        count = len(state.present)
        line = f"{state.name_of(player)} joined game {number} ({count} {self.player_word(count)})."
        if state.options.placement is Placement.GIVEN:
            ships = state.options.ships_for(len(state.present))
            line += (
                f" Send me your fleet by DM: {lengths_text(ships)}, each as its length, "
                f"bow cell and facing, e.g. {FLEET_EXAMPLE}; or `random`."
            )
        else:
            line += " The host places every fleet at random when the battle starts."
        return line

    def beginning(self, state: SonarState, names: Mapping[PlayerId, str]) -> str:
        captains = [names.get(c.id, c.name) for c in state.in_battle]
        ships = state.ships or 0
        first = names.get(state.first or "", state.name_of(state.first))
        return (
            f"the hunt begins! {len(captains)} captains: {', '.join(captains)}; "
            f"{ships} sub{'s' if ships != 1 else ''} each ({lengths_list(ships)}) on the "
            f"{state.board.rows}×{state.board.cols} ocean. {first} moves first."
        )

    def hint(self, state: SonarState) -> str:
        charges = "one charge a turn" if state.options.one_shot else "one charge per live sub"
        return (
            f"On your turn fire in public or by DM: `{SHOOT_EXAMPLE}` ({charges}) or "
            "`#sonar random`; a miss tells the distance to the nearest sub."
        )

    def quiet_report(self) -> str:
        return "No charges were fired; every sub sailed on one step."

    def board_heading(self, title: str, turn: int) -> str:
        return f"{title}, as the battle begins:" if turn == 0 else f"{title}, turn {turn}:"

    def result(self, state: SonarState, names: Mapping[PlayerId, str]) -> str:
        if state.phase is not Phase.FINISHED:
            return ""
        return text.ending_text(
            state.winners, state.draw, {**{c.id: c.name for c in state.captains}, **names}
        )

    def reminder(self, state: SonarState, left: str) -> str:
        allowed = state.shots_allowed(state.to_move) if state.to_move else 0
        charges = f"{allowed} charge{'s' if allowed != 1 else ''}"
        otherwise = (
            "your turn is skipped"
            if state.options.on_timeout is OnTimeout.SKIP
            else f"{charges} {'go' if allowed != 1 else 'goes'} off at random"
        )
        return (
            f"turn {state.turn} is yours and closes in {left}: fire up to {charges} "
            f"(`{SHOOT_EXAMPLE}`) or `#sonar random`; otherwise {otherwise}."
        )

    def replay_caption(self) -> str:
        return "the replay of the whole hunt."

    def example(self) -> str:
        return SHOOT_EXAMPLE

    def player_word(self, count: int) -> str:
        return "captain" if count == 1 else "captains"

    def summary(self, state: SonarState, viewer: PlayerId | None) -> str:
        # The text beside a picture says what the viewer's view shows, nothing more.
        return text.summary_text(view(state, viewer))

    def text_board(self, state: SonarState, viewer: PlayerId | None) -> str:
        return text.board_text(view(state, viewer))

    def help_text(self) -> str:
        return text.HELP_TEXT

    def running_phase(self) -> str:
        return "hunt"  # a hunt for hidden subs (its replay is "the whole hunt")

    def rules_text(self) -> str:
        return text.RULES_TEXT
