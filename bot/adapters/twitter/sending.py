"""What the host says, sent to X: posts (with media) and DMs.

Failures become :class:`~bot.host.messages.DeliveryError`, never carrying a
credential: every message is redacted, and no tweepy exception (whose response
holds the request's signed headers) rides along as ``__context__``.
"""

from __future__ import annotations

import asyncio
import hashlib
import html
import logging
import re
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import aiohttp
import tweepy

from bot.adapters.pacing import Pace
from bot.adapters.short_posts import compose_post, compose_thread, mute_line
from bot.adapters.twitter.budgets import RateBudgetExhausted, RateBudgets
from bot.adapters.twitter.client import PLATFORM, XClient, XForbidden
from bot.adapters.twitter.inbound import DM_EVENT_FIELDS
from bot.adapters.twitter.media import FormPart, upload_media
from bot.adapters.twitter.section import TwitterConfig
from bot.host.messages import Address, Attachment, AttachmentKind, DeliveryError, Outbound

log = logging.getLogger(__name__)

DM_TEXT_LIMIT = 10_000
# A retried DM looks this far back in the conversation (100 events a page) for an
# earlier attempt that arrived; X's clock and ours may differ by this much.
RETRY_LOOK_PAGES = 5
CLOCK_SLACK_SECONDS = 120.0


class Delivery:
    """Posts and DMs through one X account. ``games``: the hosted games' (tag, title),
    for the mute line every public post ends with."""

    def __init__(
        self,
        client: XClient,
        *,
        config: TwitterConfig,
        games: Sequence[tuple[str, str]],
        budgets: RateBudgets,
        bot_user_id: Callable[[], Awaitable[str]],
        redact: Callable[[str], str],
        sleep: Callable[[float], Awaitable[None]],
        posted: Callable[[str, str], Awaitable[None]] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``posted(thread, text)`` hears of every post made in a game's thread."""
        # Posts and DMs each at their own steady pace ([twitter] posts_per_minute,
        # dms_per_minute): X's limits are per endpoint.
        self._post_pace = Pace(config.posts_per_minute, clock=clock, sleep=sleep)
        self._dm_pace = Pace(config.dms_per_minute, clock=clock, sleep=sleep)
        self._client = client
        self._config = config
        self._games = tuple(games)
        self.budgets = budgets
        self._bot_user_id = bot_user_id
        self._redact = redact
        self._sleep = sleep
        self._posted = posted

    async def _media_request(
        self,
        method: str,
        route: str,
        *,
        params: Mapping[str, str] | None = None,
        json: Mapping[str, Any] | None = None,
        multipart: Sequence[FormPart] | None = None,
    ) -> dict[str, Any]:
        """The authorised request callable handed to :func:`upload_media`."""
        response = await self._client.signed_request(
            method, route, params=params, json=json, multipart=multipart
        )
        # The body was read before the connection was released: json() reuses
        # it (read() would raise), and gives None for an empty body.
        payload = await response.json(content_type=None)
        return payload if isinstance(payload, dict) else {}

    async def send(self, address: Address, outbound: Outbound) -> str:
        """A post for a public address, a DM for a user address.

        Failures become :class:`DeliveryError` raised *outside* the ``except``
        block, so no tweepy exception (whose response holds the request's
        signed headers) rides along as ``__context__``.
        """
        if address.platform != PLATFORM:
            raise DeliveryError(f"address for {address.platform!r}, not X", permanent=True)
        try:
            if address.is_dm:
                return await self._send_dm(address, outbound)
            return await self._send_post(address, outbound)
        except DeliveryError as error:
            failure = DeliveryError(
                self._redact(str(error)),
                retry_after=error.retry_after,
                permanent=error.permanent,
                dms_closed=error.dms_closed,
            )
        except Exception as error:
            failure = self._delivery_error(error, dm=address.is_dm, address=address)
        log.warning("X send %s failed: %s", outbound.key or "(no key)", failure)
        raise failure

    def _delivery_error(self, error: Exception, *, dm: bool, address: Address) -> DeliveryError:
        what = f"DM to user {address.user_id}" if dm else "post"
        if isinstance(error, RateBudgetExhausted):
            return DeliveryError(str(error), retry_after=error.retry_after)
        if isinstance(error, tweepy.TooManyRequests):
            wait = self.budgets.reset_in(error.response.headers)
            return DeliveryError(f"X rate limit (429) on {what}", retry_after=wait)
        if isinstance(error, tweepy.Unauthorized):
            config = self._config
            return DeliveryError(
                "X refused the bot's credentials (401 Unauthorized): check the keys in "
                f"{config.api_key_env}, {config.api_secret_env}, {config.access_token_env} "
                f"and {config.access_secret_env}",
                permanent=True,
            )
        if isinstance(error, tweepy.TwitterServerError):
            return DeliveryError(self._redact(f"X server error on {what}: {error}"))
        if isinstance(error, tweepy.Forbidden):
            reason = "; ".join(error.api_messages) or str(error)
            closed = dm and isinstance(error, XForbidden) and error.recipient_refuses_dms()
            return DeliveryError(
                self._redact(f"X forbids the {what}: {reason}"), permanent=True, dms_closed=closed
            )
        if isinstance(error, tweepy.HTTPException):
            # 400/404/…: the request itself is wrong; sending it again cannot help.
            return DeliveryError(self._redact(f"X rejected the {what}: {error}"), permanent=True)
        if isinstance(error, aiohttp.ClientError | asyncio.TimeoutError):
            return DeliveryError(
                self._redact(f"network error on {what}: {type(error).__name__}: {error}")
            )
        return DeliveryError(self._redact(f"{what} failed: {type(error).__name__}: {error}"))

    async def _upload(self, attachment: Attachment, *, for_dm: bool) -> str:
        return await upload_media(
            self._media_request,
            attachment.data,
            mime_type=attachment.mime_type,
            for_dm=for_dm,
            alt_text=attachment.alt_text,
            sleep=self._sleep,
        )

    async def _send_post(self, address: Address, outbound: Outbound) -> str:
        mute = mute_line(outbound.text, self._games)
        parts = compose_thread(outbound.text, mute, link=outbound.link, keep=outbound.keep)
        first = await self._send_first_post(address, outbound, mute, parts[0], len(parts) > 1)
        # A list too long for one post (the standings) goes on in replies to its first
        # post, numbered; a twin refused as a duplicate is an earlier attempt's, posted.
        previous = first
        for part in parts[1:]:
            # ("duplicate:…" is no post id: then the game's thread is answered.)
            targets = (previous, address.reply_to, address.channel)
            reply_to = next((ref for ref in targets if ref and ref.isdigit()), None)
            try:
                previous = await self._create_post(part, [], reply_to)
            except tweepy.Forbidden as error:
                if not is_duplicate(error):
                    raise
        return first

    async def _send_first_post(
        self, address: Address, outbound: Outbound, mute: str, text: str, split: bool
    ) -> str:
        # The same words marked apart, for a post whose words equal an earlier one's.
        unique = compose_post(
            distinct_text(text if split else outbound.text, outbound.key or text),
            mute,
            link=outbound.link,
            keep=outbound.keep,
        )
        # A game's posts are replies in its thread (its channel is the thread's root):
        # to the post they answer, else to the root.
        reply_to = next(
            (ref for ref in (address.reply_to, address.channel) if ref and ref.isdigit()), None
        )
        pictures = post_attachments(outbound.attachments)
        earlier = _Earlier(
            (text, unique), {reply_to, address.reply_to, None}, bool(pictures), outbound.written_at
        )
        if outbound.retry:
            # An earlier attempt may have been posted with its answer lost (X posts take no
            # idempotency key): looked for before uploading, so a post made needs nothing.
            found = await self._post_already_made(earlier)
            if found:
                return found
        media_ids = [await self._upload(a, for_dm=False) for a in pictures]
        if self._posted is not None:
            await self._posted(address.channel, outbound.text)
        try:
            return await self._create_post(text, media_ids, reply_to)
        except tweepy.Forbidden as error:
            if reply_to is not None and is_reply_refused(error):
                # The game's thread is someone else's conversation (its `new` was itself a
                # reply): X lets a bot reply only where it was mentioned. Answer the post
                # that spoke to the bot, else post at the top level.
                return await self._post_where_allowed(text, media_ids, address, reply_to)
            if not is_duplicate(error):
                raise
        if outbound.retry:
            # X refuses a twin of a recent post: this row's earlier attempt (its answer
            # lost), whose id the bot's timeline gives; when the timeline cannot be read,
            # the row counts as posted all the same.
            found = await self._post_already_made(earlier)
            if found is None:
                key = outbound.key or hashlib.sha256(text.encode()).hexdigest()[:16]
                log.info("X says post %s is a duplicate of its earlier attempt: counted as "
                         "posted", key)  # fmt: skip
                return f"duplicate:{key}"
            if found:
                return found
            # Read, and not there: the twin is another row's post (two players refused
            # alike), and this row's first attempt never reached X.
        # A post refused as a duplicate is a new post whose words happen to equal an
        # earlier one (two players refused alike): made unique and posted.
        try:
            return await self._create_post(unique, media_ids, reply_to)
        except tweepy.Forbidden as error:
            if not is_duplicate(error):
                raise
            # The marked twin is there already: another attempt of this row put it there.
            log.info("X says post %s is a duplicate: counted as posted", outbound.key)
            return f"duplicate:{outbound.key}"

    async def _post_already_made(self, earlier: _Earlier) -> str | None:
        """The id of the bot's post since the message was written that is ``earlier``'s
        (its words, as X keeps them, answering one of its targets); "" when the bot's
        timeline says there is none, None when it cannot be read (then X's
        duplicate-content 403 still keeps a twin out)."""
        try:
            bot_id = await self._bot_user_id()
            token: str | None = None
            window: dict[str, str] = {}
            if earlier.since:
                start = earlier.since - CLOCK_SLACK_SECONDS
                window["start_time"] = datetime.fromtimestamp(start, UTC).strftime(X_TIME)
            for _ in range(RETRY_LOOK_PAGES):
                body: dict[str, Any] = await self._client.get_users_tweets(
                    bot_id,
                    tweet_fields=["created_at"],
                    # The posts a post answers come with this expansion (X's spec).
                    expansions=["referenced_posts"],
                    max_results=100,
                    pagination_token=token,
                    user_auth=True,
                    **window,
                )
                for post in body.get("data") or []:
                    if earlier.is_it(post):
                        return str(post["id"])
                token = (body.get("meta") or {}).get("next_token")
                if not token:
                    return ""
        except Exception as error:  # unread: the duplicate-content 403 still guards
            log.info("X: the bot's posts could not be read for a retry (%s)",
                     self._redact(f"{type(error).__name__}: {error}"))  # fmt: skip
            return None
        return None

    async def _post_where_allowed(
        self, text: str, media_ids: list[str], address: Address, refused: str
    ) -> str:
        spoke = address.reply_to if address.reply_to and address.reply_to.isdigit() else None
        if spoke is not None and spoke != refused:
            try:
                return await self._create_post(text, media_ids, spoke)
            except tweepy.Forbidden as error:
                if not is_reply_refused(error):
                    raise
        log.warning(
            "X refused a reply in thread %s (the bot was not mentioned there): posting at "
            "the top level",
            address.channel,
        )
        return await self._create_post(text, media_ids, None)

    async def _create_post(self, text: str, media_ids: list[str], reply_to: str | None) -> str:
        await self._post_pace.wait()
        response: dict[str, Any] = await self._client.create_tweet(
            text=text,
            media_ids=media_ids or None,
            in_reply_to_tweet_id=reply_to,
            user_auth=True,
        )
        return str(response["data"]["id"])

    async def _send_dm(self, address: Address, outbound: Outbound) -> str:
        text = outbound.text.strip()[:DM_TEXT_LIMIT] or None
        if outbound.retry and address.user_id:
            # Looked for before uploading: a DM that arrived needs its picture no more.
            earlier = await self._dm_already_sent(
                address.user_id,
                text or "",
                since=outbound.written_at,
                with_media=bool(outbound.attachments),
            )
            if earlier is not None:
                return earlier
        media_id = None
        if outbound.attachments:
            if len(outbound.attachments) > 1:
                log.info(
                    "X DMs carry one attachment; sending the first of %d", len(outbound.attachments)
                )
            media_id = await self._upload(outbound.attachments[0], for_dm=True)
        await self._dm_pace.wait()
        response: dict[str, Any] = await self._client.create_direct_message(
            participant_id=address.user_id, text=text, media_id=media_id, user_auth=True
        )
        return str(response["data"]["dm_event_id"])

    async def _dm_already_sent(
        self, participant_id: str, text: str, *, since: float, with_media: bool = False
    ) -> str | None:
        """X DMs take no idempotency key, so a DM whose response was lost may have been
        delivered. Before sending it again, look at the conversation: if any DM the bot
        sent there since the message was written (``since``) says this very text (as X
        keeps it: see :func:`same_dm_text`), that is it. Not only the newest: other DMs to
        the same player may have gone out after the lost one, and a retry waits its
        backoff while they do."""
        bot_id = await self._bot_user_id()
        token: str | None = None
        for _ in range(RETRY_LOOK_PAGES):
            body: dict[str, Any] = await self._client.get_direct_message_events(
                participant_id=participant_id,
                dm_event_fields=DM_EVENT_FIELDS,
                # X gives an event's sender only through this expansion: without it no
                # event has a sender_id, nothing matches, and the DM goes out twice.
                expansions=["sender_id"],
                event_types="MessageCreate",
                max_results=100,
                pagination_token=token,
                user_auth=True,
            )
            for event in body.get("data") or []:  # newest first
                if since and _sent_before(event, since - CLOCK_SLACK_SECONDS):
                    return None  # older than the message: no attempt of it can be further on
                if str(event.get("sender_id")) == bot_id and same_dm_text(
                    str(event.get("text") or ""), text, with_media=with_media
                ):
                    return str(event["id"])
            token = (body.get("meta") or {}).get("next_token")
            if not token:
                return None
        return None


X_TIME = "%Y-%m-%dT%H:%M:%SZ"  # X's start_time


@dataclass(frozen=True)
class _Earlier:
    """What a post's earlier attempt would look like among the bot's posts: one of its
    ``texts`` (as written, or marked apart), answering one of ``targets`` (None: at the
    top level), with a picture's link at its end when it has ``media``, made ``since``
    its message was written (epoch seconds; 0: unknown)."""

    texts: tuple[str, ...]
    targets: set[str | None]
    media: bool
    since: float

    def is_it(self, post: Mapping[str, Any]) -> bool:
        refs = post.get("referenced_tweets") or post.get("referenced_posts") or []
        replied = next(
            (str(ref.get("id")) for ref in refs if ref.get("type") == "replied_to"),
            None,
        )  # fmt: skip
        if replied not in self.targets:
            return False
        kept = html.unescape(str(post.get("text") or ""))  # X escapes &, < and >
        return any(same_dm_text(kept, text, with_media=self.media) for text in self.texts)


# A link as X writes it in a DM's text (each link the text had, wrapped in t.co).
LINK = re.compile(r"https?://\S+")


def same_dm_text(kept: str, sent: str, *, with_media: bool) -> bool:
    """Whether a DM event's text (``kept``, as X keeps it) is the text the bot ``sent``:
    X wraps every link in a t.co one, and ends a DM with media with the media's own t.co
    link, so links compare as links whatever their address, and a DM with media may have
    one link more, at its end."""
    kept_words = LINK.sub("<link>", kept.strip())
    sent_words = LINK.sub("<link>", sent.strip())
    if kept_words == sent_words:
        return True
    return (
        with_media
        and kept_words.endswith("<link>")
        and kept_words.removesuffix("<link>").rstrip() == sent_words
    )


def _sent_before(event: dict[str, Any], moment: float) -> bool:
    created = event.get("created_at")
    if not created:
        return False
    try:
        return datetime.fromisoformat(str(created).replace("Z", "+00:00")).timestamp() < moment
    except ValueError:
        return False


def is_reply_refused(error: tweepy.Forbidden) -> bool:
    """X's 403 for a reply in a conversation whose author did not mention the bot."""
    reason = (" ".join(error.api_messages) + " " + str(error)).lower()
    return "reply to this conversation is not allowed" in reason or "not been mentioned" in reason


def is_duplicate(error: tweepy.Forbidden) -> bool:
    """X's 403 for a post whose text equals one of the account's recent posts."""
    reason = " ".join(error.api_messages) + " " + str(error)
    return "duplicate" in reason.lower()


def distinct_text(text: str, key: str) -> str:
    """``text`` with a short mark drawn from the outbox key (``· ref 3f2a``): the same row
    always gets the same mark, two rows almost never the same one."""
    mark = hashlib.sha256(key.encode()).hexdigest()[:4]
    lines = text.rstrip().splitlines() or [""]
    lines[0] = f"{lines[0]} · ref {mark}".strip()
    return "\n".join(lines)


def post_attachments(attachments: Sequence[Attachment]) -> list[Attachment]:
    """A post carries up to four images, or one video or GIF (X's rule)."""
    if not attachments:
        return []
    first = attachments[0]
    if first.kind is AttachmentKind.VIDEO or first.mime_type == "image/gif":
        return [first]
    return [
        a for a in attachments if a.kind is AttachmentKind.IMAGE and a.mime_type != "image/gif"
    ][:4]
