"""The record, ``sonar-record/1`` (``shared/contracts/sonar.md``): the contract's own
example reproduced exactly, and the record in setup and after the start."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sonar_helpers import Table, given_game

from bot.games.base import Channel, RecordContext, Step
from bot.games.sonar import SONAR

CONTRACT = Path(__file__).resolve().parents[4] / "shared" / "contracts" / "sonar.md"


def contract_example() -> dict[str, object]:
    text = CONTRACT.read_text(encoding="utf-8")
    block = re.search(r"```json\n(.*?)```", text, re.DOTALL)
    assert block is not None
    return dict(json.loads(block.group(1)))


def test_the_contracts_record_example_exactly() -> None:
    table = Table().play(
        [
            "@game sonar ships=1 placement=given",
            "alice dm: join",
            "alice dm: 2 f9 ul",
            "bob dm: join",
            "bob dm: 2 n18 ur",
            "carol dm: join",
            "carol dm: 2 h3 dr",
            "@start",
            "alice public: #sonar o18",
            "carol dm: leave",
            "bob public: #sonar f11",
            "alice public: #sonar p18",
        ]
    )
    assert table.refusals == []
    assert table.record() == contract_example()


def test_the_record_in_setup() -> None:
    table = Table({"placement": "given", "ships": "2", "size": "12"})
    table.say("a", "join", Channel.PRIVATE)
    table.say("a", "2 l5 ur, 3 c20 ur", Channel.PRIVATE)
    table.say("b", "join", Channel.PRIVATE)
    record = table.record()
    assert record["format"] == "sonar-record/1"
    assert record["game"] == {
        "kind": "sonar",
        "rows": 12,
        "cols": 24,
        "options": {
            "size": "12",
            "ships": "2",
            "one_shot": "off",
            "hide_hits": "off",
            "move_time": "1d",
            "on_timeout": "random",
            "placement": "given",
        },
        "phase": "setup",
        "turn": 0,
        "to_move": None,
        "winners": [],
        "draw": False,
    }
    a, b = record["players"]
    assert [s["cells"] for s in a["subs"]] == [["l5", "k5"], ["c20", "b20", "a20"]]
    assert b == {"name": "b", "status": "alive", "subs": []}
    assert record["start"] is None and record["turns"] == []


def test_the_record_writes_names_never_ids() -> None:
    table = given_game({"ahab": "2 a1 ur", "nemo": "2 a5 ur"})
    table.line("ahab public: #sonar b5")
    text = json.dumps(table.record())
    assert '"p1"' not in text and '"p2"' not in text
    assert '"nemo"' in text


def test_the_record_is_built_from_the_history_the_host_stores() -> None:
    table = given_game({"ahab": "2 a1 ur", "nemo": "2 a5 ur"})
    table.line("ahab public: #sonar b5")
    names = {"p1": "ahab", "p2": "nemo"}
    context = RecordContext(1, names, "battle", {})
    # A change that added nothing to a turn (a leave that waits) does not make a turn.
    history = [*table.history, Step(2, (), ())]
    record = SONAR.codec.record(table.state, history, context)
    assert [t["number"] for t in record["turns"]] == [1]
    assert record["turns"][0]["player"] == "ahab"
    assert record["game"]["turn"] == 2 and record["game"]["to_move"] == "nemo"
