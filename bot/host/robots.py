"""Robot seats: a game's host seats robots (``new KIND robots=N``, ``add robot [LEVEL]``,
``fill=robots`` at ``start``) and removes one (``remove robot NAME``, or ``kick``).

A robot's seat is a player row like anyone's, marked with the robot's level
(``Player.robot``) and named for it (``easy-robot-3``: the name every post, picture
and standings show). Its user id begins ``robot:``, which no platform gives a person;
the store writes no message to such an address, so a robot is never sent anything.

A robot acts through the same path as a person: the host asks it, from its own seat's
view only (``game.views.view(state, seat)``), what it would send now, and hands that on
as a message of the seat's, so it is stored, journalled, answered (to nobody) and
replayed by ``bst verify`` like any order. Each such message's id is made of the game,
the turn, its step and the seat: sent once, whatever retries, and a robot that was
refused is not asked again until the game moves on. The host asks between messages,
never on its event loop (see ``Host._robots_play``), as soon as a turn opens: a robot
never holds a deadline back. What a seat has to decide is gathered in a transaction
(:func:`jobs_due`: its view, its key, its seed) and decided after it, wherever the host's
thinker thinks (:mod:`bot.host.thinking`); :func:`orders_of` makes the messages.

``away=robot`` (a host option of ``new``, beside ``away=pass``): while a player is away
(``me away``), the game's robot plays their seat from that seat's view, announced once
a turn naming nobody; the player takes the seat back by sending anything to the game.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from bot.games.base import ROBOT_LEVELS, Game, GameError, GamePhase, PlayerRef
from bot.games.catalog import get_game
from bot.host import away, journal, posts, thinking
from bot.host.new_options import FILL, levels_of
from bot.host.outbox_wire import PostKind
from bot.host.routing import Refusal
from bot.store import NewPlayer, Tx, loads, records
from bot.store.records import ROBOT_USER
from bot.store.robot_seats import games_with_robots, last_sent
from bot.store.settings import away_accounts

MESSAGE_PREFIX = ROBOT_USER
"""How the id of every message a robot sends begins (``robot:12:3:0:p2:0``)."""

VERB = "robot"
"""The word after the host's ``add``/``remove``."""


def seat(
    tx: Tx, game: Game[Any, Any], game_row: records.Game, state: Any, level: str
) -> tuple[Any, records.Player]:
    """Seat a robot of ``level`` in ``game_row``: the game's ``join``, journalled, and its
    player row. Returns the new state (the caller stores it) and the row."""
    number = tx.seats_taken(game_row.id) + 1
    key = f"p{number}"
    name = f"{level}-robot-{number}"
    if name in tx.names_like(game_row.id, name):
        name = f"{name}-{game_row.id}"  # (a person took the name first)
    state = game.rules.join(state, PlayerRef(key, name))
    journal.note(tx, game_row.id, "join", player=key, name=name)
    row = tx.add_player(
        NewPlayer(
            game_id=game_row.id,
            key=key,
            platform=game_row.platform,
            user_id=f"{ROBOT_USER}{game_row.id}:{number}",
            name=name,
            join_order=number,
            robot=level,
        )
    )
    return state, row


def seat_many(
    tx: Tx, game: Game[Any, Any], game_row: records.Game, state: Any, count: int, level: str
) -> tuple[Any, list[str]]:
    """Seat ``count`` robots; returns the state and their names."""
    names = []
    for _ in range(count):
        state, row = seat(tx, game, game_row, state, level)
        names.append(row.name)
    return state, names


def usual_table(game: Game[Any, Any], level: str) -> int:
    """How many players the game's robot plays best with (its ``demo_players``)."""
    robot = game.robot_at(level)
    return robot.demo_players if robot is not None else 0


def fill_option(game_row: records.Game) -> str:
    return str(loads(game_row.options or "{}").get(FILL) or "")


def fill_table(
    tx: Tx, game: Game[Any, Any], game_row: records.Game, state: Any, first: str | None = None
) -> Any:
    """At ``start`` of a game opened with ``fill=robots``: seat robots in the empty seats
    up to the game's usual table. Returns the state (stored on the row). Seats nobody
    when the game could not start with them (a board too small for the table, say): the
    game's refusal is raised first, so a refused ``start`` changes nothing."""
    option = fill_option(game_row)
    if not option or game_row.id is None:
        return state
    level = option.partition(":")[2] or ROBOT_LEVELS[0]
    present = sum(1 for p in tx.players(game_row.id) if _seated(game, state, p))
    missing = usual_table(game, level) - present
    if missing <= 0:
        return state
    trial, taken = state, tx.seats_taken(game_row.id)
    for number in range(taken + 1, taken + missing + 1):
        trial = game.rules.join(trial, PlayerRef(f"p{number}", f"{level}-robot-{number}"))
    # A trial start, thrown away (its draws are not the game's): the real one follows.
    game.rules.start(trial, random.Random(0), first)
    state, _ = seat_many(tx, game, game_row, state, missing, level)
    return state


def _seated(game: Game[Any, Any], state: Any, player: records.Player) -> bool:
    """Whether ``player`` still holds a seat (a game refuses to seat a player twice)."""
    try:
        game.rules.join(state, PlayerRef(player.key, player.name))
    except GameError:
        return True
    return False


def is_robot(player: records.Player | Any) -> bool:
    return bool(getattr(player, "robot", ""))


def find_robot(tx: Tx, game_row: records.Game, name: str) -> records.Player:
    """The robot called ``name`` in the game; refused with the robots' names."""
    robots = [p for p in tx.players(game_row.id) if is_robot(p)]
    for player in robots:
        if player.name.lower() == name.strip().lower():
            return player
    seated = ", ".join(p.name for p in robots) or "none"
    example = robots[0].name if robots else "easy-robot-2"
    raise Refusal(
        f"expected a robot of this game, such as `remove robot {example}` "
        f"(its robots: {seated}); got {name.strip()[:40]!r}"
    )


# --- robots acting -----------------------------------------------------------------


@dataclass(frozen=True)
class RobotOrder:
    """What a robot sends for a seat now: a message of the seat's (see the module
    docstring). ``away``: for an away player (their own identity sends it)."""

    game_id: int
    turn: int
    platform: str
    channel: str
    user_id: str
    name: str
    text: str
    public: bool
    message_id: str
    away: bool = False


@dataclass(frozen=True)
class RobotJob:
    """A robot seat's decision to make now (``job``, thought out anywhere: see
    bot.host.thinking) and where its messages go: ``base`` begins each message's id."""

    job: thinking.Job
    game_id: int
    turn: int
    platform: str
    channel: str
    user_id: str
    name: str
    tag: str
    base: str
    away: bool = False


def games_to_look_at(tx: Tx, *, now: float, game_ids: Collection[int] | None = None) -> list[int]:
    """The games whose robot seats :func:`jobs_due` looks at (``game_ids``: of those
    only; None: the games with robots seated, and those of players away), in order."""
    wanted = set(games_with_robots(tx) if game_ids is None else game_ids)
    if game_ids is None:
        for platform, user_id in away_accounts(tx, now):
            wanted |= {g.id for g in tx.games_of(platform, user_id) if g.id is not None}
    return sorted(wanted)


def jobs_due(tx: Tx, *, now: float, game_ids: Collection[int] | None = None) -> list[RobotJob]:
    """What every robot seat the games wait for has to decide now (``game_ids``: of those
    games only), each from its own seat's view: the robots' seats, and the seats of away
    players in games opened with ``away=robot``. A seat whose first message of this
    moment was sent already is left out, so a refused robot is not asked again (nor
    made to think) until the game moves on."""
    found: list[RobotJob] = []
    for game_row in _games_to_play(tx, games_to_look_at(tx, now=now, game_ids=game_ids), now):
        found += _jobs_in(tx, game_row, now)
    return found


def orders_of(job: RobotJob, thought: thinking.Thought) -> list[RobotOrder]:
    """The messages ``job``'s robot decided (``thought``), as its seat's."""
    return [
        RobotOrder(
            job.game_id, job.turn, job.platform, job.channel, job.user_id, job.name,
            f"{job.tag} {text}" if public else text,
            public, f"{job.base}:{index}", away=job.away,
        )
        for index, (text, public) in enumerate(thought)
    ]  # fmt: skip


def _games_to_play(tx: Tx, game_ids: list[int], now: float) -> list[records.Game]:
    games = []
    for game_id in game_ids:
        game_row = tx.game(game_id)
        if (
            game_row is None
            or game_row.phase not in (GamePhase.SETUP, GamePhase.RUNNING)
            or game_row.paused_remaining is not None
            or not tx.in_clock_scope(game_row)
            or (game_row.deadline is not None and game_row.deadline <= now)
        ):
            continue  # (falling now: an order sent now would count for the next turn)
        games.append(game_row)
    return games


def _jobs_in(tx: Tx, game_row: records.Game, now: float) -> list[RobotJob]:
    game = get_game(game_row.kind)
    players = tx.players(game_row.id)
    seats = {p.key: (p, p.robot) for p in players if p.robot}
    if game_row.phase == GamePhase.RUNNING and away.option_of(game_row) == away.ROBOT:
        gone = away_accounts(tx, now)
        strongest = levels_of(game)[-1:] or [""]
        for p in players:
            if (
                (p.platform, p.user_id) in gone
                and p.key not in seats
                and strongest[0]
                and not _took_back(tx, game_row, p)
            ):
                seats[p.key] = (p, strongest[0])
    if not seats:
        return []
    if game_row.phase == GamePhase.SETUP:
        # Once a setup (options changed: a new setup, sent again), every robot seat.
        moment = f"setup{zlib.crc32(game_row.options.encode()):08x}"
        turn = 0
        waiting = set(seats)
    else:
        moment = f"{game_row.turn}:{tx.next_step(game_row.id, game_row.turn)}"
        turn = game_row.turn
        waiting = set(seats) - set(tx.standing_orders(game_row.id, game_row.turn))
    bases = {key: f"{MESSAGE_PREFIX}{game_row.id}:{moment}:{key}" for key in waiting}
    waiting = {
        key
        for key in waiting
        if game.robot_at(seats[key][1]) is not None
        and not tx.inbound_seen(seats[key][0].platform, f"{bases[key]}:0")
    }
    if not waiting:
        return []  # (decided already: the state is not even read)
    state = game.codec.decode_state(loads(game_row.state))
    if game_row.phase != GamePhase.SETUP:
        waiting &= set(game.rules.to_act(state))
    found = []
    for key in sorted(waiting):
        player, level = seats[key]
        found.append(
            RobotJob(
                thinking.Job(game_row.id, game_row.kind, level, game.views.view(state, key), key,
                             f"{game_row.seed}:{bases[key]}"),
                game_row.id, turn, player.platform, game_row.channel, player.user_id,
                player.account_name or player.name, game.tag, bases[key], away=not player.robot,
            )
        )  # fmt: skip
    return found


def _took_back(tx: Tx, game_row: records.Game, player: Any) -> bool:
    """Whether the away player took their seat back: they sent the game something of
    their own since a robot last played it for them. (A robot plays first: it acts as
    soon as a turn opens.)"""
    own, played = last_sent(tx, game_row.id, player.platform, player.user_id)
    return played > 0 and own >= played


def announce_away(tx: Tx, game_id: int, turn: int, *, now: float) -> None:
    """Once a turn, in public, naming nobody: a robot played a seat of someone away."""
    game_row = tx.game(game_id)
    if game_row is None or game_row.phase != GamePhase.RUNNING:
        return  # (the move ended the game: its end says enough)
    text = (
        f"{posts.title(game_row)}: a robot plays turn {turn} for a player who is away "
        "(this game's `away=robot`); they take their seat back by sending an order."
    )
    posts.announce(tx, game_row, kind=PostKind("away-robot"), text=text, now=now)
