"""Rule 3 under hypothesis: two games with the same public history and different hidden
fleets give byte-identical public output — the public map PNG of every turn, its alt
text, every public message, and every message to the other captain.

With committed luck and order receipts (issue 31), two games that differ only in a
hidden order (and the hidden fleet it moves) give the same public output and the same
messages to the other captain, byte for byte, except the receipts' roots and the other
captain's path to them: those are the commitments, and differ as the orders do."""

from __future__ import annotations

import re
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
        view = BST.views.view(BST.codec.decode_state(loads(turn.state)), None)
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
        "summary": BST.words.summary(BST.codec.decode_state(loads(game.state)), None),
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
        assert BST.views.view(_state(one), "p1") != BST.views.view(_state(two), "p1")
    finally:
        one.close()
        two.close()


def _state(kit: MultiKit):
    with kit.store.transaction() as tx:
        return BST.codec.decode_state(loads(tx.game(1).state))


SECRET = "5a" * 32
ROOT = re.compile(r"(orders that stood: )[0-9a-f]{64}")
PROOF = re.compile(r"(counted in the root )[0-9a-f]{64}(, by the path )[LR0-9a-f,-]+")


def _masked(text: str) -> str:
    """``text`` with the receipts' roots and paths (the commitments themselves) masked."""
    return PROOF.sub(r"\1ROOT\2PATH", ROOT.sub(r"\1ROOT", text))


def _play_hidden_moves(
    folder: Path, alice_fleet: str, moves: list[str], shots: list[str]
) -> MultiKit | None:
    """alice gives a hidden order each turn (a move, by DM), bob a public shot; None when
    the rules refuse alice's move or it collides (then the two games differ in public by
    the rules, not by a leak)."""
    kit = MultiKit(folder, ["discord"], draw_secret=lambda: SECRET)
    say = kit.say
    say("discord", "alice", "#bst new size=10x10 turn=1h", channel="c", message_id="n")
    say("discord", "alice", "join", channel="c", message_id="j1")
    say("discord", "bob", "join", channel="c", message_id="j2")
    say("discord", "alice", alice_fleet, channel="c", dm=True, message_id="f1")
    say("discord", "bob", BOB_FLEET, channel="c", dm=True, message_id="f2")
    say("discord", "alice", "start", channel="c", message_id="s")
    if kit.game(1).phase != "battle":
        kit.close()
        return None
    for turn, (move, shot) in enumerate(zip(moves, shots, strict=True)):
        say("discord", "alice", move, channel="c", dm=True, message_id=f"a{turn}")
        say("discord", "bob", f"#bst {shot}", channel="c", message_id=f"b{turn}")
        with kit.store.transaction() as tx:
            stood = set(tx.standing_orders(1, kit.game(1).turn))
        kit.clock.advance(3600)
        kit.tick()
        with kit.store.transaction() as tx:
            events = loads(tx.turns(1)[-1].events)
        if stood != {"p1", "p2"} or any(e["type"] == "collision" for e in events):
            kit.close()
            return None
    return kit


def _seen_by_others(kit: MultiKit) -> dict[str, list[tuple[str, str, str]]]:
    with kit.store.transaction() as tx:
        rows = tx.outbox()
    return {
        "public": [(r.kind, r.text, r.render) for r in rows if r.recipient == "public"],
        "to_bob": [
            (r.kind, r.text, r.render) for r in rows if r.recipient in ("p2", "discord:id-bob")
        ],
    }


@settings(
    derandomize=True, deadline=None, database=None, max_examples=8,
    suppress_health_check=list(HealthCheck),
)  # fmt: skip
@given(first=fleet(), second=fleet(), data=st.data())
def test_games_apart_only_in_a_hidden_order_differ_in_public_only_by_the_receipts_roots(
    tmp_path_factory, first, second, data
) -> None:
    directions = st.sampled_from(["up", "down", "left", "right"])
    turns = 1  # (a second move would name the ship where the first one left it)
    # bob shoots where alice's ships are not and cannot be after one step: a hit would
    # differ in public by the rules, not by a leak.
    near = {
        f"{LETTERS[row + dr]}{int(cell[1:]) + dc}"
        for cell in first[1] | second[1]
        for row in [LETTERS.index(cell[0])]
        for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))
        if 0 <= row + dr < 10
    }
    water = sorted(
        f"{letter}{n}"
        for letter in LETTERS
        for n in range(1, 11)
        if f"{letter}{n}" not in near | BOB_CELLS
    )
    assume(water)
    shots = data.draw(st.lists(st.sampled_from(water), min_size=turns, max_size=turns))

    def moves(placed: tuple[str, frozenset[str]]) -> list[str]:
        # The fleet's second ship (``carrier: C1-C5``), one step in a drawn way.
        name, cells = placed[0].split(", ")[1].split(": ")
        return [f"move {name} at {cells.split('-')[0]} 1 {data.draw(directions)}"]

    first_moves, second_moves = moves(first), moves(second)
    assume(first_moves != second_moves)
    folder = tmp_path_factory.mktemp("receipts")
    one = _play_hidden_moves(folder / "one", first[0], first_moves, shots)
    assume(one is not None)
    two = _play_hidden_moves(folder / "two", second[0], second_moves, shots)
    if two is None:
        one.close()
        assume(False)
    try:
        seen_one, seen_two = _seen_by_others(one), _seen_by_others(two)
        for key in seen_one:
            masked_one = [(k, _masked(t), r) for k, t, r in seen_one[key]]
            masked_two = [(k, _masked(t), r) for k, t, r in seen_two[key]]
            assert masked_one == masked_two, f"{key} depends on alice's hidden order"
        # Exactly the commitments differ: each turn's root (the orders differ), and bob's
        # path to it, which has alice's leaf beside his.
        roots_one = [m.group(0) for _, t, _ in seen_one["public"] for m in ROOT.finditer(t)]
        roots_two = [m.group(0) for _, t, _ in seen_two["public"] for m in ROOT.finditer(t)]
        assert len(roots_one) == len(roots_two) == turns
        assert roots_one != roots_two
        proofs = [m.group(0) for _, t, _ in seen_one["to_bob"] for m in PROOF.finditer(t)]
        assert len(proofs) == turns  # bob's DM carries his receipt's path each turn
    finally:
        one.close()
        two.close()


# Substitutes (issue 39 item 2): whatever a host who plays, their second account and a
# bystander do with `replace` and `seat yes`/`seat no`, nothing any of them, nor the
# public, receives depends on the hidden fleet of the seat they are after.
ATTEMPTS = [
    ("discord", "alice", "replace bob <@id-alt>", False),
    ("discord", "alice", "replace bob alt", False),
    ("discord", "alice", "replace bob carol", False),
    ("discord", "alice", "replace bob <@id-carol>", False),
    ("discord", "alt", "seat yes 1", True),
    ("discord", "alt", "seat yes", True),
    ("discord", "carol", "seat yes 1", True),
    ("discord", "carol", "seat no 1", True),
    ("discord", "alt", "board", True),
    ("discord", "carol", "board", True),
    ("discord", "alt", "#bst A1", False),
    ("discord", "alice", "replace bob <@id-bob>", False),
    ("discord", "alice", "replace alice <@id-alt>", False),
    ("discord", "alice", "seat yes 1", True),
    ("discord", "ref", "replace bob <@id-carol>", False),
]
ALICE_FLEET = BOB_FLEET  # (the fixed fleet; bob's is drawn)


def _substitute_attempts(folder: Path, bob_fleet: str, attempts: list[int]) -> MultiKit | None:
    kit = MultiKit(folder, ["discord"], admins=frozenset({"discord:id-ref"}))
    say = kit.say
    say("discord", "alice", "#bst new size=10x10 turn=1h", channel="c", message_id="n")
    say("discord", "alice", "join", channel="c", message_id="j1")
    say("discord", "bob", "join", channel="c", message_id="j2")
    say("discord", "alice", ALICE_FLEET, channel="c", dm=True, message_id="f1")
    say("discord", "bob", bob_fleet, channel="c", dm=True, message_id="f2")
    for name in ("alt", "carol"):
        say("discord", name, "games", channel="", dm=True, message_id=f"g-{name}")
    say("discord", "alice", "start", channel="c", message_id="s")
    if kit.game(1).phase != "battle":
        kit.close()
        return None
    for number, index in enumerate(attempts):
        platform, user, text, dm = ATTEMPTS[index]
        say(platform, user, text, channel="" if dm else "c", dm=dm, message_id=f"x{number}")
    return kit


def _seen_by_all_but_bob(kit: MultiKit) -> list[tuple[str, str, str, str]]:
    with kit.store.transaction() as tx:
        rows = tx.outbox()
    # By address, not by recipient: a seat's board is for the seat's key ("p2"), whoever
    # holds it.
    return [
        (r.address, r.kind, r.text, r.render) for r in rows if '"user_id":"id-bob"' not in r.address
    ]


def _bob_answers_in_setup(folder: Path, alice_fleet: str, draws: int) -> list[tuple[str, str]]:
    """Everything bob is sent in a setup where alice places ``alice_fleet`` and bob sends
    ``random`` ``draws`` times, then asks for his board and the status."""
    kit = MultiKit(folder, ["discord"])
    try:
        say = kit.say
        say("discord", "alice", "#bst new size=10x10 turn=1h", channel="c", message_id="n")
        say("discord", "alice", "join", channel="c", message_id="j1")
        say("discord", "bob", "join", channel="c", message_id="j2")
        say("discord", "alice", alice_fleet, channel="c", dm=True, message_id="f1")
        for draw in range(draws):
            say("discord", "bob", "random", channel="c", dm=True, message_id=f"r{draw}")
        say("discord", "bob", "board", channel="c", dm=True, message_id="b")
        say("discord", "bob", "status", channel="c", message_id="st")
        with kit.store.transaction() as tx:
            rows = tx.outbox()
        return [(r.kind, r.text) for r in rows if r.recipient in ("p2", "discord:id-bob")]
    finally:
        kit.close()


@settings(
    derandomize=True, deadline=None, database=None, max_examples=10,
    suppress_health_check=list(HealthCheck),
)  # fmt: skip
@given(
    first=fleet(),
    second=fleet(),
    attempts=st.lists(st.integers(0, len(ATTEMPTS) - 1), min_size=1, max_size=8),
)
def test_no_substitute_attempt_shows_anyone_a_seat_whose_player_did_not_agree(
    tmp_path_factory, first, second, attempts
) -> None:
    assume(first[1] != second[1])
    folder = tmp_path_factory.mktemp("substitutes")
    one = _substitute_attempts(folder / "one", first[0], attempts)
    assume(one is not None)
    two = _substitute_attempts(folder / "two", second[0], attempts)
    if two is None:
        one.close()
        assume(False)
    try:
        seen_one, seen_two = _seen_by_all_but_bob(one), _seen_by_all_but_bob(two)
        for row_one, row_two in zip(seen_one, seen_two, strict=True):
            assert row_one == row_two, f"{row_one[0]} saw bob's hidden fleet"
        with one.store.transaction() as tx:
            holders = {p.key: p.user_id for p in tx.players(1)}
        # Only the host who plays no seat could hand bob's seat on; then it went to carol.
        assert holders["p2"] in ("id-bob", "id-carol")
    finally:
        one.close()
        two.close()


def test_a_substitute_accepted_sees_the_seat_so_the_comparison_can_fail(tmp_path) -> None:
    """Honest: where the newcomer does take the seat (a host who plays none offered it),
    what they receive differs with the seat's fleet."""
    one = _substitute_attempts(tmp_path / "one", "sub: A2, carrier: C1-C5", [14, 6])
    two = _substitute_attempts(tmp_path / "two", "sub: A2, carrier: D1-D5", [14, 6])
    assert one is not None and two is not None
    try:
        assert _seen_by_all_but_bob(one) != _seen_by_all_but_bob(two)
    finally:
        one.close()
        two.close()


@given(first=fleet(), second=fleet(), draws=st.integers(1, 6))
def test_randoms_answers_in_setup_never_depend_on_another_captains_fleet(
    tmp_path_factory, first, second, draws
) -> None:
    """Rules §3, no probing with `random`: two games that differ only in alice's hidden
    fleet give bob byte-identical answers to his `random` DMs (before: each draw avoided
    her ships, so the cells never offered to bob after ~100 draws were her fleet)."""
    assume(first[1] != second[1])
    folder = tmp_path_factory.mktemp("random")
    one = _bob_answers_in_setup(folder / "one", first[0], draws)
    two = _bob_answers_in_setup(folder / "two", second[0], draws)
    drawn = [text for _, text in one if text.startswith("Placed at random")]
    assert len(drawn) == draws  # honest: every draw was answered, with its fleet
    assert one == two, "bob's answers in setup depend on alice's hidden fleet"
