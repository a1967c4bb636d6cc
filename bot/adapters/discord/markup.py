"""The host's plain words in Discord's own markup, without the SDK.

* **Times.** The host writes a deadline as ``2026-01-01 08:00 UTC`` (its one format,
  :func:`bot.host.clock.format_utc`), which every platform can show. On Discord a
  timestamp tag shows it in each reader's own time zone, and counting down:
  ``<t:1767254400:f> (<t:1767254400:R>)``. A countdown the host wrote beside it
  (``(in 7 hours)``) is dropped: Discord's counts live.
* **Plain text.** The host's words are plain text, and the names in them are people's
  own (``sea_wolf``, ``*star*``): Discord would read their ``_`` and ``*`` as italics and
  bold, so they are escaped (:func:`plain`), except in the host's code spans (`` `#bst
  H14` ``, where Discord shows text as it is) and in links.
* **Buttons.** A button's custom id carries the whole command it stands for
  (``bst1:o:#sonar join``), so a click is understood with no state kept: the buttons of
  a message sent a week ago, before a restart, still work. ``p`` marks a private
  answer (acknowledged to the clicker alone), ``o`` an open one.
"""

from __future__ import annotations

import re
from calendar import timegm
from collections.abc import Sequence
from dataclasses import dataclass
from time import strptime

from bot.host.messages import Choice

_UTC = re.compile(r"(\d{4}-\d{2}-\d{2} \d{2}:\d{2}) UTC(?: \(in [^()]*\))?")


# A code span, a link or a Discord tag (<@id>, <t:…>): left as they are.
_AS_IS = re.compile(r"`[^`\n]*`|https?://\S+|<[@#:t][^<>\s]*>")
_MARKS = re.compile(r"([_*])")


def plain(text: str) -> str:
    """``text`` shown as written: its ``_`` and ``*`` escaped, so that Discord reads no
    italics or bold into names and words (code spans, links and tags left alone)."""
    if "_" not in text and "*" not in text:
        return text
    parts = []
    position = 0
    for match in _AS_IS.finditer(text):
        parts.append(_MARKS.sub(r"\\\1", text[position : match.start()]))
        parts.append(match.group(0))
        position = match.end()
    parts.append(_MARKS.sub(r"\\\1", text[position:]))
    return "".join(parts)


def discord_times(text: str) -> str:
    """Every ``YYYY-MM-DD HH:MM UTC`` of ``text`` as Discord timestamp tags."""

    def tag(match: re.Match[str]) -> str:
        seconds = timegm(strptime(match.group(1), "%Y-%m-%d %H:%M"))
        return f"<t:{seconds}:f> (<t:{seconds}:R>)"

    return _UTC.sub(tag, text)


BUTTON_PREFIX = "bst1:"
MAX_CUSTOM_ID = 100  # Discord's limits
MAX_LABEL = 80
MAX_BUTTONS = 25  # five rows of five


@dataclass(frozen=True)
class Button:
    label: str
    custom_id: str


def buttons_for(choices: Sequence[Choice]) -> list[Button]:
    """The buttons Discord can carry for ``choices``: a choice whose command does not fit
    a custom id, or beyond the 25th, stays typed only (the text says how)."""
    found: list[Button] = []
    seen: set[str] = set()
    for choice in choices:
        custom_id = f"{BUTTON_PREFIX}{'p' if choice.private else 'o'}:{choice.text}"
        if len(custom_id) > MAX_CUSTOM_ID or custom_id in seen:
            continue
        seen.add(custom_id)
        label = (
            choice.label if len(choice.label) <= MAX_LABEL else choice.label[: MAX_LABEL - 1] + "…"
        )
        found.append(Button(label, custom_id))
        if len(found) == MAX_BUTTONS:
            break
    return found


def command_of(custom_id: str) -> tuple[str, bool] | None:
    """(the command a button stands for, whether it is private), or None for a custom id
    that is not one of the host's buttons."""
    if not custom_id.startswith(BUTTON_PREFIX):
        return None
    mode, colon, text = custom_id[len(BUTTON_PREFIX) :].partition(":")
    if not colon or mode not in ("p", "o") or not text.strip():
        return None
    return text, mode == "p"
