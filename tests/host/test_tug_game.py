"""A game registered only here (Tug, ``tests/tug``) plays whole games through scripts on
the real host: routing by its tag, its own words, a turn resolved by the order that
completes it, a question to the other crew with its own timer while the mover's clock
waits, crews addressed as a group, the host's verbs on its timers, and its own record.
Adding Tug touched nothing outside ``tests/tug`` and the registration below."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.games.base import Channel, Given, PlayerRef, RecordContext, Step
from bot.games.catalog import register, unregister
from bot.host.play.seeds import seeded
from tests.tug import TUG

SCRIPTS = Path(__file__).resolve().parent.parent / "tug" / "scripts"
Run = Callable[[str], tuple[list[str], dict[str, Any]]]


@pytest.fixture(autouse=True)
def tug_registered() -> Iterator[None]:
    register(TUG)
    yield
    unregister(TUG.name)


def script(name: str) -> str:
    return (SCRIPTS / name).read_text(encoding="utf-8")


def public(transcript: list[str]) -> list[str]:
    return [line for line in transcript if line.startswith("-> public: ")]


def dms(transcript: list[str], name: str) -> list[str]:
    return [line for line in transcript if line.startswith(f"-> dm {name}: ")]


def test_a_game_of_another_kind_opens_with_its_own_options_and_words(run_script_text: Run) -> None:
    transcript, record = run_script_text(
        "@game tug target=2\nalice public: #tug join\nbob dm: join\n@start\n"
    )
    assert record["format"] == "tug-record/1"
    # No turn option is forced on a game that has none; the game's options are all there.
    assert record["game"]["options"] == {"move_time": "1h", "response_time": "10m", "target": "2"}
    opening, joined = public(transcript)[:2]
    assert opening.startswith("-> public: #tug game 1 is open")
    assert joined == "-> public: alice joined game 1 on the north crew."
    assert dms(transcript, "bob")[0] == "-> dm bob: bob joined game 1 on the south crew."
    text = "\n".join(transcript)
    for bst_word in ("captain", "fleet", "carrier", "battle begins", "#bst"):
        assert bst_word not in text
    assert "north's move closes 2026-01-01 01:00 UTC" in public(transcript)[2]


def test_an_unknown_option_is_refused_naming_the_known_ones(run_script_text: Run) -> None:
    transcript, record = run_script_text("@game tug turn=8h\n@game tug\n")
    assert "unknown option(s) ['turn']: expected move_time, response_time, target" in transcript[0]
    assert record["game"]["phase"] == "setup"


def test_an_order_that_completes_its_turn_resolves_at_once(run_script_text: Run) -> None:
    transcript, record = run_script_text(script("win_and_record.txt"))
    assert record["game"]["phase"] == "finished"
    assert record["game"]["winners"] == ["alice"]
    (turn,) = record["turns"]
    assert turn["orders"] == [{"player": "alice", "action": "pull", "steps": 3}]
    assert [e["type"] for e in turn["events"]] == ["pulled", "finished"]
    assert any(
        "turn 1: alice pulled 3: rope at -3. The north crew wins!" in line for line in transcript
    )
    assert public(transcript)[-1] == "-> public: #tug game 1: the replay of the whole game."


def test_a_question_holds_the_movers_clock_and_the_whole_crew_is_asked(
    run_script_text: Run,
) -> None:
    transcript, record = run_script_text(script("dare_and_crews.txt"))
    question = "The north crew dares you: `give` or `hold`?"
    assert f"-> dm bob: {question}" in dms(transcript, "bob")
    assert f"-> dm dave: {question}" in dms(transcript, "dave")
    assert not any(question in line for line in dms(transcript, "carol") + dms(transcript, "alice"))
    assert any("south's answer closes 2026-01-01 00:30 UTC" in line for line in transcript)
    # Dared at 00:20 with 40 minutes left; answered at 00:25: the move runs on to 01:05.
    assert any("north's move closes 2026-01-01 01:05 UTC" in line for line in transcript)
    (turn,) = record["turns"]
    assert [o["player"] for o in turn["orders"]] == ["alice", "dave", "carol"]
    assert record["game"]["winners"] == ["alice", "carol"]


def test_an_unanswered_question_times_out_and_the_held_time_runs_on(run_script_text: Run) -> None:
    transcript, record = run_script_text(script("answer_timeout.txt"))
    answered = {"player": "bob", "action": "hold", "timeout": True}
    assert answered in record["turns"][0]["orders"]
    # Dared at 00:30 with 30 min left; the answer fell at 00:40, so the move closes 01:10,
    # and the next @close falls there (the turn passes to south).
    assert any("north's move closes 2026-01-01 01:10 UTC" in line for line in transcript)
    assert record["turns"][0]["events"][-1] == {"type": "timeout", "seat": "north"}
    assert record["game"]["deadlines"] == {"move:2": "2026-01-01T02:10:00Z"}


def test_while_paused_orders_of_a_game_played_in_turn_are_refused(run_script_text: Run) -> None:
    transcript, record = run_script_text(
        "@game tug\nalice public: #tug join\nbob public: #tug join\n@start\n"
        "@host pause\nalice public: #tug pull 1\n@host extend 30m\n@host resume\n"
    )
    assert "-> dm alice: the game is paused: orders wait until its host resumes it" in transcript
    assert record["turns"] == []
    assert any(
        "Game 1 resumed: north's move closes 2026-01-01 01:30 UTC." in line for line in transcript
    )


def test_the_record_replays_through_the_rules(run_script_text: Run) -> None:
    """From the record's options, start and orders, the rules give every event again."""
    _, record = run_script_text(script("dare_and_crews.txt"))
    names = {p["name"]: f"p{i}" for i, p in enumerate(record["players"], start=1)}
    state = TUG.rules.new_game(record["game"]["options"])
    for name, key in names.items():
        state = TUG.rules.join(state, PlayerRef(key, name))
    seats = {names[p["name"]]: p["seat"] for p in record["players"]}
    first = next(key for key, seat in seats.items() if seat == record["start"]["first"])
    state = TUG.rules.start(state, seeded(0, "start"), first).state
    replayed: list[dict[str, Any]] = []
    for entry in record["turns"][0]["orders"]:
        order = TUG.rules.parse(
            f"pull {entry['steps']}" if entry["action"] == "pull" else entry["action"]
        )
        accepted = TUG.rules.accept(
            state, names[entry["player"]], order, Channel.PRIVATE, seeded(0)
        )
        if accepted.resolve_now:
            resolution = TUG.rules.resolve(
                accepted.state, [Given(names[entry["player"]], order, 0.0, 1)], seeded(0)
            )
            state, events = resolution.state, resolution.events
        else:
            state, events = accepted.state, accepted.events
        replayed += [event.record() for event in events]
    keys = {v: k for k, v in names.items()}
    context = RecordContext(1, keys, "finished", {})
    again = TUG.codec.record(state, [Step(1, (), tuple(replayed))], context)
    assert again["turns"][0]["events"] == record["turns"][0]["events"]


def test_bst_demo_plays_a_whole_game_of_any_game_with_its_robots(tmp_path: Path) -> None:
    """`bst demo --game KIND` finds the game's robot beside its rules and plays to the end."""
    from bot.__main__ import main

    out = tmp_path / "demo"
    assert main(["demo", "--game", "tug", "--players", "4", "--out", str(out)]) == 0
    record = json.loads((out / "record.json").read_text(encoding="utf-8"))
    assert record["format"] == "tug-record/1"
    assert record["game"]["phase"] == "finished"
    assert record["turns"] and all(t["orders"] for t in record["turns"])
    assert (out / "public.txt").read_text(encoding="utf-8").count("#tug game 1") > 2
