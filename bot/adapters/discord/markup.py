"""The host's plain words in Discord's own markup, without the SDK.

* **Times.** The host writes a deadline as ``2026-01-01 08:00 UTC`` (its one format,
  :func:`bot.host.clock.format_utc`), which every platform can show. On Discord a
  timestamp tag shows it in each reader's own time zone, and counting down:
  ``<t:1767254400:f> (<t:1767254400:R>)``. A countdown the host wrote beside it
  (``(in 7 hours)``) is dropped: Discord's counts live.
* **Plain text.** The host writes plain text (its one markup: commands in backticks);
  much of it is people's words (names, echoed input). On Discord ``*``, ``_``, ``~``,
  ``|``, ``[…](…)``, a leading ``#``, ``>`` or ``-`` are markdown: a name like
  ``[Free Nitro](https://…)`` would be a link in the bot's own post, ``# Winner`` a
  heading. :func:`discord_plain` escapes them outside code spans and links, and keeps a
  mention only of someone the message means to name (``<@id>`` text in a name, a role
  mention or ``@everyone`` is shown, not rendered).
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


def discord_times(text: str) -> str:
    """Every ``YYYY-MM-DD HH:MM UTC`` of ``text`` as Discord timestamp tags."""

    def tag(match: re.Match[str]) -> str:
        seconds = timegm(strptime(match.group(1), "%Y-%m-%d %H:%M"))
        return f"<t:{seconds}:f> (<t:{seconds}:R>)"

    return _UTC.sub(tag, text)


_CODE_OR_LINK = re.compile(r"(`[^`\n]*`|https?://[^\s<>]+)")
_INLINE_MARKDOWN = re.compile(r"([\\*_~|\[\]])")
# A heading (``# ``…``### ``), a list item or subtext (``- ``, ``-# ``), a quote
# (``> ``, ``>>> ``): only these, so ``#sonar game 1`` at a line's start stays as it is.
_LINE_MARKDOWN = re.compile(r"^(\s*)(?=#{1,3}\s|-#?\s|>{1,3}\s)", re.MULTILINE)
_MENTION = re.compile(r"<@([!&]?)(\d*)>")
_EVERYONE = re.compile(r"@(everyone|here)\b")
_ZERO_WIDTH_SPACE = "\u200b"


def discord_plain(text: str, mentions: Sequence[str] = ()) -> str:
    """``text`` shown on Discord exactly as written: markdown escaped outside code spans
    and links; ``<@id>`` rendered only for the ids in ``mentions`` (the people the message
    names on purpose), every other mention shown as text."""
    pieces = _CODE_OR_LINK.split(text)
    for i in range(0, len(pieces), 2):  # (odd pieces are code spans and links: kept)
        pieces[i] = _INLINE_MARKDOWN.sub(r"\\\1", pieces[i])
    escaped = "".join(pieces)
    escaped = _LINE_MARKDOWN.sub(r"\1\\", escaped)
    wanted = set(mentions)

    def mention(match: re.Match[str]) -> str:
        kind, user_id = match.group(1), match.group(2)
        if kind in ("", "!") and user_id in wanted:
            return match.group(0)
        return f"<{_ZERO_WIDTH_SPACE}@{kind}{user_id}>"

    escaped = _MENTION.sub(mention, escaped)
    return _EVERYONE.sub(f"@{_ZERO_WIDTH_SPACE}\\1", escaped)


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
