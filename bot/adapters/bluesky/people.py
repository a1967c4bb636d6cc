"""Who a mention names: a player is their DID, and their handle is only what it is now.

Handles change and are reused: after alice renames (same DID) another account may take
``alice.test``. So nothing here maps a handle to a person. The host names a player by
their DID (captured when they joined); the adapter's ``mention`` writes the handle that
DID is known by, and a post is sent with a mention facet only for the DIDs its row
names, written with the handle Bluesky gives that DID *now* (``getProfiles``, read at
most every :data:`FRESH_SECONDS` per DID, or learned from their own posts). A handle
nobody can vouch for is written as plain text, never linked.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

log = logging.getLogger(__name__)

FRESH_SECONDS = 600.0  # how long a DID's handle is taken as current
INVALID = "handle.invalid"  # what Bluesky shows for a DID whose handle does not verify
PROFILES_A_CALL = 25  # app.bsky.actor.getProfiles: at most 25 actors


class People:
    """Each DID's current handle, and the handle the adapter last wrote for it."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._handles: dict[str, tuple[str, float]] = {}  # DID → (handle, learned at)
        self._holders: dict[str, str] = {}  # handle → the DID last known by it
        self.written: dict[str, str] = {}  # DID → the handle ``mention`` wrote

    def learn(self, did: str, handle: str) -> None:
        """``did`` is known as ``handle`` now (a post of theirs, a profile). A handle is
        one account's at a time: whoever held it before is no longer known by it."""
        handle = handle.lower()
        if did.startswith("did:") and handle and handle != INVALID:
            holder = self._holders.get(handle)
            if holder is not None and holder != did:
                self._handles.pop(holder, None)
            before = self._handles.get(did)
            if before is not None and before[0] != handle:
                self._holders.pop(before[0], None)
            self._handles[did] = (handle, self._clock())
            self._holders[handle] = did

    def known(self, did: str) -> str | None:
        """The handle ``did`` was last known by, however old."""
        found = self._handles.get(did)
        return found[0] if found else None

    def write(self, did: str, fallback: str) -> str:
        """The handle to write for ``did`` (its last known, else ``fallback``), noted."""
        handle = self.known(did) or fallback.strip().lstrip("@").lower()
        if did.startswith("did:") and handle:
            self.written[did] = handle
        return handle

    async def current(
        self,
        dids: Iterable[str],
        fetch: Callable[[list[str]], Awaitable[Mapping[str, Any]]],
    ) -> dict[str, str]:
        """DID → its handle now, for those Bluesky vouches for; ``fetch`` reads profiles
        (``getProfiles``) of the DIDs not learned in the last :data:`FRESH_SECONDS`."""
        now = self._clock()
        wanted = sorted({did for did in dids if did.startswith("did:")})
        stale = [
            did
            for did in wanted
            if did not in self._handles or self._handles[did][1] <= now - FRESH_SECONDS
        ]
        for start in range(0, len(stale), PROFILES_A_CALL):
            try:
                body = await fetch(stale[start : start + PROFILES_A_CALL])
            except Exception as error:  # unsure who holds the handle now: link nobody
                log.info("Bluesky: could not read profiles (%s)", type(error).__name__)
                return {did: found[0] for did, found in self._fresh(wanted, now).items()}
            for profile in body.get("profiles") or ():
                self.learn(str(profile.get("did") or ""), str(profile.get("handle") or ""))
        return {did: found[0] for did, found in self._fresh(wanted, now).items()}

    def _fresh(self, dids: list[str], now: float) -> dict[str, tuple[str, float]]:
        return {
            did: self._handles[did]
            for did in dids
            if did in self._handles and self._handles[did][1] > now - FRESH_SECONDS
        }
