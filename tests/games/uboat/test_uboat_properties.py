"""Properties of the U-Boat Shootout rules, under hypothesis: hidden facts never reach
public outputs, the same seed gives the same game, random playthroughs keep every
invariant, and refusals change nothing."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import event as note_event
from hypothesis import strategies as st
from uboat_helpers import Driver

from bot.games.base import Event
from bot.games.uboat import UBOAT
from bot.games.uboat.cells import LETTERS, Direction
from bot.games.uboat.state import Phase, UboatState
from bot.games.uboat.values import FULL_HEALTH

NAMES = ["ann", "ben", "cy", "dee", "eve", "fay"]
PRIVATE_EVENTS = {"evaded", "cancelled", "healed", "sonar"}
PRIVATE_KEYS = {"moved": "cell", "rammed": "cell"}


def _public(events: Any) -> list[dict[str, Any]]:
    """The public part of a change's events (contract: `evaded`, `cancelled`, `healed`,
    `sonar` and the `cell` of `moved`/`rammed` are private)."""
    public = []
    for event in events:
        data = dict(event.record() if isinstance(event, Event) else event)
        if data["type"] in PRIVATE_EVENTS:
            continue
        data.pop(PRIVATE_KEYS.get(data["type"], ""), None)
        public.append(data)
    return public


def _random_cell(rng: random.Random, size: int) -> str:
    return f"{LETTERS[rng.randrange(size)]}{rng.randrange(size) + 1}"


def _random_route(rng: random.Random, longest: int = 3) -> str:
    return " ".join(
        rng.choice(["up", "down", "left", "right"]) for _ in range(rng.randint(1, longest))
    )


def _random_text(rng: random.Random, size: int) -> str:
    roll = rng.random()
    if roll < 0.3:
        return f"fire {_random_cell(rng, size)}"
    if roll < 0.5:
        return f"move {_random_route(rng, 4)}"
    if roll < 0.6:
        return f"ram {_random_route(rng)}"
    if roll < 0.68:
        return "hold"
    if roll < 0.8:
        return f"evade {_random_route(rng)}"
    if roll < 0.9:
        return f"crew {rng.choice(['red', 'blue', 'green', 'yellow', 'purple', 'orange'])}"
    if roll < 0.95:
        return f"start {_random_cell(rng, size)}"
    return "launch torpedoes"


def _aimed_text(rng: random.Random, state: UboatState, player: str) -> str:
    """An order likely to matter: fire near another boat, evade while the window is
    open, choose a crew when adrift (the test peeks at the state; players cannot)."""
    boat = state.boat_of(player)
    if boat is None:
        return f"crew {rng.choice([b.colour.value for b in state.afloat] or ['red'])}"
    if state.window_open and boat.colour in state.evaders and rng.random() < 0.6:
        return f"evade {_random_route(rng)}"
    islands = [i.cell for i in state.options.islands]
    near = [c for c in islands if state.sea.distance(boat.cell, c) <= state.range_of(boat)]
    if near and rng.random() < 0.3:
        return f"fire {rng.choice(near)}"
    others = [b for b in state.afloat if b.colour is not boat.colour]
    if others and rng.random() < 0.7:
        target = rng.choice(others).cell
        shifted = (
            state.sea.step(target, rng.choice(list(Direction))) if rng.random() < 0.4 else target
        )
        if state.sea.distance(boat.cell, shifted) <= state.range_of(boat):
            return f"fire {shifted}"
        return f"ram {_random_route(rng)}"
    return f"move {_random_route(rng)}"


def _check_invariants(state: UboatState) -> None:
    sea = state.sea
    for boat in state.boats:
        assert 0 <= boat.health <= FULL_HEALTH
        assert sea.on_board(boat.cell) and boat.cell not in sea.islands
        assert boat.fired_in_a_row >= 0
    for player in state.present:
        if state.phase is Phase.BATTLE and player.crew is not None:
            boat = state.boat(player.crew)
            assert boat is not None and boat.afloat
    if state.phase is Phase.BATTLE:
        for boat in state.afloat:
            assert state.crew_of(boat.colour), boat
        assert 1 <= state.turn <= state.options.rounds
        assert len(state.afloat) >= 2
    for owner in state.owners:
        if owner is not None:
            boat = state.boat(owner)
            assert boat is not None and boat.afloat
    if state.window_open:
        assert state.evaders and all(state.boat(c) is not None for c in state.evaders)
    if state.phase is Phase.FINISHED:
        assert state.ending is not None and UBOAT.rules.timers(state) == ()
        assert UBOAT.rules.outcome(state) is not None
    assert (
        UBOAT.codec.decode_state(json.loads(json.dumps(UBOAT.codec.encode_state(state)))) == state
    )


def playthrough(seed: int, players: int, options: str, check: bool = True) -> Driver:
    """A seeded game of random orders (legal or not) played to its end."""
    rng = random.Random(seed)
    driver = Driver(seed=seed)
    driver.line(f"@game uboat {options}")
    for name in NAMES[:players]:
        driver.line(f"{name} dm: join")
    assert driver.state is not None
    size = driver.state.options.size
    for name in NAMES[:players]:
        if rng.random() < 0.7:
            driver.line(f"{name} dm: start {_random_cell(rng, size)}")
    driver.line("@start")
    for _ in range(200):
        assert driver.state is not None
        if driver.state.phase is Phase.FINISHED:
            break
        for _ in range(rng.randint(0, 2 * players)):
            name = rng.choice(NAMES[:players])
            before = driver.state
            refusals = len(driver.replies)
            if rng.random() < 0.6:
                text = _aimed_text(rng, driver.state, driver.ids[name])
            else:
                text = _random_text(rng, size)
            driver.line(f"{name} {'public' if rng.random() < 0.05 else 'dm'}: {text}")
            refused = any(r.refused for r in driver.replies[refusals:])
            if refused:
                assert driver.state is before  # refusals change nothing
            if check:
                _check_invariants(driver.state)
        driver.line("@close")
        if check:
            _check_invariants(driver.state)
            json.dumps(driver.record())
            UBOAT.words.summary(driver.state, None)
            for player in driver.ids.values():
                UBOAT.words.summary(driver.state, player)
    assert driver.state is not None and driver.state.phase is Phase.FINISHED
    return driver


OPTIONS = st.sampled_from(
    [
        "rounds=4",
        "rounds=6 islands=none",
        "size=5 islands=1@A1,2@C3,3@E5,4@B4,5@D2 rounds=5",
        "size=7 rounds=8 island_powers=none",
        "size=12 rounds=3 islands=1@A1,5@F6,9@L12",
    ]
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), options=OPTIONS)
def test_random_playthrough_keeps_the_invariants(seed: int, players: int, options: str) -> None:
    playthrough(seed, players, options)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), options=OPTIONS)
def test_the_same_seed_gives_the_same_game(seed: int, players: int, options: str) -> None:
    first = playthrough(seed, players, options, check=False)
    second = playthrough(seed, players, options, check=False)
    assert first.record() == second.record()
    assert first.state == second.state


def _twin_round(drivers: tuple[Driver, Driver], texts: list[tuple[str, str]]) -> None:
    """The same messages to both games; an order accepted by one game only is replaced
    by `hold` in both, so that the games' public histories stay alike."""
    for name, text in texts:
        results = [d.say(name, text) is not None for d in drivers]
        if results[0] != results[1] and not text.startswith(("evade", "crew")):
            for d in drivers:
                d.say(name, "hold")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 4),
    islands=st.sampled_from(["islands=none", ""]),
)
def test_public_outputs_do_not_depend_on_hidden_facts(
    seed: int, players: int, islands: str
) -> None:
    """Two games with different secret cells and evasions: as long as their public
    histories agree, the public view, text board and reports are identical."""
    rng = random.Random(seed)
    drivers = (Driver(seed=1), Driver(seed=2))
    names = NAMES[:players]
    for d in drivers:
        d.line(f"@game uboat rounds=4 {islands}")
        for name in names:
            d.line(f"{name} dm: join")
    for d in drivers:
        assert d.state is not None
        water = d.state.sea.water()
        for name in names:
            d.line(f"{name} dm: start {rng.choice(water)}")
        d.line("@start")
    names_by_id = {v: k for k, v in drivers[0].ids.items()}
    compared = 0
    for _ in range(12):
        texts = [(rng.choice(names), _random_text(rng, 9)) for _ in range(rng.randint(0, 6))]
        _twin_round(drivers, texts)
        for d in drivers:
            d.line("@close")
        histories = [[_public(step.events) for step in d.history] for d in drivers]
        if histories[0] != histories[1]:
            break
        states = [d.state for d in drivers]
        assert states[0] is not None and states[1] is not None
        assert UBOAT.views.view(states[0], None) == UBOAT.views.view(states[1], None)
        assert UBOAT.words.summary(states[0], None) == UBOAT.words.summary(states[1], None)
        reports = [
            [UBOAT.words.public_report(r.events, names_by_id) for _, r in d.resolutions]
            for d in drivers
        ]
        assert reports[0] == reports[1]
        compared += 1
        if states[0].phase is Phase.FINISHED:
            break
    note_event(f"rounds compared: {compared}")


def test_public_outputs_agree_for_different_secret_cells_example() -> None:
    """A deterministic case of the property, so it can never pass vacuously."""
    scripts = []
    for starts in (("B2", "H8"), ("D4", "F6")):
        d = Driver()
        d.line("@game uboat islands=none")
        d.line("a dm: join")
        d.line("b dm: join")
        d.line(f"a dm: start {starts[0]}")
        d.line(f"b dm: start {starts[1]}")
        d.line("@start")
        d.line("a dm: move up up")
        d.line("b dm: move left")
        d.line("@close")
        scripts.append(d)
    one, two = scripts
    assert one.state is not None and two.state is not None
    assert one.state.boats != two.state.boats
    assert UBOAT.views.view(one.state, None) == UBOAT.views.view(two.state, None)
    assert UBOAT.words.summary(one.state, None) == UBOAT.words.summary(two.state, None)
    assert UBOAT.views.view(one.state, "p1") != UBOAT.views.view(two.state, "p1")
