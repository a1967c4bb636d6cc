"""What the web page reads besides the records the tables give every reader (a game's,
``Tx.game`` and ``Tx.games_numbered``; its rooms' and seat changes'): the list of games'
headings, counts, the players' names and robots' levels, ratings shown and stored steps,
without the columns it does not need (a step's state is read only for the one picture
being drawn; a 1,000-seat game's page reads two columns of its players, not their whole
records: measured 1-4 ms less a page built). Each function works inside the caller's
transaction (a read-only store's, for the web)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlmodel import col

from bot.store.models import (
    GameRow,
    PlayerRow,
    PlayerSettingsRow,
    RatingRow,
    TurnRow,
)
from bot.store.records import RATING_FIELDS, GameHeading, Rating
from bot.store.repository import Tx
from bot.store.tx import columns_of


@dataclass(frozen=True, slots=True)
class StepFacts:
    """A stored step without its state."""

    number: int
    step: int
    cause: str
    events: str  # JSON list of event records
    resolved_at: float
    deadline: float | None


def player_names(tx: Tx, game_id: int) -> list[tuple[str, str]]:
    """(key, display name) of each player, in the order they joined."""
    query = (
        select(col(PlayerRow.key), col(PlayerRow.name))
        .where(col(PlayerRow.game_id) == game_id)
        .order_by(col(PlayerRow.join_order))
    )
    return [(str(key), str(name)) for key, name in tx.session.execute(query).all()]


def robot_levels(tx: Tx, game_id: int) -> dict[str, str]:
    """(key: level) of each seat a robot plays (issue 44), people's seats left out."""
    query = select(col(PlayerRow.key), col(PlayerRow.robot)).where(
        col(PlayerRow.game_id) == game_id, col(PlayerRow.robot) != ""
    )
    return {str(key): str(level) for key, level in tx.session.execute(query).all()}


def step_counts(tx: Tx, ids: Sequence[int]) -> dict[int, int]:
    """How many steps are stored, per game of ``ids`` (games with none left out): any
    change to a game's history changes it (a page's version, bot.web.site.version_of)."""
    query = (
        select(col(TurnRow.game_id), func.count())
        .where(col(TurnRow.game_id).in_(ids))
        .group_by(col(TurnRow.game_id))
    )
    return {int(game_id): int(count) for game_id, count in tx.session.execute(query).all()}


def final_state(tx: Tx, game_id: int) -> str | None:
    """The state of a finished game (its end result is public), None before it ends."""
    query = select(col(GameRow.state)).where(
        col(GameRow.id) == game_id, col(GameRow.phase) == "finished"
    )
    found = tx.session.execute(query).first()
    return None if found is None else str(found[0])


def setup_state(tx: Tx, game_id: int) -> str | None:
    """The state of a game still in setup (a player's own page shows them their own
    placement through their view of it), None once it has begun."""
    query = select(col(GameRow.state)).where(
        col(GameRow.id) == game_id, col(GameRow.phase) == "setup"
    )
    found = tx.session.execute(query).first()
    return None if found is None else str(found[0])


def robot_counts(tx: Tx, ids: Sequence[int]) -> dict[int, int]:
    """How many seats robots play, per game of ``ids`` (games with none left out)."""
    query = (
        select(col(PlayerRow.game_id), func.count())
        .where(col(PlayerRow.game_id).in_(ids), col(PlayerRow.robot) != "")
        .group_by(col(PlayerRow.game_id))
    )
    return {int(game_id): int(count) for game_id, count in tx.session.execute(query).all()}


def player_counts(tx: Tx, ids: Sequence[int] | None = None) -> dict[int, int]:
    query = select(col(PlayerRow.game_id), func.count()).group_by(col(PlayerRow.game_id))
    if ids is not None:
        query = query.where(col(PlayerRow.game_id).in_(ids))
    return {int(game_id): int(count) for game_id, count in tx.session.execute(query).all()}


def steps(tx: Tx, game_id: int) -> list[StepFacts]:
    """The game's stored steps, without their states, in the order they happened."""
    query = (
        select(
            col(TurnRow.number),
            col(TurnRow.step),
            col(TurnRow.cause),
            col(TurnRow.events),
            col(TurnRow.resolved_at),
            col(TurnRow.deadline),
        )
        .where(col(TurnRow.game_id) == game_id)
        .order_by(col(TurnRow.number), col(TurnRow.step))
    )
    return [StepFacts(*row) for row in tx.session.execute(query).all()]


def step_state(tx: Tx, game_id: int, number: int, step: int) -> str | None:
    """The state stored after one step (for a picture to be drawn from its view)."""
    query = select(col(TurnRow.state)).where(
        col(TurnRow.game_id) == game_id, col(TurnRow.number) == number, col(TurnRow.step) == step
    )
    found = tx.session.execute(query).first()
    return None if found is None else str(found[0])


def all_states(tx: Tx, game_id: int) -> list[tuple[int, int, str, str]]:
    """(number, step, cause, state) of every stored step: the replay's frames."""
    query = (
        select(col(TurnRow.number), col(TurnRow.step), col(TurnRow.cause), col(TurnRow.state))
        .where(col(TurnRow.game_id) == game_id)
        .order_by(col(TurnRow.number), col(TurnRow.step))
    )
    return [(int(n), int(s), str(c), str(st)) for n, s, c, st in tx.session.execute(query).all()]


def listing(tx: Tx) -> list[GameHeading]:
    """Every game's :class:`~bot.store.records.GameHeading`, newest first (the list of
    games pages, filters and puts the live ones first from these before it reads any
    game's record)."""
    query = select(
        col(GameRow.id),
        col(GameRow.kind),
        col(GameRow.platform),
        col(GameRow.open_to_all),
        col(GameRow.phase),
    ).order_by(col(GameRow.id).desc())
    return [
        GameHeading(int(i), str(k), str(p), bool(o), str(ph))
        for i, k, p, o, ph in tx.session.execute(query).all()
    ]


def _off_the_web(tx: Tx) -> set[str]:
    """The persons (account keys) who keep off the web page (``me web off``)."""
    query = select(col(PlayerSettingsRow.platform), col(PlayerSettingsRow.user_id)).where(
        col(PlayerSettingsRow.on_web).is_(False)
    )
    return {f"{p}:{u}" for p, u in tx.session.execute(query).all()}


def shown_ratings(tx: Tx) -> list[Rating]:
    """Every rating of the persons who let the web show them, best first in each kind
    (by OpenSkill's ordinal, mu - 3 sigma), kinds in order."""
    hidden = _off_the_web(tx)
    query = select(*columns_of(RatingRow, RATING_FIELDS)).order_by(
        col(RatingRow.kind),
        (col(RatingRow.mu) - 3 * col(RatingRow.sigma)).desc(),
        col(RatingRow.person),
    )
    return [Rating(*row) for row in tx.session.execute(query).all() if str(row[1]) not in hidden]


def games_of_person(tx: Tx, person: str) -> list[int]:
    """The games (newest first) in which any account of ``person`` (the account key
    their ratings are kept under, and every account linked to it) holds a seat."""
    platform, _, user_id = person.partition(":")
    accounts = {(platform, user_id)}
    linked = select(col(PlayerSettingsRow.platform), col(PlayerSettingsRow.user_id)).where(
        col(PlayerSettingsRow.person) == person
    )
    accounts |= {(str(p), str(u)) for p, u in tx.session.execute(linked).all()}
    query = select(col(PlayerRow.game_id), col(PlayerRow.platform), col(PlayerRow.user_id))
    query = query.where(col(PlayerRow.user_id).in_([u for _, u in accounts]))
    found = {int(g) for g, p, u in tx.session.execute(query).all() if (str(p), str(u)) in accounts}
    return sorted(found, reverse=True)


__all__ = [
    "StepFacts",
    "all_states",
    "final_state",
    "games_of_person",
    "listing",
    "player_counts",
    "player_names",
    "robot_levels",
    "setup_state",
    "shown_ratings",
    "step_counts",
    "step_state",
    "steps",
]
