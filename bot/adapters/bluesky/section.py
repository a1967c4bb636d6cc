"""The ``[bluesky]`` section of the config file: what a host may set for Bluesky, each field's
default being the section's. Its own module, below both the declaration (``platform.py``) and
the adapter, so that each imports it and neither imports the other at load time."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BlueskyConfig:
    enabled: bool = False
    # The bot account's handle ("bst.bsky.social") or DID.
    handle: str = ""
    # The environment variable holding an app password made *with* access to direct
    # messages (Settings → Privacy and security → App passwords).
    app_password_env: str = "BLUESKY_APP_PASSWORD"
    # The account's PDS, e.g. "https://bsky.social" or a local fake
    # "http://127.0.0.1:2583"; requests go to {api_base}/xrpc/… "" = https://bsky.social.
    api_base: str = ""
    # Where the login session is kept between runs (logins are rate limited: 30 in 5
    # minutes, 300 a day): "" = in the database, beside the adapter's cursors; else a file
    # path (made readable by its owner only).
    session_file: str = ""
    notifications_poll: str = "30s"
    dm_poll: str = "10s"
    # Also search recent posts for the games' tags: Bluesky's notifications silently
    # drop some mentions of little-followed accounts, and a post with the tag that does
    # not mention the bot is an order all the same.
    search_hashtag: bool = True
    # Put the "bot" self-label on the account's profile at start (Bluesky's rule for
    # automated accounts); false: `bst check-config --online` says when it is missing.
    label_bot: bool = True
    reminders: bool = True
    # The very first start answers only what is sent after it; true acts on the last
    # page of notifications and chat messages too.
    backfill: bool = False
    # Posts and DMs a minute at most, spread evenly (0 = no pacing): a bot that posts in
    # bursts is labelled as spam. 30 DMs a minute is one every 2 s.
    posts_per_minute: int = 5
    dms_per_minute: int = 30
    # Distinct accounts notified by mention in an hour; beyond it names are written
    # without the mention (Bluesky's automod flags ~40).
    mentions_per_hour: int = 40
    # The PDS's write budget (a post costs 3 points).
    points_per_hour: int = 5000
    points_per_day: int = 35_000
