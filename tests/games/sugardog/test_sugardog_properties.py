"""Properties of Sugar Dog under hypothesis (design rules 1, 3 and 11):

* a seeded random playthrough (random legal orders and timeouts to the end) keeps the
  invariants after every change, and its record replays: the options, ``start`` and
  the orders give every event again;
* the same seed gives the same game;
* a refused order changes nothing;
* the public outputs (public view, public summary, public reports and posts) are
  identical for two games whose hidden facts differ where nothing public tells them
  apart.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sugardog_helpers import Table, play

from bot.games.base import Channel, Event, GameError
from bot.games.sugardog import SUGARDOG, Phase, SugarDogState
from bot.games.sugardog.board import Cell, Direction
from bot.games.sugardog.state import Torpedo, TurnEntry

NAMES = ("ahab", "nemo", "kirk", "uhura")
DIRECTIONS = [d.value for d in Direction]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _legal_orders(state: SugarDogState) -> list[str]:
    """Every order the captain to move may give now (read from their own submarine)."""
    assert state.current is not None
    captain = state.captain(state.current)
    assert captain is not None and captain.cell is not None
    cell, size = captain.cell, state.size
    orders = ["silent", "ping"] + [f"torpedo {d}" for d in DIRECTIONS]
    orders += [f"silent {d.value}" for d in Direction if cell.step(d).on_board(size)]
    orders += [
        f"cruise {a.value} {b.value}"
        for a in Direction
        for b in Direction
        if cell.step(a).on_board(size) and cell.step(a).step(b).on_board(size)
    ]
    if captain.mines_left:
        orders.append("mine")
    return orders


def _start(players: int, seed: int, rng: random.Random) -> Table:
    names = NAMES[:players]
    size = 2 * players + 2
    lines = [f"@game sugardog move_time=1h seed={seed}"]
    lines += [f"{name} dm: join" for name in names]
    for name in names:
        if rng.random() < 0.8:  # some captains are placed at random
            lines.append(f"{name} dm: {Cell(rng.randrange(size), rng.randrange(size))}")
    lines.append(f"@start {rng.choice(names)}")
    return play("\n".join(lines))


def _check_invariants(table: Table) -> None:
    state = table.game_state()
    size = state.size
    afloat = [c for c in state.captains if c.afloat]
    for captain in state.captains:
        assert 0 <= captain.mines_left <= 3
        assert len(captain.mines) <= 3 - captain.mines_left
        assert list(captain.mines) == sorted(captain.mines)
        assert all(cell.on_board(size) for cell in captain.mines)
        numbers = [t.number for t in captain.torpedoes]
        assert numbers == sorted(set(numbers)) and all(n <= captain.launched for n in numbers)
        assert all(t.cell.on_board(size) for t in captain.torpedoes)
        if captain.afloat:
            assert captain.cell is not None and captain.cell.on_board(size)
        else:
            assert not captain.silent
    if state.phase is Phase.BATTLE:
        assert len(afloat) >= 2
        assert state.current in state.order
        current = state.captain(state.current)
        assert current is not None and current.afloat
        (timer,) = SUGARDOG.rules.timers(state)
        assert timer.key == f"move:{state.turn}"
    else:
        assert state.phase is Phase.FINISHED and len(afloat) <= 1
        assert state.current is None and SUGARDOG.rules.timers(state) == ()
        outcome = SUGARDOG.rules.outcome(state)
        assert outcome is not None
        if outcome.draw:
            assert not afloat and outcome.winners
        else:
            assert list(outcome.winners) == [c.id for c in afloat]
    data = SUGARDOG.codec.encode_state(state)
    assert SUGARDOG.codec.decode_state(json.loads(json.dumps(data))) == state
    record = table.record()
    turns = record["turns"]
    assert [t["number"] for t in turns] == list(range(1, len(turns) + 1))
    assert all(len(t["orders"]) == 1 for t in turns)
    assert all(t["orders"][0]["player"] == t["player"] for t in turns)
    expected_turn = len(turns) if state.phase is Phase.FINISHED else len(turns) + 1
    assert record["game"]["turn"] == expected_turn == SUGARDOG.views.view(state, None).turn
    for player in record["players"]:
        assert player["status"] in ("alive", "eliminated")


def _playthrough(players: int, seed: int, check: bool = True, refusals: bool = False) -> Table:
    rng = random.Random(seed)
    table = _start(players, seed, rng)
    for _ in range(120):
        state = table.game_state()
        if state.phase is not Phase.BATTLE:
            break
        if refusals:
            _try_a_refused_order(table, rng)
        if rng.random() < 0.1:
            table.line("@close")
        else:
            name = table.names[state.current or ""]
            table.line(f"{name} dm: {rng.choice(_legal_orders(state))}")
        assert not table.refusals, table.refusals
        if check:
            _check_invariants(table)
    return table


def _replay(record: dict[str, Any]) -> Table:
    """A new game from the record alone: options, start, and each turn's order."""
    options = " ".join(f"{k}={v}" for k, v in record["game"]["options"].items())
    lines = [f"@game sugardog {options}"]
    lines += [f"{p['name']} dm: join" for p in record["players"]]
    lines += [f"{name} dm: {cell}" for name, cell in record["start"]["cells"].items()]
    lines.append(f"@start {record['start']['order'][0]}")
    for turn in record["turns"]:
        (order,) = turn["orders"]
        if order["timeout"]:
            lines.append("@close")
            continue
        words = [order["action"]]
        if order.get("direction"):
            words.append(order["direction"])
        words += order.get("directions", [])
        lines.append(f"{order['player']} dm: {' '.join(words)}")
    return play("\n".join(lines))


@SETTINGS
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000))
def test_a_random_playthrough_keeps_the_invariants_and_its_record_replays(
    players: int, seed: int
) -> None:
    table = _playthrough(players, seed)
    record = table.record()
    replayed = _replay(record).record()
    assert replayed["turns"] == record["turns"]
    assert replayed["players"] == record["players"]
    assert replayed["game"] == record["game"]
    assert replayed["start"]["cells"] == record["start"]["cells"]


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000))
def test_the_same_seed_gives_the_same_game(players: int, seed: int) -> None:
    first = _playthrough(players, seed, check=False)
    second = _playthrough(players, seed, check=False)
    assert first.record() == second.record()
    assert SUGARDOG.codec.encode_state(first.game_state()) == SUGARDOG.codec.encode_state(
        second.game_state()
    )
    assert first.notices == second.notices


ANY_TEXT = [
    "ping",
    "mine",
    "silent",
    "silent up",
    "silent left",
    "cruise up up",
    "cruise left left",
    "cruise down right",
    "torpedo up",
    "C4",
    "start A1",
    "log",
]


def _try_a_refused_order(table: Table, rng: random.Random) -> None:
    """Anyone sends anything anywhere; when it is refused, nothing has changed."""
    state = table.game_state()
    before = SUGARDOG.codec.encode_state(state)
    player = rng.choice([*table.ids.values(), "stranger"])
    channel = rng.choice([Channel.PUBLIC, Channel.PRIVATE])
    order = SUGARDOG.rules.parse(rng.choice(ANY_TEXT))
    try:
        accepted = SUGARDOG.rules.accept(state, player, order, channel, random.Random(0))
    except GameError as refusal:
        assert refusal.message
        assert SUGARDOG.codec.encode_state(state) == before
        return
    if accepted.standing is None:  # `log`: a reply only
        assert accepted.state == state and not accepted.events


@SETTINGS
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000))
def test_a_refused_order_changes_nothing(players: int, seed: int) -> None:
    _playthrough(players, seed, check=False, refusals=True)


# ----------------------------------------------------------------------------- no leaks


def _public_outputs(state: SugarDogState, names: dict[str, str]) -> tuple[Any, ...]:
    reports = tuple(
        tuple(SUGARDOG.words.public_report(entry.events, names)) for entry in state.history
    )
    return (SUGARDOG.views.view(state, None), SUGARDOG.words.summary(state, None), reports)


def _perturbed(state: SugarDogState, rng: random.Random) -> SugarDogState:
    """The same game with every hidden fact moved: submarines afloat, mines, torpedoes,
    starting cells, and the private side of the history (silent cells, launches, mines)."""
    size = state.size

    def cell() -> Cell:
        return Cell(rng.randrange(size), rng.randrange(size))

    captains = []
    for captain in state.captains:
        captains.append(
            replace(
                captain,
                start_cell=cell(),
                cell=cell() if captain.afloat else captain.cell,
                mines=tuple(sorted(cell() for _ in captain.mines)),
                torpedoes=tuple(
                    Torpedo(t.number, cell(), rng.choice(list(Direction)))
                    for t in captain.torpedoes
                ),
            )
        )
    history: list[TurnEntry] = []
    for entry in state.history:
        events = []
        for event in entry.events:
            data = dict(event.data)
            if event.type in ("silent", "launched", "mine"):
                data["cell"] = str(cell())
            if event.type == "launched":
                data["direction"] = rng.choice(DIRECTIONS)
            events.append(Event(event.type, data))
        history.append(replace(entry, events=tuple(events), cell_after=cell()))
    return replace(state, captains=tuple(captains), history=tuple(history))


@SETTINGS
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000), moved=st.integers(0, 10_000))
def test_public_outputs_ignore_hidden_facts(players: int, seed: int, moved: int) -> None:
    table = _playthrough(players, seed, check=False)
    state = table.game_state()
    other = _perturbed(state, random.Random(moved))
    assert (
        SUGARDOG.codec.encode_state(other) != SUGARDOG.codec.encode_state(state)
        or not state.history
    )
    assert _public_outputs(other, table.names) == _public_outputs(state, table.names)


STEP = st.sampled_from(["", *DIRECTIONS])


@SETTINGS
@given(
    starts=st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 5), st.integers(0, 5)),
        min_size=2,
        max_size=2,
    ),
    orders=st.lists(
        st.tuples(st.sampled_from(["silent", "mine", "timeout"]), STEP, STEP), max_size=16
    ),
)
def test_two_games_apart_only_in_hidden_facts_look_the_same_in_public(
    starts: list[tuple[int, int, int, int]],
    orders: list[tuple[str, str, str]],
) -> None:
    """Two games of ahab and nemo from different secret cells, with quiet actions whose
    hidden parts differ (silent running in different directions, mines in different
    cells): everything public is the same, and so is a refusal to the other captain."""
    tables = []
    for game in range(2):
        lines = ["@game sugardog move_time=1h", "ahab dm: join", "nemo dm: join"]
        for name, (a, b, c, d) in zip(("ahab", "nemo"), starts, strict=True):
            column, row = (a, b) if game == 0 else (c, d)
            lines.append(f"{name} dm: {Cell(column, row)}")
        lines.append("@start")
        tables.append(play("\n".join(lines)))
    for action, *steps in orders:
        mover = tables[0].names[tables[0].game_state().current or ""]
        for table, step in zip(tables, steps, strict=True):
            legal = _legal_orders(table.game_state())
            if action == "timeout":
                table.line("@close")
                continue
            text = f"silent {step}".strip() if action == "silent" else "mine"
            table.line(f"{mover} dm: {text if text in legal else 'silent'}")
        for table in tables:
            table.line(f"{mover} dm: ping")  # out of turn now
        assert tables[0].refusals[-1].message == tables[1].refusals[-1].message
        first, second = (t.game_state() for t in tables)
        assert _public_outputs(first, tables[0].names) == _public_outputs(second, tables[1].names)
        assert tables[0].public() == tables[1].public()
