"""The simulated admiral of ``bst demo --game silentships`` (bot/games/silentships/robot.py):
it plays whole games legally from its own view, one order at a time, with some sense."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from silentships_helpers import act, arranged

from bot.games.base import Channel, GameError, PlayerRef, Said
from bot.games.silentships import SILENT_SHIPS, SilentShipsState
from bot.games.silentships.robot import ROBOT

GAME = SILENT_SHIPS


def robots_game(seed: int) -> tuple[SilentShipsState, list[str], list[str]]:
    """Two robots play a whole game through the game object, as the demo does through the
    host: whoever may act is asked; when nobody speaks, the running timer falls.
    Returns the last state, every order sent and every refusal."""
    rng = random.Random(seed)
    state = GAME.rules.new_game({})
    for pid, name in (("p1", "ahab"), ("p2", "nemo")):
        state = GAME.rules.join(state, PlayerRef(pid, name))
    state = GAME.rules.start(state, random.Random(seed), None).state
    sent: list[str] = []
    refused: list[str] = []
    for step in range(4000):
        if GAME.rules.outcome(state) is not None:
            break
        said: list[Said] = []
        speaker = ""
        for player in sorted(GAME.rules.to_act(state)):
            said = ROBOT.orders(GAME.views.view(state, player), player, rng)
            if said:
                speaker = player
                break
        if not said:
            (timer,) = [t for t in GAME.rules.timers(state) if not t.held]
            state = GAME.rules.expire(state, timer.key, (), random.Random(step)).state
            continue
        for message in said:
            channel = Channel.PUBLIC if message.public else Channel.PRIVATE
            sent.append(message.text)
            try:
                accepted = GAME.rules.accept(
                    state, speaker, GAME.rules.parse(message.text), channel, random.Random(step)
                )
            except GameError as error:
                refused.append(f"{message.text}: {error.message}")
                break
            state = accepted.state
            if accepted.resolve_now:
                state = GAME.rules.resolve(state, (), random.Random(step)).state
    return state, sent, refused


@pytest.mark.parametrize("seed", range(12))
def test_robots_play_a_whole_game_legally(seed: int) -> None:
    state, sent, refused = robots_game(seed)
    assert refused == []
    assert GAME.rules.outcome(state) is not None
    assert state.turn <= state.options.max_turns
    assert not [text for text in sent if text.startswith("play flag")]


def test_robots_fight_and_their_games_end_in_several_ways() -> None:
    reasons: Counter[str] = Counter()
    sunk = 0
    for seed in range(30):
        state, _, _ = robots_game(seed)
        assert state.reason is not None
        reasons[state.reason.value] += 1
        sunk += sum(len(admiral.sank) for admiral in state.admirals)
    assert reasons["country"] >= 10  # they go for the enemy's country
    assert sunk >= 60  # and sink ships on the way (about 8 a game)


def orders(state: SilentShipsState, player: str = "p1") -> list[str]:
    return [
        said.text for said in ROBOT.orders(GAME.views.view(state, player), player, random.Random(0))
    ]


def test_robot_speaks_only_when_the_game_asks_it() -> None:
    state = arranged("ahab: C2 frigate; nemo: C4 sub", hands={"ahab": "ram", "nemo": "fire"})
    assert orders(state, "p2") == []  # ahab's turn
    assert orders(state, "p1") != []
    assert ROBOT.orders(GAME.views.view(state, None), "p1", random.Random(0)) == []  # not its view


def test_robot_decides_from_its_own_view_only() -> None:
    # The same view for ahab, whatever nemo's face-down unit and hand are.
    one = arranged("ahab: C2 frigate; nemo: C3 sub", hands={"ahab": "ram, patrol", "nemo": "fire"})
    two = arranged("ahab: C2 frigate; nemo: C3 fire", hands={"ahab": "ram, patrol", "nemo": "sub"})
    assert GAME.views.view(one, "p1") == GAME.views.view(two, "p1")
    assert orders(one) == orders(two)


def test_robot_retreats_its_flag_ship_from_an_attack() -> None:
    state = arranged(
        "ahab: C2 frigate up; nemo: C3 flag", hands={"ahab": "ram", "nemo": "patrol, sub"}
    )
    state = act(state, "ahab", "move C2 to C3 discard ram")
    state = act(state, "ahab", "go", public=True)
    assert orders(state, "p2") == ["retreat discard patrol"]


def test_robot_supports_its_attack_until_it_looks_strong_enough() -> None:
    state = arranged(
        "ahab: C2 ram up, B3 frigate up; nemo: C3 frigate up, C4 patrol up",
        hands={"ahab": "sub, missile, salvage", "nemo": "speed, fire"},
    )
    state = act(state, "ahab", "move C2 to C3 discard salvage")
    # ram 3 against frigate 4 + the patrol ship nemo may add: the frigate on B3 helps,
    # paid with the card it cares least for.
    assert orders(state) == ["support from B3 discard sub"]
    state = act(state, "ahab", "support from B3 discard sub")
    assert orders(state) == ["go"]


def test_robot_takes_an_offer_that_gives_it_the_game() -> None:
    state = arranged("ahab: C2 frigate; nemo: C4 sub", sank={"ahab": "patrol"}, turn=2)
    state = act(state, "ahab", "offer draw", public=True)
    assert "accept" not in orders(state, "p2")  # nemo sank fewer: it plays on
    behind = arranged("ahab: C2 frigate; nemo: C4 sub", sank={"nemo": "patrol"}, turn=2)
    behind = act(behind, "ahab", "offer draw", public=True)
    assert orders(behind, "p2") == ["accept"]


def test_robot_takes_back_its_country() -> None:
    state = arranged("ahab: C2 frigate up; nemo: C1 speed up", hands={"ahab": "ram"})
    assert orders(state) == ["move C2 to C1 discard ram"]
