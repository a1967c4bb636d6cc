"""The host's verbs are one declared table (bot.host.verbs): the dispatch reads it."""

from __future__ import annotations

import dataclasses

import pytest
from host_fakes import HostKit

from bot.host import verbs
from bot.host.inbox import Outcome
from bot.host.routing import HOST_WORDS, PLAYER_WORDS
from bot.host.verb_call import VerbCall


def test_the_words_routing_knows_are_the_tables() -> None:
    # ``new`` opens a game (none is found yet), so it has no entry on a game.
    on_a_game = {verb.name for verb in verbs.HOST_VERBS if verb.on_game is not None}
    assert on_a_game == HOST_WORDS - {"new"}
    assert {verb.name for verb in verbs.PLAYER_VERBS} == PLAYER_WORDS


def _replaced(monkeypatch: pytest.MonkeyPatch, name: str, seen: list[VerbCall]) -> None:
    table = "HOST_VERBS" if any(v.name == name for v in verbs.HOST_VERBS) else "PLAYER_VERBS"
    entries = tuple(
        dataclasses.replace(verb, on_game=seen.append) if verb.name == name else verb
        for verb in getattr(verbs, table)
    )
    monkeypatch.setattr(verbs, table, entries)
    monkeypatch.setattr(
        verbs, "_BY_NAME", {v.name: v for v in (*verbs.HOST_VERBS, *verbs.PLAYER_VERBS)}
    )


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
