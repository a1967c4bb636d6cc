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

import statistics
import tempfile
from pathlib import Path

from sqlalchemy import delete

from benchmarks.storm import prepare_games
from benchmarks.timing import Figure, median_seconds
from bot.host.commands.inbox import Commands
from bot.host.play.turns import TurnClock
from bot.host.runtime.clock import VirtualClock
from bot.store import OrderRow, Store
from bot.store.models import PlayerSettingsRow

GAMES = 1000
CAPTAINS = 12
LEAD = 3600.0  # the reminder comes an hour before the deadline
GOAL_MS = 50.0  # a tick (every 30 s, on the clock thread) stays short however many games


def _store(folder: Path, name: str, clock: VirtualClock, *, quiet: bool, games: int) -> Store:
    store = Store(f"sqlite:///{folder / name}")
    prepare_games(store, games, CAPTAINS, start=clock.now())
    with store.transaction() as tx:
        tx.session.execute(delete(OrderRow))  # nobody has ordered: all are reminded
        if quiet:
            tx.session.add(
                PlayerSettingsRow(
                    platform="bench", user_id="u1-1", quiet_start=12 * 60, quiet_end=13 * 60
                )
            )
    return store


def tick_ms(folder: Path, games: int, rounds: int) -> tuple[float, float, float]:
    """(the tick with one person's quiet hours, the tick with none, the median ratio of
    the paired rounds), in milliseconds, over ``games`` battles written under ``folder``."""
    clock = VirtualClock()
    stores = {
        q: _store(folder, f"quiet-{q}.db", clock, quiet=q, games=games) for q in (False, True)
    }
    clocks = {q: TurnClock(store, clock, Commands(store, clock)) for q, store in stores.items()}

    def tick(quiet: bool) -> None:
        written = clocks[quiet].remind_due(LEAD, frozenset({"bench"}))
        assert written == 0, "the measured ticks must find nothing due"

    # Paired rounds, the two ticks back to back: the shared machine's drift hits both.
    pairs = [
        (median_seconds(lambda: tick(False), repeats=3),
         median_seconds(lambda: tick(True), repeats=3))
        for _ in range(rounds)
    ]  # fmt: skip
    for store in stores.values():
        store.dispose()
    ratio = statistics.median(quiet / floor for floor, quiet in pairs)
    floor_ms = 1000 * statistics.median(floor for floor, _ in pairs)
    quiet_ms = 1000 * statistics.median(quiet for _, quiet in pairs)
    return quiet_ms, floor_ms, ratio


def run(*, quick: bool) -> list[Figure]:
    rounds = 7 if quick else 21
    with tempfile.TemporaryDirectory(prefix="bst-bench-reminders-") as name:
        quiet_ms, floor_ms, ratio = tick_ms(Path(name), GAMES, rounds)
    return [
        Figure(
            "reminder_tick_quiet_ms",
            quiet_ms,
            GOAL_MS,
            unit=" ms",
            floor=f"{ratio:.1f}× the tick with no quiet hours ({floor_ms:.2f} ms)",
            detail=(
                f"one reminder tick over {GAMES} battles of {CAPTAINS} captains closing in "
                f"8 h, one captain keeping quiet hours: {quiet_ms:.1f} ms; the same tick with "
                f"nobody keeping any (it reads only the next hour's deadlines): "
                f"{floor_ms:.2f} ms; median of {rounds} paired rounds"
            ),
        )
    ]
