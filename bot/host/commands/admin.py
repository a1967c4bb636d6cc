"""The host's verbs: start, options, pause, resume, extend, kick, replace, end.

Only a game's host may use them: the player who made the game, an admin listed in
the config, or someone the platform says administers the channel — checked here,
whatever the platform's own permissions say. They act on the game's timers as a
whole (``pause`` holds every one, ``extend`` lengthens every one the game has not
held itself), so they mean the same in every game.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from bot.games.base import GameError, GamePhase, PlayerRef
from bot.games.catalog import get_game
from bot.games.duration import LONGEST, format_duration, humanize, parse_duration
from bot.host.commands import bridges, substitutes
from bot.host.commands.context import CommandContext
from bot.host.commands.lobby import change_and_say, check_clocks, option_pairs, refuse_while_paused
from bot.host.commands.new_options import STORED, host_options, parse_level
from bot.host.commands.routing import Refusal, row_community
from bot.host.commands.verb_call import VerbCall
from bot.host.outbox import posts
from bot.host.outbox.posts import Cause
from bot.host.play import journal, lifecycle, robots
from bot.host.runtime.clock import format_utc
from bot.store import GameChange, Tx, dumps, loads, records
from bot.store.rooms import room


def is_host(commands: CommandContext, tx: Tx, row: Cause, game_row: records.Game) -> bool:
    """The game's creator (from any account linked to theirs), an admin of the bot, or
    someone the platform says runs the channel — the game's own channel: a room a game is
    also played from (``bridge``) gives its admins no say over the game, on any platform,
    the game's own included."""
    if row.is_channel_admin and _in_the_games_own_place(tx, row, game_row):
        return True
    return bridges.hosts(commands, tx, row, game_row)


def _in_the_games_own_place(tx: Tx, row: Cause, game_row: records.Game) -> bool:
    """Sent on the game's platform, in its community, and not from a room it was bridged
    into (whose admins are another room's)."""
    return (
        row.platform == game_row.platform
        and row_community(row) == game_row.community
        and room(tx, row.platform, row.channel) is None
    )


# One use of a host's verb (the dispatch in bot.host.commands.verbs checks who asks, and whether
# the game has finished).
HostCall = VerbCall


def refuse_a_non_host(
    commands: CommandContext, tx: Tx, row: Cause, game_row: records.Game, word: str
) -> None:
    if not is_host(commands, tx, row, game_row):
        game = get_game(game_row.kind)
        raise Refusal(
            f"only the game's host can `{word}`: the {game.words.player_word(1)} who made the "
            "game, or an admin"
        )


def start(call: HostCall) -> None:
    """``start [FIRST]``: setup closes, robots fill the empty seats, the clocks run."""
    commands, tx, row, game, game_row = call.commands, call.tx, call.row, call.game, call.game_row
    state, now, rest = call.state, call.now, call.rest
    if game_row.phase != GamePhase.SETUP:
        raise Refusal("the game has already started: `status` shows where it stands")
    first = (
        _find_player(tx, game_row, rest, game.words.player_word(1)).key if rest.strip() else None
    )
    filled = robots.fill_table(tx, game, game_row, state)
    if filled is not state:
        state = filled
        encoded = dumps(game.codec.encode_state(state))
        game_row = tx.change_game(game_row, GameChange(state=encoded))
        commands.states.remember(game_row.id, game_row.state_digest, state)
    lifecycle.start(tx, game, game_row, state, moment=now, now=now, first=first)
    posts.reply(tx, game_row.id, row, f"Game {game_row.id} started.", public=False)


def pause(call: HostCall) -> None:
    """``pause``: every clock of the game holds."""
    tx, row, game_row, now = call.tx, call.row, call.game_row, call.now
    if game_row.paused_remaining is not None:
        raise Refusal("the game is already paused: `resume` to go on")
    if game_row.deadline is None:
        raise Refusal("nothing to pause: no deadline is running (`status` shows the game's clocks)")
    paused, remaining = lifecycle.pause(game_row, now)
    game_row = tx.change_game(game_row, paused)
    left = humanize(timedelta(seconds=max(1, int(remaining))))
    posts.reply(
        tx, game_row.id, row,
        f"Game {game_row.id} paused with {left} left on the clock. `resume` to go on.",
        public=True,
    )  # fmt: skip


def resume(call: HostCall) -> None:
    """``resume``: the held clocks run again."""
    game = call.game
    tx, row, game_row = call.tx, call.row, call.game_row
    state, now = call.state, call.now
    if game_row.paused_remaining is None:
        raise Refusal("the game is not paused")
    game_row = tx.change_game(game_row, lifecycle.resume(game, game_row, state, now))
    closes = "; ".join(
        f"{posts.in_sentence(t.label)} closes {format_utc(t.deadline or 0.0)}"
        for t in posts.running_timers(game_row)
    )
    posts.reply(tx, game_row.id, row, f"Game {game_row.id} resumed: {closes}.", public=True)


def extend(call: HostCall) -> None:
    """``extend DURATION``: every running clock the game has not held itself, longer."""
    tx, row, game_row = call.tx, call.row, call.game_row
    now, rest = call.now, call.rest
    try:
        extra = parse_duration(rest)
    except GameError as error:
        raise Refusal(
            f"expected how long to extend by, such as `extend 2h`: {error.message}"
        ) from None
    running = lifecycle.longest_left(game_row, now)
    if running + extra.total_seconds() > LONGEST.total_seconds():
        # Extend after extend must not push a deadline past any date (nor a year).
        room = max(0, int(LONGEST.total_seconds() - running))
        raise Refusal(
            f"a clock runs at most {format_duration(LONGEST)}; this game's has "
            f"{humanize(timedelta(seconds=running))} left, so it can be extended by at most "
            f"{format_duration(timedelta(seconds=room))}, such as `extend 2h`"
        )
    if game_row.paused_remaining is not None:
        game_row = tx.change_game(game_row, lifecycle.extend(game_row, extra.total_seconds()))
        posts.reply(
            tx, game_row.id, row,
            f"Extended by {format_duration(extra)} (the game is paused).", public=True,
        )  # fmt: skip
        return
    if game_row.deadline is None:
        raise Refusal(
            "nothing to extend: no deadline is running (`status` shows the game's clocks)"
        )
    game_row = tx.change_game(game_row, lifecycle.extend(game_row, extra.total_seconds()))
    earliest = posts.running_timers(game_row)[0]
    posts.reply(
        tx, game_row.id, row,
        f"{earliest.label} extended: it now closes {format_utc(earliest.deadline or 0.0)}.",
        public=True,
    )  # fmt: skip


def kick(call: HostCall) -> None:
    """``kick PLAYER``: the player leaves the game, by the host's hand."""
    commands, tx, row, game, game_row = call.commands, call.tx, call.row, call.game, call.game_row
    state, now, rest = call.state, call.now, call.rest
    target = _find_player(tx, game_row, rest, game.words.player_word(1))
    refuse_while_paused(game, game_row, "kick")
    removed = game.rules.remove(state, target.key)
    journal.note(tx, game_row.id, "remove", player=target.key, cause="kick", at=now)
    change_and_say(
        tx, game, game_row, state, removed, cause="kick", row=row,
        now=now, headline=f"{target.name} was removed from the game by the host.",
    )  # fmt: skip
    if target.platform in commands.room_platforms:
        posts.room_member(tx, game_row, row, target.user_id, present=False, now=now)


def replace(call: HostCall) -> None:
    """``replace PLAYER SUBSTITUTE``: see bot.host.commands.substitutes."""
    commands, tx, row, game, game_row = call.commands, call.tx, call.row, call.game, call.game_row
    state, now, rest = call.state, call.now, call.rest
    substitutes.replace(
        commands, tx, row, game_row, game, state, rest,
        lambda name: _find_player(tx, game_row, name, game.words.player_word(1)), now=now,
    )  # fmt: skip


def end(call: HostCall) -> None:
    """``end``: the game finishes now (cancelled, unrated, if nobody played)."""
    game = call.game
    tx, row, game_row = call.tx, call.row, call.game_row
    state, now = call.state, call.now
    ended = game.rules.finish(state)
    journal.note(tx, game_row.id, "finish", cause="end", at=now)
    if not tx.players(game_row.id) or game_row.phase == GamePhase.SETUP:
        # Nobody played: there is no result to give (a draw between no one is none),
        # and a game that never started is cancelled, unrated (lifecycle.change).
        why = "it never started" if tx.players(game_row.id) else "nobody had joined"
        change_and_say(
            tx, game, game_row, state, ended, cause="end", row=row, now=now,
            headline=f"The host cancelled game {game_row.id}: {why}.",
            with_result=False,
        )  # fmt: skip
        return
    change_and_say(
        tx, game, game_row, state, ended, cause="end", row=row, now=now,
        headline=f"The host ended game {game_row.id}.",
    )  # fmt: skip


def add_robot(call: HostCall) -> None:
    """``add robot [LEVEL]``, in setup: a robot takes a seat (see bot.host.play.robots)."""
    argument = _robot_named(call, "add robot")
    game, game_row, tx = call.game, call.game_row, call.tx
    level = parse_level(game, argument, "add robot")
    state, player = robots.seat(tx, game, game_row, call.state, level)
    game_row = lifecycle.store_state(tx, game, game_row, state, now=call.now)
    call.commands.states.remember(game_row.id, game_row.state_digest, state)
    posts.reply(
        tx, game_row.id, call.row,
        f"{player.name} (a robot, level {level}) takes a seat in {posts.title(game_row)}.",
        public=True,
    )  # fmt: skip


def remove_robot(call: HostCall) -> None:
    """``remove robot NAME``, in setup: the robot's seat is taken back."""
    argument = _robot_named(call, "remove robot easy-robot-2")
    game, game_row, tx, state = call.game, call.game_row, call.tx, call.state
    target = robots.find_robot(tx, game_row, argument)
    removed = game.rules.remove(state, target.key)
    journal.note(tx, game_row.id, "remove", player=target.key, cause="kick", at=call.now)
    change_and_say(
        tx, game, game_row, state, removed, cause="kick", row=call.row,
        now=call.now, headline=f"{target.name} was removed from the game by the host.",
    )  # fmt: skip


def _robot_named(call: HostCall, example: str) -> str:
    """What follows ``robot`` in ``add robot …`` / ``remove robot …``, in setup."""
    what, _, argument = call.rest.strip().partition(" ")
    if what.lower() != robots.VERB:
        raise Refusal(f"expected `{example}`; got `{call.word} {call.rest.strip()[:40]}`")
    if call.game_row.phase != GamePhase.SETUP:
        raise Refusal(f"robots are seated and removed in setup, before `start`: not `{call.word}`")
    return argument


def change_options(call: HostCall) -> None:
    """``options key=value …``."""
    _change_options(
        call.commands, call.tx, call.row, call.game, call.game_row, call.state,
        call.rest, call.now,
    )  # fmt: skip


def _change_options(
    commands: CommandContext,
    tx: Tx,
    row: Cause,
    game: Any,
    game_row: records.Game,
    state: Any,
    rest: str,
    now: float,
) -> None:
    """``options key=value …`` in setup: the game is made again with the options changed
    (after a refused ``start``, say), every player still in it. What they sent in setup
    went with the old game: they send it again."""
    if game_row.phase != GamePhase.SETUP:
        raise Refusal("options change only in setup, before `start`")
    stored = loads(game_row.options)
    changes = option_pairs(game, rest.split(), "options")
    if not changes:
        now_set = " ".join(f"{k}={v}" for k, v in game.rules.options(state).items())
        raise Refusal(f"expected options to change as key=value, such as `options {now_set}`")
    if "seed" in changes:
        raise Refusal("the seed is set when the game is opened: `new` with seed=…")
    check_clocks(commands, game, changes)
    table = host_options(game)
    for key in STORED:  # (the host's options kept with the game's: read with their table)
        if key in changes:
            changes[key] = table.get(key).parse(changes[key])
    options = {key: value for key, value in {**stored, **changes}.items() if key != "seed"}
    # The host's own options are not the game's.
    rules_options = {k: v for k, v in options.items() if k not in STORED}
    fresh = game.rules.new_game(rules_options)
    journal.note(tx, game_row.id, "new", options=rules_options)
    for player in tx.players(game_row.id):
        # In join order, as they came; one who left during setup leaves again (records
        # list everyone who joined).
        ref = PlayerRef(player.key, player.name)
        seated = _seated(game, state, ref)
        fresh = game.rules.join(fresh, ref)
        journal.note(tx, game_row.id, "join", player=ref.id, name=ref.name)
        if not seated:
            fresh = game.rules.remove(fresh, ref.id).state
            journal.note(tx, game_row.id, "remove", player=ref.id, cause="leave")
    seed = {"seed": stored["seed"]} if "seed" in stored else {}
    new_options = GameChange(options=dumps({**options, **seed}))
    game_row = lifecycle.store_state(tx, game, game_row, fresh, now=now, prior=new_options)
    commands.states.remember(game_row.id, game_row.state_digest, fresh)
    said = " ".join(f"{key}={value}" for key, value in changes.items())
    posts.reply(
        tx,
        game_row.id,
        row,
        f"The host changed the options ({said}): {posts.title(game_row)} {game.words.opening(fresh)} "
        "Everyone who joined is still in; anything sent during setup must be sent again.",
        public=True,
    )


def _seated(game: Any, state: Any, player: PlayerRef) -> bool:
    """Whether ``player`` holds a seat in the setup ``state``: a game refuses to seat a
    player twice, and takes back one who left during setup."""
    try:
        game.rules.join(state, player)
    except GameError:
        return True
    return False


def _find_player(tx: Tx, game_row: records.Game, rest: str, word: str) -> records.Player:
    wanted = rest.strip()
    mention = re.fullmatch(r"<@!?(\d+)>", wanted)
    for player in tx.players(game_row.id):
        if mention and player.user_id == mention.group(1):
            return player
        if not mention and player.name.lower().lstrip("@") == wanted.lower().lstrip("@"):
            return player
    if not wanted:
        raise Refusal(f"expected which {word}, such as `kick @carol`")
    shown = wanted if len(wanted) <= 40 else wanted[:40] + "…"
    raise Refusal(
        f"no {word} called {shown!r} in this game: name one as `status` lists them, "
        "such as `@carol`"
    )
