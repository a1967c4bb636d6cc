"""One turn, one number, in the game's own word (issue 43): a turn's page names the
turn it shows in its heading, its steps, its facts and its ``<title>``; the game now is a
link away, not a second number; U-Boat's pages say "Round"."""

from __future__ import annotations

from pathlib import Path

from test_pages import FIRST_GAME
from web_kit import play, served

ROOT = Path(__file__).resolve().parents[2]


def test_a_past_turns_page_names_that_turn_alone(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite"
    play(database, FIRST_GAME, tmp_path / "s")
    with served(database) as site:
        middle = site.get("/games/1/turn/1").text
        now = site.get("/games/1").text
    assert "<title>#bst game 1, turn 1</title>" in middle
    assert "<h2>Turn 1</h2>" in middle
    assert "<dt>Turn</dt><dd>1</dd>" in middle
    assert "closes</dt>" not in middle  # the game's deadline now is not this turn's
    assert '<dt>Now</dt><dd><a href="/games/1">' in middle
    assert "<dt>Turn</dt><dd>3</dd>" in now and "<title>#bst game 1</title>" in now


def test_uboat_pages_say_round(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite"
    script = (ROOT / "tests/games/uboat/scripts/uboat-crews.txt").read_text(encoding="utf-8")
    play(database, script, tmp_path / "s")
    with served(database) as site:
        second = site.get("/games/1/turn/2").text
    assert "<title>#uboat game 1, round 2</title>" in second
    assert "<h2>Round 2</h2>" in second
    assert '<strong aria-current="page">Round 2</strong>' in second
    assert "<dt>Round</dt><dd>2</dd>" in second
    assert ">Turn" not in second


def test_every_turn_is_listed_with_its_line_the_one_shown_current(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite"
    play(database, FIRST_GAME, tmp_path / "s")
    with served(database) as site:
        middle = site.get("/games/1/turn/1").text
    assert "<summary>Every turn (3)</summary>" in middle
    assert '<li><a href="/games/1/turn/0">Turn 0</a> — No shots this turn.</li>' in middle
    assert (
        '<li><a aria-current="page" href="/games/1/turn/1">Turn 1</a> — Shots: ahab hit F3.</li>'
    ) in middle
    assert '<li><a href="/games/1/turn/2">Turn 2</a> — Shots: nemo hit A2.</li>' in middle
    assert 'data-jump="/games/1/turn/" ' in middle
