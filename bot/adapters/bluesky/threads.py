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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.adapters.bluesky.client import PLATFORM
from bot.adapters.game_threads import GameThreads
from bot.host.messages import CursorStore


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

    async def of_post(self, uri: str, record: Mapping[str, Any], text: str) -> tuple[str, str]:
        """(channel, text) of a public post: the thread it replies in, else the game it
        names, else its own thread."""
        return await self.of_reply(uri, root_of(record) or uri, text)
