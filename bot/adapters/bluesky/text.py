"""Bluesky text: the grapheme limits, the post's facets, a long answer in parts, a DM cut
to fit.

SDK-free on purpose: pure string functions the adapter and its tests share.

Bluesky counts a post's length in *graphemes* (≤ 300, and ≤ 3,000 UTF-8 bytes) and a
chat message's in graphemes too (≤ 1,000, ≤ 10,000 bytes). We count code points
instead: a grapheme is one code point or more, so a text we think fits always fits
(an emoji sequence is over-counted, the safe side) and no segmentation library is
needed. Links, hashtags and mentions are not written in the text's markup but as
*facets*: byte ranges of the UTF-8 text, each with a feature (a tag, a mention by DID,
a link). A ``#sonar`` without its facet is plain text nobody can tap or search.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.adapters.numbered_posts import numbered
from bot.adapters.short_posts import URL_WEIGHT, compose_post, compose_thread

POST_GRAPHEMES = 300
POST_BYTES = 3000
DM_GRAPHEMES = 1000
DM_BYTES = 10_000
TAG_GRAPHEMES = 64  # app.bsky.richtext.facet#tag: maxGraphemes 64, maxLength 640 bytes

# A hashtag as Bluesky's clients detect one: after the start or a space, "#" and a word
# that is not only digits; trailing punctuation is not part of it.
_TAG = re.compile(r"(?:^|(?<=\s))#([^\s#]+)")
_URL = re.compile(r"https?://[^\s<>\"]+[^\s<>\".,;:!?)\]'’]")
_MENTION = re.compile(r"(?:^|(?<=[\s(]))@([A-Za-z0-9][A-Za-z0-9.-]*[A-Za-z0-9])")


def graphemes(text: str) -> int:
    """An upper bound of ``text``'s graphemes: its code points."""
    return len(text)


def fits(text: str, limit: int, byte_limit: int) -> bool:
    return graphemes(text) <= limit and len(text.encode("utf-8")) <= byte_limit


def compose(text: str, mute: str = "", *, link: str = "", keep: Sequence[str] = ()) -> str:
    """A public post's text: ``text`` shortened to fit 300 graphemes with the ``mute``
    line kept (X's composition: the line naming the game and turn stays whole).

    X's weighting counts a link as 23 whatever its length, so a post X would take may be
    too long here: the budget shrinks by the overflow until the post fits."""
    limit = POST_GRAPHEMES
    for _ in range(8):
        post = compose_post(text, mute, limit=limit, link=link, keep=keep)
        if fits(post, POST_GRAPHEMES, POST_BYTES):
            return post
        limit -= max(1, graphemes(post) - POST_GRAPHEMES)
    return cut(text, POST_GRAPHEMES)


def compose_parts(
    text: str, mute: str = "", *, link: str = "", keep: Sequence[str] = ()
) -> list[str]:
    """The posts of a public message: one (see :func:`compose`), or a list too long for
    one (the standings) split over numbered posts, each within 300 graphemes."""
    parts = compose_thread(text, mute, limit=POST_GRAPHEMES, link=link, keep=keep)
    if len(parts) > 1 and all(fits(part, POST_GRAPHEMES, POST_BYTES) for part in parts):
        return parts
    return [compose(text, mute, link=link, keep=keep)]


def answer_parts(
    text: str, mute: str = "", *, link: str = "", keep: Sequence[str] = ()
) -> list[str]:
    """The posts of an answer to someone's post (the help, the rules, a status asked in
    public): one when it fits, else numbered posts, nothing cut (as Mastodon sends every
    long message; see bot.adapters.numbered_posts). A game's own posts stay one post
    each (:func:`compose_parts`): a thousand games post at one deadline, at five posts
    a minute. X's weight, which the parts are measured by, counts a link as 23 where
    Bluesky counts it whole: the budget leaves room for the ``link``'s difference, and
    shrinks further, by a step that doubles, while a part (a link in the text) overflows."""
    limit = POST_GRAPHEMES - max(0, graphemes(link) - URL_WEIGHT)
    for attempt in range(8):
        parts = numbered(text, limit=limit, mute=mute, link=link, keep=keep)
        if all(fits(part, POST_GRAPHEMES, POST_BYTES) for part in parts):
            return parts
        overflow = max(graphemes(part) for part in parts) - POST_GRAPHEMES
        limit -= max(1, overflow) << attempt
    return [compose(text, mute, link=link, keep=keep)]


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` graphemes, ending "…" when it was cut."""
    if graphemes(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


def dm_parts(text: str, limit: int = DM_GRAPHEMES) -> list[str]:
    """``text`` as chat messages of at most ``limit`` graphemes, split between lines (a
    board's rows stay whole), a line longer than a message cut between words."""
    parts: list[str] = []
    current = ""
    for line in text.strip().splitlines():
        while graphemes(line) > limit:
            head = line[:limit]
            space = head.rfind(" ")
            head = head[:space] if space > limit // 2 else head
            if current:
                parts.append(current)
                current = ""
            parts.append(head.rstrip())
            line = line[len(head) :].lstrip()
        joined = f"{current}\n{line}" if current else line
        if graphemes(joined) <= limit:
            current = joined
        else:
            parts.append(current)
            current = line
    if current.strip():
        parts.append(current)
    return [part for part in parts if part.strip()] or [""]


def _slice(text: str, start: int, end: int) -> dict[str, int]:
    """The UTF-8 byte range of ``text[start:end]`` (facets index bytes, not characters)."""
    before = len(text[:start].encode("utf-8"))
    return {"byteStart": before, "byteEnd": before + len(text[start:end].encode("utf-8"))}


def facets(
    text: str,
    *,
    mention: Callable[[str], str | None] = lambda handle: None,
) -> list[dict[str, Any]]:
    """The facets of a post's ``text``: each ``#tag`` a tag, each link a link, and each
    ``@handle`` that ``mention`` gives a DID for a mention (the others stay plain text:
    see :class:`~bot.adapters.bluesky.budgets.MentionBudget`)."""
    found: list[dict[str, Any]] = []
    for match in _URL.finditer(text):
        found.append(
            {
                "index": _slice(text, match.start(), match.end()),
                "features": [{"$type": "app.bsky.richtext.facet#link", "uri": match.group(0)}],
            }
        )
    links = [(f["index"]["byteStart"], f["index"]["byteEnd"]) for f in found]

    def inside_link(index: Mapping[str, int]) -> bool:
        return any(start <= index["byteStart"] < end for start, end in links)

    for match in _TAG.finditer(text):
        tag = match.group(1)
        if not tag:
            continue
        tag = tag.rstrip(".,;:!?)]'\"’")
        if not tag or graphemes(tag) > TAG_GRAPHEMES or tag.isdigit():
            continue
        index = _slice(text, match.start(), match.start() + 1 + len(tag))
        if inside_link(index):
            continue
        found.append(
            {"index": index, "features": [{"$type": "app.bsky.richtext.facet#tag", "tag": tag}]}
        )
    for match in _MENTION.finditer(text):
        did = mention(match.group(1).lower())
        index = _slice(text, match.start(), match.end())
        if did is None or inside_link(index):
            continue
        found.append(
            {
                "index": index,
                "features": [{"$type": "app.bsky.richtext.facet#mention", "did": did}],
            }
        )
    return sorted(found, key=lambda facet: int(facet["index"]["byteStart"]))


def renamed(text: str, old: str, new: str) -> str:
    """``text`` with each mention ``@old`` written ``@new`` (a player renamed since the
    host's text was made); ``@old.more`` or ``@older`` are other handles, left alone."""
    if old == new:
        return text
    whole = re.compile(rf"(?:^|(?<=[\s(]))@{re.escape(old)}(?![A-Za-z0-9-]|\.[A-Za-z0-9])", re.I)
    return whole.sub(lambda _: f"@{new}", text)


def strip_leading_mentions(text: str) -> str:
    """``@bot.bsky.social #sonar f11`` → ``#sonar f11``: a reply's leading handles are
    addressing, not content."""
    return re.sub(r"^(?:\s*@[A-Za-z0-9][A-Za-z0-9.-]*[A-Za-z0-9])+\s*", "", text, count=1).strip()
