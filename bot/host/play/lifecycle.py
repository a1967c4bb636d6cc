"""A game's life on the host: start, timers, changes, the end.

Every change to a game's state after setup goes through :func:`commit`: the
change is stored as a step of the game's history (its turn, orders, events and
the state after it, enough to replay the game), the game row takes the new
state and turn, the game's timers are armed as the game now declares them, and
a finished game is closed. Callers hold the game's row lock (the command's or
the turn clock's transaction), so a change happens once.

**Timers.** The game declares, after every change, the timers that run now
(:class:`bot.games.base.Timer`). The row keeps them as JSON, each with its
deadline (running) or its time left (held by the game, or paused by the host);
``games.deadline`` is the earliest running deadline, which is what the clock
looks for. A timer new to the row starts at the moment of the change that
declared it — the deadline that fell, or the order's sending — so a schedule
never drifts however late the host runs. A held timer keeps its time left and runs on from the moment it is
released. ``pause`` holds them all; ``resume`` runs them on from now.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Game, GamePhase, Given, IllegalOrderError, Resolution
from bot.host.outbox import posts
from bot.host.outbox.wire import PostKind
from bot.host.play import ending, journal, ratings, receipts, timers
from bot.host.play.seeds import game_rng, mixed_luck
from bot.host.play.timers import TimerEntry
from bot.host.runtime.clock import format_utc
from bot.host.runtime.collector import collector_paused
from bot.store import GameChange, NewStep, Tx, dumps, loads, records
from bot.store.changes import changed

log = logging.getLogger(__name__)

"""Timers whose key starts with this close setup: the host starts the game when one
falls (and, if the game cannot start yet, asks it what then: ``game.rules.expire``)."""


# --- timers ------------------------------------------------------------------


def timer_entries(game_row: records.Game) -> tuple[TimerEntry, ...]:
    return timers.decode(game_row.timers)


def _entries_change(entries: Sequence[TimerEntry]) -> GameChange:
    """The game's timers become ``entries`` (and its deadline their earliest)."""
    return GameChange(timers=timers.encode(entries), deadline=timers.earliest_deadline(entries))


def arm(
    game: Game[Any, Any], game_row: records.Game, state: Any, *, moment: float, now: float
) -> GameChange:
    """The game's timers made what the game declares now (see the module docstring)."""
    return _armed(
        game, timer_entries(game_row), game_row.paused_remaining is not None, state, moment, now
    )


def first_timers(game: Game[Any, Any], state: Any, *, now: float) -> GameChange:
    """The timers of a game just opened (:func:`arm` of a game that had none)."""
    return _armed(game, (), False, state, now, now)


def store_state(
    tx: Tx,
    game: Game[Any, Any],
    game_row: records.Game,
    state: Any,
    *,
    now: float,
    prior: GameChange = GameChange(),
) -> records.Game:
    """Write a new state of the game that is no step of its history (a join, a seat, a
    placement that moved a clock), with ``prior``, and arm its timers as it declares
    them now. Returns the game as it now reads."""
    armed = arm(game, changed(game_row, prior), state, moment=now, now=now)
    encoded = GameChange(state=dumps(game.codec.encode_state(state)))
    return tx.change_game(game_row, prior.then(encoded).then(armed))


def _armed(
    game: Game[Any, Any],
    previous: Sequence[TimerEntry],
    paused: bool,
    state: Any,
    moment: float,
    now: float,
) -> GameChange:
    declared = game.rules.timers(state)
    return _entries_change(timers.armed(declared, previous, paused=paused, moment=moment, now=now))


def disarm() -> GameChange:
    """No timer runs any more."""
    return _entries_change([]).then(GameChange(paused_remaining=None))


def pause(game_row: records.Game, now: float) -> tuple[GameChange, float]:
    """Every running timer held; and the time left on the earliest."""
    entries, remaining = timers.paused(timer_entries(game_row), now)
    return _entries_change(entries).then(GameChange(paused_remaining=remaining)), remaining


def resume(game: Game[Any, Any], game_row: records.Game, state: Any, now: float) -> GameChange:
    """The held timers run on from now."""
    running = GameChange(paused_remaining=None)
    return running.then(arm(game, changed(game_row, running), state, moment=now, now=now))


def extend(game_row: records.Game, seconds: float) -> GameChange:
    """Lengthen every timer the game has not held itself (running, or paused)."""
    entries = timers.extended(timer_entries(game_row), seconds)
    change = _entries_change(entries)
    if game_row.paused_remaining is not None:
        change = change.then(GameChange(paused_remaining=game_row.paused_remaining + seconds))
    return change


def longest_left(game_row: records.Game, now: float) -> float:
    """Seconds until the farthest timer ``extend`` would lengthen closes (0 if none)."""
    lefts = timers.longest_left(timer_entries(game_row), now)
    if game_row.paused_remaining is not None:
        lefts.append(game_row.paused_remaining)
    return max([0.0, *lefts])


def due_timer(game_row: records.Game, now: float) -> TimerEntry | None:
    """The earliest running timer whose deadline has come, if any."""
    return timers.due(timer_entries(game_row), now)


def drop_timer(game_row: records.Game, key: str) -> GameChange:
    """The timer ``key`` gone from the game's timers."""
    return _entries_change(timers.dropped(timer_entries(game_row), key))


def timer_rng(game_row: records.Game, key: str) -> random.Random:
    """The random source of a timer's expiry: the game's luck and the timer's key
    (``turn:3`` draws as the turn 3 resolution always has)."""
    return game_rng(game_row, *key.split(":"))


# --- the history ---------------------------------------------------------------


def givens(game: Game[Any, Any], orders: list[records.Order]) -> list[Given[Any]]:
    """The orders given in a turn, oldest first, as the game receives them."""
    return [
        Given(
            player=row.player_key,
            order=game.codec.decode_order(loads(row.order)),
            sent_at=row.sent_at,
            sequence=row.id,
        )
        for row in orders
    ]


def commit(
    tx: Tx,
    game: Game[Any, Any],
    game_row: records.Game,
    before: Any,
    resolution: Resolution[Any],
    *,
    cause: str,
    moment: float,
    now: float,
    prior: GameChange = GameChange(),
) -> tuple[records.Game, int, int]:
    """Store a change as a step of the history and apply it to the game (state, turn,
    timers, the end), with ``prior`` (what the caller changed before it). Returns the
    game as it now reads and the step's (turn, step)."""
    stored = game_row
    game_row = changed(game_row, prior)
    turn = game.rules.turn(before)
    step = tx.next_step(game_row.id, turn)
    state = resolution.state
    encoded = dumps(game.codec.encode_state(state))
    change = prior.then(GameChange(state=encoded))
    new_turn = game.rules.turn(state)
    if new_turn != game_row.turn:
        change = change.then(GameChange(turn=new_turn, turn_opened_at=moment))
    if game.rules.outcome(state) is not None:
        change = change.then(disarm()).then(GameChange(phase=GamePhase.FINISHED, finished_at=now))
        # Once: the game ends once.
        ratings.rate_finished(tx, game, changed(stored, change), state, now)
    else:
        change = change.then(arm(game, changed(stored, change), state, moment=moment, now=now))
    game_row = tx.change_game(stored, change)
    tx.add_turn(
        NewStep(
            game_id=game_row.id,
            number=turn,
            step=step,
            cause=cause,
            orders=dumps([dict(order) for order in resolution.orders]),
            events=dumps([event.record() for event in resolution.events]),
            state=encoded,
            resolved_at=moment,  # when it took effect: a late-fired timer counts from its deadline
            deadline=game_row.deadline,
        )
    )
    return game_row, turn, step


def luck_revealed(game_row: records.Game) -> str:
    """What the end post adds for a game of committed luck: the secret, which anyone
    can hash to the commitment of the opening post (then ``bst verify`` the record)."""
    if not game_row.secret:
        return ""
    return f" Luck revealed: the secret was {game_row.secret} (its SHA-256 was committed)."


def players_of(tx: Tx, game_id: int) -> dict[str, records.Player]:
    return {p.key: p for p in tx.players(game_id)}


def report(
    game: Game[Any, Any],
    game_row: records.Game,
    resolution: Resolution[Any],
    *,
    turn: int,
    turn_over: bool,
    names: Mapping[str, str],
) -> str | None:
    """The public post of a change, or None when there is nothing public to say: a
    turn that ended (or the game) always has one; a change within a turn only when
    something public happened."""
    lines = game.words.public_report(resolution.events, names)
    finished = game.rules.outcome(resolution.state) is not None
    if not (turn_over or finished or lines):
        return None
    if turn_over or finished:
        head = [f"{posts.title(game_row)}, {game.words.report_title(turn)}:"]
        lines = lines or [game.words.quiet_report()]
    else:
        head = [f"{posts.title(game_row)}:"]
    result = game.words.result(resolution.state, names)
    tail = [result] if result else [posts.deadlines_text(game_row)]
    return " ".join(part for part in (*head, *lines, *tail) if part)


def record_and_post(
    tx: Tx,
    game: Game[Any, Any],
    game_row: records.Game,
    before: Any,
    resolution: Resolution[Any],
    *,
    cause: str,
    moment: float,
    now: float,
    prior: GameChange = GameChange(),
) -> records.Game:
    """:func:`commit`, then the posts: the public report and picture, the boards of
    the players whose boards changed, the notices, and the replay if the game ended.
    Returns the game as it now reads."""
    previous_turn = game_row.turn
    game_row, turn, step = commit(
        tx, game, game_row, before, resolution, cause=cause, moment=moment, now=now, prior=prior
    )
    players = players_of(tx, game_row.id)
    names = posts.names_of(players.values())
    turn_over = game_row.turn != previous_turn
    text = report(game, game_row, resolution, turn=turn, turn_over=turn_over, names=names)
    proofs: dict[str, str] = {}
    keep: list[str] = []  # (what makes the post checkable survives a platform's cut)
    if text and turn_over and game_row.secret:
        root, proofs = receipts.turn_proofs(
            game_row.secret, game_row.id, turn, tx.standing_orders(game_row.id, turn).values()
        )
        text += root
        keep.append(root)
    if text and game_row.phase == GamePhase.FINISHED:
        text += luck_revealed(game_row)
        keep.append(luck_revealed(game_row))
    # A change within a turn is pictured only where the game says it tells the board's
    # story; the end of a turn and of the game always are.
    ended = game_row.phase == GamePhase.FINISHED
    pictured = turn_over or ended or game.words.pictured(resolution.events)
    posts.publish(
        tx,
        game,
        game_row,
        turn=turn,
        step=step,
        resolution=resolution,
        public_text=text,
        players=players,
        now=now,
        pictured=pictured,
        private_lines=proofs,
        keep=keep,
    )
    if game_row.phase == GamePhase.FINISHED:
        ending.post_end(tx, game, game_row, turn, now)
    return game_row


# --- start --------------------------------------------------------------------


def start(
    tx: Tx,
    game: Game[Any, Any],
    game_row: records.Game,
    state: Any,
    *,
    moment: float,
    now: float,
    first: str | None = None,
    prior: GameChange = GameChange(),
) -> records.Game:
    """Close setup: the game begins (raises IllegalOrderError when it cannot yet), with
    ``prior`` (what the caller changed before). Returns the game as it now reads."""
    stored = game_row
    if game_row.secret:
        # The players' join nonces, which the host could not know when it committed to
        # its secret, go into every draw from here on.
        joined = sorted(tx.players(game_row.id), key=lambda p: p.join_order)
        luck = mixed_luck(game_row.secret, [p.nonce for p in joined if p.nonce])
        prior = prior.then(GameChange(luck=luck))
        game_row = changed(game_row, prior)
    resolution = game.rules.start(state, game_rng(game_row, "start"), first)
    journal.note(tx, game_row.id, "start", first=first, at=moment)
    # The start is step 0 of turn 0; commit moves the game to turn 1.
    prior = prior.then(GameChange(phase=GamePhase.RUNNING, turn=0))
    game_row, _, step = commit(
        tx, game, stored, state, resolution, cause="start", moment=moment, now=now, prior=prior
    )
    players = players_of(tx, game_row.id)
    names = posts.names_of(players.values())
    parts = (
        f"{posts.title(game_row)}: {game.words.beginning(resolution.state, names)}",
        posts.deadlines_text(game_row),
        game.words.hint(resolution.state),
    )
    posts.publish(
        tx,
        game,
        game_row,
        turn=0,
        step=step,
        resolution=resolution,
        public_text=" ".join(part for part in parts if part),
        players=players,
        now=now,
    )
    if game_row.phase == GamePhase.FINISHED:
        ending.post_end(tx, game, game_row, 0, now)
    return game_row


def close_setup(
    tx: Tx, game: Game[Any, Any], game_row: records.Game, state: Any, key: str, *, now: float
) -> records.Game:
    """A setup timer fell: start, or (when the game cannot start yet) let the game say
    what happens instead — typically another window — and say it in public."""
    fell_at = game_row.deadline if game_row.deadline is not None else now
    try:
        # Turn 1 starts when setup closed, at its deadline (no drift), and everything
        # the start writes is dated then.
        return start(tx, game, game_row, state, moment=fell_at, now=fell_at)
    except IllegalOrderError:
        pass
    if tx.seats_taken(game_row.id) == 0:
        # Nobody ever joined: the game is cancelled rather than opening window after
        # window (each one a post) for no one.
        cancelled = game.rules.finish(state)
        journal.note(tx, game_row.id, "finish", cause="cancelled", at=fell_at)
        game_row, _ = change(tx, game, game_row, state, cancelled, cause="cancelled", now=fell_at)
        posts.announce(
            tx,
            game_row,
            kind=PostKind("cancelled"),
            text=f"{posts.title(game_row)}: nobody joined before setup closed, so the game "
            "is cancelled. Open another with `new` when players are around.",
            now=fell_at,
        )
        return game_row
    dropped = drop_timer(game_row, key)
    resolution = game.rules.expire(state, key, (), timer_rng(game_row, key))
    journal.note(tx, game_row.id, "expire", timer=key)
    armed = arm(game, changed(game_row, dropped), resolution.state, moment=fell_at, now=now)
    new_state = GameChange(state=dumps(game.codec.encode_state(resolution.state)))
    game_row = tx.change_game(game_row, dropped.then(new_state).then(armed))
    for index, notice in enumerate(resolution.notices):
        if notice.to is None:
            posts.announce(
                tx,
                game_row,
                kind=PostKind.of("setup-extended", int(game_row.deadline or now), index)
                if index
                else PostKind.of("setup-extended", int(game_row.deadline or now)),
                text=f"{posts.title(game_row)}: {notice.text}",
                now=now,
            )
    return game_row


def fire(
    tx: Tx,
    game: Game[Any, Any],
    game_row: records.Game,
    state: Any,
    timer: TimerEntry,
    *,
    now: float,
) -> records.Game:
    """A timer fell: the game applies its timeout, and the change is stored and posted.
    Returns the game as it now reads."""
    key = timer.key
    fell_at = float(timer.deadline if timer.deadline is not None else now)
    if game_row.phase == GamePhase.SETUP:
        return close_setup(tx, game, game_row, state, key, now=now)
    dropped = drop_timer(game_row, key)  # a timer falls once: declared again, it is a new one
    given = givens(game, tx.orders_of_turn(game_row.id, game_row.turn))
    with collector_paused():
        resolution = game.rules.expire(state, key, given, timer_rng(game_row, key))
    journal.note(tx, game_row.id, "expire", timer=key, at=fell_at)
    game_row = record_and_post(
        tx, game, game_row, state, resolution,
        cause=f"timer:{key}", moment=fell_at, now=now, prior=dropped,
    )  # fmt: skip
    log.info("game %s: %s fell (%s)", game_row.id, key, format_utc(fell_at))
    return game_row


def resolve_now(
    tx: Tx, game: Game[Any, Any], game_row: records.Game, state: Any, *, moment: float, now: float
) -> records.Game:
    """An order completed its turn: resolve it in the same transaction as the order.
    Returns the game as it now reads."""
    given = givens(game, tx.orders_of_turn(game_row.id, game_row.turn))
    rng = game_rng(game_row, "turn", game_row.turn)
    resolution = game.rules.resolve(state, given, rng)
    journal.note(tx, game_row.id, "resolve", draw=["turn", game_row.turn], at=moment)
    return record_and_post(
        tx, game, game_row, state, resolution, cause="turn", moment=moment, now=now
    )


def change(
    tx: Tx,
    game: Game[Any, Any],
    game_row: records.Game,
    before: Any,
    resolution: Resolution[Any],
    *,
    cause: str,
    now: float,
) -> tuple[records.Game, int | None]:
    """A change the host makes between deadlines (a player leaves, the host kicks
    one or ends the game): stored as a step when it did something the record shows,
    and the game closed when it is over. Returns the game as it now reads and, when a
    game that had begun is over, the turn whose replay the caller posts (after saying
    what happened)."""
    began = game_row.phase == GamePhase.RUNNING
    replay_turn = max(0, game_row.turn - 1)
    ends_turn = (
        began
        and game.rules.outcome(resolution.state) is None
        and (game.rules.turn(resolution.state) != game.rules.turn(before))
    )
    if ends_turn:
        # The change closed the turn in progress (the player to move left): it is posted
        # as any turn's end is, with its report, the boards and the next deadline.
        game_row = record_and_post(
            tx, game, game_row, before, resolution, cause=cause, moment=now, now=now
        )
    elif began and (resolution.events or resolution.orders):
        game_row, _, _ = commit(
            tx, game, game_row, before, resolution, cause=cause, moment=now, now=now
        )
    else:
        change = GameChange(state=dumps(game.codec.encode_state(resolution.state)))
        if game.rules.outcome(resolution.state) is not None:
            change = change.then(disarm())
            change = change.then(GameChange(phase=GamePhase.FINISHED, finished_at=now))
            if began:  # a game that never started is cancelled: nobody played it
                ratings.rate_finished(tx, game, changed(game_row, change), resolution.state, now)
        else:
            change = change.then(arm(game, game_row, resolution.state, moment=now, now=now))
        game_row = tx.change_game(game_row, change)
    replay = replay_turn if began and game_row.phase == GamePhase.FINISHED else None
    return game_row, replay
