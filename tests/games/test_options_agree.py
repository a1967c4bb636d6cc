"""Each option is declared once (issue 41): what a platform's menu offers (its ``Arg``),
what the parser takes and the canonical text records show all come from that one
declaration, so they agree. Walked here for every registered game's options."""

from __future__ import annotations

import importlib
from dataclasses import fields
from typing import Any

import pytest

from bot.games.base import Game, OptionError
from bot.games.catalog import games
from bot.games.option import Option, OptionTable

TABLES: dict[str, OptionTable] = {
    game.name: importlib.import_module(f"bot.games.{game.name}.options").OPTIONS for game in games()
}
GAMES: dict[str, Game[Any, Any]] = {game.name: game for game in games()}
OPTIONS: list[tuple[str, Option[Any]]] = [
    (name, option) for name, table in TABLES.items() for option in table.options
]
IDS = [f"{name}.{option.name}" for name, option in OPTIONS]


def _offered(option: Option[Any]) -> list[str]:
    """Every value a platform's menu offers for ``option`` (its bounds and choices)."""
    bounds = [option.minimum, option.maximum]
    return [str(bound) for bound in bounds if bound is not None] + list(option.choices)


def test_every_built_in_game_is_walked() -> None:
    assert set(TABLES) == {"bst", "silentships", "sonar", "sugardog", "uboat"}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_the_menus_offer_the_declared_options(name: str) -> None:
    assert GAMES[name].option_args == TABLES[name].args


@pytest.mark.parametrize("name", sorted(TABLES))
def test_the_known_keys_are_the_declared_names(name: str) -> None:
    table, game = TABLES[name], GAMES[name]
    assert [arg.name for arg in game.option_args] == list(table.keys)
    with pytest.raises(OptionError) as refused:
        game.rules.new_game({"bogus": "1"})
    assert ", ".join(table.keys) in refused.value.message


@pytest.mark.parametrize("name", sorted(TABLES))
def test_the_options_keep_every_declared_value_with_its_default(name: str) -> None:
    table, game = TABLES[name], GAMES[name]
    kept = type(game.rules.new_game({}).options)
    assert {field.name for field in fields(kept)} == set(table.defaults())
    assert kept() == kept(**table.defaults())


@pytest.mark.parametrize(("game", "option"), OPTIONS, ids=IDS)
def test_what_the_menu_offers_the_parser_accepts_and_shows_again(
    game: str, option: Option[Any]
) -> None:
    # (The default's text, unless it is shown as nothing: a seed not given.)
    samples = [*_offered(option), option.text(option.default)]
    samples = [text for text in samples if text]
    assert samples, f"{option.name} offers nothing to check"
    for text in samples:
        value = option.parse(text)
        assert option.parse(option.text(value)) == value, text
        if text in option.choices:
            assert option.text(value) == text


@pytest.mark.parametrize(("game", "option"), OPTIONS, ids=IDS)
def test_one_past_what_the_menu_offers_is_refused(game: str, option: Option[Any]) -> None:
    past = []
    if option.minimum is not None:
        past.append(str(option.minimum - 1))
    if option.maximum is not None:
        past.append(str(option.maximum + 1))
    if option.choices:
        past.append("sometimes")
    for text in past:
        with pytest.raises(OptionError):
            option.parse(text)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_the_canonical_text_of_a_game_parses_back_to_the_same_options(name: str) -> None:
    rules = GAMES[name].rules
    shown = rules.options(rules.new_game({}))
    assert rules.options(rules.new_game(shown)) == shown
