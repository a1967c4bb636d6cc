"""One use of a verb on a game, as its handler gets it (see bot.host.commands.verbs)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.host.commands.context import CommandContext
from bot.host.outbox.posts import Cause
from bot.store import Tx, records


@dataclass(frozen=True)
class VerbCall:
    """Who asked (``row``), the game as it stands (loaded and locked), the moment, and the
    verb's word and what followed it. Who may use the verb is checked before."""

    commands: CommandContext
    tx: Tx
    row: Cause
    game: Any
    game_row: records.Game
    state: Any
    now: float
    word: str
    rest: str

    @property
    def game_id(self) -> int:
        return self.game_row.id
