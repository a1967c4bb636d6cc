"""Only the mentions an adapter makes itself notify anyone: every other ``@`` is defused.

People's names are whatever they typed, and a name is shown on every platform: a bridged
player called ``@victim@elsewhere.example`` would ping that stranger in each Mastodon
report, and a name ``@someone`` would ping them on X. A post mentions only accounts the
platform itself identified: the adapter's own ``mention`` of a player (made from the
player's id when the message is sent). So, before a text goes out, every ``@`` (or X's
fullwidth ``＠``) that a platform would read as the start of a mention gets a zero-width
joiner after it (U+200D: invisible, no letter of any platform's handle, and it weighs 1
on X as a Latin letter does): it reads the same and links nobody.
The adapter's own mentions are kept as they are.

An ``@`` inside a word or a link (``bob@example.org``, ``https://host/@bob``) starts no
mention on any platform and is left alone, so links keep working.

SDK-free on purpose: a pure string function each adapter calls in its send path. Discord
defuses with ``allowed_mentions`` instead, and Bluesky needs neither: a mention there is
a facet the adapter writes, and it writes one only for the DIDs a message names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

JOINER = "\u200d"  # ZERO WIDTH JOINER: no width, not part of any handle

# An at-sign where Mastodon, X or Bluesky would start a mention: at the start, or after
# a character that is not part of a word, a link or an address, followed by a handle's
# first character.
_AT = re.compile(r"(?<![\w/.@＠!#$%&*+~=-])([@＠])(?=\w)")


def defuse(text: str, keep: Iterable[str] = ()) -> str:
    """``text`` with every mention but the ``keep`` ones (the adapter's own, exactly as it
    wrote them: ``@alice.bsky.social``) turned into plain text."""
    kept = sorted({k for k in keep if k}, key=len, reverse=True)
    if not kept:
        return _AT.sub(lambda match: match.group(1) + JOINER, text)
    # The kept mentions, whole: a longer name that merely starts with one is not it.
    whole = re.compile(
        "(?<![\\w/.@＠!#$%&*+~=-])(?:"
        + "|".join(re.escape(k) for k in kept)
        + ")(?![\\w@＠-]|\\.\\w)"
    )
    pieces: list[str] = []
    position = 0
    for match in whole.finditer(text):
        pieces.append(_AT.sub(lambda m: m.group(1) + JOINER, text[position : match.start()]))
        pieces.append(match.group(0))
        position = match.end()
    pieces.append(_AT.sub(lambda m: m.group(1) + JOINER, text[position:]))
    return "".join(pieces)


class OwnMentions:
    """The mentions an adapter made, by user id (its ``mention`` notes each): a message
    keeps live only those of the people it names (``Outbound.mentions``)."""

    def __init__(self) -> None:
        self._made: dict[str, str] = {}

    def note(self, user_id: str | None, mention: str) -> str:
        """``mention`` (as the adapter writes it) of ``user_id``, noted and returned."""
        if user_id:
            self._made[user_id] = mention
        return mention

    def defuse(self, text: str, user_ids: Iterable[str]) -> str:
        """``text`` with every mention defused but the adapter's own of ``user_ids``."""
        return defuse(text, [self._made[u] for u in user_ids if u in self._made])
