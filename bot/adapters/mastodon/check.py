"""``bst check-config --online`` for Mastodon: the token, its scopes, the account.

The bot reads its mentions (scope ``read``: ``read:notifications``, ``read:statuses``,
``read:accounts``) and posts with pictures, marks itself a bot and accepts private
mentions (``write``: ``write:statuses``, ``write:media``, ``write:accounts``,
``write:notifications``). ``follow`` and ``push`` are not needed. The scopes a token has
come from ``GET /api/v1/apps/verify_credentials`` (Mastodon 4.3+).
"""

from __future__ import annotations

from mastodon import MastodonAPIError, MastodonError, MastodonUnauthorizedError

from bot.adapters.mastodon.client import MastodonClient
from bot.adapters.mastodon.section import MastodonConfig
from bot.adapters.mastodon.sending import InstanceLimits

NEEDED_SCOPES = {
    "read:notifications": "read",
    "read:statuses": "read",
    "read:accounts": "read",
    "write:statuses": "write",
    "write:media": "write",
    "write:accounts": "write",
    "write:notifications": "write",
}


def missing_scopes(scopes: list[str]) -> list[str]:
    """The scopes the bot needs that ``scopes`` (a token's) do not grant."""
    granted = set(scopes)
    return [
        scope
        for scope, broad in NEEDED_SCOPES.items()
        if scope not in granted and broad not in granted
    ]


async def check_mastodon(config: MastodonConfig, access_token: str) -> tuple[list[str], list[str]]:
    """(what is fine, what must be fixed), each a line for the person at the keyboard."""
    fine: list[str] = []
    wrong: list[str] = []
    client = MastodonClient(config.instance, access_token)
    try:
        try:
            me = await client.call("account_verify_credentials")
        except MastodonUnauthorizedError:
            return fine, [
                f"Mastodon: {config.instance} refused the access token (401): in the bot "
                "account's Preferences → Development, make an application with the scopes "
                f'"read write" and put its access token in {config.access_token_env}'
            ]
        fine.append(f"Mastodon: the token is the account @{me['acct']} on {config.instance}")
        try:
            app = await client.call("app_verify_credentials")
            lacking = missing_scopes(list(app.get("scopes") or []))
            if lacking:
                wrong.append(
                    f"Mastodon: the token lacks the scopes {', '.join(lacking)}: make a new "
                    'application with the scopes "read write" (follow and push are not '
                    "needed) and use its token"
                )
            else:
                fine.append("Mastodon: the token's scopes cover reading mentions and posting")
        except MastodonAPIError:
            fine.append("Mastodon: the instance does not say the token's scopes (before 4.3)")
        if me.get("bot"):
            fine.append("Mastodon: the account is marked as a bot")
        elif not config.set_up_account:
            wrong.append(
                'Mastodon: the account is not marked as a bot: tick "This is an automated '
                'account" in Preferences → Profile, or set [mastodon] set_up_account = true'
            )
        limits = InstanceLimits.of(await client.call("instance_v2"))
        fine.append(
            f"Mastodon: posts up to {limits.max_characters} characters and "
            f"{limits.max_media_attachments} pictures"
        )
    except (MastodonError, OSError, TimeoutError) as error:
        wrong.append(f"Mastodon: {config.instance} could not be asked ({type(error).__name__})")
    return fine, wrong
