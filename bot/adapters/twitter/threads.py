"""Several games on one X account: each game is a thread, and a post belongs to one.

X has no channels, only conversations. Each game lives in the conversation of the
post that opened it (``@bot #sonar new``): the host's posts about it are replies in that
thread, so the channel the host knows a game by is the thread's root post id. A post
belongs to the game

* whose thread it replies in (its ``conversation_id``), or
* that it names by tag and number (``@bot #sonar 7 f11``, ``#sonar game 3 f11``),
  wherever it was posted, and so does a DM (``#uboat 7 fire E6``);

any other post opens a conversation of its own (a ``new`` there starts a game in it).
The adapter learns which thread holds game 7 from its own posts (every post about a
game names it, ``#sonar game 7``) and keeps it with its cursors, so it survives a
restart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.adapters.game_threads import GameThreads
from bot.host.messages import CursorStore


class Threads(GameThreads):
    """An X account's game threads: a root is a post id, a post's thread its
    ``conversation_id``."""

    def __init__(self, cursors: CursorStore, tags: Iterable[str]) -> None:
        super().__init__(cursors, tags, platform="twitter", is_thread=str.isdigit)

    async def of_post(self, post: Mapping[str, Any], text: str) -> tuple[str, str]:
        """(channel, text) of a public post: the channel is the thread it replies in,
        else the game it names, else its own conversation."""
        post_id = str(post["id"])
        return await self.of_reply(post_id, str(post.get("conversation_id") or post_id), text)
