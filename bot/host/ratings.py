"""Ratings (issue 30 item 5): per kind of game, OpenSkill's Plackett-Luce model (it
rates many players and teams at once, U-Boat crews included), updated once when a game
of two or more people ends.

Called in the transaction that marks the game finished (the only one that can: it
holds the game and checks its phase), so a retried end never rates twice. A crew (a
seat several people share) is a team; winners share the first place, everyone else
the second; a draw is one place for all. A person is their linked account
(:func:`bot.store.settings.person_of`), so ratings follow them across platforms.

A robot is rated like anyone, under its level (``robot:strong``: each level has its own
rating per kind of game), so a person's rating moves against robots as against people.
A game needs one person at least; several robots of one level at a table move their
level's rating once, by its best-placed seat; a person's ``robot_games`` counts the
games they played with a robot at the table (``me rating``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from openskill.models import PlackettLuce

from bot.games.base import Game
from bot.store import Tx, records
from bot.store.ratings import rating_of, save_ratings
from bot.store.records import ROBOT_USER
from bot.store.settings import person_of

_MODEL = PlackettLuce()


def ordinal(row: records.Rating) -> float:
    """The figure a leaderboard sorts by: mu - 3 sigma (at least this, almost surely)."""
    return row.mu - 3 * row.sigma


def rate_finished(
    tx: Tx, game: Game[Any, Any], game_row: records.Game, state: Any, now: float
) -> int:
    """Update the ratings of a game that has just ended; returns how many people were
    rated (0 for a game of fewer than two people)."""
    outcome = game.rules.outcome(state)
    if outcome is None or game_row.id is None:
        return 0
    players = tx.players(game_row.id)
    person = {p.key: _rated_as(tx, p) for p in players}
    names = {p.key: _shown_as(p) for p in players}
    robots = {p.key for p in players if p.robot}
    if len(set(person.values())) < 2 or len(robots) == len(players):
        return 0
    teams: list[list[str]] = []
    seen: set[str] = set()
    for player in players:
        if player.key in seen:
            continue
        crew = [k for k in game.rules.crew(state, player.key) if k in person] or [player.key]
        crew = [k for k in dict.fromkeys([player.key, *crew]) if k not in seen]
        seen.update(crew)
        teams.append(crew)
    if len(teams) < 2:
        return 0
    winners = set(outcome.winners)
    ranks: list[float] = [1.0 if outcome.draw or winners & set(team) else 2.0 for team in teams]
    rows: dict[str, records.Rating] = {}
    for team in teams:
        for key in team:
            who = person[key]
            rows[who] = (
                rows.get(who) or rating_of(tx, game_row.kind, who) or _new(game_row.kind, who)
            )
    before = [
        [_MODEL.rating(mu=rows[person[k]].mu, sigma=rows[person[k]].sigma) for k in team]
        for team in teams
    ]
    after = _MODEL.rate(before, ranks=ranks)
    moved: set[str] = set()
    # Best placed first: a robot level at several seats moves once, by its best seat.
    placed = sorted(zip(teams, after, ranks, strict=True), key=lambda t: t[2])
    for team, rated, rank in placed:
        for key, new in zip(team, rated, strict=True):
            row = rows[person[key]]
            if person[key] in moved:
                continue
            moved.add(person[key])
            rows[person[key]] = replace(
                row,
                mu=float(new.mu),
                sigma=float(new.sigma),
                played=row.played + 1,
                won=row.won + (1 if rank == 1.0 and not outcome.draw else 0),
                awards=row.awards + (1 if key in outcome.awarded else 0),
                robot_games=row.robot_games + (1 if robots - {key} else 0),
                name=names[key],
                updated_at=now,
            )
    save_ratings(tx, rows.values())
    return len(rows)


def _new(kind: str, person: str) -> records.Rating:
    """A rating not yet moved: the model's starting figures."""
    return records.Rating(
        kind=kind,
        person=person,
        name="",
        mu=_MODEL.mu,
        sigma=_MODEL.sigma,
        played=0,
        won=0,
        awards=0,
        robot_games=0,
        updated_at=0.0,
    )


def _rated_as(tx: Tx, player: records.Player) -> str:
    """Whose rating a seat moves: its robot level's, else its person's."""
    if player.robot:
        return f"{ROBOT_USER}{player.robot}"
    return person_of(tx, player.platform, player.user_id)


def _shown_as(player: records.Player) -> str:
    """The name a leaderboard shows: a robot's level (``strong robot``), else the seat's."""
    return f"{player.robot} robot" if player.robot else player.name
