"""Sugar Dog's words part (``Words`` in ``bot/games/base.py``): the sentences the host
posts about a hunt. The reports, the log and the text board are ``text.py``'s; what is
left to the neutral words is what Sugar Dog says as every game does."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from bot.games.base import NeutralWords, PlayerId
from bot.games.duration import humanize
from bot.games.sugardog import text
from bot.games.sugardog.board import board_text
from bot.games.sugardog.orders import EXAMPLES, Order, describe_order
from bot.games.sugardog.state import Phase, SugarDogState


def _a(text: str) -> str:
    """The article before a number said aloud: ``an 8×8``, ``an 18×18``, ``a 6×6``."""
    return "an" if text.startswith(("8", "11", "18")) else "a"


def _in_words(delta: timedelta) -> str:
    """``1 day``, ``2 days 4 h``; shorter times as :func:`humanize` says them."""
    days, rest = divmod(int(delta.total_seconds()), 86400)
    if not days:
        return humanize(delta)
    said = f"{days} {'day' if days == 1 else 'days'}"
    return f"{said} {humanize(timedelta(seconds=rest))}" if rest >= 60 else said


class SugarDogWords(NeutralWords[SugarDogState, Order]):
    """Sugar Dog's words, where they differ from the neutral ones."""

    player_words = ("captain", "captains")
    describe = staticmethod(describe_order)
    public_report = staticmethod(text.public_lines)
    private_report = staticmethod(text.private_lines)
    summary = staticmethod(text.summary_text)
    text_board = staticmethod(text.board_text)

    def opening(self, state: SugarDogState) -> str:
        size = board_text(state.board)
        move_time = _in_words(timedelta(seconds=state.options.move_time))
        return (
            f"is open: a submarine duel on {_a(size)} {size} board (2 more each way for every captain "
            f"past two). Join with `{text.TAG} join` (or `join` by DM), then DM me your secret "
            f"starting cell, e.g. `C4`. Each captain has {move_time} to move."
        )

    def welcome(self, state: SugarDogState, player: PlayerId, number: int) -> str:
        count = len(state.present)
        return (
            f"{state.name(player)} joined game {number} ({count} "
            f"{self.player_word(count)}, board {board_text(state.board)} so far). DM me your "
            "secret starting cell, e.g. `C4` (columns are letters from the left, rows numbers "
            "from the bottom); the latest one you send before the start stands."
        )

    def beginning(self, state: SugarDogState, names: Mapping[PlayerId, str]) -> str:
        order = [names.get(p, state.name(p)) for p in state.order]
        first = order[0] if order else "nobody"
        return (
            f"the hunt begins! {len(order)} captains on {_a(board_text(state.size))} "
            f"{board_text(state.size)} board. "
            f"Turn order: {', '.join(order)}. {first} moves first."
        )

    def hint(self, state: SugarDogState) -> str:
        return f"On your turn DM me one order: {EXAMPLES}. `log` shows your own log."

    def board_heading(self, title: str, turn: int) -> str:
        if turn:  # the turn the board shows, as its picture names it
            return f"{title}, turn {turn}:"
        return f"{title}: your submarine as the hunt begins."

    def result(self, state: SugarDogState, names: Mapping[PlayerId, str]) -> str:
        if state.phase is not Phase.FINISHED:
            return ""
        winners = [names.get(p, state.name(p)) for p in state.winners]
        ended_by_host = bool(state.history) and state.history[-1].order is None
        if ended_by_host:
            return text.ended_sentence(winners)
        return text.result_sentence(winners, state.draw)

    def reminder(self, state: SugarDogState, left: str) -> str:
        return (
            f"it is your turn ({state.turn}) and your time runs out in {left}: DM me {EXAMPLES}. "
            "If it runs out, you hold position silently."
        )

    def replay_caption(self) -> str:
        return "the replay of the whole hunt."

    def example(self) -> str:
        return "silent up"

    def help_text(self) -> str:
        return text.HELP_TEXT

    def running_phase(self) -> str:
        return "duel"  # "a submarine duel" (the rules' first line)

    def rules_text(self) -> str:
        return text.RULES_TEXT
