"""The tables. Times are stored as UTC epoch seconds (floats) so SQLite and
PostgreSQL compare them the same way and no time zone is ever lost."""

from __future__ import annotations

import hashlib
from typing import Any

from sqlalchemy import BigInteger, Index, UniqueConstraint, event
from sqlmodel import Field, SQLModel


class GameRow(SQLModel, table=True):
    __tablename__ = "games"

    id: int | None = Field(default=None, primary_key=True)
    kind: str
    platform: str
    channel: str = Field(index=True)
    creator: str  # "platform:user_id" of the player who made the game
    options: str  # JSON of the options as given
    seed: int = Field(sa_type=BigInteger)  # crc32 seeds pass 2**31: INTEGER overflows on PostgreSQL
    phase: str  # setup | battle | finished
    turn: int = 0
    # Indexed: the clock and the reminders look for the games closing in a window.
    deadline: float | None = Field(default=None, index=True)
    # When the turn in progress opened (the previous deadline): an order stamped
    # earlier belonged to a turn that has already resolved.
    turn_opened_at: float | None = None
    paused_remaining: float | None = None
    # The game's timers (JSON list of {"key", "label", "deadline", "remaining"}): a
    # running one has a deadline, a held or paused one its time left. ``deadline``
    # above is the earliest running one, which is what the clock looks for.
    timers: str = "[]"
    # The channel the game was opened in, once it moved into a room of its own there
    # (a Discord thread, now ``channel``); empty while it lives where it was opened.
    lobby: str = ""
    # Where the game can be reached from: the community (a Discord server, by the
    # adapter's opaque id; "" where the platform has none) it was opened in, whose
    # members alone may join it by DM, unless its host opened it to all.
    community: str = ""
    open_to_all: bool = False
    # Committed luck (bot.host.seeds): the host's secret (hex of 32 bytes; "" for a game
    # opened with seed=, or before this existed) and, once the game started, the key
    # mixed from it and the players' join nonces. Both revealed only in the record.
    secret: str = ""
    luck: str = ""
    created_at: float
    finished_at: float | None = None
    # A digest of ``state`` (state_digest), set whenever ``state`` is: a reader who
    # decoded this state before knows it is still the one stored without reading it
    # again (a crowd's state is tens of megabytes). None: written before 0011, not known.
    state_digest: str | None = None
    # Last: SQLite reads a column stored after a big one by walking the big one's
    # overflow pages (migration 0011 put them last).
    state: str  # the game's encoded state (JSON)


class PlayerRow(SQLModel, table=True):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("game_id", "platform", "user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(index=True)
    key: str  # the game's PlayerId
    platform: str
    user_id: str
    name: str
    avatar_url: str | None = None
    join_order: int
    # The player's contribution to the game's luck: their join message's platform id
    # ("platform:message_id"), which the host could not know when it committed.
    nonce: str = ""
    # Who plays the seat now, where a substitute took it (``replace``): their own name,
    # which their DMs are addressed with; the seat keeps ``name`` (the game's and the
    # record's). "" while the seat's first player plays it.
    account_name: str = ""
    # The level of the robot that plays the seat (``easy``, ``strong``; see
    # bot.host.robots), "" for a person: the host sends such a seat no message.
    robot: str = ""


class InboundRow(SQLModel, table=True):
    """Every message the host accepted for handling. The unique key makes a
    redelivered message a no-op."""

    __tablename__ = "inbound"
    __table_args__ = (UniqueConstraint("platform", "message_id"),)

    id: int | None = Field(default=None, primary_key=True)
    platform: str
    message_id: str
    channel: str
    user_id: str
    user_name: str
    avatar_url: str | None = None
    is_channel_admin: bool = False
    kind: str  # public | dm
    text: str
    sent_at: float
    received_at: float
    game_id: int | None = Field(default=None, index=True)
    outcome: str = "handled"  # handled | refused | held (arrived for a turn not yet open)


class OrderRow(SQLModel, table=True):
    """Every accepted order, kept as history; the standing order of a player
    for a turn is their newest order of that turn (so replacing one is one INSERT)."""

    __tablename__ = "orders"
    __table_args__ = (Index("ix_orders_turn_player", "game_id", "turn", "player_key"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int
    player_key: str
    turn: int
    order: str  # JSON (the game's encode_order)
    text: str
    inbound_id: int
    sent_at: float


class JournalRow(SQLModel, table=True):
    """One call the host made to a game's rules, in order (``bot.host.journal``): with
    the record's options and the game's luck, the journal makes the game again, so
    ``bst verify`` can check every event. ``entry``: JSON, player ids, never names."""

    __tablename__ = "journal"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(index=True)
    entry: str


class TurnRow(SQLModel, table=True):
    """One step of a game's history: enough to replay the game. Number 0 is the
    close of setup; a turn that acts at once (a card played, an answer to a
    question) has a step for each change, numbered from 0 within the turn."""

    __tablename__ = "turns"
    __table_args__ = (UniqueConstraint("game_id", "number", "step"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int
    number: int
    step: int = 0
    # What made the change: start | turn (the turn's orders resolved) | timer (a timer
    # ran out) | action (an order that acts at once) | leave | kick | end.
    cause: str = "turn"
    resolved_at: float
    deadline: float | None = None  # the deadline that followed this turn
    # The big columns last (see GameRow.state).
    orders: str  # JSON list of {"player": key, ...order}
    events: str  # JSON list of event records (player ids, not names)
    state: str  # the state after this turn


class OutboxRow(SQLModel, table=True):
    """One outgoing message, written in the same transaction as its cause."""

    __tablename__ = "outbox"
    __table_args__ = (
        UniqueConstraint("game_id", "turn", "kind", "recipient"),
        Index("ix_outbox_pending", "status", "next_attempt_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int  # 0 for messages about no game
    turn: int
    kind: str
    recipient: str
    address: str  # JSON of the Address
    text: str
    render: str = ""  # JSON of what to attach, rendered at send time
    # JSON of what the message carries besides text and pictures, where the platform can
    # show it: buttons, who it pings, a card (see bot.host.posts.extras); or "".
    extras: str = ""
    # pending | sent | undeliverable | skipped (the platform cannot do it: see Relay)
    status: str = "pending"
    attempts: int = 0
    next_attempt_at: float = 0.0
    platform_message_id: str | None = None
    error: str = ""
    created_at: float


class CursorRow(SQLModel, table=True):
    __tablename__ = "cursors"

    platform: str = Field(primary_key=True)
    key: str = Field(primary_key=True)
    value: str


class WebLinkRow(SQLModel, table=True):
    """A player's private link to their own view of a game on the web page. The host
    issues it (the web only reads it); ``link revoke`` revokes it and issues a new one.
    The web finds a link by the SHA-256 of its token, so a lookup's time says nothing
    about how much of a guessed token was right."""

    __tablename__ = "web_links"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(index=True)
    player_key: str
    token: str
    digest: str = Field(unique=True)  # hex SHA-256 of the token
    created_at: float
    revoked_at: float | None = None


class PlayerSettingsRow(SQLModel, table=True):
    """A person's own settings on one platform account: the time zone every private
    message to them is written in, and their quiet hours (minutes after local midnight,
    both or neither; the start may be after the end: the hours then span midnight), and
    until when they are away. No row: UTC, no quiet hours, not away. Nobody else ever sees them."""

    __tablename__ = "player_settings"

    platform: str = Field(primary_key=True)
    user_id: str = Field(primary_key=True)
    time_zone: str = "UTC"
    quiet_start: int | None = None
    quiet_end: int | None = None
    # Away until then (``me away 3d``); what that means is each game's ``away`` option.
    away_until: float | None = None
    # Linked to another account of the same person ("platform:user_id" of the account
    # whose row holds their settings); None: this row is its own.
    person: str | None = None
    # A link code this account showed (``me link``): its SHA-256, until it expires.
    link_digest: str | None = Field(default=None, index=True)
    link_expires: float | None = None
    updated_at: float = 0.0
    # The web page shows the person's ratings and games (``me web off``: it does not).
    on_web: bool = True


class RatingRow(SQLModel, table=True):
    """A person's rating in one kind of game (OpenSkill's Plackett-Luce: ``mu`` and
    ``sigma``), updated once when a rated game ends. ``person`` is the account key
    ("platform:user_id") whose settings stand for them (see PlayerSettingsRow.person),
    or a robot level's (``robot:strong``): each level has its own rating per game."""

    __tablename__ = "ratings"

    kind: str = Field(primary_key=True)
    person: str = Field(primary_key=True)
    name: str = ""
    mu: float
    sigma: float
    played: int = 0
    won: int = 0
    awards: int = 0  # the game's own award (U-Boat's marks of victory), one a game at most
    # Of ``played``, the games with a robot at the table (another seat's, or a crew's).
    robot_games: int = 0
    updated_at: float = 0.0


class SeatChangeRow(SQLModel, table=True):
    """A seat handed to someone else by the game's host (``replace OLD NEW``): from
    ``turn`` on, the account ``to_account`` ("platform:user_id", named ``to_name``) plays
    the seat ``player_key``, which ``from_account`` played until then. The seat keeps its
    key and its name (what the game's state and its record call it), so the record
    replays from its orders as before; these rows say who played which turns."""

    __tablename__ = "seat_changes"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(index=True)
    player_key: str
    turn: int
    from_account: str
    from_name: str
    to_account: str
    to_name: str
    changed_at: float


class OfferRow(SQLModel, table=True):
    """Something a game's host offered that waits for someone else's yes: a seat handed
    to a newcomer (``kind`` "seat", ``replace OLD NEW``: the newcomer's account
    ``platform``/``user_id`` takes ``player_key`` once they accept by DM, and, where
    ``holder_consent`` is "asked", once the seat's player ``holder`` agrees too), or a
    room the game would be played from (``kind`` "bridge", ``bridge GAME``: the room
    ``platform``/``channel`` once one of its admins accepts there), or a warning given
    before accounts are linked (``kind`` "link", game 0: the account ``platform``/
    ``user_id`` was told whose link code, by its digest in ``player_key``, it sent, and
    only ``me link CODE yes`` after that links it). Until then nothing of the game
    reaches them; a "no" deletes the row."""

    __tablename__ = "offers"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(index=True)
    kind: str  # seat | bridge
    platform: str
    channel: str = ""
    community: str = ""
    user_id: str = Field(default="", index=True)
    name: str = ""
    avatar_url: str | None = None
    player_key: str = ""
    holder: str = ""  # "platform:user_id" of the seat's player when it was offered
    holder_consent: str = ""  # "" (not needed) | asked | given
    accepted: bool = False
    created_at: float


class GameRoomRow(SQLModel, table=True):
    """A public room on any platform that a game is also played from (``bridge GAME``,
    by its host, in that room): the game's public posts go there too, and anyone there
    may join it and order in it. The game's own channel is on the game row; this is
    every other room, one game each."""

    __tablename__ = "game_rooms"

    platform: str = Field(primary_key=True)
    channel: str = Field(primary_key=True)
    game_id: int = Field(index=True)
    community: str = ""
    bridged_at: float


def state_digest(state: str) -> str:
    """What ``games.state_digest`` holds for this state: equal digests, equal states."""
    return hashlib.blake2b(state.encode(), digest_size=16).hexdigest()


@event.listens_for(GameRow.state, "set", propagate=True)
def _digest_follows_state(target: GameRow, value: Any, _old: Any, _initiator: Any) -> None:
    # Every write of a game's state through the ORM, a new game's included, writes its
    # digest with it; the one statement that writes a state (Tx.set_game_state) does too.
    target.state_digest = None if value is None else state_digest(value)


@event.listens_for(GameRow, "before_insert", propagate=True)
def _digest_of_a_new_game(_mapper: Any, _connection: Any, target: GameRow) -> None:
    # (A row built with its state as an argument is not a "set" of the attribute.)
    if target.state is not None:
        target.state_digest = state_digest(target.state)
