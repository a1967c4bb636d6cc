"""Links to the web page: a game's public page, named where the game is opened, and a
player's private link to their own view on the web page: issued by DM when they
join and with every ``board``, renewed by ``link revoke`` (the old one answers 404 from
then on). Only when the web page has a public address (``[web] base_url``).

A link is a secret (anyone holding it sees that player's board): it is only ever sent
privately, and a token is ``secrets.token_urlsafe(32)``, 256 random bits.
"""

from __future__ import annotations

import secrets

from bot.store import Tx
from bot.store.links import issue_link, renew_link

TOKEN_BYTES = 32


LOCAL_PLATFORMS = frozenset({"console", "script"})
"""Platforms of the machine's own operator (their games are theirs to show)."""


def listed(platform: str, open_to_all: bool) -> bool:
    """Whether a game has public web pages (and a place on the list of games): a game
    opened ``reach=all``, or one of the operator's own console or scripts. bst cannot
    tell whether a room is public (a Discord server may be anyone's or a few friends';
    no adapter says), so any other game is unlisted: its pages exist only behind its
    players' private links, and its posts link none."""
    return open_to_all or platform in LOCAL_PLATFORMS


def game_page(base_url: str, game_id: int) -> str:
    """The public page of a game, for the posts that open it."""
    return f"{base_url.rstrip('/')}/games/{game_id}"


def turn_page(base_url: str, game_id: int, turn: int) -> str:
    """A turn's page (its report in full, its map), for the post that reports the turn: a
    crowd's post names only some of the turn's sinkings, its page names every one."""
    return f"{game_page(base_url, game_id)}/turn/{turn}"


def _url(base_url: str, token: str) -> str:
    return f"{base_url.rstrip('/')}/p/{token}"


def own_page(tx: Tx, base_url: str, game_id: int, player_key: str, *, now: float) -> str:
    """The player's link (issued now if they have none yet)."""
    token = issue_link(tx, game_id, player_key, token=secrets.token_urlsafe(TOKEN_BYTES), now=now)
    return _url(base_url, token)


def renewed_page(tx: Tx, base_url: str, game_id: int, player_key: str, *, now: float) -> str:
    """A new link for the player; the one they had stops working."""
    token = renew_link(tx, game_id, player_key, token=secrets.token_urlsafe(TOKEN_BYTES), now=now)
    return _url(base_url, token)


def own_page_line(url: str) -> str:
    """The sentence that gives a player their link."""
    return (
        f"Your own page, with your board turn by turn: {url} (keep it to yourself; "
        "send `link revoke` for a new one if it got out)."
    )
