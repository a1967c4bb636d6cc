"""``bst check-config --online`` for X: the keys, and the reads the bot lives on.

Reading mentions and DMs needs an access tier that includes them (X's Free tier
reads neither), and DMs need the app's permission "Read and write and Direct
message", after which the access token must be regenerated (a token keeps the
permissions it was made with). Each check is one small read, billed like any.
"""

from __future__ import annotations

import aiohttp
import tweepy

from bot.adapters.twitter.adapter import TwitterAdapter
from bot.adapters.twitter.credentials import TwitterCredentials
from bot.adapters.twitter.section import TwitterConfig
from bot.host.messages import CursorStore


class _NoCursors:
    async def get(self, platform: str, key: str) -> str | None:
        return None

    async def set(self, platform: str, key: str, value: str) -> None:
        return None

    async def all(self, platform: str) -> dict[str, str]:
        return {}

    async def forget(self, platform: str, key: str) -> None:
        return None


async def check_x(
    config: TwitterConfig, credentials: TwitterCredentials
) -> tuple[list[str], list[str]]:
    """(what is fine, what must be fixed), each a line for the person at the keyboard."""
    fine: list[str] = []
    wrong: list[str] = []
    cursors: CursorStore = _NoCursors()
    adapter = TwitterAdapter(config, credentials=credentials, cursors=cursors, games=())
    client = adapter.client
    try:
        try:
            me = await client.get_me(user_auth=True)
        except tweepy.Unauthorized:
            return fine, [f"X: {adapter.keys_refused()}"]
        bot_id = str(me["data"]["id"])
        fine.append(f"X: the keys are the account @{me['data'].get('username')} ({bot_id})")
        try:
            await client.get_users_mentions(bot_id, max_results=5, user_auth=True)
            fine.append("X: mentions can be read")
        except tweepy.Forbidden as error:
            wrong.append(
                "X: mentions cannot be read ("
                + ("; ".join(error.api_messages) or "403")
                + "): the app's access tier must include reading posts (Basic or above, "
                "or pay-per-use with read credits); X's Free tier does not"
            )
        try:
            await client.get_direct_message_events(max_results=1, user_auth=True)
            fine.append("X: direct messages can be read")
        except tweepy.Forbidden as error:
            wrong.append(
                "X: direct messages cannot be read ("
                + ("; ".join(error.api_messages) or "403")
                + '): set the app\'s permissions to "Read and write and Direct message" '
                "(Developer Portal → your app → User authentication settings), then "
                "regenerate the access token and secret, and check the tier includes DMs"
            )
    except (tweepy.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as error:
        wrong.append(f"X: could not be asked ({type(error).__name__})")
    finally:
        await adapter.stop()
    return fine, wrong
