"""The outbox's wire format: a row's kind and its address, typed values with one
encoding each, written by the host (:mod:`bot.host.outbox.posts`) and read by the relay
(:mod:`bot.host.outbox.relay`).

A row's kind is part of its idempotency key ``(game, turn, kind, recipient)`` and says
what the relay does with it (:class:`Act`: send it, withdraw a message, open, join or
close a game's room). It is stored as ``name`` or ``name:part:…`` (``reply:12``,
``notice:3:1:0``, ``lobby:end``): :meth:`PostKind.key` writes the very strings every
database and record already holds, and :meth:`PostKind.parse` reads any of them back, so
nothing stored changes. An address is stored as a compact JSON object whose keys come in
one order (:func:`encode_address`, :func:`decode_address`).
"""

from __future__ import annotations

import enum
import json.encoder
from dataclasses import dataclass

from bot.host.messages import Address

# The names of the kinds the relay or the page links read; any other name is a message
# to send, named for what it says (``standings``, ``seat-offer``, ``away``).
REPLY = "reply"  # an answer to an inbound message: reply:ID[:SUFFIX]
NOTICE = "notice"  # what a game tells: notice:TURN[:STEP]:I, or notice:CAUSE:I
TURN_NOTICE = "turn-notice"  # what a turn tells a player alone: turn-notice:TURN[:STEP]
MAP = "map"  # a turn's public report with its map: map[:STEP]
BOARD = "board"  # a player's board after a turn: board[:STEP]
WITHDRAW = "withdraw"  # remove a public message: withdraw:CAUSE
ROOM = "room"  # open the game's room (its first message)
ROOM_MEMBER = "room-member"  # add a player to, or take one out of, the room: room-member:CAUSE
CLOSE_ROOM = "close-room"  # close a finished game's room
LOBBY = "lobby"  # a line for the channel a game moved out of: lobby:KIND
NUDGE = "nudge"  # ask a player in public to open their DMs: nudge:USER
REMINDER = "reminder"  # a turn's reminder: reminder[:PART]
STANDINGS = "standings"  # the end's standings
REPLAY = "replay"  # the end's replay
END = "end"  # (in the lobby) that the game ended


class Act(enum.Enum):
    """What the relay does with a row."""

    SEND = "send"
    WITHDRAW = "withdraw"
    OPEN_ROOM = "open room"
    ROOM_MEMBER = "room member"
    CLOSE_ROOM = "close room"


_ACTS = {
    WITHDRAW: Act.WITHDRAW,
    ROOM: Act.OPEN_ROOM,
    ROOM_MEMBER: Act.ROOM_MEMBER,
    CLOSE_ROOM: Act.CLOSE_ROOM,
}


@dataclass(frozen=True)
class PostKind:
    """A row's kind: a ``name`` and the ``parts`` that make it unique within its game's
    turn (the message answered, the turn and step, a notice's index)."""

    name: str
    parts: tuple[str, ...] = ()

    @classmethod
    def of(cls, name: str, *parts: object) -> PostKind:
        return cls(name, tuple(str(part) for part in parts))

    @classmethod
    def parse(cls, stored: str) -> PostKind:
        """The kind a stored string names (any string: a part may hold ``:`` too, as a
        Bluesky DID does, and :meth:`key` gives the same string back)."""
        name, *parts = stored.split(":")
        return cls(name, tuple(parts))

    def key(self) -> str:
        """The stored string: the name, then each part after a ``:``."""
        return ":".join((self.name, *self.parts)) if self.parts else self.name

    @property
    def act(self) -> Act:
        return _ACTS.get(self.name, Act.SEND)

    @property
    def for_lobby(self) -> bool:
        """Meant for the channel a game was opened in, even after the game moved into a
        room of its own: the room's opening, and the lines for the lobby."""
        return self.name in (ROOM, LOBBY)

    @property
    def reports_turn(self) -> bool:
        """A turn's report with its map (its link is that turn's page)."""
        return self.name == MAP

    def links_page(self, recipient: str) -> bool:
        """Whether a row of this kind to ``recipient`` carries the link to its game's web
        page (when it has a public address): each turn's map and the posts of the end."""
        return recipient == "public" and (self.name == MAP or self in _PAGE_LINKED)


_PAGE_LINKED = frozenset({PostKind(STANDINGS), PostKind(REPLAY), PostKind(LOBBY, (END,))})


def reply(cause: int | None, suffix: str = "") -> PostKind:
    return PostKind.of(REPLY, cause, suffix) if suffix else PostKind.of(REPLY, cause)


def of_step(name: str, step: int) -> PostKind:
    """``map``, ``board``: one a turn, and one more for each step of it (``map:2``)."""
    return PostKind.of(name, step) if step else PostKind(name)


def turn_notice(turn: int, step: int) -> PostKind:
    return PostKind.of(TURN_NOTICE, turn, step) if step else PostKind.of(TURN_NOTICE, turn)


def public_notice(turn: int, step: int, index: int) -> PostKind:
    if step:
        return PostKind.of(NOTICE, turn, step, index)
    return PostKind.of(NOTICE, turn, index)


def in_lobby(kind: PostKind) -> PostKind:
    return PostKind(LOBBY, (kind.name, *kind.parts))


def reminder(part: int) -> PostKind:
    """A reminder's ``part``-th post (0: the first; long lists of names are split)."""
    return PostKind.of(REMINDER, part + 1) if part else PostKind(REMINDER)


# --- addresses --------------------------------------------------------------------

_json_str = json.encoder.encode_basestring  # a JSON string, as ensure_ascii=False writes it

_HEADS_SIZE = 4096
_heads: dict[tuple[str, str, str | None, str | None], str] = {}


def _json_opt(value: str | None) -> str:
    return "null" if value is None else _json_str(value)


def _head(platform: str, channel: str, user_id: str | None, user_name: str | None) -> str:
    """What an address's JSON holds before the value of ``reply_to``: the same for every
    reply to one sender in one place, so kept (every reply writes one)."""
    key = (platform, channel, user_id, user_name)
    head = _heads.get(key)
    if head is None:
        if len(_heads) >= _HEADS_SIZE:
            _heads.clear()
        head = _heads[key] = (
            f'{{"platform":{_json_str(platform)},"channel":{_json_str(channel)},'
            f'"user_id":{_json_opt(user_id)},"user_name":{_json_opt(user_name)},"reply_to":'
        )
    return head


def encode_address(address: Address) -> str:
    """The stored JSON of ``address``: compact, its keys in one order (platform, channel,
    user_id, user_name, reply_to, then a crew's group, members and group_name)."""
    text = _head(address.platform, address.channel, address.user_id, address.user_name)
    text += _json_opt(address.reply_to)
    if address.group:
        members = ",".join(f"[{_json_str(u)},{_json_str(n)}]" for u, n in address.members)
        text += (
            f',"group":{_json_str(address.group)},"members":[{members}],'
            f'"group_name":{_json_str(address.group_name)}'
        )
    return text + "}"


def decode_address(stored: str) -> Address:
    data = json.loads(stored)
    return Address(
        platform=data["platform"],
        channel=data.get("channel") or "",
        user_id=data.get("user_id"),
        user_name=data.get("user_name"),
        reply_to=data.get("reply_to"),
        group=data.get("group") or "",
        members=tuple((str(u), str(n)) for u, n in data.get("members") or ()),
        group_name=data.get("group_name") or "",
    )
