"""The shared examples (shared/examples/silentships-*.txt), played through the game
object by the helpers' small host, each ``# expect:`` fact checked where it stands."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from silentships_helpers import Table

SCRIPTS = Path(__file__).resolve().parent / "scripts"
SHARED = Path(__file__).resolve().parents[4] / "shared" / "examples"

Check = Callable[[Table], None]


def _orders(t: Table, number: int) -> list[dict[str, object]]:
    return t.turn(number)["orders"]


def _events(t: Table, number: int) -> list[dict[str, object]]:
    return t.turn(number)["events"]


# ---------------------------------------------------------------- silentships-first-game.txt


def _first_start(t: Table) -> None:
    record = t.record()
    assert record["start"]["first"] == "ahab"
    assert t.player("ahab")["country"] == "C1"
    assert t.player("nemo")["country"] == "C4"
    assert record["game"]["islands"] == ["A2", "E3"]
    # ahab plays on B1 C1 D1: a ship on each is accepted, a ship beside them is not.
    from bot.games.silentships.cells import parse_cell, play_squares

    assert [str(c) for c in play_squares(parse_cell(t.player("ahab")["country"]))] == [
        "B1",
        "C1",
        "D1",
    ]


def _first_turn1_drew(t: Table) -> None:
    assert _events(t, 1) == [
        {"type": "drew", "player": "ahab", "cards": ["speed_boat", "patrol_ship"]}
    ]


def _first_hands(t: Table) -> None:
    assert t.player("ahab")["hand"] == [
        "speed_boat",
        "salvage_ship",
        "frigate",
        "ramming_ship",
        "patrol_ship",
    ]
    assert t.player("nemo")["hand"] == ["fire_ship", "submarine", "missile_boat"]


def _first_turn1_orders(t: Table) -> None:
    assert _orders(t, 1) == [
        {"player": "ahab", "action": "play", "ship": "frigate", "cell": "D1"},
        {"player": "ahab", "action": "move", "from": "D1", "to": "D2", "discard": "patrol_ship"},
        {"player": "ahab", "action": "play", "ship": "ramming_ship", "cell": "C1"},
        {"player": "ahab", "action": "end"},
    ]


def _first_turn2_events(t: Table) -> None:
    assert _events(t, 2) == [
        {"type": "drew", "player": "nemo", "cards": ["ammunition_ship", "flag_ship"]},
        {"type": "played", "player": "nemo", "ship": "submarine", "cell": "D4"},
        {"type": "moved", "player": "nemo", "ship": "submarine", "from": "D4", "to": "D3"},
        {"type": "played", "player": "nemo", "ship": "missile_boat", "cell": "C4"},
    ]


def _first_attack(t: Table) -> None:
    assert _events(t, 3)[-1] == {
        "type": "attack",
        "player": "ahab",
        "ship": "frigate",
        "from": "D2",
        "to": "D3",
        "target": "submarine",
    }
    assert t.record()["game"]["step"] == "supports"


def _first_response(t: Table) -> None:
    record = t.record()
    assert record["game"]["step"] == "response"
    assert record["game"]["player"] == "ahab"
    # nemo has 10m to answer; ahab's move clock is held (its time left kept).
    assert t.timers["response:1"].deadline == t.now + 600
    assert t.timers["move:3"].deadline is None
    assert t.timers["move:3"].left is not None
    assert record["game"]["deadline"] == "2026-01-01T00:10:00Z"
    (question,) = [n for n in t.replies[-1].notices if n.to == t.pid("nemo")]
    assert "pass" in question.choices and "10m" in question.text


def _first_revealed(t: Table) -> None:
    revealed = [e for e in _events(t, 3) if e["type"] == "revealed"]
    assert revealed == [
        {"type": "revealed", "player": "ahab", "ship": "frigate", "cell": "D2"},
        {"type": "revealed", "player": "nemo", "ship": "submarine", "cell": "D3"},
        {"type": "revealed", "player": "ahab", "ship": "ramming_ship", "cell": "C3"},
    ]


def _first_combat(t: Table) -> None:
    assert t.events("combat")[-1] == {
        "type": "combat",
        "attacker": "ahab",
        "defender": "nemo",
        "attack": 7,
        "defence": 3,
        "winner": "attack",
    }


def _first_sunk(t: Table) -> None:
    events = _events(t, 3)
    sunk = events.index(
        {"type": "sunk", "player": "nemo", "ship": "submarine", "cell": "D3", "by": "ahab"}
    )
    assert events[sunk + 1] == {
        "type": "moved",
        "player": "ahab",
        "ship": "frigate",
        "from": "D2",
        "to": "D3",
    }


def _first_piles(t: Table) -> None:
    ahab = t.player("ahab")
    assert ahab["sank"] == ["submarine"]
    assert ahab["hand"] == []
    assert ahab["discards"] == [
        "patrol_ship",
        "salvage_ship",
        "special_operations_craft",
        "speed_boat",
        "fire_ship",
    ]


def _first_turn4(t: Table) -> None:
    assert _events(t, 4)[0] == {
        "type": "drew",
        "player": "nemo",
        "cards": ["speed_boat", "salvage_ship"],
    }
    game = t.record()["game"]
    assert (game["turn"], game["player"]) == (4, "nemo")


# ---------------------------------------------------------------- silentships-clock.txt


def _clock_first_deadline(t: Table) -> None:
    assert t.record()["game"]["deadline"] == "2026-01-01T04:00:00Z"


def _clock_timeout_end(t: Table) -> None:
    assert _orders(t, 1)[-1] == {"player": "kit", "action": "end", "timeout": True}


def _clock_turn2(t: Table) -> None:
    turn = t.turn(2)
    assert (turn["player"], turn["began"]) == ("lou", "2026-01-01T04:00:00Z")
    assert t.record()["game"]["deadline"] == "2026-01-01T08:00:00Z"


def _clock_response(t: Table) -> None:
    game = t.record()["game"]
    assert (game["step"], game["deadline"]) == ("response", "2026-01-01T05:30:00Z")
    held = t.timers["move:2"]
    assert held.deadline is None and held.left == 3 * 3600


def _clock_pass_timeout(t: Table) -> None:
    assert {"player": "kit", "action": "pass", "timeout": True} in _orders(t, 2)


def _clock_one_revealed(t: Table) -> None:
    revealed = [e for e in _events(t, 2) if e["type"] == "revealed"]
    # lou's own reveal of B4 came earlier in the turn; the combat reveals kit's patrol ship only.
    assert revealed == [
        {"type": "revealed", "player": "lou", "ship": "speed_boat", "cell": "B4"},
        {"type": "revealed", "player": "kit", "ship": "patrol_ship", "cell": "B2"},
    ]
    events = _events(t, 2)
    combat = next(i for i, e in enumerate(events) if e["type"] == "combat")
    assert [e for e in events[combat - 1 : combat] if e["type"] == "revealed"] == [revealed[-1]]


def _clock_combat(t: Table) -> None:
    assert t.events("combat")[-1] == {
        "type": "combat",
        "attacker": "lou",
        "defender": "kit",
        "attack": 4,
        "defence": 4,
        "winner": "defence",
    }


def _clock_resumed(t: Table) -> None:
    assert t.record()["game"]["deadline"] == "2026-01-01T08:30:00Z"


def _clock_turn3(t: Table) -> None:
    assert _orders(t, 2)[-1] == {"player": "lou", "action": "end", "timeout": True}
    turn = t.turn(3)
    assert (turn["player"], turn["began"]) == ("kit", "2026-01-01T08:30:00Z")
    assert t.record()["game"]["deadline"] == "2026-01-01T12:30:00Z"


# ---------------------------------------------------------------- silentships-endings.txt


def _endings_combat(t: Table) -> None:
    assert t.events("combat")[-1] == {
        "type": "combat",
        "attacker": "nemo",
        "defender": "ahab",
        "attack": 3,
        "defence": 6,
        "winner": "defence",
    }


def _endings_fire_ship(t: Table) -> None:
    events = _events(t, 2)
    assert events[-1] == {
        "type": "sunk",
        "player": "ahab",
        "ship": "fire_ship",
        "cell": "D2",
        "by": "nemo",
    }
    assert {"cell": "D3", "ship": "ramming_ship", "face_up": True} in t.player("nemo")["units"]


def _endings_pile(t: Table) -> None:
    assert t.player("nemo")["sank"] == ["fire_ship"]
    cells = [u["cell"] for p in t.record()["players"] for u in p["units"]]
    assert "D2" not in cells


def _endings_offer(t: Table) -> None:
    assert t.record()["game"]["offer"] == "nemo"


def _endings_finished(t: Table) -> None:
    assert _events(t, 2)[-1] == {
        "type": "finished",
        "winners": ["nemo"],
        "draw": False,
        "reason": "agreed",
        "sank": {"ahab": 0, "nemo": 1},
    }


def _endings_statuses(t: Table) -> None:
    record = t.record()
    assert record["game"]["phase"] == "finished"
    assert (t.player("ahab")["status"], t.player("nemo")["status"]) == ("eliminated", "alive")
    game = record["game"]
    assert (game["player"], game["step"], game["deadline"]) == (None, None, None)


CHECKS: dict[str, Check] = {
    # first game
    "start.first ahab; ahab's country C1 (plays on B1 C1 D1), nemo's C4; islands [A2, E3]": (
        _first_start
    ),
    "turn 1 events: drew ahab [speed_boat, patrol_ship]": _first_turn1_drew,
    "ahab's hand [speed_boat, salvage_ship, frigate, ramming_ship, patrol_ship] (ship order); "
    "nemo's [fire_ship, submarine, missile_boat]": _first_hands,
    "turn 1 orders: play frigate D1; move D1 D2 discard patrol_ship; play ramming_ship C1; end": (
        _first_turn1_orders
    ),
    "turn 2 events: drew nemo [ammunition_ship, flag_ship]; played submarine D4; moved submarine "
    "D4 D3; played missile_boat C4": _first_turn2_events,
    "an attack event: ahab frigate D2 -> D3, target submarine; game.step supports": _first_attack,
    "game.step response: nemo has 10m to answer by DM; ahab's clock stands still": _first_response,
    "revealed ahab frigate D2, revealed nemo submarine D3, revealed ahab ramming_ship C3": (
        _first_revealed
    ),
    "combat {attacker ahab, defender nemo, attack 7, defence 3, winner attack}": _first_combat,
    "sunk {player nemo, ship submarine, cell D3, by ahab}; moved ahab frigate D2 -> D3": _first_sunk,
    "ahab's sank [submarine]; ahab's hand []; ahab's discards [patrol_ship, salvage_ship, "
    "special_operations_craft, speed_boat, fire_ship]": _first_piles,
    "turn 4 (nemo) drew [speed_boat, salvage_ship]; game.turn 4, game.player nemo": _first_turn4,
    # clock
    "game.deadline 2026-01-01T04:00:00Z": _clock_first_deadline,
    'kit\'s time ran out: turn 1 orders end with {"player": "kit", "action": "end", '
    '"timeout": true}': _clock_timeout_end,
    "turn 2 (lou) began 2026-01-01T04:00:00Z, deadline 2026-01-01T08:00:00Z": _clock_turn2,
    "game.step response, game.deadline 2026-01-01T05:30:00Z (the response deadline); lou has 3h "
    "left, frozen": _clock_response,
    '{"player": "kit", "action": "pass", "timeout": true}: no retreat, no supports': (
        _clock_pass_timeout
    ),
    "one revealed event, kit patrol_ship B2 (lou's speed boat is already face-up)": (
        _clock_one_revealed
    ),
    "combat {attacker lou, defender kit, attack 4, defence 4, winner defence} (patrol ship 2 + 2 "
    "as the target; ties to the defence)": _clock_combat,
    "game.deadline 2026-01-01T08:30:00Z (05:30 + the 3h lou had left)": _clock_resumed,
    '{"player": "lou", "action": "end", "timeout": true}; turn 3 (kit) began '
    "2026-01-01T08:30:00Z, deadline 2026-01-01T12:30:00Z": _clock_turn3,
    # endings
    "combat {attacker nemo, defender ahab, attack 3, defence 6, winner defence}": _endings_combat,
    "sunk {player ahab, ship fire_ship, cell D2, by nemo}; no moved event after it: nemo's "
    "ramming ship stays on D3": _endings_fire_ship,
    "nemo's sank [fire_ship]; D2 is empty": _endings_pile,
    "game.offer nemo": _endings_offer,
    "turn 2 ends with finished {winners [nemo], draw false, reason agreed, sank {ahab: 0, nemo: "
    "1}}": _endings_finished,
    "phase finished; ahab's status eliminated, nemo's alive; game.player, game.step and "
    "game.deadline null": _endings_statuses,
}

EXAMPLES = sorted(SCRIPTS.glob("silentships-*.txt"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_meets_its_expectations(path: Path) -> None:
    table = Table()
    checked = 0
    refusal_due = False  # a "# refused" note may stand before the refused line, or after it
    for line in path.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if stripped.startswith("# expect:"):
            fact = stripped.removeprefix("# expect:").strip()
            assert fact in CHECKS, f"no check for the fact {fact!r}"
            before = table.game
            CHECKS[fact](table)
            assert table.game is before  # checking changes nothing
            checked += 1
        elif stripped.startswith("# refused"):
            refusal_due = not (table.replies and table.last.refused)
        elif stripped and not stripped.startswith("#"):
            steps, state, replies = len(table.history), table.state, len(table.replies)
            table.line(stripped)
            refused = len(table.replies) > replies and table.last.refused
            if refused:  # a refused order changes nothing
                assert (len(table.history), table.state) == (steps, state)
            if refusal_due:
                assert refused, f"{stripped!r} was not refused"
                refusal_due = False
    assert not refusal_due
    assert checked > 0


def test_the_examples_are_the_shared_ones_unchanged() -> None:
    if not SHARED.is_dir():
        pytest.skip(reason="the shared examples are not on this machine")
    for shared in SHARED.glob("silentships-*.txt"):
        assert (SCRIPTS / shared.name).read_bytes() == shared.read_bytes()
    assert {p.name for p in SHARED.glob("silentships-*.txt")} == {p.name for p in EXAMPLES}


def test_every_fact_is_checked_somewhere() -> None:
    facts = {
        line.strip().removeprefix("# expect:").strip()
        for path in EXAMPLES
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip().startswith("# expect:")
    }
    assert facts == set(CHECKS)
