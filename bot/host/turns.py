"""The turn clock: finding due turns and resolving each exactly once.

The database is the schedule. A game row holds its turn number and deadline;
anything that wakes up (the APScheduler date job armed for a deadline, the
sweeper every 30 s, a script's ``@close``) calls :meth:`TurnClock.resolve_due`,
which is idempotent: each resolution runs in one transaction that locks the
game (``BEGIN IMMEDIATE`` on SQLite, ``FOR UPDATE`` on PostgreSQL), checks that
the turn it means to close is still the one due (compare-and-set), resolves,
stores the turn, advances the deadline and writes every post to the outbox. Two
processes, a crash, a date job and the sweeper firing together: one
resolution per turn, none skipped.

Deadlines do not drift (rules §4): each is the previous deadline plus the turn
length, however late the host closes a turn. After downtime, every overdue turn
resolves once, in order, with the orders stamped inside it (the platforms are
asked for what they hold first), so an outage costs nobody their orders and the
schedule players plan around stays the same.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import Any

from bot.games.base import get_game
from bot.host import posts
from bot.host.clock import Clock
from bot.host.collector import collector_paused
from bot.host.commands import Commands
from bot.host.seeds import seeded
from bot.store import Store, dumps, loads

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
        """DM captains who have no order this turn, ``before_seconds`` before the deadline.

        Each reminder is an outbox row keyed by (game, turn, "reminder", captain),
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
                for player in tx.players(game_row.id):
                    if player.key in waiting:
                        posts.notify(
                            tx,
                            game_row,
                            player,
                            f"{posts.title(game_row)}: turn {game_row.turn} closes in "
                            f"{posts.humanize_seconds((game_row.deadline or now) - now)} and "
                            "you have no order yet (shoot in public, move or rotate by DM).",
                            kind="reminder",
                        )
                        written += 1
        return written

    def resolve_due(self, unfetched: Collection[str] = ()) -> int:
        """Resolve every turn that is due now; returns how many were resolved.

        ``unfetched``: platforms whose catch-up just failed. Their games wait, up to
        :data:`FETCH_PATIENCE` past the deadline, for the orders the platform still holds
        (an order counts for the turn it was stamped in, rules §4); then they resolve
        anyway, and an order fetched later is refused with the reason."""
        resolved = 0
        now = self.clock.now()
        # A game several deadlines behind comes back due after each turn: loop
        # until nothing is due, bounded so a bug cannot spin forever.
        for _ in range(10_000):
            due = self.due()
            if not due:
                break
            progressed = False
            for game_id, turn, deadline, platform in due:
                if platform in unfetched and now - deadline < FETCH_PATIENCE:
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
            if not progressed:
                break
        return resolved

    def resolve_game(self, game_id: int, expected_turn: int) -> bool:
        """Close ``expected_turn`` of a game if it is still the one due. Exactly once."""
        now = self.clock.now()
        with self.store.transaction() as tx:
            game_row = tx.game(game_id, lock=True)
            if (
                game_row is None
                or game_row.phase not in ("setup", "battle")
                or game_row.turn != expected_turn
                or game_row.deadline is None
                or game_row.deadline > now
            ):
                return False
            game = get_game(game_row.kind)
            state = game.decode_state(loads(game_row.state))
            deadline = game_row.deadline
            if game_row.phase == "setup":
                return self._close_setup(tx, game, game_row, state, now=now)
            standing = tx.standing_orders(game_id, expected_turn)
            acting = game.to_act(state)
            orders: dict[str, Any] = {}
            records = []
            for key, row in sorted(standing.items()):
                data = loads(row.order)
                if data.get("action") == "pass" or key not in acting:
                    # A captain who left (or was kicked) after ordering: no order stands.
                    continue
                orders[key] = game.decode_order(data)
                records.append({"player": key, **data})
            with collector_paused():
                rng = seeded(game_row.seed, "turn", expected_turn)
                resolution = game.resolve(state, orders, rng)
            finished = game.outcome(resolution.state) is not None
            game_row.state = dumps(game.encode_state(resolution.state))
            if not finished:
                game_row.turn = expected_turn + 1
                game_row.turn_opened_at = deadline
                # (A following deadline already past is overdue too: it resolves next.)
                game_row.deadline = deadline + game_row.turn_seconds
            tx.save(game_row)
            posts.publish_turn(tx, game, game_row, expected_turn, resolution, records, now)
            for held in tx.held_inbound(game_id):
                self.commands.rehandle_held(tx, held)
            log.info("game %s: turn %s resolved", game_id, expected_turn)
            return True

    def _close_setup(self, tx: Any, game: Any, game_row: Any, state: Any, *, now: float) -> bool:
        """The setup deadline: start with two captains or more, else give setup another window."""
        # The captains still in (a captain who left or was kicked during setup is not).
        if len(game.to_act(state)) >= 2:
            # Turn 1 starts when setup closed, at its deadline (no drift, rules §4).
            posts.start_battle(tx, game, game_row, state, now=game_row.deadline, cause=None)
            return True
        # Another window, on the same schedule; windows that passed while the host was
        # down are skipped (nothing happens in them, so one announcement is enough).
        following = game_row.deadline + game_row.turn_seconds
        if following <= now:
            missed = int((now - following) // game_row.turn_seconds) + 1
            following += missed * game_row.turn_seconds
        game_row.deadline = following
        tx.save(game_row)
        posts.announce(
            tx,
            game_row,
            kind=f"setup-extended:{int(game_row.deadline)}",
            text=(
                f"{posts.title(game_row)}: setup needs at least two captains; "
                "it stays open for another turn. Send `join` to play."
            ),
            now=now,
        )
        return True
