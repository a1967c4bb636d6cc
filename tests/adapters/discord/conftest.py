"""Fixtures of the Discord adapter's tests; the fake Discord itself is in discord_fake.py."""

from discord_fake import (  # noqa: F401  (pytest finds fixtures by name)
    adapter,
    cursors,
    fake_discord,
    inbox,
    make_adapter,
    payload_factory,
    spec,
)
