"""Each player's public standing on a game's page, read from the game's public view
(``view(state, None)``, the only way a game's facts leave it, so nothing here can be
anyone's secret): in or out of the game, and where a game has them, the colour of
their boat and the crew they are on.

Games name their players in their public views alike: a roster (``captains``,
``players`` or ``admirals``) of entries with an ``id`` and a ``status`` (``alive``,
``eliminated``, ``left``), U-Boat's with the ``colour`` of their own boat and the
``crew`` they are on now.
"""

from __future__ import annotations

import enum
from typing import Any

ROSTERS = ("captains", "players", "admirals")
"""Where a public view lists its players."""

STATUS_WORDS = {"alive": "afloat", "eliminated": "sunk", "left": "left the game"}
"""A player's status as the page says it."""


def _word(value: Any) -> str:
    return str(value.value) if isinstance(value, enum.Enum) else str(value)


def public_standing(view: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(player id, the facts the page says of them) for each player the public view
    lists, in its order; empty for a view with no roster."""
    roster: Any = ()
    for name in ROSTERS:
        roster = getattr(view, name, ())
        if roster:
            break
    said = []
    for entry in roster:
        player = getattr(entry, "id", None)
        if player is None:
            continue
        facts = []
        colour = getattr(entry, "colour", None)
        if colour is not None:
            facts.append(f"{_word(colour)} boat")
        crew = getattr(entry, "crew", None)
        if crew is not None and crew != colour:
            facts.append(f"on the {_word(crew)} crew")
        status = getattr(entry, "status", None)
        if status is not None:
            facts.append(STATUS_WORDS.get(_word(status), _word(status)))
        said.append((str(player), tuple(facts)))
    return tuple(said)
