"""The game contract (bot/games/base.py): a game is a frozen value of four parts, its words
fall back on the neutral ones, and players read each game's own word for its running
phase while the stored and recorded phase stays ``battle``."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import textwrap
from types import ModuleType

import pytest

from bot.games.base import Game, GamePhase, NeutralWords
from bot.games.catalog import games, get_game
from tests.tug import TUG


def test_every_game_is_a_frozen_value_of_four_parts() -> None:
    for game in [*games(), TUG]:
        assert isinstance(game, Game)
        with pytest.raises(dataclasses.FrozenInstanceError):
            game.name = "other"  # type: ignore[misc]
        assert {"rules", "views", "codec", "words"} <= {f.name for f in dataclasses.fields(game)}
        assert game.robot is not None, f"{game.name} declares no robot for `bst demo`"


def test_the_stored_phases_are_the_contracts_values() -> None:
    assert [phase.value for phase in GamePhase] == ["setup", "battle", "finished"]


@pytest.mark.parametrize(
    ("kind", "word"),
    [("bst", "battle"), ("sonar", "hunt"), ("uboat", "match"), ("sugardog", "duel"),
     ("silentships", "battle")],
)  # fmt: skip
def test_players_read_each_games_own_word_for_its_running_phase(kind: str, word: str) -> None:
    game = get_game(kind)
    assert game.phase_word("battle") == word
    assert game.phase_word("setup") == "setup" and game.phase_word("finished") == "finished"


def test_the_web_pages_phase_column_says_the_games_word() -> None:
    from bot.web.site import _phase_word

    assert _phase_word("sonar", "battle") == "hunt"
    assert _phase_word("chess", "battle") == "battle"  # a kind this host no longer plays


def test_tug_writes_only_the_words_that_differ_from_the_neutral_ones() -> None:
    def sentences(cls: type) -> set[str]:
        return {name for name in vars(cls) if not name.startswith("_")}

    # Of the neutral words, Tug writes only those every game must write (no default).
    assert sentences(type(TUG.words)) & sentences(NeutralWords) == {"describe", "public_report"}
    assert NeutralWords.__abstractmethods__ == {"describe", "public_report"}
    assert TUG.words.report_title(3) == "turn 3" and TUG.words.player_word(2) == "players"
    assert TUG.phase_word("battle") == "battle"


def test_tug_writes_only_the_rules_that_differ_from_the_neutral_ones() -> None:
    from bot.games.base import NeutralRules

    def methods(cls: type) -> set[str]:
        return {name for name in vars(cls) if not name.startswith("_")}

    # The turn and the options' text come from the neutral rules; Tug seats crews.
    assert methods(type(TUG.rules)) & methods(NeutralRules) == {"crew"}
    state = TUG.rules.new_game({"target": "2"})
    assert TUG.rules.turn(state) == 0
    assert TUG.rules.options(state) == {"move_time": "1h", "response_time": "10m", "target": "2"}


def _forwarders(cls: type) -> list[str]:
    """The methods of ``cls`` whose body only calls another function with what it was given
    (``return text.opening(state)``): a part binds that function by name instead."""

    def plain(node: ast.expr) -> bool:
        return isinstance(node, ast.Name | ast.Constant) or (
            isinstance(node, ast.Attribute) and plain(node.value)
        )

    found = []
    for node in ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0].body:  # type: ignore[attr-defined]
        if not isinstance(node, ast.FunctionDef):
            continue
        body = [
            s
            for s in node.body
            if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        ]
        value = (
            body[0].value if len(body) == 1 and isinstance(body[0], ast.Return | ast.Expr) else None
        )
        if isinstance(value, ast.Call) and all(
            plain(a) for a in [*value.args, *(k.value for k in value.keywords)]
        ):
            found.append(f"{cls.__name__}.{node.name}")
    return found


@pytest.mark.parametrize("kind", ["bst", "sugardog", "silentships"])
def test_a_games_game_py_is_its_declaration_and_no_part_forwards(kind: str) -> None:
    game = get_game(kind)
    # Its codec and views are modules; its rules and words bind its modules' functions.
    assert isinstance(game.codec, ModuleType) and isinstance(game.views, ModuleType)
    assert _forwarders(type(game.rules)) == [] and _forwarders(type(game.words)) == []
    game_py = ast.parse(inspect.getsource(importlib.import_module(f"bot.games.{kind}.game")))
    written = [n for n in game_py.body if isinstance(n, ast.ClassDef | ast.FunctionDef)]
    assert written == [], f"{kind}'s game.py declares the game only"


def test_tugs_parts_forward_nothing() -> None:
    for part in (TUG.rules, TUG.views, TUG.codec, TUG.words):
        assert _forwarders(type(part)) == []
