"""What the store hands the host and the web: one frozen record per table, ``id: int``.

A record is a plain value read in a transaction: no ORM object, no session, nothing
written by changing it (the host writes by handing the store a change, see
:mod:`bot.store.changes`). The one column read late is a game's ``state``: a crowd's
is tens of megabytes that the decoded-state cache (``bot.host.states``) mostly holds
already, as ``state_digest`` tells it, so it is read from the transaction the first
time it is asked for (ask inside the transaction that read the record)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

ROBOT_USER = "robot:"
"""How a robot's seat's user id begins (``robot:12:1``): no platform gives its people such
an id, and the store writes no message to an address naming one."""


class StoredState:
    """A game's encoded state as a record carries it: known, or read (with the digest
    it is stored under) from the transaction that made the record, once, when asked."""

    __slots__ = ("_digest", "_read", "_text")

    def __init__(
        self,
        read: Callable[[], tuple[str, str | None]] | None,
        text: str | None = None,
        digest: str | None = None,
    ) -> None:
        self._read = read
        self._text = text
        self._digest = digest

    def text(self) -> str:
        if self._text is None:
            assert self._read is not None, "a state is either known or readable"
            self._text, self._digest = self._read()
        return self._text

    def digest(self) -> str | None:
        """The digest the state is stored under, once its text was read (or written)."""
        return self._digest


@dataclass(frozen=True, slots=True)
class Game:
    """A row of ``games`` (see bot.store.models.GameRow for what each column means)."""

    id: int
    kind: str
    platform: str
    channel: str
    creator: str
    options: str
    seed: int
    phase: str
    turn: int
    deadline: float | None
    turn_opened_at: float | None
    paused_remaining: float | None
    timers: str
    lobby: str
    community: str
    open_to_all: bool
    secret: str
    luck: str
    created_at: float
    finished_at: float | None
    # The digest of the state this record stands for; while a state is staged (left to
    # be written once a batch, see Tx.stage_game_state), the token that stands for it.
    state_digest: str | None
    stored: StoredState = field(repr=False, compare=False)

    @property
    def state(self) -> str:
        """The game's encoded state (JSON), read from the transaction the first time."""
        return self.stored.text()

    def stored_digest(self) -> str | None:
        """The digest of the state as stored once ``state`` was read: a staged state is
        written when its text is asked for, and its token gives way to its digest."""
        return self.stored.digest() or self.state_digest


GAME_FIELDS = (
    "id", "kind", "platform", "channel", "creator", "options", "seed", "phase", "turn",
    "deadline", "turn_opened_at", "paused_remaining", "timers", "lobby", "community",
    "open_to_all", "secret", "luck", "created_at", "finished_at", "state_digest",
)  # fmt: skip
"""The columns of a :class:`Game` but its state, in the record's order."""


@dataclass(frozen=True, slots=True)
class Player:
    """A row of ``players``: a seat in a game and the account that plays it (see
    bot.store.models.PlayerRow)."""

    id: int
    game_id: int
    key: str
    platform: str
    user_id: str
    name: str
    avatar_url: str | None
    join_order: int
    nonce: str
    account_name: str
    robot: str


PLAYER_FIELDS = tuple(f for f in Player.__dataclass_fields__)
"""The columns of a :class:`Player`, in the record's order."""


@dataclass(frozen=True, slots=True)
class Post:
    """A row of ``outbox``: one outgoing message and how its sending went (see
    bot.store.models.OutboxRow)."""

    id: int
    game_id: int
    turn: int
    kind: str
    recipient: str
    address: str
    text: str
    render: str
    extras: str
    status: str
    attempts: int
    next_attempt_at: float
    platform_message_id: str | None
    error: str
    created_at: float


POST_FIELDS = tuple(f for f in Post.__dataclass_fields__)
"""The columns of a :class:`Post`, in the record's order."""


@dataclass(frozen=True, slots=True)
class Order:
    """A row of ``orders``: an order given, kept as history (the newest of a player's
    turn stands; see bot.store.models.OrderRow)."""

    id: int
    game_id: int
    player_key: str
    turn: int
    order: str
    text: str
    inbound_id: int
    sent_at: float


ORDER_FIELDS = tuple(f for f in Order.__dataclass_fields__)


@dataclass(frozen=True, slots=True)
class Step:
    """A row of ``turns``: one step of a game's history (see bot.store.models.TurnRow)."""

    id: int
    game_id: int
    number: int
    step: int
    cause: str
    resolved_at: float
    deadline: float | None
    orders: str
    events: str
    state: str


STEP_FIELDS = tuple(f for f in Step.__dataclass_fields__)


@dataclass(frozen=True, slots=True)
class GameHeading:
    """What the list of games filters and orders every game by, read for all of them
    at once (3,000 games: a whole :class:`Game` each would be read to be dropped). One
    purpose: choosing which games a page of the list shows, before it reads their
    :class:`Game` records."""

    id: int
    kind: str
    platform: str
    open_to_all: bool  # opened ``reach=all``: the web lists it (bot.host.links.listed)
    phase: str


@dataclass(frozen=True, slots=True)
class Rating:
    """A row of ``ratings``: a person's rating in one kind of game (see
    bot.store.models.RatingRow)."""

    kind: str
    person: str
    name: str
    mu: float
    sigma: float
    played: int
    won: int
    awards: int
    robot_games: int
    updated_at: float


RATING_FIELDS = tuple(f for f in Rating.__dataclass_fields__)
"""The columns of a :class:`Rating`, in the record's order."""


@dataclass(frozen=True, slots=True)
class AccountSettings:
    """A row of ``player_settings``: one platform account's own settings (see
    bot.store.models.PlayerSettingsRow for what each column means)."""

    platform: str
    user_id: str
    time_zone: str = "UTC"
    quiet_start: int | None = None
    quiet_end: int | None = None
    away_until: float | None = None
    person: str | None = None
    link_digest: str | None = None
    link_expires: float | None = None
    updated_at: float = 0.0
    on_web: bool = True


SETTINGS_FIELDS = tuple(f for f in AccountSettings.__dataclass_fields__)
"""The columns of :class:`AccountSettings`, in the record's order."""


@dataclass(frozen=True, slots=True)
class Offer:
    """A row of ``offers``: something a game's host offered that waits for someone
    else's yes (see bot.store.models.OfferRow)."""

    id: int
    game_id: int
    kind: str
    platform: str
    channel: str
    community: str
    user_id: str
    name: str
    avatar_url: str | None
    player_key: str
    holder: str
    holder_consent: str
    accepted: bool
    created_at: float


OFFER_FIELDS = tuple(f for f in Offer.__dataclass_fields__)
"""The columns of an :class:`Offer`, in the record's order."""


@dataclass(frozen=True, slots=True)
class Room:
    """A row of ``game_rooms``: a room a game is also played from (see
    bot.store.models.GameRoomRow)."""

    platform: str
    channel: str
    game_id: int
    community: str
    bridged_at: float


ROOM_FIELDS = tuple(f for f in Room.__dataclass_fields__)
"""The columns of a :class:`Room`, in the record's order."""


@dataclass(frozen=True, slots=True)
class WebLink:
    """A row of ``web_links``: a player's private link to their own view of a game on
    the web page (see bot.store.models.WebLinkRow)."""

    id: int
    game_id: int
    player_key: str
    token: str
    digest: str
    created_at: float
    revoked_at: float | None


WEB_LINK_FIELDS = tuple(f for f in WebLink.__dataclass_fields__)
"""The columns of a :class:`WebLink`, in the record's order."""


@dataclass(frozen=True, slots=True)
class SeatChange:
    """A row of ``seat_changes``: a seat handed to someone else (see
    bot.store.models.SeatChangeRow)."""

    id: int
    game_id: int
    player_key: str
    turn: int
    from_account: str
    from_name: str
    to_account: str
    to_name: str
    changed_at: float


SEAT_CHANGE_FIELDS = tuple(f for f in SeatChange.__dataclass_fields__)
"""The columns of a :class:`SeatChange`, in the record's order."""
