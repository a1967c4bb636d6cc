"""Discord slash commands as the host's plain text, without the Discord SDK.

The host understands one language: the words of the rules (``#bst H14``,
``move cruiser at G7 3 up``, ``new size=10x10 turn=8h``). A ``/bst`` slash
command is only a typed form of that language, so the Discord adapter turns
each one back into the very text a player could have typed. Keeping that
translation here, free of ``discord``, lets it be read and tested on its own
and keeps the adapter a translator, not a second parser (design rule 5).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from bot.games.bst.cells import row_label
from bot.games.bst.options import KNOWN_KEYS
from bot.host.messages import InboundKind

# Commands whose content is secret (rules §4: moves, rotations and placements
# are private; a board shows one's own ships). They become DM inbounds even
# when typed in a channel, and are deferred ephemerally so nobody else sees them.
PRIVATE_COMMANDS = frozenset({"place", "move", "rotate", "pass", "board"})
# Public by rule but only the asker needs the answer: deferred ephemerally.
QUIET_COMMANDS = frozenset({"help", "rules"})

SHIP_NAMES = ("carrier", "submarine", "cruiser")
DIRECTIONS = ("up", "down", "left", "right")

# The order of ``new``'s options in its text: the game's own list, as the rules name them.
NEW_OPTION_ORDER = KNOWN_KEYS


@dataclass(frozen=True)
class CommandRoute:
    """How one slash command travels: the inbound's kind, and whether its
    deferral (the "thinking…" placeholder) is visible to the asker only."""

    kind: InboundKind
    ephemeral: bool


def route_for(command: str, *, in_guild: bool) -> CommandRoute:
    """Kind and visibility of a ``/bst`` subcommand.

    Inside a DM with the bot everything is a DM: the host then applies the
    rule that shots must be public, exactly as for a typed DM.
    """
    private = command in PRIVATE_COMMANDS
    kind = InboundKind.DM if private or not in_guild else InboundKind.PUBLIC
    return CommandRoute(kind=kind, ephemeral=private or command in QUIET_COMMANDS)


def _compact(value: str) -> str:
    """Option values become single ``key=value`` words: ``1h 30m`` → ``1h30m``."""
    return re.sub(r"\s+", "", value)


def new_text(options: Mapping[str, object]) -> str:
    """``new`` with the options the host chose, in the rules' order.

    Options left empty are omitted so the host's defaults apply.
    """
    words = ["new"]
    for key in NEW_OPTION_ORDER:
        value = options.get(key)
        if value is None or value == "":
            continue
        if isinstance(value, bool):
            text = "on" if value else "off"
        else:
            text = _compact(str(value))
        words.append(f"{key}={text}")
    return " ".join(words)


def shoot_text(cell: str) -> str:
    """A shot is the public ``#bst H14`` of rules §4."""
    return f"#bst {cell.strip()}"


def move_text(ship: str, at: str, steps: int, direction: str) -> str:
    return f"move {ship.strip().lower()} at {at.strip()} {steps} {direction.strip().lower()}"


def rotate_text(ship: str, at: str) -> str:
    return f"rotate {ship.strip().lower()} at {at.strip()}"


def kick_text(user_id: int | str) -> str:
    """``kick <@id>``: the mention form lets the host find the captain by user id."""
    return f"kick <@{user_id}>"


def extend_text(duration: str) -> str:
    return f"extend {_compact(duration)}"


def ship_suggestions(typed: str) -> list[str]:
    """Ship names starting with what was typed (``c`` → carrier, cruiser)."""
    prefix = typed.strip().lower()
    if prefix in ("sub", "cv"):
        return ["submarine"] if prefix == "sub" else ["carrier"]
    return [name for name in SHIP_NAMES if name.startswith(prefix)]


_CELL_START = re.compile(r"^\s*([A-Za-z]{0,2})[\s\-]*(\d{0,3})\s*$")


def cell_suggestions(typed: str, *, columns: int = 20, limit: int = 25) -> list[str]:
    """Well-formed cells that continue what was typed, canonical (``h 1`` → H1, H10…H19).

    Only the shape is suggested (rules §1: row letters then column number);
    whether the cell is on a given board is the host's business, so the
    default 20 columns is merely what an empty box offers.
    """
    match = _CELL_START.match(typed)
    if not match:
        return []
    letters, digits = match.group(1).upper(), match.group(2)
    if not letters:
        return [f"{row_label(row)}1" for row in range(min(limit, 26))]
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


def split_text(text: str, limit: int = 2000) -> list[str]:
    """Discord refuses content over 2000 characters: cut at line ends where possible."""
    if len(text) <= limit:
        return [text]
    chunks: list[str] = []
    rest = text
    while len(rest) > limit:
        cut = rest.rfind("\n", 0, limit)
        if cut <= 0:
            cut = limit
        chunks.append(rest[:cut])
        rest = rest[cut:].lstrip("\n")
    if rest:
        chunks.append(rest)
    return chunks
