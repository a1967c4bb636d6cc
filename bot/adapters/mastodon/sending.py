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
* A split message's parts already posted are remembered by its outbox key until the
  whole message is delivered: when a later part is refused (a 429 says the instance
  took nothing of it), the next attempt posts only the parts still missing, even when
  it comes after the instance has forgotten their keys (a spent statuses budget waits
  up to 3 hours).
* Pictures: up to the instance's ``max_media_attachments`` (4) a post, each with its
  alt text, within Mastodon's media budget (30 uploads per 30 minutes, of which boards
  leave the last two to the maps). Past the budget, after a media 429, or when the
  instance has not processed an upload within a minute, nothing waits: the post goes
  without the picture (a map links its page), a direct post with the picture's words
  (the board as text).
* Text: within the instance's ``max_characters`` (500 by default, read from
  ``/api/v2/instance``); a longer message goes as numbered statuses, nothing cut
  (:mod:`~bot.adapters.numbered_posts`): a post's parts as a thread of replies, a
  direct post's each a direct post to the one player.
* An answer to a status names its author first (``@alice …``), as Mastodon's apps do:
  Mastodon notifies the accounts a status mentions, never the author it replies to.
* Every status spends Mastodon's statuses budget (300 per 3 hours): a window's first 60
  at once, the rest at an even share of the window (see
  :meth:`~bot.adapters.mastodon.client.MastodonClient.status_pause`); direct posts
  leave the last 20 to public posts.

Failures become :class:`~bot.host.messages.DeliveryError` raised outside the ``except``
block, never carrying the token.
"""

from __future__ import annotations

import hashlib
import io
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mastodon import (
    MastodonAPIError,
    MastodonNetworkError,
    MastodonNotFoundError,
    MastodonServerError,
    MastodonUnauthorizedError,
)

from bot.adapters.mastodon.client import (
    MEDIA,
    PLATFORM,
    STATUSES,
    MastodonClient,
    RateLimited,
)
from bot.adapters.mastodon.text import direct_text, handle, unmention
from bot.adapters.numbered_posts import numbered
from bot.adapters.pacing import Pace
from bot.adapters.short_posts import mute_line
from bot.host.messages import Address, Attachment, AttachmentKind, DeliveryError, Outbound

log = logging.getLogger(__name__)

# Statuses of the 3-hour budget direct posts leave to public posts (answers, maps): a
# turn's boards never silence the game's thread.
STATUSES_KEPT_FOR_POSTS = 20
DM_SHARE = "direct posts' share of the statuses budget"
# Uploads of the 30-minute media budget boards leave to the maps.
MEDIA_KEPT_FOR_POSTS = 2
# How long an upload may take to be processed (a GIF, a big picture) before its status
# goes without it, and how often it is asked about meanwhile.
PROCESSING_SECONDS = 60.0
PROCESSING_POLL_SECONDS = 2.0


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


def as_text(text: str, left_out: Sequence[Attachment]) -> str:
    """A direct post whose pictures could not go: each one's alt text (a board described
    in words) after the news, so the player still has their board."""
    described = [a.alt_text for a in left_out if a.alt_text and a.alt_text not in text]
    return "\n\n".join([text, *described]) if described else text


def _not_processed(error: MastodonAPIError) -> bool:
    """Mastodon's 422 for a status naming media still being processed."""
    return len(error.args) > 3 and error.args[1] == 422 and "processing" in str(error.args[3])


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
        author_of: Callable[[str], str | None] = lambda status_id: None,
        stand_in: Callable[[str], Awaitable[str | None]] | None = None,
        redact: Callable[[str], str] = lambda text: text,
    ) -> None:
        """``posted(thread, status id, text)`` hears of every public post;
        ``author_of(status id)``: the handle of the status's author, where it is known;
        ``stand_in(thread)``: the bot's first post in a thread, which its replies answer
        when the thread's first status is gone."""
        self._client = client
        self._visibility = visibility
        self._games = tuple(games)
        self._limits = limits
        self._acct_of = acct_of
        # Optional steadier paces ([mastodon] posts_per_minute, dms_per_minute), on top
        # of the spread of the 3-hour statuses budget every status keeps.
        self._post_pace = Pace(posts_per_minute, clock=clock, sleep=sleep)
        self._dm_pace = Pace(dms_per_minute, clock=clock, sleep=sleep)
        self._sleep = sleep
        self._posted = posted
        self._author_of = author_of
        self._stand_in = stand_in
        self._redact = redact
        # A split message's statuses and the ids of those posted so far, by its outbox
        # key, until the whole message is delivered (see _Progress).
        self._progress: dict[str, _Progress] = {}

    def _progress_of(self, outbound: Outbound) -> _Progress | None:
        """What an earlier attempt of ``outbound`` posted before a part was refused."""
        return self._progress.get(outbound.key) if outbound.key else None

    def _remember(self, outbound: Outbound, parts: Sequence[str]) -> _Progress:
        progress = _Progress(tuple(parts))
        if outbound.key:
            self._progress[outbound.key] = progress
        return progress

    def _delivered(self, outbound: Outbound) -> None:
        if outbound.key:
            self._progress.pop(outbound.key, None)

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
        if failure.permanent:
            self._delivered(outbound)  # never tried again: nothing to resume
        raise failure

    def _delivery_error(self, error: Exception, address: Address) -> DeliveryError:
        what = f"direct post to {address.user_id}" if address.is_dm else "post"
        if isinstance(error, RateLimited):
            # Only the direct posts' share of the statuses budget spent holds back this
            # player's messages alone: public posts (the reserve) go on meanwhile.
            return DeliveryError(
                str(error), retry_after=error.retry_after, per_recipient=error.what == DM_SHARE
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

    # -- pictures -------------------------------------------------------------------------

    async def _upload(
        self, attachments: Sequence[Attachment], limits: InstanceLimits, *, keep_back: int
    ) -> tuple[list[str], list[Attachment]]:
        """(media ids, the pictures left out). A picture goes only while the media budget
        has more than ``keep_back`` uploads left (public maps keep a few from the
        boards) and is processed within :data:`PROCESSING_SECONDS`; otherwise the post
        goes without it, now, rather than wait up to 30 minutes for the budget."""
        media_ids: list[str] = []
        left_out: list[Attachment] = []
        for attachment in pictures(attachments, limits.max_media_attachments):
            if len(attachment.data) > limits.image_size_limit:
                log.warning("Mastodon: a %d-byte picture is over the instance's limit; left out",
                            len(attachment.data))  # fmt: skip
                left_out.append(attachment)
                continue
            left = self._client.uploads_left()
            if left is not None and left <= keep_back:
                left_out.append(attachment)
                continue
            try:
                self._client.take_upload()
                media = await self._client.call(
                    "media_post",
                    io.BytesIO(attachment.data),
                    mime_type=attachment.mime_type,
                    # The game's alt text, always: the picture is the board.
                    description=attachment.alt_text or attachment.filename,
                    file_name=attachment.filename,
                    family=MEDIA,
                )
            except RateLimited as error:
                # The media family's 429 (the client rests that family): this post and
                # the next go without pictures; nothing else waits.
                log.info("Mastodon: media budget spent (%s); sent without its picture", error)
                left_out.append(attachment)
                continue
            media_id = await self._processed(media)
            if media_id is None:
                left_out.append(attachment)
            else:
                media_ids.append(media_id)
        return media_ids, left_out

    async def _processed(self, media: Mapping[str, Any]) -> str | None:
        """The media's id once the instance has processed it (a 202 upload has no URL
        yet); None when it is not done within :data:`PROCESSING_SECONDS` (or failed)."""
        waited = 0.0
        while not media.get("url"):
            if waited >= PROCESSING_SECONDS:
                log.warning("Mastodon: media %s not processed in time; left out", media["id"])
                return None
            await self._sleep(PROCESSING_POLL_SECONDS)
            waited += PROCESSING_POLL_SECONDS
            media = await self._client.call("media", media["id"])
        return str(media["id"])

    # -- statuses ---------------------------------------------------------------------------

    async def _post(self, text: str, key: str, *, reserve: int, **kwargs: Any) -> str:
        """One status, after its share of the 3-hour budget's spread (see
        :meth:`MastodonClient.status_pause`); unprocessed media are left out rather than
        losing the status."""
        try:
            pause = self._client.status_pause(reserve=reserve)
        except RateLimited as error:
            if reserve:
                raise RateLimited(DM_SHARE, error.retry_after, family=error.family) from None
            raise
        if pause > 0:
            await self._sleep(pause)
        try:
            status = await self._client.call(
                "status_post", text, idempotency_key=key, family=STATUSES, **kwargs
            )
        except MastodonAPIError as error:
            if not (kwargs.get("media_ids") and _not_processed(error)):
                raise
            log.warning("Mastodon: media still processing; status %s posted without it", key)
            status = await self._client.call(
                "status_post", text, idempotency_key=key,
                family=STATUSES, **{**kwargs, "media_ids": None},
            )  # fmt: skip
        return str(status["id"])

    async def _send_public(self, address: Address, outbound: Outbound) -> str:
        limits = await self._limits()
        # An answer names its asker first, as Mastodon's own apps do: Mastodon notifies
        # the accounts a status mentions, not the author of the status it replies to.
        asker = self._author_of(address.reply_to) if address.reply_to else None
        head = handle(asker) + " " if asker and handle(asker) not in outbound.text else ""
        mute = mute_line(outbound.text, self._games)
        limit = limits.max_characters - len(head)
        parts = numbered(outbound.text, limit=limit, mute=mute, link=outbound.link,
                         keep=outbound.keep)  # fmt: skip
        tag = self._tag_of(outbound.text)
        if len(parts) > 1 and tag:
            # Each part carries the game's tag, so that muting the tag hides them all.
            parts = numbered(outbound.text, limit=limit - len(tag) - 1, mute=mute,
                             link=outbound.link, keep=outbound.keep)  # fmt: skip
            parts = [
                part if tag.lower() in part.lower() else part.replace(") ", f") {tag} ", 1)
                for part in parts
            ]
        progress = self._progress_of(outbound) or self._remember(outbound, parts)
        parts = list(progress.parts)  # as the first attempt split them
        media_ids: list[str] = []
        if 0 not in progress.posted:
            media_ids, _ = await self._upload(outbound.attachments, limits, keep_back=0)
        reply_to = next((ref for ref in (address.reply_to, address.channel) if ref), None)
        first = ""
        for number, part in enumerate(parts):
            if number in progress.posted:
                first = first or progress.posted[number]
                reply_to = progress.posted[number]
                continue
            await self._post_pace.wait()
            status_id = await self._post_public(
                head + part if number == 0 else part,
                _part_key(idempotency_key(outbound, outbound.text), number),
                reply_to,
                media_ids if number == 0 else [],
                thread=address.channel,
            )
            progress.posted[number] = status_id
            first = first or status_id
            reply_to = status_id  # the next part answers this one: one thread, in order
            if self._posted is not None:
                await self._posted(address.channel, status_id, outbound.text)
        self._delivered(outbound)
        return first

    def _tag_of(self, text: str) -> str:
        """The first hosted game's tag ``text`` carries ("" for none)."""
        found = [(text.lower().find(tag.lower()), tag) for tag, _ in self._games]
        return min(((at, tag) for at, tag in found if at >= 0), default=(0, ""))[1]

    async def _post_public(
        self, text: str, key: str, reply_to: str | None, media_ids: list[str], *, thread: str
    ) -> str:
        """A post answering ``reply_to``; when that status is gone (its author deleted
        it), answering the bot's first post in the game's thread instead, so the game
        keeps one thread; when that is gone too, at the top level."""
        tried: set[str | None] = set()
        target = reply_to
        while target is not None and target not in tried:
            tried.add(target)
            try:
                return await self._post(
                    text, key, reserve=0, in_reply_to_id=target,
                    media_ids=media_ids or None, visibility=self._visibility,
                )  # fmt: skip
            except MastodonNotFoundError:
                log.info("Mastodon: status %s is gone; answering the thread otherwise", target)
            target = await self._stand_in(thread) if self._stand_in and thread else None
        return await self._post(
            text, key, reserve=0, media_ids=media_ids or None, visibility=self._visibility
        )

    async def _send_direct(self, address: Address, outbound: Outbound) -> str:
        limits = await self._limits()
        acct = await self._acct_of(address)
        progress = self._progress_of(outbound)
        media_ids: list[str] = []
        text = unmention(outbound.text)
        if progress is None:
            media_ids, left_out = await self._upload(
                outbound.attachments, limits, keep_back=MEDIA_KEPT_FOR_POSTS
            )
            # The news, then each picture that could not go as its words (a board as text).
            text = as_text(text, left_out)
            head = direct_text("", acct)
            limit = limits.max_characters - len(head) - 1
            progress = self._remember(outbound, numbered(text, limit=limit, keep=outbound.keep))
        elif 0 not in progress.posted:
            # The first part (the pictures') was refused: they go with it now, if they can;
            # its words are the first attempt's (a picture left out then stays as text).
            media_ids, _ = await self._upload(
                outbound.attachments, limits, keep_back=MEDIA_KEPT_FOR_POSTS
            )
        key = idempotency_key(outbound, text)  # a row's key, else drawn from the words
        first = ""
        for number, part in enumerate(progress.parts):
            if number in progress.posted:
                first = first or progress.posted[number]
                continue
            await self._dm_pace.wait()
            status_id = await self._post(
                direct_text(part, acct),
                _part_key(key, number),
                reserve=STATUSES_KEPT_FOR_POSTS,
                media_ids=(media_ids if number == 0 else None) or None,
                visibility="direct",
            )
            progress.posted[number] = status_id
            first = first or status_id
        self._delivered(outbound)
        return first


@dataclass
class _Progress:
    """A split message's statuses, as its first attempt wrote them, and the ids of those
    posted so far by part number: a later attempt keeps both (the same words, in the
    same numbering, even when its pictures or the instance's limits changed)."""

    parts: tuple[str, ...]
    posted: dict[int, str] = field(default_factory=dict)


def _part_key(key: str, number: int) -> str:
    """Each part of a split message its own idempotency key (the first keeps the
    message's), so a retry posts the parts that did not go, once each."""
    return key if number == 0 else f"{key}-{number + 1}"


def api_reason(error: MastodonAPIError) -> str:
    """Mastodon.py's error args: (message, status, reason, the instance's error text)."""
    args = error.args
    if len(args) >= 4:
        return f"{args[1]} {args[3] or args[2]}"
    return str(error)
