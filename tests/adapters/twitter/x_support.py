"""Shared values of the X adapter tests: fake credentials, user ids, in-memory helpers."""

from __future__ import annotations

from bot.host.messages import Inbound

# Fake values, recognisable in any log or error text that would leak them.
API_KEY = "FAKEAPIKEY0123456789abc"
API_SECRET = "FAKEAPISECRET0123456789abcdef0123456789abcdef"
ACCESS_TOKEN = "1500000000000000001-FAKEACCESSTOKEN0123456789"
ACCESS_SECRET = "FAKEACCESSSECRET0123456789abcdef0123456789"
BEARER = "FAKEBEARERTOKEN%2F0123456789abcdef"
SECRETS = (API_KEY, API_SECRET, ACCESS_TOKEN, ACCESS_SECRET, BEARER)

ALICE, BOB, MALLORY = "2244994945", "783214", "1111111111111111111"


class MemoryCursors:
    """The CursorStore protocol, in memory (the real one lives in bot.store)."""

    def __init__(self) -> None:
        self.values: dict[tuple[str, str], str] = {}

    async def get(self, platform: str, key: str) -> str | None:
        return self.values.get((platform, key))

    async def set(self, platform: str, key: str, value: str) -> None:
        self.values[(platform, key)] = value

    async def all(self, platform: str) -> dict[str, str]:
        return {k: v for (p, k), v in self.values.items() if p == platform}

    async def forget(self, platform: str, key: str) -> None:
        self.values.pop((platform, key), None)


class Collector:
    """An on_inbound handler that records what it was given."""

    def __init__(self) -> None:
        self.items: list[Inbound] = []

    async def __call__(self, inbound: Inbound) -> None:
        self.items.append(inbound)


# Every public post about bst ends with this line (bst rules §6).
MUTE_LINE = "mute #bst to hide BattleshipTwitter"
