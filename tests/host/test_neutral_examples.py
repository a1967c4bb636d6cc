"""The examples in the host's and the script adapter's answers name a game this host plays,
derived from the catalog, or none at all where the code may not know the games (issue 32)."""

from collections.abc import Iterator

import pytest

from bot.adapters.script_adapter import ScriptError, parse_script
from bot.games import catalog
from bot.host.commands.routing import no_game_here
from tests.tug import TUG


@pytest.fixture
def only_tug() -> Iterator[None]:
    built_in = list(catalog.games())
    for game in built_in:
        catalog.unregister(game.name)
    catalog.register(TUG)
    try:
        yield
    finally:
        catalog.unregister(TUG.name)
        for game in built_in:
            catalog.register(game)


def test_no_game_here_names_a_registered_game(only_tug: None) -> None:
    answer = no_game_here()
    assert f"`{TUG.tag} new`" in answer
    assert "sonar" not in answer


def test_a_bare_game_directive_names_no_game() -> None:
    # adapters know no game (the import contract): the script adapter's example is neutral
    with pytest.raises(ScriptError) as refused:
        parse_script("@game\n", "s.txt")
    assert "`@game KIND [key=value …]`" in str(refused.value)
    assert not any(game.name in str(refused.value) for game in catalog.games())


def test_the_examples_name_the_first_built_in_game_by_name() -> None:
    first = catalog.games()[0]
    assert f"`{first.tag} new`" in no_game_here()
