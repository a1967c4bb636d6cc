"""What X's post texts need beyond :mod:`bot.adapters.short_posts` (the weight, the
shortening and the mute line every short-post platform shares): the addressing X puts in
front of a reply, and the HTML escapes its v2 API returns.

SDK-free on purpose: pure string functions the adapter and its tests share.
"""

from __future__ import annotations

import html
import re

_LEADING_MENTIONS = re.compile(r"^(?:\s*(?:\.)?@\w{1,15}\b)+\s*")


def strip_leading_mentions(text: str) -> str:
    """``@hostbot @friend #sonar f11`` → ``#sonar f11``.

    Replies on X start with the handles of everyone in the thread; they are
    addressing, not content. Mentions later in the text are left alone (the
    host's parser ignores them).
    """
    return _LEADING_MENTIONS.sub("", text, count=1).strip()


def unescape_post_text(text: str) -> str:
    """X's v2 API returns ``&amp;``, ``&lt;``, ``&gt;`` in post text."""
    return html.unescape(text)
