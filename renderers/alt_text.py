"""Alt text: what a screen reader says instead of a picture, within what the platforms take.

Each game's ``alt_text`` module says what its pictures show; the limit, and the ways of
keeping long lists (shots, wrecks, captains) within it — cut to what fits and ended with
"and N more" — are the same for every game and live here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from renderers.style import ELLIPSIS, deadline_text

MAX_ALT_TEXT = 1000
"""X accepts alt text up to 1000 characters (Discord more)."""


def list_within(items: Sequence[str], budget: int, *, none_fit: str = "") -> str:
    """``a, b, c and 4 more`` within ``budget`` characters (all of them when they fit), or
    ``none_fit`` when not even ``7 more`` fits."""
    full = ", ".join(items)
    if len(full) <= budget:
        return full
    for shown in range(len(items) - 1, -1, -1):
        text = ", ".join(items[:shown]) + (" and " if shown else "") + f"{len(items) - shown} more"
        if len(text) <= budget:
            return text
    return none_fit


def deadline_sentences(deadline: datetime | None, now: datetime | None) -> list[str]:
    """``Next deadline 2026-01-01 08:00 UTC (in 7 h 58 min).`` when there is a deadline:
    none or one sentence."""
    when = deadline_text(deadline, now)
    return [f"{when}."] if when else []


def cut_to_limit(text: str) -> str:
    """``text``, or as much of it as fits in :data:`MAX_ALT_TEXT` with an ellipsis."""
    if len(text) <= MAX_ALT_TEXT:
        return text
    return text[: MAX_ALT_TEXT - 1].rstrip() + ELLIPSIS


@dataclass(frozen=True)
class Listing:
    """A sentence that lists things: ``Wrecks: a, b and 3 more.``"""

    prefix: str
    """What comes before the items (``Wrecks: ``)."""
    items: Sequence[str]
    """Most important first: the list is cut from the end."""
    empty: str = ""
    """The sentence when there are no items ("": none)."""


def compose_alt_text(head: Sequence[str], listings: Sequence[Listing], tail: Sequence[str]) -> str:
    """The sentences of ``head``, then each listing, sharing fairly the room that ``head`` and
    ``tail`` leave, then those of ``tail``; cut to :data:`MAX_ALT_TEXT` in any case. A
    listing's share is counted among all those still to come, empty ones included."""
    fixed = " ".join([*head, *tail])
    room = MAX_ALT_TEXT - len(fixed) - 1
    sentences: list[str] = []
    for index, listing in enumerate(listings):
        if not listing.items:
            sentence = listing.empty
        else:
            share = room // (len(listings) - index)
            budget = max(8, share - len(listing.prefix) - 2)
            listed = list_within(listing.items, budget, none_fit=f"{len(listing.items)}")
            sentence = f"{listing.prefix}{listed}."
        if sentence:
            sentences.append(sentence)
            room -= len(sentence) + 1
    return cut_to_limit(" ".join(part for part in [*head, *sentences, *tail] if part))
