"""What a player's ``me away`` means in a game: the game's ``away`` option, the host's
choice when opening it (``new KIND away=12h``).

Without it (the default), away changes nothing: the game goes on as today. With
``away=N``, a turn (any running clock: a simultaneous turn, or one player's move time)
that falls while a player it waits for is away, and has no order from them, waits for
them, up to N and no longer than until they are back. At most once a turn: the
extension is announced in public, and that announcement, an outbox row keyed by
(game, turn, "away"), is what makes it once, even when the fall is retried. It names
nobody (who is away is theirs to tell) and says nothing the public status does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from bot.games.base import Game, GameError
from bot.games.duration import format_duration, humanize, parse_duration
from bot.host import lifecycle, posts
from bot.host.clock import format_utc
from bot.host.routing import Refusal
from bot.store import GameRow, Tx, loads
from bot.store.settings import away_accounts

OPTION = "away"
LONGEST_WAIT = timedelta(days=7)


def parse_option(value: str) -> str:
    """``away=12h``: the canonical duration; refused with an example otherwise."""
    try:
        length = parse_duration(value)
    except GameError:
        raise Refusal(
            f"away: expected how long a turn waits for a player who is away, such as "
            f"`new away=12h`; got {value!r}"
        ) from None
    if length > LONGEST_WAIT:
        raise Refusal(f"away: at most {format_duration(LONGEST_WAIT)}, such as `new away=12h`")
    return format_duration(length)


def wait_of(game_row: GameRow) -> float:
    """How long, in seconds, a turn of this game waits for away players (0: not at all)."""
    value = loads(game_row.options or "{}").get(OPTION)
    return parse_duration(value).total_seconds() if value else 0.0


def wait_for_away(
    tx: Tx,
    game: Game[Any, Any],
    game_row: GameRow,
    state: Any,
    timer: Mapping[str, Any],
    *,
    now: float,
) -> bool:
    """Before ``timer`` falls: extend the game's clocks if the game's option says so and a
    player it waits for is away. True when it did (the timer does not fall now)."""
    wait = wait_of(game_row)
    if wait <= 0 or game_row.phase != "battle" or game_row.id is None:
        return False
    fell_at = float(timer["deadline"])
    waiting = game.to_act(state) - set(tx.standing_orders(game_row.id, game_row.turn))
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
    label = str(timer.get("label") or "The turn")
    text = (
        f"{posts.title(game_row)}: {label} waits up to {humanize(timedelta(seconds=extra))} "
        f"for a player who is away: it now closes {format_utc(fell_at + extra)}."
    )
    if not posts.announce(tx, game_row, kind="away", text=text, now=now):
        return False  # this turn waited once already
    lifecycle.extend(game_row, extra)
    tx.save(game_row)
    return True
