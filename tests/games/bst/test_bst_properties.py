"""Properties of the rules: determinism, order and id independence (§5), invariants after
random games, non-interference of the public view (§6), and a long seeded playthrough."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from bst_helpers import as_given
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import Channel, GameError, PlayerRef
from bot.games.bst import BST, BstState, Move, Order, Pass, Rotate, Shoot
from bot.games.bst.cells import Cell
from bot.games.bst.fleet import Direction
from bot.games.bst.record import record_players
from bot.games.bst.views import CaptainStatus, Phase

FAST = settings(max_examples=25, deadline=None)

BOARDS = [("4x4", 2), ("8x9", 8), ("1000x1000", 8)]
"""The rules hold at any size (issue 33): the smallest board, a small one, the largest
(rows past ``ZZ``), each with as many captains as fit. Shots aim at live ships half the
time, so hits, wrecks and eliminations happen even on the largest."""


def new_battle(
    names: list[str], size: str, seed: int, ids: dict[str, str] | None = None, **options: str
) -> BstState:
    state = BST.rules.new_game({"size": size, **options})
    for name in names:
        state = BST.rules.join(state, PlayerRef((ids or {}).get(name, f"id-{name}"), name))
    return BST.rules.start(state, random.Random(seed)).state


def random_orders(state: BstState, rng: random.Random, aim: float = 0.3) -> dict[str, Order]:
    """Valid orders for every captain able to act, as a mixed crowd would send them."""
    orders: dict[str, Order] = {}
    rows, cols = state.options.rows, state.options.cols
    live_cells = [
        cell for c in state.captains for s in c.ships if not s.destroyed for cell in s.cells
    ]
    for captain in state.captains:
        if not captain.in_battle:
            continue
        roll = rng.random()
        order: Order
        channel = Channel.PRIVATE
        if roll < 0.45:
            if live_cells and rng.random() < aim:
                order = Shoot(rng.choice(live_cells))
            else:
                order = Shoot(Cell(rng.randrange(rows), rng.randrange(cols)))
            channel = Channel.PUBLIC
        elif roll < 0.9:
            ship = rng.choice(captain.ships)
            direction = rng.choice(list(Direction))
            order = Move(ship.kind, rng.choice(ship.cells), rng.randint(1, 3), direction)
            if rng.random() < 0.25:
                order = Rotate(ship.kind, ship.cells[0])
        elif roll < 0.95:
            order = Pass()
        else:
            continue
        try:
            accepted = BST.rules.accept(state, captain.id, order, channel, rng)
        except GameError:
            continue
        assert accepted.standing is not None
        orders[captain.id] = accepted.standing
    return orders


def check_invariants(state: BstState) -> None:
    rows, cols = state.options.rows, state.options.cols
    seen: set[Cell] = set()
    for captain in state.captains:
        for ship in captain.ships:
            assert len(ship.cells) == ship.kind.length
            assert list(ship.cells) == sorted(ship.cells)
            assert all(0 <= c.row < rows and 0 <= c.col < cols for c in ship.cells)
            assert not seen & set(ship.cells), "ships overlap"
            seen.update(ship.cells)
            assert ship.damaged <= set(range(len(ship.cells)))
            assert ship.destroyed == (len(ship.damaged) == len(ship.cells))
        all_down = bool(captain.ships) and all(s.destroyed for s in captain.ships)
        if captain.status is CaptainStatus.ELIMINATED:
            assert all_down
        if captain.status is CaptainStatus.ALIVE and state.phase is Phase.BATTLE:
            assert not all_down
    if state.phase is Phase.FINISHED:
        assert state.draw or len(state.winners) <= 1
    assert BST.codec.decode_state(json.loads(json.dumps(BST.codec.encode_state(state)))) == state


def play(state: BstState, rng: random.Random, turns: int) -> list[Any]:
    history = []
    for _ in range(turns):
        if state.phase is not Phase.BATTLE:
            break
        orders = as_given(random_orders(state, rng))
        resolution = BST.rules.resolve(state, orders, random.Random(rng.random()))
        state = resolution.state
        check_invariants(state)
        history.append((state, resolution.events))
    return history


@pytest.mark.parametrize(("size", "most"), BOARDS)
@FAST
@given(seed=st.integers(0, 10_000), players=st.integers(2, 8))
def test_5_invariants_hold_in_random_games(size: str, most: int, seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = new_battle(
        [f"p{i}" for i in range(min(players, most))],
        size,
        seed,
        shots=rng.choice(["after_moves", "before_moves"]),
    )
    check_invariants(state)
    play(state, rng, 15)


@pytest.mark.parametrize(("size", "most"), [("7x7", 6), *BOARDS[::2]])
@FAST
@given(seed=st.integers(0, 10_000))
def test_5_same_board_and_orders_same_result_whatever_the_order(
    size: str, most: int, seed: int
) -> None:
    rng = random.Random(seed)
    state = new_battle([f"p{i}" for i in range(most)], size, seed)
    for _ in range(4):
        orders = random_orders(state, rng, aim=0.5)
        first = BST.rules.resolve(state, as_given(orders), random.Random(1))
        items = list(orders.items())
        rng.shuffle(items)
        # The same orders, arriving in another order (numbered as they arrive).
        second = BST.rules.resolve(state, as_given(dict(items)), random.Random(1))
        assert first == second
        state = first.state
        if state.phase is not Phase.BATTLE:
            break


@pytest.mark.parametrize(("size", "most"), [("7x7", 6), *BOARDS[::2]])
@FAST
@given(seed=st.integers(0, 10_000))
def test_5_result_does_not_depend_on_player_ids(size: str, most: int, seed: int) -> None:
    names = [f"p{i}" for i in range(most)]
    shuffled = names[:]
    random.Random(seed).shuffle(shuffled)
    ids_b = {name: f"x{other}" for name, other in zip(names, shuffled, strict=True)}
    state_a = new_battle(names, size, seed)
    state_b = new_battle(names, size, seed, ids=ids_b)
    to_b = {f"id-{name}": ids_b[name] for name in names}
    rng = random.Random(seed)
    for _ in range(5):
        orders = random_orders(state_a, rng, aim=0.5)
        res_a = BST.rules.resolve(state_a, as_given(orders), random.Random(2))
        res_b = BST.rules.resolve(
            state_b, as_given({to_b[p]: o for p, o in orders.items()}), random.Random(2)
        )

        def named(events: Any, ids: dict[str, str]) -> list[str]:
            text = json.dumps([e.record() for e in events])
            for name, player_id in ids.items():
                text = text.replace(f'"{player_id}"', f'"{name}"')
            return json.loads(text)  # type: ignore[no-any-return]

        assert named(res_a.events, {n: f"id-{n}" for n in names}) == named(res_b.events, ids_b)
        assert record_players(res_a.state) == record_players(res_b.state)
        state_a, state_b = res_a.state, res_b.state
        if state_a.phase is not Phase.BATTLE:
            break


@FAST
@given(seed_a=st.integers(0, 10_000), seed_b=st.integers(0, 10_000), data=st.data())
def test_6_public_view_does_not_depend_on_hidden_ships(
    seed_a: int, seed_b: int, data: st.DataObject
) -> None:
    names = ["ann", "bea", "cid"]
    state_a = new_battle(names, "9x9", seed_a)
    state_b = new_battle(names, "9x9", seed_b)
    assert BST.views.view(state_a, None) == BST.views.view(state_b, None)
    assert BST.words.summary(state_a, None) == BST.words.summary(state_b, None)

    def taken(state: BstState) -> set[Cell]:
        return {cell for c in state.captains for s in c.ships for cell in s.cells}

    for _ in range(3):
        free = sorted(
            {Cell(r, c) for r in range(9) for c in range(9)} - taken(state_a) - taken(state_b)
        )
        cells = data.draw(st.lists(st.sampled_from(free), min_size=3, max_size=3))
        orders = {f"id-{name}": Shoot(cell) for name, cell in zip(names, cells, strict=True)}
        state_a = BST.rules.resolve(state_a, as_given(orders), random.Random(0)).state
        state_b = BST.rules.resolve(state_b, as_given(orders), random.Random(0)).state
        assert BST.views.view(state_a, None) == BST.views.view(state_b, None)
        assert BST.words.summary(state_a, None) == BST.words.summary(state_b, None)


def test_seeded_playthrough_with_many_captains_plays_to_the_end() -> None:
    rng = random.Random(2026)
    state = new_battle([f"captain{i:02d}" for i in range(40)], "30x30", 7)
    history = play(state, rng, 400)
    final = history[-1][0]
    assert final.phase is Phase.FINISHED
    assert BST.rules.outcome(final) is not None
    assert history[-1][1][-1].type == "finished"
    kinds = {event.type for _, events in history for event in events}
    assert {"moved", "collision", "shot", "destroyed", "eliminated", "finished"} <= kinds


def test_5_big_turn_resolves_in_proportion_to_orders() -> None:
    """A smoke check of the cost rule (the figure itself comes from benchmarks)."""
    rng = random.Random(5)
    state = new_battle([f"c{i}" for i in range(2000)], "120x120", 5)
    resolution = BST.rules.resolve(state, as_given(random_orders(state, rng)), random.Random(0))
    check_invariants(resolution.state)
