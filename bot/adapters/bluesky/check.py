"""``bst check-config --online`` for Bluesky: the login, the chat, the bot label.

Direct messages go through the chat service, which the PDS proxies only for an app
password made with "Allow access to your direct messages": one made without it logs in
and posts but is refused every chat call ("Bad token scope"), so the bot could never
send a board or read a move. The ``bot`` self-label is what Bluesky asks of automated
accounts; the adapter puts it on at start unless ``label_bot = false``.
"""

from __future__ import annotations

from atproto_client import exceptions as atproto_errors

from bot.adapters.bluesky.adapter import PROFILE, BlueskyAdapter, has_bot_label
from bot.adapters.bluesky.client import LoginRefused
from bot.adapters.bluesky.section import BlueskyConfig
from bot.adapters.bluesky.sending import lacks_dm_access


class _NoCursors:
    """The check saves no session and moves no cursor."""

    async def get(self, platform: str, key: str) -> str | None:
        return None

    async def set(self, platform: str, key: str, value: str) -> None:
        return None

    async def all(self, platform: str) -> dict[str, str]:
        return {}

    async def forget(self, platform: str, key: str) -> None:
        return None


async def check_bluesky(
    config: BlueskyConfig, password: str, *, base_url: str | None = None
) -> tuple[list[str], list[str]]:
    """(what is fine, what must be fixed), each a line for the person at the keyboard."""
    fine: list[str] = []
    wrong: list[str] = []
    adapter = BlueskyAdapter(
        config, password=password, cursors=_NoCursors(), games=(), base_url=base_url
    )
    connection = adapter.connection
    try:
        try:
            await connection.login()
        except LoginRefused:
            return fine, [f"Bluesky: {adapter.login_refused()}"]
        fine.append(f"Bluesky: logged in as @{connection.handle} ({connection.did})")
        chat = connection.chat
        try:
            await connection.call(
                "chat.bsky.convo.listConvos",
                lambda: chat.chat.bsky.convo.list_convos(params={"limit": 1}),
            )
            fine.append("Bluesky: direct messages can be read and sent")
        except atproto_errors.RequestErrorBase as error:
            if lacks_dm_access(error):
                wrong.append(
                    "Bluesky: the app password has no access to direct messages: make a "
                    "new one (Settings → Privacy and security → App passwords) with "
                    '"Allow access to your direct messages" ticked, and put it in '
                    f"{config.app_password_env}"
                )
            else:
                wrong.append(f"Bluesky: the chat service could not be asked ({error})")
        client = connection.pds
        params = {"repo": connection.did, "collection": PROFILE, "rkey": "self"}
        try:
            profile = await connection.call(
                "com.atproto.repo.getRecord",
                lambda: client.com.atproto.repo.get_record(params=params),
            )
        except atproto_errors.BadRequestError:
            profile = {}
        if has_bot_label(profile.get("value") or {}):
            fine.append("Bluesky: the account is labelled as a bot")
        elif config.label_bot:
            fine.append("Bluesky: the account is not labelled as a bot yet; `bst run` will")
        else:
            wrong.append(
                "Bluesky: the account is not labelled as a bot: set label_bot = true, or "
                "label it yourself (Settings → Moderation; Bluesky asks it of bots)"
            )
    except (atproto_errors.AtProtocolError, OSError, TimeoutError) as error:
        wrong.append(f"Bluesky: could not be asked ({type(error).__name__})")
    finally:
        await adapter.stop()
    return fine, wrong
