"""What a player meets first, in every game (issue 27): how a game is opened and
cancelled, how shots carry talk, what the end says. Played through the real host with
the ``run_script_text`` fixture (no images drawn)."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.adapters.console_adapter import ConsoleAdapter
from bot.adapters.discord.adapter import DiscordAdapter
from bot.adapters.files_adapter import FilesAdapter
from bot.adapters.twitter.adapter import TwitterAdapter
from bot.games.standings import places
from bot.host.messages import Address, Attachment, AttachmentKind, Outbound
from bot.host.outbox.posts import extras
from bot.host.outbox.relay import outbound_of
from bot.host.play.ending import ordinal
from bot.store import OutboxRow

Record = dict[str, Any]
Run = Callable[[str], tuple[list[str], Record]]


def public(transcript: list[str]) -> list[str]:
    return [line for line in transcript if line.startswith("-> public: ")]


def test_ending_a_game_nobody_joined_cancels_it_and_names_no_draw(run_script_text: Run) -> None:
    transcript, record = run_script_text("@game sonar\n@host end\n")
    (said,) = public(transcript)[1:]
    assert "cancelled game 1: nobody had joined" in said
    assert "draw" not in said
    assert record["game"]["phase"] == "finished"


def test_a_message_to_a_finished_game_names_its_kind_to_start_again(run_script_text: Run) -> None:
    transcript, _ = run_script_text("@game uboat\n@host end\nbob public: #uboat join\n")
    assert transcript[-1].endswith("game 1 is over: a host starts a new one with `new uboat`")


ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "tests" / "games"


def script_path(name: str) -> Path:
    """A game's script by ``KIND/FILE`` (``sonar/sonar-win.txt``): in its game's test folder."""
    kind, _, rest = name.partition("/")
    return GAMES / kind / "scripts" / rest


def play(run_script_text: Run, name: str) -> tuple[list[str], Record]:
    return run_script_text(script_path(name).read_text(encoding="utf-8"))


def orders(record: Record, number: int) -> list[Record]:
    (found,) = [t for t in record["turns"] if t["number"] == number]
    return list(found["orders"])


def test_4_words_after_a_shots_cell_are_talk(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "bst/polish/s4_shot_with_talk.txt")
    assert orders(record, 1) == [
        {"player": "alice", "action": "shoot", "cell": "F1"},
        {"player": "bob", "action": "shoot", "cell": "C1"},
    ]
    assert orders(record, 2) == [{"player": "alice", "action": "shoot", "cell": "F2"}]
    to_bob = [line for line in transcript if line.startswith("-> dm bob: ")]
    assert any("Cyrillic letter 'С'" in line and "`C2`" in line for line in to_bob)
    assert any("one shot a turn" in line and "C2 and C3" in line for line in to_bob)


def test_words_after_a_volleys_cells_are_talk_in_sonar(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "sonar/sonar-talk.txt")
    (shot,) = orders(record, 1)
    assert shot["cells"] == ["f11", "g3"]
    assert any("cells first, then talk" in line for line in transcript)


# --- the end: standings, the final map, each player's place, the replay --------------


def test_the_end_posts_standings_then_each_place_then_the_replay(run_script_text: Run) -> None:
    transcript, _ = play(run_script_text, "bst/s5_3_win.txt")
    start = next(i for i, line in enumerate(transcript) if "is over. Final standings:" in line)
    standings, alice, bob, replay = transcript[start : start + 4]
    assert standings == (
        "-> public: #bst game 1 is over. Final standings:"
        "\\n1st alice: 6 shots, 6 hits, afloat at the end"
        "\\n2nd bob: 6 shots, 5 hits, survived 6 turns"
    )
    assert alice == (
        "-> dm alice: #bst game 1 is over: you won! Your game: 6 shots, 6 hits, afloat at the end."
    )
    assert bob.startswith("-> dm bob: #bst game 1 is over: you came 2nd of 2.")
    assert replay.startswith("-> public: #bst game 1: the replay of the whole battle.")


def test_a_draw_shares_first_place(run_script_text: Run) -> None:
    transcript, record = play(run_script_text, "bst/s5_3_draw_together.txt")
    assert record["game"]["draw"]
    places = [line for line in transcript if "is over: you" in line]
    assert places and all("you share 1st place of 2 with 1 other." in line for line in places)


@pytest.mark.parametrize(
    ("script", "players"),
    [
        ("sonar/sonar-win.txt", ("ahab", "flint", "nemo")),
        ("uboat/uboat-crews-and-scoring.txt", ("ann", "ben", "cy")),
        ("sugardog/sugardog-first-game.txt", ("ahab", "nemo")),
        ("silentships/silentships-endings.txt", ("ahab", "nemo")),
    ],
)
def test_every_game_ends_with_standings_and_a_place_for_each_player(
    run_script_text: Run, script: str, players: tuple[str, ...]
) -> None:
    transcript, record = play(run_script_text, script)
    assert record["game"]["phase"] == "finished"
    (standings,) = [line for line in public(transcript) if "Final standings:" in line]
    for name in players:
        assert re.search(rf"\\n\d+(st|nd|rd|th) {name}\b", standings)
        assert any(
            line.startswith(f"-> dm {name}: ") and "is over: you" in line for line in transcript
        )
    winners = record["game"]["winners"]
    if winners and not record["game"]["draw"]:
        assert f"\\n1st {winners[0]}" in standings


def test_places_share_and_skip_like_a_sports_table() -> None:
    keys = {"a": (1, 0), "b": (0, 5), "c": (0, 5), "d": (0, 2)}
    assert places(keys) == {"a": 1, "b": 2, "c": 2, "d": 4}
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
    ]  # fmt: skip


def test_the_end_post_carries_the_final_map_with_every_ship_revealed(tmp_path: Path) -> None:
    """Drawn for real (the replay is drawn once, for both end posts)."""
    done = subprocess.run(
        [sys.executable, "-m", "bot", "script", str(script_path("bst/s5_3_win.txt")),
         "--out", str(tmp_path)],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (line,) = [x for x in done.stdout.splitlines() if "Final standings:" in x]
    path = Path(line.rsplit("[image: ", 1)[1].rstrip("]"))
    assert path.name.endswith("-final.png")
    final = Image.open(path).convert("RGB")
    # alice's submarine at A2 was never found: the public map shows water there, the
    # final map shows the ship.
    assert _cell_colour(final, row=0, col=1) != _cell_colour(final, row=1, col=1)


def _cell_colour(image: Image.Image, *, row: int, col: int) -> tuple[int, int, int]:
    """The colour at the centre of a cell of a 10×10 board on the end card of a game of two
    (as bst draws it: the board under two lines of standings)."""
    from renderers.bst.frames import card_layout
    from renderers.end_card import Placing, board_top

    layout, _ = card_layout(10, 10)
    top = board_top([Placing(1, "alice", ""), Placing(2, "bob", "")])
    x = layout.x0 + col * layout.cell + layout.cell // 2
    y = top + layout.y0 + row * layout.cell + layout.cell // 2
    pixel = image.getpixel((x, y))
    assert isinstance(pixel, tuple)
    return (int(pixel[0]), int(pixel[1]), int(pixel[2]))


# --- the demo ----------------------------------------------------------------------------


def test_the_demos_clock_moves_in_a_game_played_in_turn(tmp_path: Path) -> None:
    """Each move is made a while after the last, so the deadlines move on as in a real
    game (they all said "closes 2026-01-02 00:00 UTC" when the clock stood still)."""
    from bot.__main__ import main
    from bot.games.catalog import register, unregister
    from tests.tug import TUG

    register(TUG)
    try:
        out = tmp_path / "demo"
        assert main(["demo", "--game", "tug", "--players", "2", "--out", str(out)]) == 0
    finally:
        unregister(TUG.name)
    said = (out / "public.txt").read_text(encoding="utf-8")
    deadlines = re.findall(r"closes (\d{4}-\d\d-\d\d \d\d:\d\d) UTC", said)
    assert len(deadlines) > 2
    assert len(set(deadlines)) == len(deadlines)
    assert deadlines == sorted(deadlines)


def test_the_demo_folder_keeps_every_picture_of_a_turn(tmp_path: Path) -> None:
    """Two pictures of one name (two steps of one turn) are two files."""
    adapter = FilesAdapter(tmp_path, follow=None)
    picture = Attachment(AttachmentKind.IMAGE, "game1-turn3-map.png", b"png", "image/png")
    for n in (1, 2):
        asyncio.run(adapter.send(Address("local", "demo"), Outbound(f"step {n}", (picture,))))
    assert len(list((tmp_path / "public").glob("*game1-turn3-map.png"))) == 2
    assert (tmp_path / "public.txt").read_text(encoding="utf-8").count("[attached: ") == 2


# --- board messages: the picture where it shows, the text board where it cannot ---------


def _board_row(*, render: bool) -> OutboxRow:
    return OutboxRow(
        id=7, game_id=1, turn=2, kind="board", recipient="p1", address="{}",
        text="#bst game 1, turn 3:\nYour carrier was hit at C3.",
        render='{"kind": "private_board"}' if render else "",
        extras=extras(board="   1  2\nA  .  S\nKey: . water."),
    )  # fmt: skip


def test_a_board_message_where_pictures_show_is_the_picture_and_the_news() -> None:
    picture = Attachment(AttachmentKind.IMAGE, "board.png", b"png", "image/png")
    sent = outbound_of(_board_row(render=True), Address("discord", "c", "u"), (picture,),
                       None, shows_pictures=True)  # fmt: skip
    assert sent.text == "#bst game 1, turn 3:\nYour carrier was hit at C3."
    assert DiscordAdapter.capabilities.shows_pictures
    assert TwitterAdapter.capabilities.shows_pictures


def test_the_text_board_goes_where_pictures_cannot() -> None:
    picture = Attachment(AttachmentKind.IMAGE, "board.png", b"png", "image/png")
    # a console (it shows no pictures), with or without one attached
    on_console = outbound_of(_board_row(render=True), Address("console", "c", "u"), (picture,),
                             None)  # fmt: skip
    assert on_console.text.endswith("\n   1  2\nA  .  S\nKey: . water.")
    # a platform that shows pictures, when the picture could not be drawn
    undrawn = outbound_of(_board_row(render=True), Address("discord", "c", "u"), (), None,
                          shows_pictures=True)  # fmt: skip
    assert "Key: . water." in undrawn.text
    # a message that has no picture at all (a status) keeps its text short there
    status = outbound_of(_board_row(render=False), Address("discord", "c", "u"), (), None,
                         shows_pictures=True)  # fmt: skip
    assert "Key:" not in status.text
    assert not getattr(ConsoleAdapter, "shows_pictures", False)


def test_every_games_text_board_has_a_header_and_a_key(run_script_text: Run) -> None:
    for script in ("bst/bst-first-game.txt", "sonar/sonar-win.txt", "uboat/uboat-first-rounds.txt",
                   "sugardog/sugardog-first-game.txt", "silentships/silentships-first-game.txt"):  # fmt: skip
        transcript, _ = play(run_script_text, script)
        boards = [line for line in transcript if "\\nKey: " in line]
        assert boards, script


HEADING = re.compile(r"^-> dm \w+: #\w+ game \d+, (?:turn|round) (\d+):\\n")
SHOWN = re.compile(r"(?:, |· |finished after )(?:turn|round) (\d+)\b")
"""A board message's heading, and the turn its status line (the picture's "Turn 4") names."""


def test_5_every_board_heading_names_the_turn_its_board_shows(run_script_text: Run) -> None:
    for script in ("bst/bst-first-game.txt", "sonar/sonar-win.txt", "uboat/uboat-first-rounds.txt",
                   "uboat/uboat-evasion-and-wait.txt", "sugardog/sugardog-first-game.txt",
                   "silentships/silentships-first-game.txt"):  # fmt: skip
        transcript, _ = play(run_script_text, script)
        boards = [line for line in transcript if "\\nKey: " in line and HEADING.match(line)]
        assert len(boards) >= 2, script
        for line in boards:
            heading = HEADING.match(line)
            assert heading is not None
            status = SHOWN.search(line, heading.end())
            assert status is not None, line
            assert heading.group(1) == status.group(1), f"{script}: {line[:160]}"


def test_6_a_hit_on_your_ship_is_news_on_your_board(run_script_text: Run) -> None:
    transcript, _ = play(run_script_text, "bst/polish/s6_private_news.txt")
    nemo = [line for line in transcript if line.startswith("-> dm nemo: #bst game 1, turn ")]
    ahab = [line for line in transcript if line.startswith("-> dm ahab: #bst game 1, turn ")]
    assert "\\nTurn 1: your cruiser was hit at F3 by ahab.\\n" in nemo[0]
    assert "\\nTurn 2: your submarine was sunk at A2 by nemo.\\n" in ahab[0]
    assert "\\nTurn 3: your carrier was hit at A3 by your own shot.\\n" in ahab[1]
    assert all(line.count(" at ") <= 2 and line.count("was ") == 1 for line in nemo + ahab)


def test_6_a_collision_is_told_once(run_script_text: Run) -> None:
    transcript, _ = play(run_script_text, "bst/bst-collisions.txt")
    told = [line for line in transcript if line.startswith("-> dm ") and "collided" in line]
    assert told and all(line.count("collided") == 1 for line in told)
    assert not any("collisions last turn" in line for line in transcript)


def test_tied_standings_are_no_markdown_list_that_a_platform_renumbers() -> None:
    from bot.games.base import Standing
    from bot.host.play.ending import standings_text

    standings = [Standing("a", 1), Standing("b", 2, ("adrift",)), Standing("c", 2)]
    text = standings_text("#uboat game 1", standings, {"a": "ann", "b": "ben", "c": "cy"})
    assert text.splitlines()[1:] == ["1st ann", "2nd ben: adrift", "2nd cy"]
    assert not any(re.match(r"\s*\d+[.)]\s", line) for line in text.splitlines())


@pytest.mark.parametrize("kind", ["bst", "sonar", "uboat", "sugardog", "silentships"])
def test_ending_a_game_that_never_started_cancels_it_unrated(
    run_script_text: Run, kind: str
) -> None:
    script = f"@game {kind}\nann public: #{kind} join\nbob public: #{kind} join\n@host end\n"
    transcript, _ = run_script_text(script)
    said = public(transcript)[-1]
    assert "cancelled game 1: it never started" in said
    assert "draw" not in said and "wins" not in said
    assert not any("Final standings" in line for line in transcript)


def test_a_mistyped_host_word_gets_a_did_you_mean(run_script_text: Run) -> None:
    transcript, _ = run_script_text(
        "@game bst size=10x10\nann public: #bst jion\nann public: #bst hello\n"
    )
    jion, hello = [line for line in transcript if line.startswith("-> dm ann: ")][-2:]
    assert jion.endswith("(did you mean `join`?)")
    assert "did you mean" not in hello
