"""Several games on one account of a platform without channels (X, Mastodon, Bluesky):
each game is a thread, and a post belongs to one.

Each game lives in the thread of the post that opened it (``#sonar new``): the host's
posts about it are replies in that thread, so the channel the host knows a game by is
the thread's root post. A post belongs to the game

* whose thread it replies in, or
* that it names by tag and number (``#sonar 7 f11``, ``#sonar game 3 f11``), wherever
  it was posted, and so does a DM (``#uboat 7 fire E6``);

any other post opens a thread of its own (a ``new`` there starts a game in it). The
adapter learns which thread holds game 7 from its own posts (every post about a game
names it, ``#sonar game 7``) and keeps it with its cursors, so it survives a restart.
Each platform says what a thread root looks like and how a post names its thread.

A thread is kept while the bot posts in it: a game's thread where the bot has said nothing
for :data:`THREAD_RETENTION_SECONDS` is a finished or abandoned game's, and is forgotten
(a post naming that game then opens a thread of its own), so the cursors do not grow with
every game ever played.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterable

from bot.host.messages import CursorStore

THREAD_KEY = "thread:"  # thread:#sonar:7 → the root post id of sonar game 7, and when
# the bot last posted there (``ROOT SECONDS``; a bare root was written before that was kept)
THREAD_RETENTION_SECONDS = 90 * 24 * 3600.0
# How often the time a thread was last posted in is written again (not on every post), and
# how often the threads past their retention are looked for.
THREAD_STAMP_SECONDS = 24 * 3600.0
# Game numbers are at most 18 ASCII digits (bot.games.numbers): a longer run is no game's.
_POST_NAMES_GAME = re.compile(r"(#[A-Za-z0-9_]+)\s+game\s+#?([0-9]{1,18})\b", re.IGNORECASE)


def _root_of(stored: str) -> str:
    """The thread's root from a stored ``ROOT SECONDS`` (or a bare root, kept before the
    time was)."""
    return stored.partition(" ")[0]


class GameThreads:
    """The threads of one account's games, learned from its own posts."""

    def __init__(
        self,
        cursors: CursorStore,
        tags: Iterable[str],
        *,
        platform: str,
        is_thread: Callable[[str], bool],
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``platform``: whose cursors keep the threads; ``is_thread``: whether a string
        is one of that platform's thread roots (a post id, an ``at://`` URI); ``clock``:
        epoch seconds, for how long a thread is kept."""
        self._platform = platform
        self._is_thread = is_thread
        self._cursors = cursors
        self._clock = clock
        self._known: dict[str, str] = {}
        self._stamped: dict[str, float] = {}  # key → when its time was last written
        self._pruned = -float("inf")
        alternatives = sorted((re.escape(t) for t in tags), key=len, reverse=True)
        # A command naming its game right after the tag: "#sonar 7 f11", "#sonar game 7 …".
        self._names_game = (
            re.compile(
                r"^\s*(" + "|".join(alternatives) + r")\s+(?:game\s+)?#?([0-9]{1,18})\b",
                re.IGNORECASE,
            )
            if alternatives
            else None
        )

    @staticmethod
    def _key(tag: str, number: str) -> str:
        return f"{THREAD_KEY}{tag.lower()}:{int(number)}"

    async def learn(self, thread: str, text: str) -> None:
        """The bot posted ``text`` in ``thread``: the game it names lives there."""
        if not self._is_thread(thread):
            return
        now = self._clock()
        for tag, number in _POST_NAMES_GAME.findall(text)[:1]:
            key = self._key(tag, number)
            fresh = now - self._stamped.get(key, -float("inf")) < THREAD_STAMP_SECONDS
            if self._known.get(key) != thread or not fresh:
                self._known[key] = thread
                self._stamped[key] = now
                await self._cursors.set(self._platform, key, f"{thread} {int(now)}")
        if now - self._pruned >= THREAD_STAMP_SECONDS:
            self._pruned = now
            await self.forget_old()

    async def forget_old(self) -> int:
        """Forget the threads the bot has not posted in for the retention period (a bare
        root, written before the time was kept, counts from the first look); how many."""
        now = self._clock()
        forgotten = 0
        for key, value in (await self._cursors.all(self._platform)).items():
            if not key.startswith(THREAD_KEY):
                continue
            root, _, stamp = value.partition(" ")
            if not stamp.isdigit():
                # Kept before the time was: from now on it ages like the others.
                self._stamped[key] = now
                await self._cursors.set(self._platform, key, f"{root} {int(now)}")
                continue
            if now - int(stamp) < THREAD_RETENTION_SECONDS:
                continue
            self._known.pop(key, None)
            self._stamped.pop(key, None)
            with contextlib.suppress(Exception):  # a store hiccup: forgotten next time
                await self._cursors.forget(self._platform, key)
                forgotten += 1
        return forgotten

    async def thread_named(self, text: str) -> str | None:
        """The thread of the game a post of the bot's names (``#sonar game 7``), where it
        is known: how a thread whose first post was deleted stays its game's."""
        for tag, number in _POST_NAMES_GAME.findall(text)[:1]:
            key = self._key(tag, number)
            if key not in self._known:
                stored = await self._cursors.get(self._platform, key)
                if stored is None:
                    return None
                self._known[key] = _root_of(stored)
            return self._known[key]
        return None

    async def _named(self, text: str) -> tuple[str | None, str]:
        """(the thread of the game ``text`` names after its tag, if known; the text with
        the number taken out: ``#sonar 7 f11`` → ``#sonar f11``, the number is addressing)."""
        if self._names_game is None:
            return None, text
        named = self._names_game.match(text)
        if named is None:
            return None, text
        rest = f"{named.group(1)}{text[named.end() :]}"
        key = self._key(named.group(1), named.group(2))
        if key not in self._known:
            stored = await self._cursors.get(self._platform, key)
            if stored is None:
                return None, rest
            self._known[key] = _root_of(stored)
        return self._known[key], rest

    async def of_reply(self, post_id: str, conversation: str, text: str) -> tuple[str, str]:
        """(channel, text) of a public post whose thread starts at ``conversation`` (its
        own id when it starts one)."""
        thread, rest = await self._named(text)
        if conversation != post_id:
            return conversation, rest
        return thread or post_id, rest

    async def of_dm(self, text: str) -> tuple[str, str]:
        """(channel, text) of a DM: the game it names, else none (the host then takes
        the sender's one game)."""
        thread, rest = await self._named(text)
        return thread or "", rest
