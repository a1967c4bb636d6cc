"""The journal table: the calls the host made to a game's rules, in order."""

from __future__ import annotations

from bot.store.tx import TxBase

SQL_INSERT_JOURNAL = "INSERT INTO journal (game_id, entry) VALUES (?, ?)"


SQL_JOURNAL = "SELECT entry FROM journal WHERE game_id = :game_id ORDER BY id"


class JournalTable(TxBase):
    """The reads and writes of the journal."""

    def add_journal(self, game_id: int, entry: str) -> None:
        """Append one entry (JSON) to a game's journal (see bot.host.play.journal)."""
        self.insert_later(SQL_INSERT_JOURNAL, (game_id, entry))

    def journal(self, game_id: int) -> list[str]:
        """A game's journal entries (JSON), oldest first."""
        return [row[0] for row in self._run(SQL_JOURNAL, {"game_id": game_id}).fetchall()]
