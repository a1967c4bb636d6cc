"""The commands of Sonar as data, from which every platform builds its own (a Discord
slash command, typed text): one verb per order of ``shared/contracts/sonar.md``, private
when it is given only by DM. Each verb's :meth:`~bot.games.base.Verb.text` is an order
:func:`bot.games.sonar.orders.parse_order` reads.
"""

from __future__ import annotations

from bot.games.base import Arg, ArgKind, Verb
from bot.games.sonar.fleet import FLEET_EXAMPLE

VERBS: tuple[Verb, ...] = (
    Verb(
        "shoot",
        "Fire depth charges at these cells (up to one per live sub) on your turn",
        private=False,
        args=(
            Arg(
                "cells",
                ArgKind.CELLS,
                "cells such as f11, a9 (row letter from the bottom, column number)",
            ),
        ),
        words="",
    ),
    Verb(
        "random",
        "Fire every charge you may at random (never at your own subs) on your turn",
        private=False,
    ),
    Verb(
        "fleet",
        "Send your whole fleet during setup (placement=given): length, bow cell and "
        "facing of each sub",
        private=True,
        args=(
            Arg(
                "subs",
                ArgKind.TEXT,
                f"length, bow cell and facing of each sub, e.g. {FLEET_EXAMPLE}",
            ),
        ),
        words="",
    ),
    Verb(
        "withdraw",
        "Withdraw the fleet you sent: the host places yours at random at the start",
        private=True,
        words="random",
    ),
)
