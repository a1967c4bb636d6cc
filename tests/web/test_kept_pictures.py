"""What never changes is kept: a stored step's picture, once drawn, is served from the
web's cache (issue 28, ``web_p99_ms``)."""

from __future__ import annotations

from pathlib import Path

from test_web_tiles import SMALL
from web_kit import play, served

from bot.web.site import NOT_FOUND


def test_a_map_already_drawn_is_served_without_reading_the_database(tmp_path: Path) -> None:
    """A stored step never changes: once its map is drawn, each viewer's request for it
    is answered from the cache, with no database read or thread hop (half of what 200
    viewers a game cost the server); an unknown game's map is still the one 404."""
    database = tmp_path / "small.sqlite"
    play(database, SMALL, tmp_path / "scripts")
    with served(database) as site:
        first = site.get("/games/1/map/0-0.png")
        assert first.status == 200
        store = site.server.app_site.store

        def no_reads() -> None:
            raise AssertionError("the database was read for a map already drawn")

        store.transaction = no_reads  # type: ignore[method-assign,assignment]
        again = site.get("/games/1/map/0-0.png")
        assert (again.status, again.body) == (200, first.body)
        del store.transaction
        unknown = site.get("/games/7/map/0-0.png")
        assert (unknown.status, unknown.body) == (404, NOT_FOUND)
