"""Properties of the Silent Ships rules over seeded random games: invariants after every
change, the same seed giving the same game, refusals changing nothing, and secrets
staying secret (rules §6): public outputs do not depend on cards nobody has seen,
and no public text names such a card."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from silentships_helpers import GAME, Table, check_invariants, playthrough

from bot.games.base import Channel, Event, GameError
from bot.games.silentships.ships import Ship, in_ship_order
from bot.games.silentships.state import SilentShipsState, Unit

FAST = settings(max_examples=20, deadline=None)
SEEDS = st.integers(min_value=0, max_value=2**32)


@functools.lru_cache(maxsize=64)
def game(seed: int) -> Table:
    return playthrough(seed)


def events_of(step: Any) -> list[Event]:
    return [Event(e["type"], {k: v for k, v in e.items() if k != "type"}) for e in step.events]


def public_ships(steps: Sequence[Any]) -> dict[str, set[Ship]]:
    """Each player's ships that have been face-up or in a sunk pile, by these steps' events."""
    seen: dict[str, set[Ship]] = {"p1": set(), "p2": set()}
    for step in steps:
        for event in step.events:
            if event["type"] in ("revealed", "sunk", "hidden", "swapped"):
                seen[event["player"]].add(Ship(event["ship"]))
    return seen


def relabel_state(
    state: SilentShipsState, player: str, mapping: Mapping[Ship, Ship]
) -> SilentShipsState:
    """The same game with ``player``'s unseen cards swapped around by ``mapping``."""

    def swap(ships: tuple[Ship, ...]) -> tuple[Ship, ...]:
        return tuple(mapping.get(ship, ship) for ship in ships)

    admiral = state.admiral(player)
    state = state.with_admiral(
        replace(
            admiral,
            hand=in_ship_order(swap(admiral.hand)),
            deck=swap(admiral.deck),
            discards=swap(admiral.discards),
        )
    )
    units = [
        Unit(u.owner, mapping.get(u.ship, u.ship), u.cell, u.face_up) if u.owner == player else u
        for u in state.units
    ]
    dealt = tuple((p, swap(deck) if p == player else deck) for p, deck in state.dealt)
    return replace(state.with_units(units), dealt=dealt)


def relabel_events(events: list[Event], player: str, mapping: Mapping[Ship, Ship]) -> list[Event]:
    def swap(value: str) -> str:
        return mapping.get(Ship(value), Ship(value)).value

    changed = []
    for event in events:
        data = dict(event.data)
        if data.get("player") == player:
            if "ship" in data:
                data["ship"] = swap(data["ship"])
            if event.type == "drew":
                data["cards"] = [swap(card) for card in data["cards"]]
            if event.type == "reshuffled":
                data["deck"] = [swap(card) for card in data["deck"]]
        elif event.type == "attack":
            data["target"] = swap(data["target"])
        changed.append(Event(event.type, data))
    return changed


@FAST
@given(SEEDS)
def test_a_seeded_random_playthrough_keeps_every_invariant(seed: int) -> None:
    def check(table: Table) -> None:
        check_invariants(table.game)
        table.record()

    t = playthrough(seed, messages=250, check=check)
    turns = t.record()["turns"]
    assert [turn["number"] for turn in turns] == list(range(1, len(turns) + 1))
    players = [turn["player"] for turn in turns]
    assert all(a != b for a, b in itertools.pairwise(players)), "turns alternate"


@FAST
@given(SEEDS)
def test_the_same_seed_gives_the_same_game(seed: int) -> None:
    one, two = playthrough(seed, messages=150), playthrough(seed, messages=150)
    assert one.record() == two.record()
    assert [GAME.codec.encode_state(s) for s in one.states] == [
        GAME.codec.encode_state(s) for s in two.states
    ]


@FAST
@given(SEEDS, st.data())
def test_refusals_change_nothing(seed: int, data: st.DataObject) -> None:
    t = game(seed)
    state = data.draw(st.sampled_from(t.states))
    words = st.sampled_from(
        [
            "play",
            "move",
            "support",
            "retreat",
            "reveal",
            "swap",
            "go",
            "pass",
            "end",
            "offer",
            "accept",
            "draw",
            "to",
            "discard",
            "at",
            "with",
            "from",
            "B2",
            "C1",
            "D3",
            "A2",
            "E4",
            "frigate",
            "flag",
            "sub",
            "ammo",
            "missile",
            "speed",
            "fire",
            "ram",
            "xyz",
        ]
    )
    text = " ".join(data.draw(st.lists(words, min_size=1, max_size=6)))
    player = data.draw(st.sampled_from(["p1", "p2", "stranger"]))
    channel = data.draw(st.sampled_from(list(Channel)))
    before = GAME.codec.encode_state(state)
    try:
        GAME.rules.accept(state, player, GAME.rules.parse(text), channel, random.Random(0))
    except GameError as refusal:
        assert refusal.message
    assert GAME.codec.encode_state(state) == before


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=30), st.data())
def test_public_outputs_do_not_depend_on_cards_nobody_has_seen(
    seed: int, data: st.DataObject
) -> None:
    t = game(seed)
    index = data.draw(st.integers(min_value=0, max_value=len(t.history) - 1))
    state, step = t.states[index], t.history[index]
    player = data.draw(st.sampled_from(["p1", "p2"]))
    unseen = sorted(set(Ship) - public_ships(t.history[: index + 1])[player], key=lambda s: s.value)
    shuffled = data.draw(st.permutations(unseen))
    mapping = dict(zip(unseen, shuffled, strict=True))
    other = relabel_state(state, player, mapping)
    assert GAME.views.view(other, None) == GAME.views.view(state, None)
    assert GAME.words.summary(other, None) == GAME.words.summary(state, None)
    assert GAME.words.result(other, t.names) == GAME.words.result(state, t.names)
    events = events_of(step)
    assert GAME.words.public_report(
        relabel_events(events, player, mapping), t.names
    ) == GAME.words.public_report(events, t.names)
    # The other player's own view cannot tell either.
    viewer = "p2" if player == "p1" else "p1"
    mine, theirs = GAME.views.view(state, viewer), GAME.views.view(other, viewer)
    assert (mine.public, mine.hand, mine.units) == (theirs.public, theirs.hand, theirs.units)


@FAST
@given(SEEDS)
def test_no_public_text_names_a_card_nobody_has_seen(seed: int) -> None:
    t = playthrough(seed, messages=300)
    notices: dict[int, list[str]] = {}
    for count, text in t.public_notices:
        notices.setdefault(count, []).append(text)
    texts_before = [
        GAME.words.opening(GAME.rules.new_game({})),
        GAME.words.hint(t.game),
        GAME.words.example(),
        GAME.words.help_text(),
    ]
    for index, (state, step) in enumerate(zip(t.states, t.history, strict=True)):
        seen = set().union(*public_ships(t.history[: index + 1]).values())
        texts = [
            *GAME.words.public_report(events_of(step), t.names),
            GAME.words.summary(state, None),
            GAME.words.result(state, t.names),
            GAME.words.beginning(state, t.names),
            *notices.get(index + 1, []),
            *texts_before,
        ]
        words = "\n".join(texts).lower()
        for ship in set(Ship) - seen:
            assert ship.value not in words and ship.card.name.lower() not in words, (ship, words)
