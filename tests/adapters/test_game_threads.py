"""Game threads on platforms without channels (X, Mastodon, Bluesky) are kept while the
bot posts in them, and forgotten once a game's thread has been silent past the retention
period: the cursors do not grow with every game ever played."""

from __future__ import annotations

from bot.adapters.game_threads import THREAD_RETENTION_SECONDS, GameThreads

DAY = 24 * 3600.0


class Cursors:
    """The host's cursor store, in memory (it can forget a cursor, as the host's does)."""

    def __init__(self) -> None:
        self.values: dict[tuple[str, str], str] = {}

    async def get(self, platform: str, key: str) -> str | None:
        return self.values.get((platform, key))

    async def set(self, platform: str, key: str, value: str) -> None:
        self.values[(platform, key)] = value

    async def all(self, platform: str) -> dict[str, str]:
        return {k: v for (p, k), v in self.values.items() if p == platform}

    async def forget(self, platform: str, key: str) -> None:
        self.values.pop((platform, key), None)


class Clock:
    def __init__(self) -> None:
        self.now = 1_785_000_000.0

    def __call__(self) -> float:
        return self.now


def threads(cursors: Cursors, clock: Clock) -> GameThreads:
    return GameThreads(cursors, ["#sonar"], platform="x", is_thread=str.isdigit, clock=clock)


async def test_a_silent_games_thread_is_forgotten_a_live_ones_kept() -> None:
    cursors, clock = Cursors(), Clock()
    first = threads(cursors, clock)
    await first.learn("111", "#sonar game 7 · turn 1")  # a game that ends soon
    await first.learn("222", "#sonar game 8 · turn 1")  # a long one
    assert await first.of_dm("#sonar 7 f11") == ("111", "#sonar f11")
    for _ in range(10):  # game 8 goes on, its thread posted in every ten days
        clock.now += 10 * DAY
        await first.learn("222", "#sonar game 8 · next turn")
    assert clock.now - 1_785_000_000.0 > THREAD_RETENTION_SECONDS

    restarted = threads(cursors, clock)  # the same cursors, after a restart
    assert await restarted.of_dm("#sonar 7 f11") == ("", "#sonar f11")  # forgotten
    assert await restarted.of_dm("#sonar 8 f11") == ("222", "#sonar f11")  # kept
    assert [key for (_, key) in cursors.values] == ["thread:#sonar:8"]


async def test_a_thread_kept_before_its_time_was_ages_from_the_first_look() -> None:
    cursors, clock = Cursors(), Clock()
    await cursors.set("x", "thread:#sonar:3", "333")  # as written before
    table = threads(cursors, clock)
    assert await table.of_dm("#sonar 3 f11") == ("333", "#sonar f11")
    await table.forget_old()
    assert await table.of_dm("#sonar 3 f11") == ("333", "#sonar f11")
    clock.now += THREAD_RETENTION_SECONDS
    await table.forget_old()
    assert await threads(cursors, clock).of_dm("#sonar 3 f11") == ("", "#sonar f11")
