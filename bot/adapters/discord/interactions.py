"""Deferred interactions the host may still answer by follow-up.

Discord gives an interaction 3 seconds for a first answer, so each slash command is
deferred at once and the host's reply arrives later as a follow-up, addressed by the
interaction's id (``Address.reply_to``). The token behind a follow-up lives 15
minutes: discord.py knows when (:meth:`discord.Interaction.is_expired`); this registry
keeps each interaction that long and no longer.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import discord

INTERACTION_TOKEN_LIFETIME = timedelta(minutes=15)
# Interactions are forgotten this long after they arrived (monotonic seconds).
INTERACTION_LIFETIME = INTERACTION_TOKEN_LIFETIME.total_seconds()


def held_by(reply_to: str) -> tuple[int, int | None]:
    """``"ID@SHARD"`` (an interaction received by another process's shard, see
    ``DiscordAdapter._interaction_key``) → (ID, SHARD); anything else → (0, None)."""
    ident, at, shard = reply_to.partition("@")
    if at and ident.isdigit() and shard.isdigit():
        return int(ident), int(shard)
    return 0, None


@dataclass
class PendingInteraction:
    """A deferred interaction the host may still answer by follow-up."""

    interaction: discord.Interaction[Any]
    ephemeral: bool
    created: float  # time.monotonic() when it arrived
    deferred: bool = True
    consumed: bool = False  # the first follow-up replaces the "thinking…" placeholder
    # Public by rule but wanted by the asker alone (help, rules): deferred privately, and
    # answered privately too, though the host answers a public message in public.
    quiet: bool = False

    def usable(self) -> bool:
        return self.deferred and not self.interaction.is_expired()


class PendingInteractions:
    """The interactions still answerable, by interaction id, oldest first."""

    def __init__(self) -> None:
        self._pending: dict[str, PendingInteraction] = {}

    def remember(self, key: str, pending: PendingInteraction) -> None:
        """Keep a deferred interaction for its follow-ups; drop the expired ones.

        Interactions are held in arrival order (``created`` only grows), so the
        expired ones are at the front: forgetting them costs what was forgotten,
        not a scan of every interaction still alive.
        """
        limit = pending.created - INTERACTION_LIFETIME
        while self._pending:
            oldest = next(iter(self._pending))
            if self._pending[oldest].created >= limit:
                break
            del self._pending[oldest]
        self._pending.pop(key, None)  # a repeated id goes to the back, in order
        self._pending[key] = pending

    def get(self, key: str) -> PendingInteraction | None:
        return self._pending.get(key)

    def __contains__(self, key: object) -> bool:
        return key in self._pending

    def __iter__(self) -> Iterator[str]:
        return iter(self._pending)

    def clear(self) -> None:
        self._pending.clear()
