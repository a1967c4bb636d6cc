"""A message longer than one post, as numbered posts: nothing cut.

Mastodon caps a status at the instance's ``max_characters`` (500 by default), Bluesky a
post at 300 graphemes. The help, the rules or a busy turn's report run past them; cut
with "…" they would lose what a player needs, so they go as a short run of posts
numbered ``(1/3)``, ``(2/3)``, …, split between lines (a line longer than a post between
words). Mastodon sends every long message so; Bluesky its answers to someone's post
(see bot.adapters.bluesky.text). The parts a message must keep whole (``Outbound.keep``:
a commitment, a receipts root) are never split across two posts. Past
:data:`MAX_PARTS` posts (a giant board as text), the last one is shortened as a single
post would be, its kept parts still whole.

SDK-free: pure string functions. Lengths are :func:`~bot.adapters.short_posts.weighted_length`
(a URL 23, as on Mastodon; never less than Mastodon counts).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.adapters.short_posts import compose_post, weighted_length

MAX_PARTS = 8
_NUMBER_ROOM = weighted_length(f"({MAX_PARTS}/{MAX_PARTS}) ")


def numbered(text: str, *, limit: int, mute: str = "", link: str = "",
             keep: Sequence[str] = ()) -> list[str]:  # fmt: skip
    """``text`` as statuses of at most ``limit``: itself (with ``link`` and the ``mute``
    line, as :func:`~bot.adapters.short_posts.compose_post` writes them) when it fits,
    else numbered parts, ``link`` and ``mute`` on the last."""
    whole = compose_post(text, mute, limit=10**9, link=link)
    if weighted_length(whole) <= limit:
        return [whole]
    body = [line.rstrip() for line in text.strip().splitlines()]
    body = [line for line in body if line.strip() not in (mute, link) or not line.strip()]
    budget = limit - _NUMBER_ROOM
    kept = [part.strip() for part in keep if part.strip()]
    parts = _packed(body, budget, kept)
    ending = compose_post("", mute, limit=budget, link=link)
    if ending:
        if parts and weighted_length(parts[-1] + "\n" + ending) <= budget:
            parts[-1] = compose_post(parts[-1], mute, limit=budget, link=link)
        else:
            parts.append(ending)
    if len(parts) > MAX_PARTS:
        rest = "\n".join(parts[MAX_PARTS - 1 :])
        last = compose_post(rest, mute, limit=budget, link=link,
                            keep=[part for part in kept if part in rest])  # fmt: skip
        parts = [*parts[: MAX_PARTS - 1], last]
    count = len(parts)
    return [f"({n}/{count}) {part}" for n, part in enumerate(parts, 1)]


def _words(line: str, keep: Sequence[str]) -> list[str]:
    if not keep:
        return line.split()
    pattern = "(" + "|".join(re.escape(part) for part in keep) + ")"
    words: list[str] = []
    for index, piece in enumerate(re.split(pattern, line)):
        if index % 2:
            words.append(piece)  # a kept part: one word, never split
        else:
            words.extend(piece.split())
    return words


def _packed(lines: Sequence[str], budget: int, keep: Sequence[str]) -> list[str]:
    """``lines`` joined into as few runs of at most ``budget`` as they go, in order. A line
    that fits a post is never split: it opens the next post when this one is full. A
    longer line (the host's verbs in one line, say) runs on word by word from where the
    post is (a kept part one word); a word longer than ``budget`` alone is cut to it."""
    parts: list[str] = []
    current = ""
    for line in lines:
        if not line.strip() and not current:
            continue  # a part never opens with a blank line
        candidate = f"{current}\n{line}" if current else line
        if weighted_length(candidate) <= budget:
            current = candidate
            continue
        if weighted_length(line) <= budget:
            if current.strip():
                parts.append(current.rstrip())
            current = line
            continue
        joiner = "\n"
        for word in _words(line, keep):
            candidate = f"{current}{joiner}{word}" if current else word
            joiner = " "
            if weighted_length(candidate) <= budget:
                current = candidate
                continue
            if current.strip():
                parts.append(current.rstrip())
            current = word
            while weighted_length(current) > budget:
                cut = budget
                while cut > 1 and weighted_length(current[:cut]) > budget:
                    cut -= 1
                parts.append(current[:cut])
                current = current[cut:]
    if current.strip():
        parts.append(current.rstrip())
    return parts
