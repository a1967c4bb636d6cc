"""What a player's ``me away`` means in a game: the game's ``away`` option, the host's
choice when opening it (``new KIND away=12h`` or ``new KIND away=pass``).

Without it (the default), away changes nothing: the game goes on as today. With
``away=N``, a turn (any running clock: a simultaneous turn, or one player's move time)
that falls while a player it waits for is away, and has no order from them, waits for
them, up to N and no longer than until they are back. At most once a turn: the
extension is announced in public, and that announcement, an outbox row keyed by
(game, turn, "away"), is what makes it once, even when the fall is retried. It names
nobody (who is away is theirs to tell) and says nothing the public status does not.

With ``away=pass`` (only in a game that reads ``pass`` as one of its orders: the game
says what it means there), whenever the game waits for an away player who has no order
in and ``pass`` is an order the game takes from them now, the host sends ``pass`` for
them: the game's own order, through the same path as any player's (stored, counted,
acknowledged to them), so the record replays from it. Each is a message of its own
with an id made of the game, turn, step and seat: sent once, whatever retries. It is
announced once a turn, naming nobody.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from bot.games.base import Channel, Game, GameError, GamePhase
from bot.games.catalog import get_game
from bot.games.duration import humanize, parse_duration
from bot.host.commands.new_options import AWAY
from bot.host.commands.new_options import PASS as PASS
from bot.host.commands.new_options import ROBOT as ROBOT
from bot.host.outbox import posts
from bot.host.outbox.wire import PostKind
from bot.host.play import lifecycle
from bot.host.play.timers import TimerEntry
from bot.host.runtime.clock import format_utc
from bot.store import Tx, loads, records
from bot.store.settings import away_accounts


def option_of(game_row: records.Game) -> str:
    return str(loads(game_row.options or "{}").get(AWAY) or "")


def wait_of(game_row: records.Game) -> float:
    """How long, in seconds, a turn of this game waits for away players (0: not at all)."""
    value = option_of(game_row)
    return parse_duration(value).total_seconds() if value and value not in (PASS, ROBOT) else 0.0


@dataclass(frozen=True)
class AwayPass:
    """A ``pass`` the host sends for a player who is away (see the module docstring)."""

    game_id: int
    turn: int
    platform: str
    channel: str
    user_id: str
    name: str
    message_id: str


def passes_due(tx: Tx, *, now: float) -> list[AwayPass]:
    """The passes to send now: for each away player, in each of their games opened with
    ``away=pass``, that waits for them and has no order from them, where the game takes
    ``pass`` from them now (asked of the game itself, which is pure: nothing changes)."""
    away = away_accounts(tx, now)
    found: list[AwayPass] = []
    seen: set[int] = set()
    for platform, user_id in away:
        for game_row in tx.games_of(platform, user_id):
            game_id = game_row.id
            if (
                game_id is None
                or game_row.phase != GamePhase.RUNNING
                or option_of(game_row) != PASS
            ):
                continue
            if game_row.paused_remaining is not None or game_id in seen:
                continue
            if not tx.in_clock_scope(game_row):
                continue
            if game_row.deadline is not None and game_row.deadline <= now:
                continue  # falling now: a pass sent now would count for the next turn
            seen.add(game_id)
            found += _passes_in(tx, game_row, away)
    return found


def _passes_in(
    tx: Tx, game_row: records.Game, away: Mapping[tuple[str, str], float]
) -> list[AwayPass]:
    game = get_game(game_row.kind)
    state = game.codec.decode_state(loads(game_row.state))
    waiting = game.rules.to_act(state) - set(tx.standing_orders(game_row.id, game_row.turn))
    step = tx.next_step(game_row.id, game_row.turn)
    passes = []
    for player in tx.players(game_row.id):
        if player.key not in waiting or (player.platform, player.user_id) not in away:
            continue
        try:
            game.rules.accept(
                state, player.key, game.rules.parse(PASS), Channel.PRIVATE, random.Random(0)
            )
        except GameError:
            continue  # not an order the game takes from them now
        passes.append(
            AwayPass(
                game_row.id, game_row.turn, player.platform, game_row.channel, player.user_id,
                player.account_name or player.name,
                f"away-pass:{game_row.id}:{game_row.turn}:{step}:{player.key}",
            )
        )  # fmt: skip
    return passes


def announce_pass(tx: Tx, game_id: int, turn: int, *, now: float) -> None:
    """Once a turn, in public, naming nobody: the turn counted ``pass`` for someone away."""
    game_row = tx.game(game_id)
    if game_row is None or game_row.turn != turn:
        return
    text = (
        f"{posts.title(game_row)}: turn {turn} counts `pass` for a player who is away "
        "(this game's `away=pass`)."
    )
    posts.announce(tx, game_row, kind=PostKind("away-pass"), text=text, now=now)


def wait_for_away(
    tx: Tx,
    game: Game[Any, Any],
    game_row: records.Game,
    state: Any,
    timer: TimerEntry,
    *,
    now: float,
) -> bool:
    """Before ``timer`` falls: extend the game's clocks if the game's option says so and a
    player it waits for is away. True when it did (the timer does not fall now)."""
    wait = wait_of(game_row)
    if wait <= 0 or game_row.phase != GamePhase.RUNNING or game_row.id is None:
        return False
    fell_at = float(timer.deadline if timer.deadline is not None else now)
    waiting = game.rules.to_act(state) - set(tx.standing_orders(game_row.id, game_row.turn))
    if not waiting:
        return False
    away = away_accounts(tx, fell_at)
    returns = [
        away[(p.platform, p.user_id)]
        for p in tx.players(game_row.id)
        if p.key in waiting and (p.platform, p.user_id) in away
    ]
    if not returns:
        return False
    extra = min(wait, max(returns) - fell_at)
    label = timer.label or "The turn"
    text = (
        f"{posts.title(game_row)}: {label} waits up to {humanize(timedelta(seconds=extra))} "
        f"for a player who is away: it now closes {format_utc(fell_at + extra)}."
    )
    if not posts.announce(tx, game_row, kind=PostKind("away"), text=text, now=now):
        return False  # this turn waited once already
    tx.change_game(game_row, lifecycle.extend(game_row, extra))
    return True
