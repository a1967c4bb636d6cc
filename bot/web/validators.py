"""HTTP's conditional and partial requests, read as RFC 9110 says, for the answers whose
bytes are known before they are sent (a page, a picture, a replay).

``If-None-Match`` is a list of entity tags, or ``*``; a weak tag (``W/"…"``) matches
its strong twin (the comparison is weak for GET). ``Range`` asks for one or more byte
ranges: one range is answered ``206`` with ``Content-Range``, a range past the end
``416`` (Safari on iPhone and iPad plays a video only from a server that answers its
``Range: bytes=0-1`` so); several ranges are answered with the whole body, as the
standard allows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TAG = re.compile(r'\s*(?:W/)?("[^"]*")\s*(?:,|$)')


def _tags(header: str) -> list[str] | None:
    """The strong forms of the tags listed in ``header``; None for ``*``; [] when the
    header is malformed (it then matches nothing)."""
    if header.strip() == "*":
        return None
    tags = []
    position = 0
    text = header.strip()
    while position < len(text):
        found = _TAG.match(text, position)
        if found is None:
            return []
        tags.append(found[1])
        position = found.end()
    return tags


def none_match(headers: list[str], etag: str) -> bool:
    """Whether ``If-None-Match`` (every one of its header lines) names ``etag``: the
    client has these bytes already (``304``)."""
    for header in headers:
        tags = _tags(header)
        if tags is None:
            return True
        if etag.removeprefix("W/") in tags:
            return True
    return False


@dataclass(frozen=True)
class Part:
    """One byte range of a body of ``size`` bytes: ``start``…``end`` inclusive."""

    start: int
    end: int
    size: int

    @property
    def content_range(self) -> str:
        return f"bytes {self.start}-{self.end}/{self.size}"


UNSATISFIABLE = "unsatisfiable"

_RANGE = re.compile(r"^\s*(\d*)\s*-\s*(\d*)\s*$")


def byte_range(header: str | None, size: int) -> Part | str | None:
    """The part ``Range: header`` asks of a body of ``size`` bytes; None to send it
    whole (no header, a unit other than bytes, several ranges, nonsense);
    :data:`UNSATISFIABLE` when no byte of it is in the body (``416``)."""
    if header is None:
        return None
    unit, _, ranges = header.partition("=")
    if unit.strip().lower() != "bytes" or "," in ranges:
        return None
    found = _RANGE.match(ranges)
    if found is None or (not found[1] and not found[2]):
        return None
    if not found[1]:  # the last N bytes
        length = int(found[2])
        if length == 0 or size == 0:
            return UNSATISFIABLE
        return Part(max(0, size - length), size - 1, size)
    start = int(found[1])
    if found[2] and int(found[2]) < start:
        return None
    if start >= size:
        return UNSATISFIABLE
    end = int(found[2]) if found[2] else size - 1
    return Part(start, min(end, size - 1), size)
