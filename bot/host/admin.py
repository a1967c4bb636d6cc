"""The host's verbs: start, pause, resume, extend, kick, end.

Only a game's host may use them: the player who made the game, an admin listed in
the config, or someone the platform says administers the channel — checked here,
whatever the platform's own permissions say. They act on the game's timers as a
whole (``pause`` holds every one, ``extend`` lengthens every one the game has not
held itself), so they mean the same in every game.
"""

from __future__ import annotations

import re

from bot.games.base import GameError
from bot.games.catalog import get_game
from bot.games.duration import format_duration, humanize, parse_duration
from bot.host import lifecycle, posts
from bot.host.clock import format_utc
from bot.host.context import CommandContext
from bot.host.lobby import change_and_say, refuse_while_paused
from bot.host.posts import Cause
from bot.host.routing import Refusal, player_identity
from bot.store import GameRow, PlayerRow, Tx


def is_host(commands: CommandContext, row: Cause, game_row: GameRow) -> bool:
    who = player_identity(row.platform, row.user_id)
    return who == game_row.creator or who in commands.admins or row.is_channel_admin


def host_command(
    commands: CommandContext, tx: Tx, row: Cause, game_row: GameRow, word: str, rest: str
) -> None:
    game = get_game(game_row.kind)
    if not is_host(commands, row, game_row):
        raise Refusal(
            f"only the game's host can `{word}`: the {game.player_word(1)} who made the "
            "game, or an admin"
        )
    state = commands.states.of(game, game_row)
    now = commands.clock.now()
    assert game_row.id is not None
    if word == "start":
        if game_row.phase != "setup":
            raise Refusal("the game has already started")
        first = _find_player(tx, game_row, rest, game.player_word(1)).key if rest.strip() else None
        lifecycle.start(tx, game, game_row, state, moment=now, now=now, first=first)
        posts.reply(tx, game_row.id, row, f"Game {game_row.id} started.", public=False)
        return
    if game_row.phase == "finished":
        raise Refusal("this game has finished")
    if word == "pause":
        if game_row.paused_remaining is not None:
            raise Refusal("the game is already paused: `resume` to go on")
        if game_row.deadline is None:
            raise Refusal("nothing to pause: no deadline is running")
        left = humanize(parse_duration(f"{int(lifecycle.pause(game_row, now)) or 1}s"))
        tx.save(game_row)
        posts.reply(
            tx, game_row.id, row,
            f"Game {game_row.id} paused with {left} left on the clock. `resume` to go on.",
            public=True,
        )  # fmt: skip
        return
    if word == "resume":
        if game_row.paused_remaining is None:
            raise Refusal("the game is not paused")
        lifecycle.resume(game, game_row, state, now)
        tx.save(game_row)
        closes = "; ".join(
            f"{posts.in_sentence(t['label'])} closes {format_utc(t['deadline'])}"
            for t in posts.running_timers(game_row)
        )
        posts.reply(tx, game_row.id, row, f"Game {game_row.id} resumed: {closes}.", public=True)
        return
    if word == "extend":
        try:
            extra = parse_duration(rest)
        except GameError:
            raise Refusal("expected how long to extend by, such as `extend 2h`") from None
        if game_row.paused_remaining is not None:
            lifecycle.extend(game_row, extra.total_seconds())
            tx.save(game_row)
            posts.reply(
                tx, game_row.id, row,
                f"Extended by {format_duration(extra)} (the game is paused).", public=True,
            )  # fmt: skip
            return
        if game_row.deadline is None:
            raise Refusal("nothing to extend: no deadline is running")
        lifecycle.extend(game_row, extra.total_seconds())
        tx.save(game_row)
        earliest = posts.running_timers(game_row)[0]
        posts.reply(
            tx, game_row.id, row,
            f"{earliest['label']} extended: it now closes {format_utc(earliest['deadline'])}.",
            public=True,
        )  # fmt: skip
        return
    if word == "kick":
        target = _find_player(tx, game_row, rest, game.player_word(1))
        refuse_while_paused(game, game_row, "kick")
        change_and_say(
            tx, game, game_row, state, game.remove(state, target.key), cause="kick", row=row,
            now=now, headline=f"{target.name} was removed from the game by the host.",
        )  # fmt: skip
        if target.platform in commands.room_platforms:
            posts.room_member(tx, game_row, row, target.user_id, present=False, now=now)
        return
    if word == "end":
        change_and_say(
            tx, game, game_row, state, game.finish(state), cause="end", row=row, now=now,
            headline=f"The host ended game {game_row.id}.",
        )  # fmt: skip


def _find_player(tx: Tx, game_row: GameRow, rest: str, word: str) -> PlayerRow:
    assert game_row.id is not None
    wanted = rest.strip()
    mention = re.fullmatch(r"<@!?(\d+)>", wanted)
    for player in tx.players(game_row.id):
        if mention and player.user_id == mention.group(1):
            return player
        if not mention and player.name.lower().lstrip("@") == wanted.lower().lstrip("@"):
            return player
    if not wanted:
        raise Refusal(f"expected which {word}, such as `kick @carol`")
    raise Refusal(f"no {word} called {wanted!r} in this game")
