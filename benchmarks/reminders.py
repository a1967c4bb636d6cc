"""The reminders' look-ahead when someone keeps quiet hours (issue 30).

Every tick (the sweeper's, every 30 s) the turn clock looks for the turns whose reminder
is due. Nobody keeping quiet hours, it reads only the games closing within the reminder's
lead (an hour here); as soon as one person anywhere keeps quiet hours, their reminder may
have to come up to a day earlier, so the tick reads every battle closing within a day
and its players. Measured: one tick over 1,000 battles of 12 captains, none with an order
in, all closing in 8 hours (nothing due: the tick writes nothing), with one captain among
the 12,000 keeping quiet hours (that do not touch his reminder) — beside its floor, the
same tick with nobody keeping quiet hours, in the same run.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from sqlalchemy import delete

from benchmarks.storm import prepare_games
from benchmarks.timing import Figure, median_seconds
from bot.host.clock import VirtualClock
from bot.host.inbox import Commands
from bot.host.turns import TurnClock
from bot.store import OrderRow, Store
from bot.store.models import PlayerSettingsRow

GAMES = 1000
CAPTAINS = 12
LEAD = 3600.0  # the reminder comes an hour before the deadline
GOAL_MS = 500.0  # at most 1/60 of the sweeper's 30 s, on the clock thread


def _tick_ms(turns: TurnClock, repeats: int) -> float:
    def tick() -> None:
        written = turns.remind_due(LEAD, frozenset({"bench"}))
        assert written == 0, "the measured ticks must find nothing due"

    return 1000 * median_seconds(tick, repeats=repeats)


def run(*, quick: bool) -> list[Figure]:
    repeats = 5 if quick else 15
    with tempfile.TemporaryDirectory(prefix="bst-bench-reminders-") as name:
        store = Store(f"sqlite:///{Path(name) / 'reminders.db'}")
        clock = VirtualClock()
        prepare_games(store, GAMES, CAPTAINS, start=clock.now())
        with store.transaction() as tx:
            tx.session.execute(delete(OrderRow))  # nobody has ordered: all are reminded
        turns = TurnClock(store, clock, Commands(store, clock))
        floor = _tick_ms(turns, repeats)
        with store.transaction() as tx:
            tx.session.add(
                PlayerSettingsRow(
                    platform="bench", user_id="u1-1", quiet_start=12 * 60, quiet_end=13 * 60
                )
            )
        quiet = _tick_ms(turns, repeats)
        store.dispose()
    return [
        Figure(
            "reminder_tick_quiet_ms",
            quiet,
            GOAL_MS,
            unit=" ms",
            floor=f"{quiet / floor:.0f}× the tick with no quiet hours ({floor:.2f} ms)",
            detail=(
                f"one reminder tick over {GAMES} battles of {CAPTAINS} captains closing in "
                f"8 h, one captain keeping quiet hours: {quiet:.1f} ms; the same tick with "
                f"nobody keeping any (it reads only the next hour's deadlines): {floor:.2f} ms"
            ),
        )
    ]
