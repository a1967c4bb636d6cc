"""What the host says, sent to Bluesky: posts (with pictures) and chat messages.

A post is a record the bot writes in its own repository (``app.bsky.feed.post``) with
a record key of its choosing: a TID derived from the outbox row, so a retry of the same
row names the same record, and finding it already there means it was delivered. Its
hashtags, links and mentions are facets; a game's posts are replies in its thread. A
post holds 300 graphemes: a game's own post is shortened to one, an answer to someone's
post too long for one goes whole, as numbered replies under it.

A chat message carries text only (≤ 1,000 graphemes, no pictures): a longer message goes
as several, split between lines. A chat message takes no idempotency key, so a retried
message first looks for an earlier attempt in the conversation.

Failures become :class:`~bot.host.messages.DeliveryError`; none carries a credential.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any

from atproto_client import exceptions as atproto_errors
from atproto_client.models.common import XrpcError

from bot.adapters.bluesky.budgets import (
    BudgetSpent,
    MentionBudget,
    WritePoints,
)
from bot.adapters.bluesky.client import PLATFORM, Connection, LoginRefused
from bot.adapters.bluesky.inbound import POST, parse_time
from bot.adapters.bluesky.media import IMAGES_PER_POST, fit_image
from bot.adapters.bluesky.people import People
from bot.adapters.bluesky.section import BlueskyConfig
from bot.adapters.bluesky.text import answer_parts, compose_parts, dm_parts, facets, renamed
from bot.adapters.bluesky.threads import Threads
from bot.adapters.pacing import Pace
from bot.adapters.short_posts import mute_line
from bot.host.messages import Address, Attachment, AttachmentKind, DeliveryError, Outbound

log = logging.getLogger(__name__)

# The player's own setting (or a block) keeps the bot out of their chat: the host then
# asks them in public to open it (DeliveryError.dms_closed).
DMS_CLOSED = {"MessagesDisabled", "NotFollowedBySender", "BlockedActor", "BlockedSubject"}
# A 400 that is about the session, not the request: the next attempt logs in again.
SESSION_REFUSED = {"ExpiredToken", "InvalidToken"}
RETRY_LOOK = 100  # messages of a conversation a retried DM looks through
# What a thread's root says of the bot's replies, read again before each post there (one
# read, cheap beside a write): a root can be deleted, or gated, while its game goes on,
# and a reply to a deleted post or into a gated thread is written but never shown.
OPEN, GONE, BARRED = "open", "gone", "barred"
CLOCK_SLACK_SECONDS = 120.0
_TID_ALPHABET = "234567abcdefghijklmnopqrstuvwxyz"


def tid_for(key: str, written_at: float) -> str:
    """A record key for outbox row ``key`` (``outbox-17``): a TID, 13 base32-sortable
    characters holding 53 bits of microseconds and 10 of "clock id". Its time is the
    second the row was written plus the row's number in microseconds, its clock id the
    number's next digits: the same row always gets the same key, and two rows never do
    (rows written in the same second have different numbers)."""
    digits = key.rsplit("-", 1)[-1]
    if digits.isdigit():
        number = int(digits)
    else:  # not an outbox row: a stable number from the key
        number = int.from_bytes(hashlib.sha256(key.encode()).digest()[:6], "big")
    micros = (int(written_at) * 1_000_000 + number % 1_000_000) & ((1 << 53) - 1)
    clock = (number // 1_000_000) & 0x3FF
    value = (micros << 10) | clock
    return "".join(_TID_ALPHABET[(value >> (5 * i)) & 31] for i in reversed(range(13)))


def _error_name(error: atproto_errors.RequestErrorBase) -> tuple[str, str]:
    content = error.response.content if error.response is not None else None
    if isinstance(content, XrpcError):
        return str(content.error or ""), str(content.message or "")
    return "", ""


def _gate(root: Mapping[str, Any]) -> str:
    """BARRED when the root's threadgate keeps the bot's replies out (the AppView says
    so in ``viewer.replyDisabled``; a gate that allows nobody says it too), else OPEN."""
    if (root.get("viewer") or {}).get("replyDisabled"):
        return BARRED
    gate = ((root.get("threadgate") or {}).get("record") or {}).get("allow")
    return BARRED if gate == [] else OPEN


def session_refused(error: BaseException) -> bool:
    if isinstance(error, atproto_errors.UnauthorizedError):
        return True
    return (
        isinstance(error, atproto_errors.BadRequestError)
        and _error_name(error)[0] in SESSION_REFUSED
    )


def lacks_dm_access(error: BaseException) -> bool:
    """The PDS's refusal to proxy chat for an app password made without DM access."""
    if not isinstance(error, atproto_errors.RequestErrorBase):
        return False
    name, message = _error_name(error)
    return name == "InvalidToken" or "scope" in message.lower()


class Delivery:
    """Posts and chat messages through one account. ``games``: the hosted games' (tag,
    title), for the mute line every public post ends with."""

    def __init__(
        self,
        connection: Connection,
        *,
        config: BlueskyConfig,
        games: Sequence[tuple[str, str]],
        people: People,
        sleep: Callable[[float], Awaitable[None]],
        clock: Callable[[], float],
        posted: Callable[[str, str], Awaitable[None]] | None = None,
        threads: Threads | None = None,
    ) -> None:
        """``people``: the handles of the DIDs the host names (see the adapter's
        ``mention``); ``posted(thread, text)`` hears of every post made in a thread."""
        self._connection = connection
        self._config = config
        self._games = tuple(games)
        self._people = people
        self._clock = clock
        self._posted = posted
        self.points = WritePoints(config.points_per_hour, config.points_per_day, clock=clock)
        self.mentions = MentionBudget(config.mentions_per_hour, clock=clock)
        self._post_pace = Pace(config.posts_per_minute, clock=clock, sleep=sleep)
        self._dm_pace = Pace(config.dms_per_minute, clock=clock, sleep=sleep)
        self._posts: dict[str, tuple[str, dict[str, str]]] = {}  # uri → (cid, root ref)
        self._threads = threads
        self._roots: dict[str, str] = {}  # root uri → its state when last read
        self._convos: dict[str, str] = {}  # DID → conversation id
        # A DM's parts delivered so far, by its key and part (see _send_dm).
        self._parts_delivered: dict[str, dict[int, str]] = {}

    async def send(self, address: Address, outbound: Outbound) -> str:
        if address.platform != PLATFORM:
            raise DeliveryError(f"address for {address.platform!r}, not Bluesky", permanent=True)
        session = self._connection.generation
        try:
            if address.is_dm:
                return await self._send_dm(address, outbound)
            return await self._send_post(address, outbound)
        except DeliveryError as error:
            failure = error
        except Exception as error:
            failure = self._delivery_error(error, dm=address.is_dm, address=address)
            if session_refused(error) and not failure.permanent:
                await self._connection.forget(session)  # the next attempt logs in again
        log.warning("Bluesky send %s failed: %s", outbound.key or "(no key)", failure)
        raise failure

    def _delivery_error(self, error: Exception, *, dm: bool, address: Address) -> DeliveryError:
        what = f"DM to {address.user_id}" if dm else "post"
        if isinstance(error, BudgetSpent):
            return DeliveryError(str(error), retry_after=error.retry_after)
        if isinstance(error, atproto_errors.RateLimitExceededError):
            wait = error.retry_after
            if wait is None and error.reset_at is not None:
                wait = error.reset_at.timestamp() - self._clock()
            return DeliveryError(
                f"Bluesky rate limit (429) on {what}", retry_after=max(1.0, wait or 60.0)
            )
        if isinstance(error, atproto_errors.UnauthorizedError):
            if dm and lacks_dm_access(error):
                return DeliveryError(
                    "Bluesky refuses the bot's chat: its app password was made without "
                    f"access to direct messages; make one with it and put it in "
                    f"{self._config.app_password_env}",
                    permanent=True,
                )
            # The session was refused (revoked, expired): the retry logs in again.
            return DeliveryError(f"Bluesky refused the session (401) on {what}", retry_after=5.0)
        if isinstance(error, LoginRefused):
            return DeliveryError(
                f"Bluesky refused the bot's login on {what}: check {self._config.app_password_env}",
                retry_after=300.0,
            )
        if isinstance(error, atproto_errors.BadRequestError):
            name, message = _error_name(error)
            if name in SESSION_REFUSED:
                return DeliveryError(f"Bluesky refused the session ({name})", retry_after=5.0)
            return DeliveryError(
                f"Bluesky refused the {what}: {name or '400'} {message}".strip(),
                permanent=True,
                dms_closed=dm and name in DMS_CLOSED,
            )
        if isinstance(error, atproto_errors.RequestErrorBase):
            # A network fault, a 5xx, a 409/413/502 the SDK calls worth retrying.
            return DeliveryError(f"Bluesky {what} failed: {type(error).__name__} {error}")
        return DeliveryError(f"Bluesky {what} failed: {type(error).__name__}: {error}")

    # -- posts ------------------------------------------------------------

    async def _view(self, uri: str) -> dict[str, Any] | None:
        """The post view of ``uri`` (``getPosts``), or None when it is gone; a root's view
        also says whether the bot may reply in its thread."""
        client = self._connection.pds
        body = await self._connection.call(
            "app.bsky.feed.getPosts",
            lambda: client.app.bsky.feed.get_posts(params={"uris": [uri]}),
        )
        found = [p for p in body.get("posts") or [] if p.get("uri") == uri]
        post = found[0] if found else None
        if post is None or not (post.get("record") or {}).get("reply"):
            self._roots[uri] = GONE if post is None else _gate(post)
        return post

    async def _post_ref(self, uri: str) -> tuple[str, dict[str, str]] | None:
        """(cid, the root's strong ref) of the post ``uri``, or None when it is gone."""
        if uri not in self._posts:
            post = await self._view(uri)
            if post is None:
                return None
            reply = (post.get("record") or {}).get("reply") or {}
            root = reply.get("root") or {"uri": uri, "cid": post["cid"]}
            self._posts[uri] = (str(post["cid"]), {"uri": root["uri"], "cid": root["cid"]})
        return self._posts[uri]

    async def _root_state(self, root: str, *, read: bool) -> str:
        """OPEN, GONE (deleted) or BARRED (a threadgate keeps the bot out): read now
        unless ``read`` is False and it was read before."""
        if read or root not in self._roots:
            await self._view(root)
        return self._roots[root]

    async def _reply_refs(self, address: Address) -> dict[str, Any] | None:
        """A game's posts are replies in its thread (its channel is the thread's root):
        to the post they answer, else to the root, else (the root deleted) under the
        bot's own first post in the thread. None: a top-level post, when the thread is
        closed to the bot's replies (they would be hidden) or nothing of it is left."""
        thread = address.channel if address.channel.startswith("at://") else ""
        anchor = await self._threads.anchor(thread) if self._threads and thread else None
        for parent in (address.reply_to, thread, anchor):
            if not parent or not parent.startswith("at://"):
                continue
            fresh = parent not in self._posts
            ref = await self._post_ref(parent)
            if ref is None:
                continue
            cid, root = ref
            # (A parent just read was read with its root when it is the root.)
            state = await self._root_state(root["uri"], read=not (fresh and parent == root["uri"]))
            if state == BARRED:
                return None
            if state == GONE and parent == root["uri"]:
                continue
            return {"root": root, "parent": {"uri": parent, "cid": cid}}
        return None

    async def _images(self, outbound: Outbound) -> dict[str, Any] | None:
        pictures = [a for a in outbound.attachments if a.kind is AttachmentKind.IMAGE]
        if not pictures:
            return None
        images = []
        for attachment in pictures[:IMAGES_PER_POST]:
            images.append(await self._upload(attachment, outbound))
        return {"$type": "app.bsky.embed.images", "images": images}

    async def _upload(self, attachment: Attachment, outbound: Outbound) -> dict[str, Any]:
        # Re-encoding a big map takes a while: not on the event loop.
        fitted = await asyncio.to_thread(fit_image, attachment.data, attachment.mime_type)
        client = self._connection.pds
        body = await self._connection.call(
            "com.atproto.repo.uploadBlob",
            lambda: client.com.atproto.repo.upload_blob(
                fitted.data, headers={"Content-Type": fitted.mime_type}
            ),
        )
        # Alt text always: the game's, else the message's first line.
        alt = attachment.alt_text.strip() or outbound.text.strip().splitlines()[0][:300]
        return {
            "image": body["blob"],
            "alt": alt or "a picture of the game",
            "aspectRatio": {"width": fitted.width, "height": fitted.height},
        }

    async def _profiles(self, dids: list[str]) -> dict[str, Any]:
        client = self._connection.pds
        return await self._connection.call(
            "app.bsky.actor.getProfiles",
            lambda: client.app.bsky.actor.get_profiles(params={"actors": dids}),
        )

    async def _live_mentions(self, outbound: Outbound) -> tuple[str, dict[str, str]]:
        """The row's text with each player it names (by DID) written by the handle Bluesky
        gives them now; and handle → DID of the mentions to link. Only those get a mention
        facet: on Bluesky a mention *is* its facet, so any other ``@name`` in the text
        (a player's name, say) stays plain text and needs no defusing."""
        text = outbound.text
        named = [did for did in outbound.mentions if did in self._people.written]
        now = await self._people.current(named, self._profiles) if named else {}
        live: dict[str, str] = {}
        for did in named:
            handle = now.get(did)
            if handle is not None:
                text = renamed(text, self._people.written[did], handle)
                live[handle] = did
        return text, live

    async def _send_post(self, address: Address, outbound: Outbound) -> str:
        await self._connection.login()
        said, live = await self._live_mentions(outbound)

        def mention(handle: str) -> str | None:
            did = live.get(handle)
            return did if did is not None and self.mentions.allow(did) else None

        # An answer to someone's post goes whole (numbered posts under it); a game's own
        # post is one post (see answer_parts).
        split = answer_parts if address.reply_to else compose_parts
        texts = split(
            said,
            mute_line(outbound.text, self._games),
            link=outbound.link,
            keep=outbound.keep,
        )
        key = outbound.key or hashlib.sha256(texts[0].encode()).hexdigest()
        first = await self._send_one(
            address, outbound, texts[0], tid_for(key, outbound.written_at), mention
        )
        # A long answer, or a list too long for one post (the standings), goes on in
        # numbered replies, each under the one before, each with its own record key (a
        # retry makes no twin).
        parent = first
        for number, text in enumerate(texts[1:], start=2):
            under = dataclasses.replace(address, reply_to=parent)
            rkey = tid_for(f"{key}/{number}", outbound.written_at)
            parent = await self._send_one(under, outbound, text, rkey, mention, more=True)
        return first

    async def _send_one(
        self,
        address: Address,
        outbound: Outbound,
        text: str,
        rkey: str,
        mention: Callable[[str], str | None],
        *,
        more: bool = False,
    ) -> str:
        if outbound.retry:
            earlier = await self._existing(rkey, text)
            if earlier is not None:
                log.info("Bluesky post %s was made by an earlier attempt", outbound.key)
                return earlier
        record: dict[str, Any] = {
            "$type": POST,
            "text": text,
            "createdAt": datetime.fromtimestamp(self._clock(), UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "langs": ["en"],
        }
        found = facets(text, mention=mention)
        if found:
            record["facets"] = found
        reply = await self._reply_refs(address)
        if reply is not None:
            record["reply"] = reply
        embed = None if more else await self._images(outbound)
        if embed is not None:
            record["embed"] = embed
        if self._posted is not None and not more:
            await self._posted(address.channel, outbound.text)
        self.points.spend()
        await self._post_pace.wait()
        client = self._connection.pds
        data = {"repo": self._connection.did, "collection": POST, "rkey": rkey, "record": record}
        try:
            made = await self._connection.call(
                "com.atproto.repo.createRecord",
                lambda: client.com.atproto.repo.create_record(data=data),
            )
        except (atproto_errors.BadRequestError, atproto_errors.NetworkError) as error:
            # The record may be there already (a lost answer to an earlier attempt).
            earlier = await self._existing(rkey, text)
            if earlier is None:
                raise error from None
            return earlier
        uri = str(made["uri"])
        root = reply["root"] if reply is not None else {"uri": uri, "cid": str(made["cid"])}
        self._posts[uri] = (str(made["cid"]), root)
        if self._threads is not None:
            if reply is not None and root["uri"] == address.channel:
                await self._threads.replied(address.channel, uri)
            elif reply is None:
                await self._threads.stood_in(address.channel, uri)
        return uri

    async def _existing(self, rkey: str, text: str) -> str | None:
        """The URI of the bot's post ``rkey``, if it exists with ``text`` (an earlier
        attempt of the same row). A post there with other words is not this row's:
        saying it was delivered would lose this one, so that is an error."""
        client = self._connection.pds
        params = {"repo": self._connection.did, "collection": POST, "rkey": rkey}
        try:
            body = await self._connection.call(
                "com.atproto.repo.getRecord",
                lambda: client.com.atproto.repo.get_record(params=params),
            )
        except atproto_errors.BadRequestError:
            return None  # RecordNotFound
        if (body.get("value") or {}).get("text") != text:
            raise DeliveryError(
                f"Bluesky post {rkey} already holds another message", permanent=True
            )
        return str(body["uri"]) if body.get("uri") else None

    # -- chat -------------------------------------------------------------

    async def _convo(self, did: str) -> str:
        if did not in self._convos:
            chat = self._connection.chat
            body = await self._connection.call(
                "chat.bsky.convo.getConvoForMembers",
                lambda: chat.chat.bsky.convo.get_convo_for_members(params={"members": [did]}),
            )
            self._convos[did] = str(body["convo"]["id"])
        return self._convos[did]

    async def _send_dm(self, address: Address, outbound: Outbound) -> str:
        await self._connection.login()
        assert address.user_id is not None
        convo = await self._convo(address.user_id)
        chat = self._connection.chat
        sent: list[str] = []
        earlier = await self._sent_since(convo, outbound.written_at) if outbound.retry else {}
        # The parts an earlier attempt delivered before a part was refused (a 429 says the
        # platform took nothing of that part, so the next attempt does not look): not
        # sent again. Kept by the message's key until the whole message is delivered.
        delivered = self._parts_delivered.get(outbound.key, {})
        for index, part in enumerate([p for p in dm_parts(outbound.text) if p.strip()]):
            if index in delivered:
                sent.append(delivered[index])
                continue
            if part in earlier:
                sent.append(earlier.pop(part))
                continue
            await self._dm_pace.wait()
            message_input: dict[str, Any] = {"text": part}
            # A link is tappable only as a facet (the player's private page).
            links = [f for f in facets(part) if f["features"][0]["$type"].endswith("#link")]
            if links:
                message_input["facets"] = links
            data = {"convoId": convo, "message": message_input}
            message = await self._connection.call(
                "chat.bsky.convo.sendMessage",
                partial(chat.chat.bsky.convo.send_message, data=data),
            )
            sent.append(str(message["id"]))
            delivered[index] = sent[-1]
            if outbound.key:
                self._parts_delivered[outbound.key] = delivered
        self._parts_delivered.pop(outbound.key, None)
        return ",".join(sent)

    async def _sent_since(self, convo: str, since: float) -> dict[str, str]:
        """The bot's messages in ``convo`` since ``since`` (text → id): an earlier attempt
        of a retried DM that did arrive is not sent again."""
        chat = self._connection.chat
        body = await self._connection.call(
            "chat.bsky.convo.getMessages",
            lambda: chat.chat.bsky.convo.get_messages(
                params={"convoId": convo, "limit": RETRY_LOOK}
            ),
        )
        found: dict[str, str] = {}
        for message in body.get("messages") or []:
            if (message.get("sender") or {}).get("did") != self._connection.did:
                continue
            if (
                since
                and parse_time(message.get("sentAt")).timestamp() < since - CLOCK_SLACK_SECONDS
            ):
                continue
            found.setdefault(str(message.get("text") or ""), str(message["id"]))
        return found
