"""The host's plain words in Discord's own markup, without the SDK.

* **Times.** The host writes a deadline as ``2026-01-01 08:00 UTC`` (its one format,
  :func:`bot.host.runtime.clock.format_utc`), which every platform can show. On Discord a
  timestamp tag shows it in each reader's own time zone, and counting down:
  ``<t:1767254400:f> (<t:1767254400:R>)``, to the second: the host names a deadline
  to the minute, and gives its exact moment beside the text (``Outbound.instants``).
  A countdown the host wrote beside it (``(in 7 hours)``) is dropped: Discord's counts
  live.
* **Plain text.** The host writes plain text (its one markup: commands in backticks);
  much of it is people's words (names, echoed input). On Discord ``*``, ``_``, ``~``,
  ``|``, ``[…](…)``, a leading ``#``, ``>`` or ``-`` are markdown: a name like
  ``[Free Nitro](https://…)`` would be a link in the bot's own post, ``# Winner`` a
  heading. :func:`discord_plain` escapes them outside code spans and links, and keeps a
  mention only of someone the message means to name (``<@id>`` text in a name, a role
  mention or ``@everyone`` is shown, not rendered).
* **Buttons.** A button's custom id carries the whole command it stands for and the
  number of its game (``bst2:o:12:#sonar join``), so a click is understood with no state
  kept: the buttons of a message sent a week ago, before a restart, still work, and a
  click in a DM (which belongs to no channel) is about that game, not "the sender's one
  game". ``p`` marks a private answer (acknowledged to the clicker alone), ``o`` an open
  one. Buttons made before game numbers (``bst1:o:#sonar join``) still work as before.
"""

from __future__ import annotations

import re
from calendar import timegm
from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil
from time import strptime

from bot.host.messages import Choice

_UTC = re.compile(r"(\d{4}-\d{2}-\d{2} \d{2}:\d{2}) UTC(?: \(in [^()]*\))?")


def discord_times(text: str, instants: Sequence[float] = ()) -> str:
    """Every ``YYYY-MM-DD HH:MM UTC`` of ``text`` as Discord timestamp tags: to the second
    where one of ``instants`` (the exact deadlines) falls in that minute, rounded up so a
    countdown never reaches zero before the turn closes; else the minute itself."""
    exact: dict[int, int] = {}
    for instant in instants:
        exact.setdefault(int(instant // 60) * 60, ceil(instant))

    def tag(match: re.Match[str]) -> str:
        minute = timegm(strptime(match.group(1), "%Y-%m-%d %H:%M"))
        seconds = exact.get(minute, minute)
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


BUTTON_PREFIX = "bst2:"  # bst2:MODE:GAME:COMMAND
OLD_BUTTON_PREFIX = "bst1:"  # bst1:MODE:COMMAND, on messages sent before game numbers
MAX_CUSTOM_ID = 100  # Discord's limits
MAX_LABEL = 80
MAX_BUTTONS = 25  # five rows of five


PAGE_BUTTON = "Open the game's page"  # the label of the link button to the web page
MAX_LINK_URL = 512  # Discord's limit on a link button's url


def link_button_url(link: str) -> str:
    """``link`` if a Discord link button can carry it (http or https, at most 512
    characters), else "" (then the message goes without it)."""
    if len(link) > MAX_LINK_URL or not link.startswith(("https://", "http://")):
        return ""
    return link


@dataclass(frozen=True)
class Button:
    label: str
    custom_id: str


@dataclass(frozen=True)
class Click:
    """What a button stands for: the command, whether its answer is private, and the
    number of its game (0 on a button made before buttons carried one)."""

    text: str
    private: bool
    game: int = 0


def buttons_for(choices: Sequence[Choice], game: int = 0) -> list[Button]:
    """The buttons Discord can carry for ``choices`` of game number ``game``: a choice
    whose command does not fit a custom id, or beyond the 25th, stays typed only (the
    text says how)."""
    found: list[Button] = []
    seen: set[str] = set()
    for choice in choices:
        mode = "p" if choice.private else "o"
        custom_id = f"{BUTTON_PREFIX}{mode}:{game}:{choice.text}"
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


def command_of(custom_id: str) -> Click | None:
    """What a button stands for, or None for a custom id that is not one of the host's
    buttons. Buttons of either form work, whenever their message was sent."""
    game = 0
    if custom_id.startswith(BUTTON_PREFIX):
        mode, colon, rest = custom_id[len(BUTTON_PREFIX) :].partition(":")
        number, colon_2, text = rest.partition(":")
        if not (colon and colon_2 and number.isdigit()):
            return None
        game = int(number)
    elif custom_id.startswith(OLD_BUTTON_PREFIX):
        mode, colon, text = custom_id[len(OLD_BUTTON_PREFIX) :].partition(":")
        if not colon:
            return None
    else:
        return None
    if mode not in ("p", "o") or not text.strip():
        return None
    return Click(text, mode == "p", game)
