"""bst's words part (``Words`` in ``bot/games/base.py``): every sentence is ``text.py``'s
and every turn's report ``reports.py``'s; what is left to the neutral words (the report's
title, the acknowledgement's shape) is what bst says as every game does."""

from __future__ import annotations

from bot.games.base import NeutralWords, PlayerId
from bot.games.bst import reports, text
from bot.games.bst.orders import Order, describe_order
from bot.games.bst.state import BstState
from bot.games.bst.status import Phase


class BstWords(NeutralWords[BstState, Order]):
    """bst's words, where they differ from the neutral ones."""

    describe = staticmethod(describe_order)
    acknowledge = staticmethod(text.acknowledgement)
    opening = staticmethod(text.opening)
    welcome = staticmethod(text.welcome)
    beginning = staticmethod(text.beginning)
    board_heading = staticmethod(text.board_heading)
    result = staticmethod(text.result)
    reminder = staticmethod(text.reminder)
    player_word = staticmethod(text.player_word)
    public_report = staticmethod(reports.public_report)
    public_report_in_full = staticmethod(reports.public_report_in_full)
    private_report = staticmethod(reports.private_report)
    summary = staticmethod(text.summary_text)
    text_board = staticmethod(text.board_text)

    def quick_orders(self, state: BstState, player: PlayerId) -> tuple[str, ...]:
        # A fleet placed at random saves typing five ships' cells.
        return ("random",) if state.phase is Phase.SETUP else ()

    def hint(self, state: BstState) -> str:
        return text.BATTLE_HINT

    def quiet_report(self) -> str:
        return text.QUIET_REPORT

    def replay_caption(self) -> str:
        return text.REPLAY_CAPTION

    def example(self) -> str:
        return text.EXAMPLE

    def help_text(self) -> str:
        return text.HELP_TEXT

    def rules_text(self) -> str:
        return text.RULES_TEXT
