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

from bot.games.base import GamePhase
from bot.games.catalog import get_game
from bot.host.commands.inbox import Commands
from bot.host.commands.me import as_personal_time
from bot.host.outbox import posts
from bot.host.outbox import wire as kinds
from bot.host.play import away, lifecycle, robots
from bot.host.runtime.clock import Clock
from bot.host.runtime.collector import collector_paused
from bot.store import Store, loads, records
from bot.store.robot_seats import games_with_robots
from bot.store.settings import quiet_accounts

log = logging.getLogger(__name__)

NAMES_PER_REMINDER = 50
"""Players a public reminder names at most; more are named over several posts. 50
mentions stay well inside a post's limits (Discord: 100 pinged users, 2,000 characters:
about 23 characters a name), so an adapter never has to cut one."""

QUIET_LOOKAHEAD = 86_400.0
"""How much earlier than usual a reminder may come, to miss someone's quiet hours."""

ROBOT_GAMES_PER_LOOK = 10
"""Games whose robot seats one transaction looks at: a storm's thousand games with robots
are looked at in short transactions, the event loop given its way between them."""

FETCH_PATIENCE = 600.0
"""How long past its deadline a turn waits for a platform that could not be asked for
the orders it still holds, before it resolves without them."""


class TurnClock:
    def __init__(self, store: Store, clock: Clock, commands: Commands) -> None:
        self.store = store
        self.clock = clock
        self.commands = commands
        # Games passed by in this pass of resolve_due because another transaction held
        # them (PostgreSQL), with the turn that was due.
        self.passed_by: list[tuple[int, int]] = []

    def due(self) -> list[tuple[int, int, float, str]]:
        with self.store.transaction() as tx:
            return tx.due_games(self.clock.now())

    def next_deadline(self) -> float | None:
        with self.store.transaction() as tx:
            return tx.next_deadline()

    def away_passes(self) -> list[away.AwayPass]:
        """The ``pass`` orders to send now for players who are away (see bot.host.play.away)."""
        with self.store.transaction() as tx:
            return away.passes_due(tx, now=self.clock.now())

    def announce_away_pass(self, sent: away.AwayPass) -> None:
        with self.store.transaction() as tx:
            away.announce_pass(tx, sent.game_id, sent.turn, now=self.clock.now())

    def robot_jobs(
        self,
        game_ids: Collection[int] | None = None,
        between: Callable[[], None] | None = None,
    ) -> list[robots.RobotJob]:
        """What the robot seats (and the away players' robots) have to decide now, each
        from its seat's view: gathered here, a few games a transaction, thought out
        afterwards (see bot.host.play.thinking). ``between`` runs between two transactions
        (the host makes way there for its event loop, as between two resolutions)."""
        now = self.clock.now()
        with self.store.transaction() as tx:
            looked_at = robots.games_to_look_at(tx, now=now, game_ids=game_ids)
        jobs: list[robots.RobotJob] = []
        for start in range(0, len(looked_at), ROBOT_GAMES_PER_LOOK):
            if start and between is not None:
                between()
            with self.store.transaction() as tx:
                chunk = looked_at[start : start + ROBOT_GAMES_PER_LOOK]
                jobs += robots.jobs_due(tx, now=now, game_ids=chunk)
        return jobs

    def robot_games(self) -> list[int]:
        """The games in play with a robot seated."""
        with self.store.transaction() as tx:
            return games_with_robots(tx)

    def announce_away_robot(self, sent: robots.RobotOrder) -> None:
        with self.store.transaction() as tx:
            robots.announce_away(tx, sent.game_id, sent.turn, now=self.clock.now())

    def remind_due(
        self,
        before_seconds: float,
        platforms: frozenset[str],
        public: frozenset[str] = frozenset(),
    ) -> int:
        """Remind the players who have no order yet, once a turn, before the deadline.

        ``before_seconds`` ahead of it, or half-way through a turn shorter than twice that
        (a 10-minute round is reminded with 5 minutes left, not as it opens). On
        ``public`` platforms (Discord) one post in the game's channel names each player
        missing, so only they are pinged; on the other ``platforms`` each gets a DM. Each
        reminder is an outbox row keyed by (game, turn, "reminder", who), so calling this
        on every tick sends each reminder once."""
        platforms = platforms | public
        if before_seconds <= 0 or not platforms:
            return 0
        now = self.clock.now()
        written = 0
        with self.store.transaction() as tx:
            # A reminder that would fall in someone's quiet hours comes before they begin,
            # up to a day earlier: for the games of those keeping quiet hours (only
            # theirs: benchmarks/reminders.py), look that far ahead.
            quiet = quiet_accounts(tx)
            closing = tx.games_closing_between(now, now + before_seconds)
            if quiet:
                closing += tx.games_of_closing_between(
                    quiet, now + before_seconds, now + before_seconds + QUIET_LOOKAHEAD
                )
            for game_row in closing:
                if game_row.platform not in platforms or game_row.id is None:
                    continue
                deadline = game_row.deadline or now
                lead = _lead(game_row, before_seconds)
                on_time = deadline - now <= lead
                players = tx.players(game_row.id)
                keeps_quiet = {
                    p.key: as_personal_time(quiet[(p.platform, p.user_id)])
                    for p in players
                    if (p.platform, p.user_id) in quiet
                }
                if not on_time and not keeps_quiet:
                    continue
                game = get_game(game_row.kind)
                state = game.codec.decode_state(loads(game_row.state))
                waiting = game.rules.to_act(state) - set(
                    tx.standing_orders(game_row.id, game_row.turn)
                )
                missing = [p for p in players if p.key in waiting]
                # Each missing player's reminder: at the usual moment, unless that falls in
                # their quiet hours (then alone, by DM, when those begin); never while
                # they keep quiet.
                pinged: list[records.Player] = []
                early: list[records.Player] = []
                for player in missing:
                    own = keeps_quiet.get(player.key)
                    if own is None:
                        if on_time:
                            pinged.append(player)
                        continue
                    moment = own.reminder_moment(deadline - lead)
                    if now < moment or own.quiet_since(now) is not None:
                        continue
                    (early if moment < deadline - lead else pinged).append(player)
                if not pinged and not early:
                    continue
                said = game.words.reminder(state, posts.humanize_seconds(deadline - now))
                text = f"{posts.title(game_row)}: {said}"
                for player in early:
                    posts.notify(tx, game_row, player, text, kind=kinds.reminder(0))
                    written += 1
                if not pinged:
                    continue
                if game_row.platform in public:
                    # Players who joined from another platform's room: by DM (a ping here
                    # cannot reach them).
                    for player in [p for p in pinged if p.platform != game_row.platform]:
                        posts.notify(tx, game_row, player, text, kind=kinds.reminder(0))
                        written += 1
                    pinged = [p for p in pinged if p.platform == game_row.platform]
                    # A crowd is named over several posts, each pinging only its own names
                    # (Discord lets a message ping 100 users and hold 2,000 characters).
                    for part, start in enumerate(range(0, len(pinged), NAMES_PER_REMINDER)):
                        named = pinged[start : start + NAMES_PER_REMINDER]
                        names = ", ".join(posts.mention_token(p.user_id) for p in named)
                        posts.announce(
                            tx,
                            game_row,
                            kind=kinds.reminder(part),
                            text=f"{posts.title(game_row)}: {names}: {said}",
                            now=now,
                            extra=posts.extras(mentions=[(p.user_id, p.name) for p in named]),
                            every_room=False,  # (it pings this channel's people)
                        )
                    written += len(pinged)
                    continue
                for player in pinged:
                    posts.notify(tx, game_row, player, text, kind=kinds.reminder(0))
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
            # On PostgreSQL a game another host process is resolving is locked: pass it
            # by and take the next, so N processes share a storm; the games passed by
            # are looked at again once the rest are done (by then usually resolved).
            self.passed_by = []
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
            for game_id, turn in self.passed_by:
                if self._resolve(game_id, turn, wait=True):
                    resolved += 1
                    progressed = True
                if between is not None:
                    between()
            if not progressed:
                break
        return resolved

    def resolve_game(self, game_id: int, expected_turn: int) -> bool:
        """Fire the game's earliest due timer if the game is still at ``expected_turn``.
        Exactly once: a timer that fired is gone from the row it was read from. On
        PostgreSQL a game another transaction holds is passed by at once: False, and
        noted in :attr:`passed_by` for :meth:`resolve_due` to come back to."""
        outcome = self._resolve(game_id, expected_turn, wait=False)
        if outcome is None:
            self.passed_by.append((game_id, expected_turn))
        return bool(outcome)

    def _resolve(self, game_id: int, expected_turn: int, *, wait: bool) -> bool | None:
        """:meth:`resolve_game`; without ``wait``, None at once when another transaction
        holds the game (PostgreSQL's ``SKIP LOCKED``; SQLite has one writer at a time)."""
        now = self.clock.now()
        # The collector is paused for the whole turn, not only its resolution: a crowd's
        # turn decodes, stores and posts for 100,000 players, and the collector's passes
        # over those objects cost as much as the rest of the turn (issue 33).
        with collector_paused(), self.store.transaction() as tx:
            game_row = tx.game(game_id, lock=True, skip_locked=not wait)
            if game_row is None and not wait:
                return None  # locked by another transaction (or gone: looked at again)
            if (
                game_row is None
                or game_row.phase not in (GamePhase.SETUP, GamePhase.RUNNING)
                or game_row.turn != expected_turn
            ):
                return False
            timer = lifecycle.due_timer(game_row, now)
            if timer is None:
                return False
            game = get_game(game_row.kind)
            state = game.codec.decode_state(loads(game_row.state))
            if away.wait_for_away(tx, game, game_row, state, timer, now=now):
                return False  # the turn waits for a player who is away (once a turn)
            game_row = lifecycle.fire(tx, game, game_row, state, timer, now=now)
            if game_row.phase != GamePhase.SETUP:
                for held in tx.held_inbound(game_id):
                    self.commands.rehandle_held(tx, held)
            return True


def _lead(game_row: records.Game, before_seconds: float) -> float:
    """How long before its deadline a turn is reminded: ``before_seconds``, or half of a
    shorter timer's length."""
    earliest = min(
        (t for t in posts.running_timers(game_row) if t.seconds),
        key=lambda t: t.deadline or 0.0,
        default=None,
    )
    if earliest is None or earliest.seconds is None:
        return before_seconds
    return min(before_seconds, float(earliest.seconds) / 2)
