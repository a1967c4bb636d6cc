"""The ``[mastodon]`` section of the config file: what a host may set for Mastodon, each field's
default being the section's. Its own module, below both the declaration (``platform.py``) and
the adapter, so that each imports it and neither imports the other at load time."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MastodonConfig:
    enabled: bool = False
    # The bot account's instance, e.g. "https://mastodon.social" (a local fake:
    # "http://127.0.0.1:8082").
    instance: str = ""
    # An access token of the bot account with the scopes "read write" (Preferences →
    # Development → New application).
    access_token_env: str = "MASTODON_ACCESS_TOKEN"
    # Mentions arrive by the streaming API; false: by polling alone.
    stream: bool = True
    # How often notifications are polled while the stream is down (or off).
    poll: str = "1m"
    # At start-up, mark the account as a bot and let private mentions from people it does
    # not follow through (Mastodon filters them by default): DMs are moves.
    set_up_account: bool = True
    # "public", or "unlisted" to keep the games' posts off the public timelines.
    post_visibility: str = "public"
    reminders: bool = True  # direct posts cost nothing on Mastodon
    # The first start (no cursor yet) answers only what is sent after it; true reads
    # back one page of mentions (up to 80) and acts on them.
    backfill: bool = False
    # Statuses (posts and direct posts) keep to Mastodon's budget of 300 per 3 hours per
    # account, read from the instance's headers: a window's first 60 go at once, the rest
    # no faster than an even share of the window (about one in 38 s), and direct posts
    # leave 20 to public posts, so a deadline's boards never leave the bot mute for
    # hours. These add a steadier pace of posts and direct posts a minute on top (0: the
    # budget's pace alone).
    posts_per_minute: int = 0
    dms_per_minute: int = 0
    # Media uploads the instance allows per 30 minutes (Mastodon's own limit is 30; an
    # instance may set another; 0: unbounded). Past it a board goes as text and a map
    # without its picture (linking the game's page); nothing waits for the window.
    media_per_30_minutes: int = 30
