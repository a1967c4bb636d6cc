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
from bot.host import ending, journal, posts, ratings, receipts, timers
from bot.host.clock import format_utc
from bot.host.collector import collector_paused
from bot.host.outbox_wire import PostKind
from bot.host.seeds import game_rng, mixed_luck
from bot.host.timers import TimerEntry
from bot.store import GameRow, OrderRow, PlayerRow, TurnRow, Tx, dumps, loads

log = logging.getLogger(__name__)

"""Timers whose key starts with this close setup: the host starts the game when one
falls (and, if the game cannot start yet, asks it what then: ``game.rules.expire``)."""


# --- timers ------------------------------------------------------------------


def timer_entries(game_row: GameRow) -> tuple[TimerEntry, ...]:
    return timers.decode(game_row.timers)


def _save_entries(game_row: GameRow, entries: Sequence[TimerEntry]) -> None:
    game_row.timers = timers.encode(entries)
    game_row.deadline = timers.earliest_deadline(entries)


def arm(game: Game[Any, Any], game_row: GameRow, state: Any, *, moment: float, now: float) -> None:
    """Make the row's timers what the game declares now (see the module docstring)."""
    entries = timers.armed(
        game.rules.timers(state),
        timer_entries(game_row),
        paused=game_row.paused_remaining is not None,
        moment=moment,
        now=now,
    )
    _save_entries(game_row, entries)


def disarm(game_row: GameRow) -> None:
    _save_entries(game_row, [])
    game_row.paused_remaining = None


def pause(game_row: GameRow, now: float) -> float:
    """Hold every running timer; returns the time left on the earliest."""
    entries, left = timers.paused(timer_entries(game_row), now)
    game_row.paused_remaining = left
    _save_entries(game_row, entries)
    return left


def resume(game: Game[Any, Any], game_row: GameRow, state: Any, now: float) -> None:
    game_row.paused_remaining = None
    arm(game, game_row, state, moment=now, now=now)


def extend(game_row: GameRow, seconds: float) -> None:
    """Lengthen every timer the game has not held itself (running, or paused)."""
    entries = timers.extended(timer_entries(game_row), seconds)
    if game_row.paused_remaining is not None:
        game_row.paused_remaining += seconds
    _save_entries(game_row, entries)


def longest_left(game_row: GameRow, now: float) -> float:
    """Seconds until the farthest timer ``extend`` would lengthen closes (0 if none)."""
    lefts = timers.longest_left(timer_entries(game_row), now)
    if game_row.paused_remaining is not None:
        lefts.append(game_row.paused_remaining)
    return max([0.0, *lefts])


def due_timer(game_row: GameRow, now: float) -> TimerEntry | None:
    """The earliest running timer whose deadline has come, if any."""
    return timers.due(timer_entries(game_row), now)


def drop_timer(game_row: GameRow, key: str) -> None:
    _save_entries(game_row, timers.dropped(timer_entries(game_row), key))


def timer_rng(game_row: GameRow, key: str) -> random.Random:
    """The random source of a timer's expiry: the game's luck and the timer's key
    (``turn:3`` draws as the turn 3 resolution always has)."""
    return game_rng(game_row, *key.split(":"))


# --- the history ---------------------------------------------------------------


def givens(game: Game[Any, Any], orders: list[OrderRow]) -> list[Given[Any]]:
    """The orders given in a turn, oldest first, as the game receives them."""
    return [
        Given(
            player=row.player_key,
            order=game.codec.decode_order(loads(row.order)),
            sent_at=row.sent_at,
            sequence=row.id or 0,
        )
        for row in orders
    ]


def commit(
    tx: Tx,
    game: Game[Any, Any],
    game_row: GameRow,
    before: Any,
    resolution: Resolution[Any],
    *,
    cause: str,
    moment: float,
    now: float,
) -> tuple[int, int]:
    """Store a change as a step of the history and apply it to the game row (state,
    turn, timers, the end). Returns the step's (turn, step)."""
    assert game_row.id is not None
    turn = game.rules.turn(before)
    step = tx.next_step(game_row.id, turn)
    state = resolution.state
    game_row.state = dumps(game.codec.encode_state(state))
    new_turn = game.rules.turn(state)
    if new_turn != game_row.turn:
        game_row.turn = new_turn
        game_row.turn_opened_at = moment
    if game.rules.outcome(state) is not None:
        disarm(game_row)
        game_row.phase = GamePhase.FINISHED
        game_row.finished_at = now
        ratings.rate_finished(tx, game, game_row, state, now)  # once: the game ends once
    else:
        arm(game, game_row, state, moment=moment, now=now)
    tx.save(game_row)
    tx.add_turn(
        TurnRow(
            game_id=game_row.id,
            number=turn,
            step=step,
            cause=cause,
            orders=dumps([dict(order) for order in resolution.orders]),
            events=dumps([event.record() for event in resolution.events]),
            state=game_row.state,
            resolved_at=moment,  # when it took effect: a late-fired timer counts from its deadline
            deadline=game_row.deadline,
        )
    )
    return turn, step


def luck_revealed(game_row: GameRow) -> str:
    """What the end post adds for a game of committed luck: the secret, which anyone
    can hash to the commitment of the opening post (then ``bst verify`` the record)."""
    if not game_row.secret:
        return ""
    return f" Luck revealed: the secret was {game_row.secret} (its SHA-256 was committed)."


def players_of(tx: Tx, game_id: int) -> dict[str, PlayerRow]:
    return {p.key: p for p in tx.players(game_id)}


def report(
    game: Game[Any, Any],
    game_row: GameRow,
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
    game_row: GameRow,
    before: Any,
    resolution: Resolution[Any],
    *,
    cause: str,
    moment: float,
    now: float,
) -> tuple[int, int]:
    """:func:`commit`, then the posts: the public report and picture, the boards of
    the players whose boards changed, the notices, and the replay if the game ended."""
    assert game_row.id is not None
    previous_turn = game_row.turn
    turn, step = commit(tx, game, game_row, before, resolution, cause=cause, moment=moment, now=now)
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
    return turn, step


# --- start --------------------------------------------------------------------


def start(
    tx: Tx,
    game: Game[Any, Any],
    game_row: GameRow,
    state: Any,
    *,
    moment: float,
    now: float,
    first: str | None = None,
) -> None:
    """Close setup: the game begins (raises IllegalOrderError when it cannot yet)."""
    assert game_row.id is not None
    if game_row.secret:
        # The players' join nonces, which the host could not know when it committed to
        # its secret, go into every draw from here on.
        joined = sorted(tx.players(game_row.id), key=lambda p: p.join_order)
        game_row.luck = mixed_luck(game_row.secret, [p.nonce for p in joined if p.nonce])
    resolution = game.rules.start(state, game_rng(game_row, "start"), first)
    journal.note(tx, game_row.id, "start", first=first, at=moment)
    game_row.phase = GamePhase.RUNNING
    game_row.turn = 0  # the start is step 0 of turn 0; commit moves the row to turn 1
    _, step = commit(tx, game, game_row, state, resolution, cause="start", moment=moment, now=now)
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


def close_setup(
    tx: Tx, game: Game[Any, Any], game_row: GameRow, state: Any, key: str, *, now: float
) -> None:
    """A setup timer fell: start, or (when the game cannot start yet) let the game say
    what happens instead — typically another window — and say it in public."""
    fell_at = game_row.deadline if game_row.deadline is not None else now
    try:
        # Turn 1 starts when setup closed, at its deadline (no drift), and everything
        # the start writes is dated then.
        start(tx, game, game_row, state, moment=fell_at, now=fell_at)
        return
    except IllegalOrderError:
        pass
    assert game_row.id is not None
    if tx.seats_taken(game_row.id) == 0:
        # Nobody ever joined: the game is cancelled rather than opening window after
        # window (each one a post) for no one.
        cancelled = game.rules.finish(state)
        journal.note(tx, game_row.id, "finish", cause="cancelled", at=fell_at)
        change(tx, game, game_row, state, cancelled, cause="cancelled", now=fell_at)
        posts.announce(
            tx,
            game_row,
            kind=PostKind("cancelled"),
            text=f"{posts.title(game_row)}: nobody joined before setup closed, so the game "
            "is cancelled. Open another with `new` when players are around.",
            now=fell_at,
        )
        return
    drop_timer(game_row, key)
    resolution = game.rules.expire(state, key, (), timer_rng(game_row, key))
    journal.note(tx, game_row.id, "expire", timer=key)
    game_row.state = dumps(game.codec.encode_state(resolution.state))
    arm(game, game_row, resolution.state, moment=fell_at, now=now)
    tx.save(game_row)
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


def fire(
    tx: Tx,
    game: Game[Any, Any],
    game_row: GameRow,
    state: Any,
    timer: TimerEntry,
    *,
    now: float,
) -> None:
    """A timer fell: the game applies its timeout, and the change is stored and posted."""
    assert game_row.id is not None
    key = timer.key
    fell_at = float(timer.deadline if timer.deadline is not None else now)
    if game_row.phase == GamePhase.SETUP:
        close_setup(tx, game, game_row, state, key, now=now)
        return
    drop_timer(game_row, key)  # a timer falls once: declared again, it is a new one
    given = givens(game, tx.orders_of_turn(game_row.id, game_row.turn))
    with collector_paused():
        resolution = game.rules.expire(state, key, given, timer_rng(game_row, key))
    journal.note(tx, game_row.id, "expire", timer=key, at=fell_at)
    record_and_post(
        tx, game, game_row, state, resolution, cause=f"timer:{key}", moment=fell_at, now=now
    )
    log.info("game %s: %s fell (%s)", game_row.id, key, format_utc(fell_at))


def resolve_now(
    tx: Tx, game: Game[Any, Any], game_row: GameRow, state: Any, *, moment: float, now: float
) -> None:
    """An order completed its turn: resolve it in the same transaction as the order."""
    assert game_row.id is not None
    given = givens(game, tx.orders_of_turn(game_row.id, game_row.turn))
    rng = game_rng(game_row, "turn", game_row.turn)
    resolution = game.rules.resolve(state, given, rng)
    journal.note(tx, game_row.id, "resolve", draw=["turn", game_row.turn], at=moment)
    record_and_post(tx, game, game_row, state, resolution, cause="turn", moment=moment, now=now)


def change(
    tx: Tx,
    game: Game[Any, Any],
    game_row: GameRow,
    before: Any,
    resolution: Resolution[Any],
    *,
    cause: str,
    now: float,
) -> int | None:
    """A change the host makes between deadlines (a player leaves, the host kicks
    one or ends the game): stored as a step when it did something the record shows,
    and the game closed when it is over. Returns the turn whose replay the caller
    posts (after saying what happened) when a game that had begun is over."""
    assert game_row.id is not None
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
        record_and_post(tx, game, game_row, before, resolution, cause=cause, moment=now, now=now)
    elif began and (resolution.events or resolution.orders):
        commit(tx, game, game_row, before, resolution, cause=cause, moment=now, now=now)
    else:
        game_row.state = dumps(game.codec.encode_state(resolution.state))
        if game.rules.outcome(resolution.state) is not None:
            disarm(game_row)
            game_row.phase = GamePhase.FINISHED
            game_row.finished_at = now
            if began:  # a game that never started is cancelled: nobody played it
                ratings.rate_finished(tx, game, game_row, resolution.state, now)
        else:
            arm(game, game_row, resolution.state, moment=now, now=now)
        tx.save(game_row)
    return replay_turn if began and game_row.phase == GamePhase.FINISHED else None
