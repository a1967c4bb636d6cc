"""The turn clock: finding the timers that have fallen and firing each exactly once.

The database is the schedule. A game row holds its timers and the earliest running
deadline; anything that wakes up (the APScheduler date job armed for a deadline,
the sweeper every 30 s, a script's ``@close``) calls :meth:`TurnClock.resolve_due`,
which is idempotent: each timer fires in one transaction that locks the game
(``BEGIN IMMEDIATE`` on SQLite, ``FOR UPDATE`` on PostgreSQL), checks that the turn
it means to close is still the one in progress and that the timer is still due
(compare-and-set), lets the game apply its timeout (:func:`lifecycle.fire`), stores
the change, arms the next timers and writes every post to the outbox. Two
processes, a crash, a date job and the sweeper firing together: each timer fires
once, none is skipped.

Deadlines do not drift: a timer the game declares when another falls starts at the
deadline that fell, however late the host runs. After downtime, every overdue
timer fires once, in order, with the orders stamped before it (the platforms are
asked for what they hold first), so an outage costs nobody their orders and the
schedule players plan around stays the same.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection

from bot.games.catalog import get_game
from bot.host import lifecycle, posts
from bot.host.clock import Clock
from bot.host.inbox import Commands
from bot.store import Store, loads

log = logging.getLogger(__name__)

FETCH_PATIENCE = 600.0
"""How long past its deadline a turn waits for a platform that could not be asked for
the orders it still holds, before it resolves without them."""


class TurnClock:
    def __init__(self, store: Store, clock: Clock, commands: Commands) -> None:
        self.store = store
        self.clock = clock
        self.commands = commands

    def due(self) -> list[tuple[int, int, float, str]]:
        with self.store.transaction() as tx:
            return tx.due_games(self.clock.now())

    def next_deadline(self) -> float | None:
        with self.store.transaction() as tx:
            return tx.next_deadline()

    def remind_due(self, before_seconds: float, platforms: frozenset[str]) -> int:
        """DM players who have no order this turn, ``before_seconds`` before the deadline.

        Each reminder is an outbox row keyed by (game, turn, "reminder", player),
        so calling this on every tick sends each reminder once."""
        if before_seconds <= 0 or not platforms:
            return 0
        now = self.clock.now()
        written = 0
        with self.store.transaction() as tx:
            for game_row in tx.games_closing_between(now, now + before_seconds):
                if game_row.platform not in platforms or game_row.id is None:
                    continue
                game = get_game(game_row.kind)
                state = game.decode_state(loads(game_row.state))
                waiting = game.to_act(state) - set(tx.standing_orders(game_row.id, game_row.turn))
                left = posts.humanize_seconds((game_row.deadline or now) - now)
                for player in tx.players(game_row.id):
                    if player.key in waiting:
                        posts.notify(
                            tx,
                            game_row,
                            player,
                            f"{posts.title(game_row)}: {game.reminder(state, left)}",
                            kind="reminder",
                        )
                        written += 1
        return written

    def resolve_due(
        self,
        unfetched: Collection[str] = (),
        waiting: Collection[int] = (),
        between: Callable[[], None] | None = None,
    ) -> int:
        """Fire every timer that is due now; returns how many fired.

        ``unfetched``: platforms whose catch-up just failed; ``waiting``: games whose own
        channel or players' DMs could not be read (the rest of their platform could).
        Their games wait, up to :data:`FETCH_PATIENCE` past the deadline, for the orders
        the platform still holds (an order counts for the turn it was stamped in); then
        they resolve anyway, and an order fetched later is refused with the reason.
        ``between`` runs after each game (the host makes way there for its event loop)."""
        resolved = 0
        now = self.clock.now()
        # A game several deadlines behind comes back due after each timer: loop
        # until nothing is due, bounded so a bug cannot spin forever.
        for _ in range(10_000):
            due = self.due()
            if not due:
                break
            progressed = False
            for game_id, turn, deadline, platform in due:
                if (
                    platform in unfetched or game_id in waiting
                ) and now - deadline < FETCH_PATIENCE:
                    log.warning(
                        "game %s: turn %s waits for %s to answer (catch-up failed)",
                        game_id,
                        turn,
                        platform,
                    )
                    continue
                if self.resolve_game(game_id, turn):
                    resolved += 1
                    progressed = True
                if between is not None:
                    between()
            if not progressed:
                break
        return resolved

    def resolve_game(self, game_id: int, expected_turn: int) -> bool:
        """Fire the game's earliest due timer if the game is still at ``expected_turn``.
        Exactly once: a timer that fired is gone from the row it was read from."""
        now = self.clock.now()
        with self.store.transaction() as tx:
            game_row = tx.game(game_id, lock=True)
            if (
                game_row is None
                or game_row.phase not in ("setup", "battle")
                or game_row.turn != expected_turn
            ):
                return False
            timer = lifecycle.due_timer(game_row, now)
            if timer is None:
                return False
            game = get_game(game_row.kind)
            state = game.decode_state(loads(game_row.state))
            lifecycle.fire(tx, game, game_row, state, timer, now=now)
            if game_row.phase != "setup":
                for held in tx.held_inbound(game_id):
                    self.commands.rehandle_held(tx, held)
            return True
