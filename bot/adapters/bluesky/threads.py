"""Several games on one Bluesky account: each game is a thread, and a post belongs to one.

As on X, Bluesky has no channels, only threads. Each game lives in the thread of the
post that opened it (``#sonar new``): the host's posts about it are replies in that
thread, so the channel the host knows a game by is the thread's root post (its
``at://`` URI). A post belongs to the game

* whose thread it replies in (its record's ``reply.root``), or
* that it names by tag and number (``#sonar 7 f11``, ``#sonar game 3 f11``), wherever
  it was posted, and so does a DM (``#uboat 7 fire E6``);

any other post opens a thread of its own (a ``new`` there starts a game in it). The
adapter learns which thread holds game 7 from its own posts (every post about a game
names it, ``#sonar game 7``) and keeps it with its cursors, so it survives a restart.

A game's thread outlives its root post. Its creator may delete it (or be suspended):
the bot's own first post in the thread is then the game's *anchor*, the post it replies
under (its reply refs still name the root, so the thread stays one). And a thread may be
closed to the bot (a threadgate: its replies there would be written but hidden), so it
posts top-level instead: each such post *stands in* for the game's thread, and a reply
to it belongs to the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.adapters.bluesky.client import PLATFORM
from bot.adapters.game_threads import GameThreads
from bot.host.messages import CursorStore

ANCHOR = "anchor:"  # anchor:<root uri> → the bot's first post in that thread
STANDS_IN = "stands_in:"  # stands_in:<bot's top-level post> → the game's thread


def root_of(record: Mapping[str, Any]) -> str | None:
    """The thread root a post record replies in, if it is a reply."""
    reply = record.get("reply")
    if not isinstance(reply, Mapping):
        return None
    root = reply.get("root")
    return str(root["uri"]) if isinstance(root, Mapping) and root.get("uri") else None


class Threads(GameThreads):
    """A Bluesky account's game threads: a root is an ``at://`` URI, a post's thread its
    record's ``reply.root``."""

    def __init__(self, cursors: CursorStore, tags: Iterable[str]) -> None:
        super().__init__(
            cursors, tags, platform=PLATFORM, is_thread=lambda thread: thread.startswith("at://")
        )
        self._store = cursors
        self._kept: dict[str, str | None] = {}

    async def _read(self, key: str) -> str | None:
        if key not in self._kept:
            self._kept[key] = await self._store.get(PLATFORM, key) or None
        return self._kept[key]

    async def _write(self, key: str, value: str) -> None:
        self._kept[key] = value
        await self._store.set(PLATFORM, key, value)

    async def anchor(self, thread: str) -> str | None:
        """The bot's first post in ``thread``, if it made one."""
        return await self._read(ANCHOR + thread) if thread.startswith("at://") else None

    async def replied(self, thread: str, uri: str) -> None:
        """The bot posted ``uri`` in ``thread``: the first such post is its anchor."""
        if thread.startswith("at://") and await self.anchor(thread) is None:
            await self._write(ANCHOR + thread, uri)

    async def stood_in(self, thread: str, uri: str) -> None:
        """The bot posted ``uri`` top-level for the game in ``thread``."""
        if thread.startswith("at://") and thread != uri:
            await self._write(STANDS_IN + uri, thread)

    async def of_post(self, uri: str, record: Mapping[str, Any], text: str) -> tuple[str, str]:
        """(channel, text) of a public post: the thread it replies in (the game's, for a
        reply to a post of the bot's that stands in for it), else the game it names, else
        its own thread."""
        root = root_of(record) or uri
        if root != uri:
            root = await self._read(STANDS_IN + root) or root
        return await self.of_reply(uri, root, text)
