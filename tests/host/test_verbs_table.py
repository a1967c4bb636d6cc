"""The host's verbs are one declared table (bot.host.commands.verbs): the dispatch reads it."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from host_fakes import HostKit

from bot.games.base import Arg, ArgKind
from bot.host.commands import lobby, verbs
from bot.host.commands.inbox import Commands, Outcome
from bot.host.commands.routing import HOST_WORDS, PLAYER_WORDS
from bot.host.commands.verb_call import VerbCall
from bot.host.commands.verbs import HostVerb, Where, Who

ROOT = Path(__file__).resolve().parents[2]


def test_the_words_routing_knows_are_the_tables() -> None:
    # ``new`` opens a game (none is found yet), so it has no entry on a game.
    on_a_game = {verb.name for verb in verbs.HOST_VERBS if verb.on_game is not None}
    assert on_a_game == HOST_WORDS - {"new"}
    asked = {verb.name for verb in verbs.PLAYER_VERBS if not verb.like_an_order}
    assert asked == PLAYER_WORDS


def _replaced(monkeypatch: pytest.MonkeyPatch, name: str, seen: list[VerbCall]) -> None:
    table = "HOST_VERBS" if any(v.name == name for v in verbs.HOST_VERBS) else "PLAYER_VERBS"
    entries = tuple(
        dataclasses.replace(verb, on_game=seen.append) if verb.name == name else verb
        for verb in getattr(verbs, table)
    )
    monkeypatch.setattr(verbs, table, entries)


def test_a_host_verb_is_carried_out_by_the_handler_its_entry_names(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    kit.two_player_battle()
    seen: list[VerbCall] = []
    _replaced(monkeypatch, "extend", seen)
    effect = kit.say("alice", "extend 2h")
    assert effect.outcome is Outcome.HANDLED
    assert [(call.word, call.rest) for call in seen] == [("extend", "2h")]


def test_the_tables_who_decides_whether_the_host_is_checked(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    kit.two_player_battle()
    seen: list[VerbCall] = []
    _replaced(monkeypatch, "status", seen)
    assert kit.say("bob", "status").outcome is Outcome.HANDLED
    assert [call.word for call in seen] == ["status"]
    # A host's verb from a player who is not the host: refused before its handler.
    _replaced(monkeypatch, "pause", seen)
    assert kit.say("bob", "pause").outcome is Outcome.REFUSED
    assert [call.word for call in seen] == ["status"]


def test_me_is_carried_out_by_the_handler_its_entry_names(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    entries = tuple(
        dataclasses.replace(verb, handler=lambda tx, row, argument, *, now: seen.append(argument))
        if verb.name == "quiet"
        else verb
        for verb in verbs.PERSONAL_VERBS
    )
    monkeypatch.setattr(verbs, "PERSONAL_VERBS", entries)
    assert kit.say("alice", "me quiet 23:00-08:00", dm=True).outcome is Outcome.HANDLED
    assert seen == ["23:00-08:00"]
    # A word of no entry: not a setting, refused.
    assert kit.say("alice", "me colour blue", dm=True).outcome is Outcome.REFUSED


def _to(kit: HostKit, user: str) -> list[str]:
    return [r.text for r in kit.outbox() if f'"user_id":"id-{user}"' in r.address]


def _shuffle(where: Where, seen: list[VerbCall]) -> HostVerb:
    return HostVerb(
        "shuffle",
        Who.HOST,
        where,
        "Shuffle the seats",
        (Arg("how", ArgKind.TEXT, "how to shuffle"),),
        on_game=seen.append,
    )


def test_a_verb_added_to_the_table_is_dispatched_and_in_the_help(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[VerbCall] = []
    monkeypatch.setattr(verbs, "HOST_VERBS", (*verbs.HOST_VERBS, _shuffle(Where.EITHER, seen)))
    kit.two_player_battle()
    assert kit.say("alice", "shuffle fast").outcome is Outcome.HANDLED
    assert [(call.word, call.rest) for call in seen] == [("shuffle", "fast")]
    # Who may use it is the table's: bob does not host the game.
    assert kit.say("bob", "shuffle fast").outcome is Outcome.REFUSED
    assert len(seen) == 1
    kit.say("carol", "help", dm=True, channel="")
    assert "`shuffle HOW`: Shuffle the seats" in _to(kit, "carol")[-1]


def test_a_verb_answered_before_any_game_is_heard_where_its_entry_says(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    heard: list[str] = []

    def wave(commands: object, tx: object, row: object, rest: str) -> None:
        heard.append(rest)

    added = HostVerb(
        "wave", Who.ANYONE, Where.PRIVATE, "Wave", on_room=wave, heard=verbs.Heard.PRIVATELY
    )
    monkeypatch.setattr(verbs, "PLACE_VERBS", (*verbs.PLACE_VERBS, added))
    kit.two_player_battle()
    assert kit.say("carol", "wave hello", dm=True).outcome is Outcome.HANDLED
    assert heard == ["hello"]
    # In public it is not heard as the host's: the game's channel reads it as an order.
    assert kit.say("bob", "wave back").outcome is Outcome.REFUSED
    assert heard == ["hello"]
    kit.say("carol", "help", dm=True, channel="")
    assert "`wave`: Wave" in _to(kit, "carol")[-1]


def test_a_verb_sent_where_its_entry_does_not_hear_it_is_refused_with_where_to_send_it(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[VerbCall] = []
    monkeypatch.setattr(verbs, "HOST_VERBS", (*verbs.HOST_VERBS, _shuffle(Where.PUBLIC, seen)))
    kit.two_player_battle()
    assert kit.say("alice", "shuffle fast", dm=True).outcome is Outcome.REFUSED
    assert seen == []
    assert _to(kit, "alice")[-1].endswith(
        "send `shuffle` in the game's channel, such as `#bst shuffle HOW`"
    )
    assert kit.say("alice", "shuffle fast").outcome is Outcome.HANDLED
    assert len(seen) == 1


def test_new_and_bridge_by_dm_are_refused_by_the_dispatch_with_their_own_words(
    kit: HostKit, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*args: object) -> None:
        raise AssertionError("the handler is not reached")

    entries = tuple(
        dataclasses.replace(verb, on_room=never) if verb.where is Where.PUBLIC else verb
        for verb in verbs.PLACE_VERBS
    )
    monkeypatch.setattr(verbs, "PLACE_VERBS", entries)
    assert kit.say("alice", "new sonar", dm=True).outcome is Outcome.REFUSED
    assert _to(kit, "alice")[-1].endswith(
        "start a game in a public channel: post `#sonar new` there"
    )
    assert kit.say("alice", "bridge 12", dm=True).outcome is Outcome.REFUSED
    assert "send this in the public room the game should be played from" in _to(kit, "alice")[-1]


def test_no_command_word_is_compared_in_the_dispatch() -> None:
    """The dispatch finds verbs in the table: no ``word == "…"`` or ``word in (…)`` of
    string literals in bot/host/commands/inbox.py."""
    tree = ast.parse((ROOT / "bot" / "host" / "commands" / "inbox.py").read_text(encoding="utf-8"))
    compared = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name):
            for right in node.comparators:
                literals = right.elts if isinstance(right, ast.Tuple | ast.Set) else [right]
                if any(isinstance(x, ast.Constant) and isinstance(x.value, str) for x in literals):
                    compared.append((node.lineno, node.left.id))
        if isinstance(node, ast.Compare) and any(
            isinstance(r, ast.Name) and r.id.endswith("_WORDS") for r in node.comparators
        ):
            compared.append((node.lineno, "…_WORDS"))
    assert [c for c in compared if c[1] in ("word", "…_WORDS")] == []


HANDLER_LINES = 60


def _handlers() -> list[Callable[..., object]]:
    """The table's handlers; where one is a few lines of bot.host.commands.verbs passing the call
    on, the functions it passes it to."""
    found: list[Callable[..., object]] = []
    for verb in (*verbs.HOST_VERBS, *verbs.PLAYER_VERBS, *verbs.PLACE_VERBS):
        found += [h for h in (verb.on_game, verb.on_room) if h is not None]
    found += [verb.handler for verb in verbs.PERSONAL_VERBS]
    for handler in list(found):
        if handler.__module__ != verbs.__name__:
            continue
        source = ast.parse(textwrap.dedent(inspect.getsource(handler)))
        for node in ast.walk(source):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                module = getattr(verbs, node.value.id, None)
                target = getattr(module, node.attr, None) if inspect.ismodule(module) else None
                if inspect.isfunction(target):
                    found.append(target)
    return found


def test_every_command_handler_is_at_most_sixty_lines() -> None:
    long = {}
    for handler in [*_handlers(), Commands._answer, Commands._before_any_game]:
        lines = len(inspect.getsourcelines(handler)[0])
        if lines > HANDLER_LINES:
            long[f"{handler.__module__}.{handler.__qualname__}"] = lines
    assert long == {}
    assert lobby.new in _handlers() and lobby.my_games in _handlers()
