"""What the host says, sent to Mastodon: public posts and direct posts, with pictures.

* A public address is a post (``visibility`` from ``[mastodon] post_visibility``) in
  the game's thread: a reply to the status it answers, else to the thread's first.
* A DM is a ``direct`` post that opens with the player's handle, which makes them its
  only audience: every other handle in it is written without its ``@``
  (:func:`~bot.adapters.mastodon.text.direct_text`), because on Mastodon a direct post
  that names ``@someone`` is delivered to them too.
* Every post carries an ``Idempotency-Key`` drawn from its outbox row: a retry whose
  first attempt was posted but whose answer was lost gets that same status back
  instead of a second one (Mastodon keeps a key for an hour).
* Pictures: up to the instance's ``max_media_attachments`` (4) a post, each with its
  alt text, uploaded within Mastodon's media budget (30 per 30 minutes); the text within
  the instance's ``max_characters`` (500 by default), both read from
  ``/api/v2/instance``.

Failures become :class:`~bot.host.messages.DeliveryError` raised outside the ``except``
block, never carrying the token.
"""

from __future__ import annotations

import hashlib
import io
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mastodon import (
    MastodonAPIError,
    MastodonNetworkError,
    MastodonNotFoundError,
    MastodonServerError,
    MastodonUnauthorizedError,
)

from bot.adapters.mastodon.client import (
    MEDIA_BUDGET,
    PLATFORM,
    READ_RESERVE,
    MastodonClient,
    RateLimited,
)
from bot.adapters.mastodon.text import direct_text, unmention
from bot.adapters.pacing import Pace
from bot.adapters.short_posts import compose_post, mute_line
from bot.host.messages import Address, Attachment, AttachmentKind, DeliveryError, Outbound

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class InstanceLimits:
    """What the instance allows a status (``/api/v2/instance`` → ``configuration``)."""

    max_characters: int = 500
    max_media_attachments: int = 4
    image_size_limit: int = 16 * 1024 * 1024

    @classmethod
    def of(cls, instance: Mapping[str, Any]) -> InstanceLimits:
        configuration = instance.get("configuration") or {}
        statuses = configuration.get("statuses") or {}
        media = configuration.get("media_attachments") or {}
        return cls(
            max_characters=int(statuses.get("max_characters") or cls.max_characters),
            max_media_attachments=int(
                statuses.get("max_media_attachments") or cls.max_media_attachments
            ),
            image_size_limit=int(media.get("image_size_limit") or cls.image_size_limit),
        )


def idempotency_key(outbound: Outbound, text: str) -> str:
    """The same for every attempt of one outbox row (its key), so the instance posts it
    once; a message with no row gets one drawn from its words."""
    if outbound.key:
        return f"bst-{outbound.key}"
    return "bst-" + hashlib.sha256(text.encode()).hexdigest()[:32]


def pictures(attachments: Sequence[Attachment], limit: int) -> list[Attachment]:
    """The images a status can carry: the first ``limit`` (4 on Mastodon)."""
    return [a for a in attachments if a.kind is AttachmentKind.IMAGE][: max(0, limit)]


class Delivery:
    """Posts and direct posts through one Mastodon account."""

    def __init__(
        self,
        client: MastodonClient,
        *,
        visibility: str,
        games: Sequence[tuple[str, str]],
        limits: Callable[[], Awaitable[InstanceLimits]],
        acct_of: Callable[[Address], Awaitable[str]],
        posts_per_minute: int,
        dms_per_minute: int,
        sleep: Callable[[float], Awaitable[None]],
        clock: Callable[[], float],
        posted: Callable[[str, str, str], Awaitable[None]] | None = None,
        redact: Callable[[str], str] = lambda text: text,
    ) -> None:
        """``posted(thread, status id, text)`` hears of every public post."""
        self._client = client
        self._visibility = visibility
        self._games = tuple(games)
        self._limits = limits
        self._acct_of = acct_of
        self._post_pace = Pace(posts_per_minute, clock=clock, sleep=sleep)
        self._dm_pace = Pace(dms_per_minute, clock=clock, sleep=sleep)
        self._posted = posted
        self._redact = redact

    async def send(self, address: Address, outbound: Outbound) -> str:
        if address.platform != PLATFORM:
            raise DeliveryError(f"address for {address.platform!r}, not Mastodon", permanent=True)
        try:
            if address.is_dm:
                return await self._send_direct(address, outbound)
            return await self._send_public(address, outbound)
        except DeliveryError as error:
            failure = error
        except Exception as error:
            failure = self._delivery_error(error, address)
        log.warning("Mastodon send %s failed: %s", outbound.key or "(no key)", failure)
        raise failure

    def _delivery_error(self, error: Exception, address: Address) -> DeliveryError:
        what = f"direct post to {address.user_id}" if address.is_dm else "post"
        if isinstance(error, RateLimited):
            # The media budget spent holds back this picture and what follows it to the
            # same place, not every place's text (the relay goes on with other places).
            return DeliveryError(
                str(error),
                retry_after=error.retry_after,
                per_recipient=error.what == MEDIA_BUDGET,
            )
        if isinstance(error, MastodonUnauthorizedError):
            return DeliveryError(
                "Mastodon refused the access token (401): make a new one with the scopes "
                '"read write" and put it in the variable [mastodon] access_token_env names',
                permanent=True,
            )
        if isinstance(error, MastodonServerError | MastodonNetworkError):
            return DeliveryError(self._redact(f"Mastodon could not take the {what}: {error}"))
        if isinstance(error, MastodonAPIError):
            # 403/404/422: the request itself is refused; sending it again cannot help.
            return DeliveryError(
                self._redact(f"Mastodon refused the {what}: {api_reason(error)}"), permanent=True
            )
        return DeliveryError(self._redact(f"{what} failed: {type(error).__name__}: {error}"))

    async def _upload(self, attachments: Sequence[Attachment], limits: InstanceLimits) -> list[str]:
        media_ids = []
        for attachment in pictures(attachments, limits.max_media_attachments):
            if len(attachment.data) > limits.image_size_limit:
                log.warning("Mastodon: a %d-byte picture is over the instance's limit; left out",
                            len(attachment.data))  # fmt: skip
                continue
            self._client.take_upload()
            media = await self._client.call(
                "media_post",
                io.BytesIO(attachment.data),
                mime_type=attachment.mime_type,
                # The game's alt text, always: the picture is the board.
                description=attachment.alt_text or attachment.filename,
                file_name=attachment.filename,
                synchronous=True,
                reserve=READ_RESERVE,
            )
            media_ids.append(str(media["id"]))
        return media_ids

    async def _post(self, text: str, outbound: Outbound, **kwargs: Any) -> str:
        status = await self._client.call(
            "status_post",
            text,
            idempotency_key=idempotency_key(outbound, text),
            reserve=READ_RESERVE,
            **kwargs,
        )
        return str(status["id"])

    async def _send_public(self, address: Address, outbound: Outbound) -> str:
        limits = await self._limits()
        text = compose_post(
            outbound.text,
            mute_line(outbound.text, self._games),
            limit=limits.max_characters,
            link=outbound.link,
            keep=outbound.keep,
        )
        media_ids = await self._upload(outbound.attachments, limits)
        reply_to = next((ref for ref in (address.reply_to, address.channel) if ref), None)
        await self._post_pace.wait()
        try:
            status_id = await self._post(
                text,
                outbound,
                in_reply_to_id=reply_to,
                media_ids=media_ids or None,
                visibility=self._visibility,
            )
        except MastodonNotFoundError:
            if reply_to is None:
                raise
            # The status it answers was deleted: the post goes at the top level.
            log.info("Mastodon: status %s is gone; posting at the top level", reply_to)
            status_id = await self._post(
                text, outbound, media_ids=media_ids or None, visibility=self._visibility
            )
        if self._posted is not None:
            await self._posted(address.channel, status_id, outbound.text)
        return status_id

    async def _send_direct(self, address: Address, outbound: Outbound) -> str:
        limits = await self._limits()
        acct = await self._acct_of(address)
        head = direct_text("", acct)
        body = compose_post(unmention(outbound.text), limit=limits.max_characters - len(head) - 1)
        text = direct_text(body, acct)
        media_ids = await self._upload(outbound.attachments, limits)
        await self._dm_pace.wait()
        return await self._post(text, outbound, media_ids=media_ids or None, visibility="direct")


def api_reason(error: MastodonAPIError) -> str:
    """Mastodon.py's error args: (message, status, reason, the instance's error text)."""
    args = error.args
    if len(args) >= 4:
        return f"{args[1]} {args[3] or args[2]}"
    return str(error)
