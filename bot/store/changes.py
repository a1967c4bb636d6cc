"""What the host hands the store to write: change values, never a changed row.

A :class:`GameChange` names only the columns that change (the others are left as
they are); :meth:`GameChange.then` puts two together, the later one winning, so a
command that changes a game in several steps (its state, then its timers) writes it
once. :class:`NewGame` is a game to insert."""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields, replace
from typing import Any

from bot.store.records import Game


class Unset(enum.Enum):
    """A column a change leaves as it is."""

    UNSET = enum.auto()


UNSET = Unset.UNSET


@dataclass(frozen=True, slots=True)
class GameChange:
    """The columns of a game that change (every one left UNSET stays as stored)."""

    state: str | Unset = UNSET
    phase: str | Unset = UNSET
    turn: int | Unset = UNSET
    turn_opened_at: float | Unset | None = UNSET
    timers: str | Unset = UNSET
    deadline: float | Unset | None = UNSET
    paused_remaining: float | Unset | None = UNSET
    finished_at: float | Unset | None = UNSET
    options: str | Unset = UNSET
    luck: str | Unset = UNSET
    open_to_all: bool | Unset = UNSET

    def values(self) -> dict[str, Any]:
        """The changed columns and their new values."""
        found = {f.name: getattr(self, f.name) for f in fields(self)}
        return {name: value for name, value in found.items() if value is not UNSET}

    def then(self, later: GameChange) -> GameChange:
        """This change followed by ``later`` (its columns win)."""
        return replace(self, **later.values())

    def __bool__(self) -> bool:
        return bool(self.values())


def changed(game: Game, change: GameChange) -> Game:
    """What ``game`` reads after ``change``, but its state (the store writes the state
    and gives the record that carries it: see Tx.change_game). For a caller that looks
    at a change before writing it (the timers it arms, say)."""
    values = change.values()
    values.pop("state", None)
    return replace(game, **values) if values else game


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game to insert (Tx.add_game): its columns but its id and digest."""

    kind: str
    platform: str
    channel: str
    creator: str
    options: str
    seed: int
    phase: str
    state: str
    created_at: float
    turn: int = 0
    timers: str = "[]"
    deadline: float | None = None
    lobby: str = ""
    community: str = ""
    open_to_all: bool = False
    secret: str = ""
    luck: str = ""


@dataclass(frozen=True, slots=True)
class NewPlayer:
    """A seat to add to a game (Tx.add_player): its columns but its id."""

    game_id: int
    key: str
    platform: str
    user_id: str
    name: str
    join_order: int
    avatar_url: str | None = None
    nonce: str = ""
    account_name: str = ""
    robot: str = ""


@dataclass(frozen=True, slots=True)
class PostChange:
    """What a failed send changes of an outgoing message (Tx.change_post)."""

    attempts: int
    error: str
    status: str | Unset = UNSET
    next_attempt_at: float | Unset = UNSET

    def values(self) -> dict[str, Any]:
        """The changed columns and their new values."""
        found = {f.name: getattr(self, f.name) for f in fields(self)}
        return {name: value for name, value in found.items() if value is not UNSET}


@dataclass(frozen=True, slots=True)
class NewStep:
    """A step of a game's history to store (Tx.add_turn)."""

    game_id: int
    number: int
    cause: str
    orders: str  # JSON list of {"player": key, ...order}
    events: str  # JSON list of event records
    state: str
    resolved_at: float
    deadline: float | None = None
    step: int = 0


@dataclass(frozen=True, slots=True)
class NewOffer:
    """An offer to write (bot.store.seats.add_offer): its columns but its id (see
    bot.store.models.OfferRow for what each means)."""

    game_id: int
    kind: str
    platform: str
    created_at: float
    channel: str = ""
    community: str = ""
    user_id: str = ""
    name: str = ""
    avatar_url: str | None = None
    player_key: str = ""
    holder: str = ""
    holder_consent: str = ""
    accepted: bool = False
