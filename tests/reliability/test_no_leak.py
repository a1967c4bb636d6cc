"""Rule 3 under hypothesis: two games with the same public history and different hidden
fleets give byte-identical public output — the public map PNG of every turn, its alt
text, every public message, and every message to the other captain."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from host_kit import MultiKit
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.games.bst import BST
from bot.store import loads
from renderers.bst.alt_text import public_alt_text
from renderers.bst.public_map import render_public_map

LETTERS = "ABCDEFGHIJ"
BOB_FLEET = "cruiser: F1-F3, cruiser: J8-J10"
BOB_CELLS = {"F1", "F2", "F3", "J8", "J9", "J10"}


def _cells(letter: int, number: int, length: int, across: bool) -> list[str]:
    if across:
        return [f"{LETTERS[letter]}{number + i}" for i in range(length)]
    return [f"{LETTERS[letter + i]}{number}" for i in range(length)]


@st.composite
def fleet(draw: st.DrawFn) -> tuple[str, frozenset[str]]:
    """A valid-looking placement for alice: (text, cells); invalid ones are assumed away."""
    loadout = draw(st.sampled_from([("sub", 1, "carrier", 5), ("cruiser", 3, "cruiser", 3)]))
    parts, cells = [], set()
    for name, length in ((loadout[0], loadout[1]), (loadout[2], loadout[3])):
        across = draw(st.booleans())
        letter = draw(st.integers(0, 9 if across else 10 - length))
        number = draw(st.integers(1, 11 - length if across else 10))
        run = _cells(letter, number, length, across)
        assume(not (set(run) & (cells | BOB_CELLS)))
        cells.update(run)
        parts.append(f"{name}: {run[0]}" + (f"-{run[-1]}" if length > 1 else ""))
    return ", ".join(parts), frozenset(cells)


def _play(folder: Path, alice_fleet: str, shots: list[tuple[str, str]]) -> MultiKit | None:
    kit = MultiKit(folder, ["discord"])
    say = kit.say
    say("discord", "alice", "#bst new size=10x10 turn=1h", channel="c", message_id="n")
    say("discord", "alice", "join", channel="c", message_id="j1")
    say("discord", "bob", "join", channel="c", message_id="j2")
    say("discord", "alice", alice_fleet, channel="c", dm=True, message_id="f1")
    say("discord", "bob", BOB_FLEET, channel="c", dm=True, message_id="f2")
    captain = _state(kit).captain("p1")
    if captain is None or not captain.ships:  # refused by a rule this strategy does not know
        kit.close()
        return None
    say("discord", "alice", "start", channel="c", message_id="s")
    if kit.game(1).phase != "battle":
        kit.close()
        return None
    for turn, (alice_shot, bob_shot) in enumerate(shots):
        say("discord", "alice", f"#bst {alice_shot}", channel="c", message_id=f"a{turn}")
        say("discord", "bob", bob_shot, channel="c", message_id=f"b{turn}")
        say("discord", "bob", "status", channel="c", message_id=f"st{turn}")
        kit.clock.advance(3600)
        kit.tick()
    return kit


def _public_output(kit: MultiKit) -> dict[str, object]:
    with kit.store.transaction() as tx:
        turns = tx.turns(1)
        game = tx.game(1)
        rows = tx.outbox()
    assert game is not None
    maps, alts = [], []
    for turn in turns:
        view = BST.view(BST.decode_state(loads(turn.state)), None)
        options = {
            "title": "#bst game 1",
            "deadline": datetime.fromtimestamp(turn.deadline or 0, UTC),
            "now": datetime.fromtimestamp(turn.resolved_at, UTC),
        }
        maps.append(render_public_map(view, **options))
        alts.append(public_alt_text(view, **options))
    return {
        "maps": maps,
        "alts": alts,
        "public": [(r.kind, r.text, r.render) for r in rows if r.recipient == "public"],
        "to_bob": [
            (r.kind, r.text, r.render) for r in rows if r.recipient in ("p2", "discord:id-bob")
        ],
        "turn": game.turn,
        "summary": BST.summary(BST.decode_state(loads(game.state)), None),
    }


@settings(
    derandomize=True, deadline=None, database=None, max_examples=12,
    suppress_health_check=list(HealthCheck),
)  # fmt: skip
@given(first=fleet(), second=fleet(), data=st.data())
def test_different_hidden_fleets_give_byte_identical_public_output(
    tmp_path_factory, first, second, data
) -> None:
    assume(first[1] != second[1])
    hidden = first[1] | second[1] | BOB_CELLS
    water = sorted(
        f"{letter}{n}" for letter in LETTERS for n in range(1, 11) if f"{letter}{n}" not in hidden
    )
    shots = data.draw(
        st.lists(st.tuples(st.sampled_from(water), st.sampled_from(water)), min_size=1, max_size=3)
    )
    folder = tmp_path_factory.mktemp("leak")
    one = _play(folder / "one", first[0], shots)
    assume(one is not None)
    two = _play(folder / "two", second[0], shots)
    if two is None:
        one.close()
        assume(False)
    try:
        out_one, out_two = _public_output(one), _public_output(two)
        assert out_one["turn"] == out_two["turn"] == len(shots) + 1
        for key in out_one:
            assert out_one[key] == out_two[key], f"{key} depends on alice's hidden fleet"
        # Honest: the private side does differ (alice's own boards describe her fleet).
        assert BST.view(_state(one), "p1") != BST.view(_state(two), "p1")
    finally:
        one.close()
        two.close()


def _state(kit: MultiKit):
    with kit.store.transaction() as tx:
        return BST.decode_state(loads(tx.game(1).state))
