"""The cursors table: where each platform's catch-up starts again."""

from __future__ import annotations

from sqlmodel import select

from bot.store.models import (
    CursorRow,
)
from bot.store.tx import TxBase


class CursorTable(TxBase):
    """The reads and writes of cursors."""

    def cursor(self, platform: str, key: str) -> str | None:
        row = self.session.get(CursorRow, (platform, key))
        return None if row is None else row.value

    def set_cursor(self, platform: str, key: str, value: str) -> None:
        row = self.session.get(CursorRow, (platform, key))
        if row is None:
            self.session.add(CursorRow(platform=platform, key=key, value=value))
        else:
            row.value = value
            self.session.add(row)
        self.session.flush()

    def forget_cursor(self, platform: str, key: str) -> None:
        """Drop a cursor nobody needs any more."""
        row = self.session.get(CursorRow, (platform, key))
        if row is not None:
            self.session.delete(row)
            self.session.flush()

    def cursors(self, platform: str) -> dict[str, str]:
        query = select(CursorRow).where(CursorRow.platform == platform)
        return {row.key: row.value for row in self.session.exec(query).all()}
