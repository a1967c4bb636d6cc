"""Byte ranges and validators (issue 43): a replay plays on Safari (``Range`` answered
206 with ``Content-Range``, ``416`` past its end, ``Accept-Ranges: bytes``) with a
poster frame; ``If-None-Match`` read as a list of tags, weak ones and ``*`` included."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_pages import ENDED, FIRST_GAME
from web_kit import play, served

from bot.web.validators import UNSATISFIABLE, Part, byte_range, none_match


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite"


def test_a_replay_is_served_in_byte_ranges_with_a_poster(database: Path, tmp_path: Path) -> None:
    play(database, ENDED, tmp_path / "s")
    with served(database) as site:
        page = site.get("/games/1").text
        whole = site.get("/games/1/replay.mp4")
        first = site.get("/games/1/replay.mp4", {"Range": "bytes=0-1"})
        tail = site.get("/games/1/replay.mp4", {"Range": "bytes=-10"})
        size = len(whole.body)
        past = site.get("/games/1/replay.mp4", {"Range": f"bytes={size}-"})
        stale = site.get("/games/1/replay.mp4", {"Range": "bytes=0-1", "If-Range": '"another"'})
        shown = re.search(r'poster="(/games/1/map/[0-9]+-[0-9]+\.png)"', page)
        poster = site.get(shown[1] if shown else "/nothing")
    assert whole.status == 200 and whole.headers["Accept-Ranges"] == "bytes"
    assert first.status == 206 and first.body == whole.body[:2]
    assert first.headers["Content-Range"] == f"bytes 0-1/{size}"
    assert first.headers["Content-Type"] == "video/mp4"
    assert tail.status == 206 and tail.body == whole.body[-10:]
    assert past.status == 416 and past.headers["Content-Range"] == f"bytes */{size}"
    assert stale.status == 200 and stale.body == whole.body  # changed since: all of it
    assert "playsinline" in page
    assert poster.status == 200 and poster.body.startswith(b"\x89PNG")


def test_if_none_match_reads_lists_weak_tags_and_a_star(database: Path, tmp_path: Path) -> None:
    play(database, FIRST_GAME, tmp_path / "s")
    with served(database) as site:
        picture = site.get("/games/1/map/2-0.png")
        etag = picture.headers["ETag"]
        listed = site.get("/games/1/map/2-0.png", {"If-None-Match": f'"other", {etag}'})
        weak = site.get("/games/1/map/2-0.png", {"If-None-Match": f"W/{etag}"})
        star = site.get("/games/1/map/2-0.png", {"If-None-Match": "*"})
        other = site.get("/games/1/map/2-0.png", {"If-None-Match": '"other"'})
    assert listed.status == weak.status == star.status == 304
    assert other.status == 200


def test_byte_range_reads_what_rfc_9110_allows() -> None:
    assert byte_range(None, 10) is None
    assert byte_range("bytes=2-4", 10) == Part(2, 4, 10)
    assert byte_range("bytes=8-", 10) == Part(8, 9, 10)
    assert byte_range("bytes=5-100", 10) == Part(5, 9, 10)
    assert byte_range("bytes=-3", 10) == Part(7, 9, 10)
    assert byte_range("bytes=10-", 10) == UNSATISFIABLE
    assert byte_range("bytes=0-1,4-5", 10) is None  # several: the whole body
    assert byte_range("items=0-1", 10) is None
    assert byte_range("bytes=4-2", 10) is None
    assert none_match(['"a", W/"b"'], '"b"') and not none_match(['"ab"'], '"b"')
    assert not none_match(["nonsense"], '"b"')
