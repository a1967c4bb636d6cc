"""Slash commands as the host's plain text, and Discord's text limits, without the SDK.

The host understands one language: the words players type (``#sonar f11``,
``#tug pull 2``, ``#sonar new size=10``). A slash command is only a
typed form of that language, so the Discord adapter turns each one back into the
very text a player could have posted in the game's channel: the game's tag, then
the verb's text (:meth:`~bot.games.base.Verb.text`). The tag names the game, so
``/sonar new`` opens Sonar and ``/sonar help`` explains Sonar even where no game
runs; the host strips it from every message anyway. Keeping that translation here,
free of ``discord``, lets it be read and tested on its own and keeps the adapter a
translator, not a second parser (design rule 5).
"""

from __future__ import annotations

import enum
import functools
import re
import zoneinfo
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.games.base import Arg, ArgKind, Verb
from bot.host.messages import InboundKind

# A value as a slash command delivers it, once a member became its mention.
Value = str | int | None


class Privacy(enum.Enum):
    """Who may see a command and its answer."""

    PUBLIC = "public"  # an order or word for the channel: a public inbound
    QUIET = "quiet"  # public by rule, but only the asker needs the answer (help, rules)
    PRIVATE = "private"  # secret (a move, one's own board): a DM inbound, answered ephemerally


@dataclass(frozen=True)
class CommandRoute:
    """How one slash command travels: the inbound's kind, and whether its
    deferral (the "thinking…" placeholder) is visible to the asker only."""

    kind: InboundKind
    ephemeral: bool


def route_for(privacy: Privacy, *, in_guild: bool) -> CommandRoute:
    """Kind and visibility of a slash command.

    Inside a DM with the bot everything is a DM: the host then applies the rule
    that some orders must be public, exactly as for a typed DM.
    """
    private = privacy is Privacy.PRIVATE
    kind = InboundKind.DM if private or not in_guild else InboundKind.PUBLIC
    return CommandRoute(kind=kind, ephemeral=privacy is not Privacy.PUBLIC)


def compact(value: str) -> str:
    """Durations and option values become single words: ``1h 30m`` → ``1h30m``."""
    return re.sub(r"\s+", "", value)


def mention(user_id: int | str) -> str:
    """``<@id>``: the mention form lets the host find a player by user id."""
    return f"<@{user_id}>"


def argument_word(arg: Arg, value: Value) -> str:
    """One argument as typed text ('' when left out)."""
    if value is None:
        return ""
    if arg.kind is ArgKind.DURATION:
        return compact(str(value))
    return str(value).strip()


def verb_text(tag: str, verb: Verb, values: Mapping[str, Value]) -> str:
    """The tagged text of a verb: ``#tug pull 2``, ``#sonar f11``."""
    words = [argument_word(arg, values.get(arg.name)) for arg in verb.args]
    return f"{tag} {verb.text(words)}".strip()


def new_text(tag: str, options: Sequence[Arg], values: Mapping[str, Value]) -> str:
    """``new`` with the options the host chose, in the game's order, as ``key=value``.

    Options left empty are omitted so the game's defaults apply.
    """
    words = [tag, "new"]
    for arg in options:
        word = compact(argument_word(arg, values.get(arg.name)))
        if word:
            words.append(f"{arg.name}={word}")
    return " ".join(words)


_CELL_START = re.compile(r"^\s*([A-Za-z]{0,2})[\s\-]*(\d{0,3})\s*$")


def cell_suggestions(typed: str, *, columns: int = 20, limit: int = 25) -> list[str]:
    """Well-formed cells that continue what was typed (``h 1`` → h1, h10…h19).

    Only the shape is suggested — row letters then column number, in the case the
    player typed them (games differ: ``H14``, ``f15``); whether the cell is on a
    given board is the game's business, so the default 20 columns is merely what
    an empty box offers.
    """
    match = _CELL_START.match(typed)
    if not match:
        return []
    letters, digits = match.group(1), match.group(2)
    if not letters:
        return [f"{chr(ord('A') + row)}1" for row in range(min(limit, 26))]
    if not digits:
        return [f"{letters}{column}" for column in range(1, min(columns, limit) + 1)]
    if int(digits) == 0:
        return []
    number = int(digits)
    found = [f"{letters}{number}"]
    # Longer column numbers that start with the digits typed (H1 → H10…H19).
    for extra in range(10):
        candidate = number * 10 + extra
        if candidate <= max(columns, number):
            found.append(f"{letters}{candidate}")
    return found[:limit]


MAX_CONTENT = 2000  # characters in a message's content
MAX_PINGED_USERS = 100  # users in allowed_mentions.users
_USER_MENTION = re.compile(r"<@!?(\d+)>")


def mentioned_users(text: str) -> list[str]:
    """The user ids ``text`` mentions (``<@id>``), each once, in order."""
    return list(dict.fromkeys(_USER_MENTION.findall(text)))


def split_text(
    text: str, limit: int = MAX_CONTENT, max_mentions: int = MAX_PINGED_USERS
) -> list[str]:
    """Discord refuses content over 2000 characters and a message pinging over 100 users:
    cut at line ends where possible, else between words, never inside a ``<@id>``, so
    each part pings its own users (at most ``max_mentions``)."""
    chunks: list[str] = []
    rest = text
    while True:
        bound = min(limit, len(rest))
        over = [m for m in _USER_MENTION.finditer(rest) if m.start() < bound]
        if len(over) > max_mentions:
            bound = over[max_mentions].start()  # the first mention one too many
        if bound >= len(rest):
            break
        cut = rest.rfind("\n", 0, bound + 1)
        if cut <= 0:
            cut = rest.rfind(" ", 0, bound + 1)
        if cut <= 0:
            cut = bound
        inside = next((m for m in over if m.start() < cut < m.end()), None)
        if inside is not None and inside.start() > 0:
            cut = inside.start()
        chunks.append(rest[:cut])
        rest = rest[cut:].lstrip("\n")
        if rest.startswith(" "):
            rest = rest[1:]
    if rest or not chunks:
        chunks.append(rest)
    return chunks


_COMMON_ZONES = (
    "UTC", "Europe/London", "Europe/Paris", "Europe/Berlin", "America/New_York",
    "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Sao_Paulo",
    "Asia/Tokyo", "Asia/Kolkata", "Asia/Shanghai", "Australia/Sydney", "Africa/Lagos",
)  # fmt: skip


@functools.cache
def _zone_names() -> tuple[str, ...]:
    """Region names of the IANA database (what ``me tz`` takes: the host decides, this only
    suggests), and UTC."""
    regions = (
        name
        for name in zoneinfo.available_timezones()
        if "/" in name and not name.startswith(("Etc/", "SystemV/"))
    )
    return ("UTC", *sorted(regions))


def zone_suggestions(current: str, limit: int = 25) -> list[str]:
    """Time zones for what is typed so far (``paris``, ``europe/p``, ``new york``): names
    that start with it first, then those whose city does, then those that hold it; a few
    common ones before anything is typed."""
    typed = current.strip().lower().replace(" ", "_")
    if not typed:
        return list(_COMMON_ZONES[:limit])
    names = _zone_names()
    starts = [z for z in names if z.lower().startswith(typed)]
    cities = [z for z in names if z.rsplit("/", 1)[-1].lower().startswith(typed)]
    holds = [z for z in names if typed in z.lower()]
    return list(dict.fromkeys([*starts, *cities, *holds]))[:limit]
