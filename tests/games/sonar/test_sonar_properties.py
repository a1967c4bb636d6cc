"""Properties of Sonar's rules under hypothesis: seeded random playthroughs to the end
with the invariants checked after every change; the same seed gives the same game;
refusals change nothing; and the public outputs (``view(state, None)``, ``summary``,
``public_report``) are identical for games whose hidden facts differ where nothing
public tells them apart."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sonar_helpers import Table

from bot.games.base import Channel, Event, GameError, PlayerRef
from bot.games.sonar import SONAR
from bot.games.sonar.board import Board
from bot.games.sonar.encounters import Course
from bot.games.sonar.fleet import fleet_lengths
from bot.games.sonar.placement import place_fleets
from bot.games.sonar.state import Phase, Status
from bot.games.sonar.views import PublicView

PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ("ahab", "nemo", "flint", "drake")


# --------------------------------------------------------------------- invariants


def check_invariants(table: Table) -> None:
    state = table.state
    board = state.board
    assert (
        SONAR.codec.decode_state(json.loads(json.dumps(SONAR.codec.encode_state(state)))) == state
    )
    on_board = [cell for _, _, cells in state.on_board(state.moves) for cell in cells]
    assert len(on_board) == len(set(on_board)), "two subs share a cell"
    for captain in state.captains:
        for sub in captain.fleet:
            segments = sub.hit_segments()
            assert all(0 <= s < sub.length for s in segments)
            assert sub.sunk == (len(segments) == sub.length)
            assert sub.sunk_turn is None or sub.sunk_turn <= state.moves
        if state.phase is not Phase.SETUP and captain.fleet:
            if captain.status is Status.ALIVE:
                assert captain.afloat and captain.left_turn is None
            if captain.status is Status.ELIMINATED:
                assert not captain.afloat
            if captain.status is Status.LEFT:
                assert captain.left_turn is not None and not captain.leaving
    timers = SONAR.rules.timers(state)
    if state.phase is Phase.BATTLE:
        mover = state.captain(state.to_move or "")
        assert mover is not None and mover.status is Status.ALIVE and mover.afloat
        assert [t.key for t in timers] == [f"turn:{state.moves + 1}"]
        assert sum(c.status is Status.ALIVE for c in state.captains) >= 2
        assert SONAR.rules.outcome(state) is None
    if state.phase is Phase.FINISHED:
        outcome = SONAR.rules.outcome(state)
        assert outcome is not None and timers == ()
        alive = [c.id for c in state.captains if c.status is Status.ALIVE]
        if not outcome.draw:
            assert list(outcome.winners) == alive and len(alive) == 1
    record = json.loads(json.dumps(table.record()))
    assert len(record["turns"]) == state.moves
    assert [t["number"] for t in record["turns"]] == list(range(1, state.moves + 1))
    for player in record["players"]:
        for sub in player["subs"]:
            assert set(sub["hits"]) <= set(sub["cells"])
            assert len(sub["cells"]) == sub["length"]
    # The public view never shows an unhit segment of a live sub.
    view = SONAR.views.view(state, None)
    assert isinstance(view, PublicView)
    unhit = {
        cells[i]
        for _, sub, cells in state.on_board(state.moves)
        for i in range(sub.length)
        if i not in sub.hit_segments()
    }
    assert not set(view.board.hits) & unhit
    assert all(board.contains(cell) for cell in view.board.hits)


# --------------------------------------------------------------------- playthroughs


def random_game(seed: int, steps: int = 120, finish: bool = True) -> Table:
    """A seeded game with random options, played with random orders (legal and not)
    until it ends (or for ``steps`` changes, then ended by the host unless ``finish`` is
    false), the invariants checked after every change."""
    rng = random.Random(seed)
    players = rng.randint(2, 4)
    size = rng.choice((8, 10, 12, 16))
    ships = rng.randint(1, 3 if size < 12 else 4)
    options = {
        "size": str(size),
        "ships": str(ships),
        "one_shot": rng.choice(("on", "off")),
        "hide_hits": rng.choice(("on", "off")),
        "on_timeout": rng.choice(("random", "skip")),
        "move_time": "1h",
    }
    table = Table(options, seed=seed)
    for name in NAMES[:players]:
        table.say(name, "join", Channel.PRIVATE)
    table.line("@start")
    check_invariants(table)
    for _ in range(steps):
        if table.state.phase is not Phase.BATTLE:
            break
        act(table, rng)
        check_invariants(table)
    if table.state.phase is Phase.BATTLE and finish:
        table.line("@host end")
        check_invariants(table)
    assert table.state.phase is Phase.FINISHED or not finish
    return table


def act(table: Table, rng: random.Random) -> None:
    state = table.state
    mover = state.to_move or ""
    name = state.name_of(mover)
    roll = rng.random()
    board = state.board
    if roll < 0.55:
        count = rng.randint(1, state.shots_allowed(mover))
        cells = rng.sample(list(board.cells()), count)
        table.line(f"{name} public: #sonar {', '.join(map(str, cells))}")
    elif roll < 0.7:
        table.line(f"{name} dm: random")
    elif roll < 0.8:
        table.line("@close")
    elif roll < 0.84:
        leaver = rng.choice([c for c in state.captains if c.status is Status.ALIVE])
        table.line(f"{leaver.name} dm: leave")
    else:
        refused_changes_nothing(table, rng)


def refused_changes_nothing(table: Table, rng: random.Random) -> None:
    """An order that must be refused leaves the state exactly as it was."""
    state = table.state
    before = SONAR.codec.encode_state(state)
    others = [c for c in state.captains if c.id != state.to_move]
    sender = rng.choice(others)
    allowed = state.shots_allowed(state.to_move or "")
    mover = state.captain(state.to_move or "")
    assert mover is not None
    texts = [
        (sender.id, "a1"),  # not their turn (or not in the battle)
        (mover.id, ", ".join(str(c) for c in list(state.board.cells())[: allowed + 1])),
        (mover.id, "a1, a1"),
        (mover.id, "2 a1 ur"),
    ]
    player, text = rng.choice(texts)
    try:
        SONAR.rules.accept(state, player, SONAR.rules.parse(text), Channel.PUBLIC, random.Random(0))
    except GameError:
        pass
    else:
        raise AssertionError(f"{text!r} from {player} was accepted")
    assert SONAR.codec.encode_state(table.state) == before


@PROPERTY
@given(seed=st.integers(min_value=0, max_value=10**6))
def test_a_seeded_random_playthrough_keeps_every_invariant_to_the_end(seed: int) -> None:
    random_game(seed)


@PROPERTY
@given(seed=st.integers(min_value=0, max_value=10**6))
def test_the_same_seed_gives_the_same_game(seed: int) -> None:
    first, again = random_game(seed), random_game(seed)
    assert first.record() == again.record()
    assert SONAR.codec.encode_state(first.state) == SONAR.codec.encode_state(again.state)


def test_different_seeds_place_different_fleets() -> None:
    starts = {json.dumps(random_game(seed, steps=0).record()["start"]) for seed in range(6)}
    assert len(starts) > 1


# --------------------------------------------------------------------- hidden facts


def _swapped_games(seed: int, swaps: Sequence[bool], size: int = 12) -> tuple[Table, Table]:
    """Two games of two players whose fleets hold the same subs, with the subs whose
    ``swaps`` flag is set owned the other way round: what the board holds is the same,
    who owns what differs."""
    ships = len(swaps)
    placed = place_fleets(Board(size), [], [fleet_lengths(ships)] * 2, random.Random(seed))
    assert placed.fleets is not None
    first, second = placed.fleets
    swapped = (
        tuple(b if swap else a for a, b, swap in zip(first, second, swaps, strict=True)),
        tuple(a if swap else b for a, b, swap in zip(first, second, swaps, strict=True)),
    )
    tables = []
    for ahab, nemo in ((first, second), swapped):
        table = Table({"size": str(size), "ships": str(ships), "placement": "given"}, seed=seed)
        table.play(
            [
                "ahab dm: join",
                f"ahab dm: {_fleet_text(ahab)}",
                "nemo dm: join",
                f"nemo dm: {_fleet_text(nemo)}",
                "@start",
            ]
        )
        assert table.refusals == []
        tables.append(table)
    return tables[0], tables[1]


def _fleet_text(fleet: Sequence[Course]) -> str:
    return ", ".join(f"{c.length} {c.bow} {c.facing.value}" for c in fleet)


def public_outputs(table: Table) -> tuple[Any, ...]:
    names = {"p1": "ahab", "p2": "nemo"}
    events = [
        Event(e["type"], {k: v for k, v in e.items() if k != "type"})
        for s in table.history
        for e in s.events
    ]
    return (
        SONAR.views.view(table.state, None),
        SONAR.words.summary(table.state, None),
        SONAR.words.public_report(events, names),
    )


def public_facts(table: Table) -> list[Any]:
    """The public part of every event: what the public may know."""
    facts: list[Any] = []
    for step in table.history:
        for event in step.events:
            if event["type"] == "shot":
                facts.append((event["cell"], event["result"], event.get("distance")))
            else:
                facts.append(dict(event))
    return facts


@PROPERTY
@given(
    seed=st.integers(min_value=0, max_value=10**6),
    swaps=st.lists(st.booleans(), min_size=2, max_size=3).filter(any),
    shots=st.lists(st.integers(min_value=0, max_value=287), min_size=1, max_size=12),
)
def test_public_outputs_are_identical_when_only_hidden_facts_differ(
    seed: int, swaps: list[bool], shots: list[int]
) -> None:
    one, other = _swapped_games(seed, swaps)
    board = one.state.board
    assert public_outputs(one) == public_outputs(other)
    assert SONAR.views.view(one.state, "p1") != SONAR.views.view(other.state, "p1")
    for shot in shots:
        if one.state.phase is not Phase.BATTLE:
            break
        mover = one.state.name_of(one.state.to_move)
        allowed = one.state.shots_allowed(one.state.to_move or "")
        cells = {board.cell_at((shot + k * 37) % board.size) for k in range(allowed)}
        line = f"{mover} public: #sonar {', '.join(map(str, sorted(cells)))}"
        one.line(line)
        other.line(line)
        if any(e["type"] == "sunk" for step in one.history for e in step.events):
            break  # a sunk sub names its owner: from here on the games may differ in public
        assert public_facts(one) == public_facts(other)
        assert public_outputs(one) == public_outputs(other)


def test_in_setup_the_public_sees_nothing_of_the_fleets_sent() -> None:
    views = []
    for fleet in ("2 a1 ur, 3 c5 ur", "2 e9 dl, 3 h2 dl"):
        table = Table({"size": "12", "ships": "2", "placement": "given"})
        table.play(["ahab dm: join", f"ahab dm: {fleet}", "nemo dm: join"])
        assert table.refusals == []
        views.append((SONAR.views.view(table.state, None), SONAR.words.summary(table.state, None)))
    assert views[0] == views[1]


@PROPERTY
@given(seed=st.integers(min_value=0, max_value=10**6))
def test_at_the_start_different_random_fleets_look_the_same_in_public(seed: int) -> None:
    outputs = []
    for offset in (0, 1):
        table = Table({"size": "12", "ships": "3"}, seed=seed + offset)
        table.play(["ahab dm: join", "nemo dm: join", "@start"])
        outputs.append(
            (SONAR.views.view(table.state, None), SONAR.words.summary(table.state, None))
        )
    assert outputs[0] == outputs[1]


_WORDS = st.sampled_from(
    ["a1", "F11", "p32", "q1", "a33", "l20", "random", "2", "ur", "x", ",", "fire", "3 c5 ur"]
)


@PROPERTY
@given(
    seed=st.integers(min_value=0, max_value=10**6),
    words=st.lists(_WORDS, min_size=1, max_size=6),
    sender=st.sampled_from(["p1", "p2", "p3", "nobody"]),
    public=st.booleans(),
)
def test_a_refused_order_changes_nothing(
    seed: int, words: list[str], sender: str, public: bool
) -> None:
    table = random_game(seed, steps=3, finish=False)
    if table.state.phase is Phase.FINISHED:
        table = Table({"size": "12", "ships": "2"}, seed=seed)
        table.play(["ahab dm: join", "nemo dm: join", "flint dm: join", "@start"])
    before = SONAR.codec.encode_state(table.state)
    channel = Channel.PUBLIC if public else Channel.PRIVATE
    try:
        order = SONAR.rules.parse(" ".join(words))
        accepted = SONAR.rules.accept(table.state, sender, order, channel, random.Random(seed))
    except GameError as refusal:
        assert refusal.message
        assert SONAR.codec.encode_state(table.state) == before
        return
    # Accepted: it is the sender's turn, and the state waits for the resolution unchanged.
    assert sender == table.state.to_move and accepted.resolve_now
    assert SONAR.codec.encode_state(accepted.state) == before


# ------------------------------------------------- placements that meet another's subs


def _probe_answers(other: Sequence[Course], probes: Sequence[Sequence[Course]]) -> list[str]:
    """What the second captain is told for each fleet they send, the first having placed
    ``other``: a notice, or the refusal's words."""
    state = SONAR.rules.new_game({"size": "12", "ships": "2", "placement": "given"})
    for key, name in (("p1", "ahab"), ("p2", "nemo")):
        state = SONAR.rules.join(state, PlayerRef(key, name))
    state = SONAR.rules.accept(
        state, "p1", SONAR.rules.parse(_fleet_text(other)), Channel.PRIVATE, random.Random(0)
    ).state
    answers = []
    for probe in probes:
        try:
            accepted = SONAR.rules.accept(
                state,
                "p2",
                SONAR.rules.parse(_fleet_text(probe)),
                Channel.PRIVATE,
                random.Random(0),
            )
        except GameError as refusal:
            answers.append(f"refused: {refusal.message}")
            continue
        state = accepted.state
        assert [notice.to for notice in accepted.notices] == ["p2"]
        answers.append(accepted.notices[0].text)
    return answers


def _cells_named(text: str) -> set[str]:
    return set(text.replace(",", " ").replace(";", " ").replace(".", " ").split())


@PROPERTY
@given(
    seeds=st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)),
    probe_seeds=st.lists(st.integers(0, 10**6), min_size=1, max_size=6),
)
def test_a_fleet_meeting_anothers_subs_is_answered_alike_wherever_they_are(
    seeds: tuple[int, int], probe_seeds: list[int]
) -> None:
    """Fleets sent against two different placed fleets (many of them meeting): every
    answer in setup is word for word the same in both worlds and names no cell of the
    other fleet. Meeting is settled at the start (§1, first come): before, each fleet was
    answered at once, placed or refused, so placed answers between three refusals pinned
    a sub (issue 39)."""
    board = Board(12)
    others = []
    for seed in seeds:
        placed = place_fleets(board, [], [fleet_lengths(2)], random.Random(seed))
        assert placed.fleets is not None
        others.append(placed.fleets[0])
    probes = []
    for seed in probe_seeds:
        placed = place_fleets(board, [], [fleet_lengths(2)], random.Random(seed))
        assert placed.fleets is not None
        probes.append(placed.fleets[0])
    mine = {str(cell) for probe in probes for sub in probe for cell in sub.cells(board)}
    worlds = []
    for other in others:
        answers = _probe_answers(other, probes)
        secret = {str(c) for sub in other for c in sub.cells(board)} - mine
        secret |= {str(sub.bow) for sub in other} - mine
        for answer in answers:
            if not answer.startswith("Fleet placed"):
                assert not _cells_named(answer) & secret, answer
        assert all(answer.startswith("Fleet placed") for answer in answers)
        worlds.append(answers)
    assert worlds[0] == worlds[1]
