"""The host's own options of ``new`` (``reach``, ``away``, ``fill``, ``robots``, ``seed``),
declared once in one table (issue 41): read by ``new`` and by ``options`` in setup alike,
and offered by a platform's menu after the game's own."""

from __future__ import annotations

from typing import Any

import pytest
from host_fakes import HostKit

from bot.games.base import Game, GamePhase, OptionError
from bot.games.catalog import games
from bot.host.commands.new_options import host_options, new_args
from bot.store import loads

GAMES: list[Game[Any, Any]] = list(games())
EXAMPLES = {"away": "12h", "fill": "robots", "robots": "2"}
"""A value each option offered as free text takes (in every built-in game)."""


@pytest.mark.parametrize("game", GAMES, ids=[game.name for game in GAMES])
def test_what_the_menu_offers_the_host_accepts_and_shows_again(game: Game[Any, Any]) -> None:
    table = host_options(game)
    for option in table.options:
        samples = [*map(str, filter(None.__ne__, (option.minimum, option.maximum)))]
        samples += [*option.choices, *([EXAMPLES[option.name]] if option.name in EXAMPLES else [])]
        assert samples, f"{option.name} offers nothing to check"
        for text in samples:
            value = option.parse(text)
            assert option.parse(option.text(value)) == value, (option.name, text)
        past = [str(option.minimum - 1)] if option.minimum is not None else []
        past += ["sometimes"] if option.choices else []
        for text in past:
            with pytest.raises(OptionError):
                option.parse(text)


@pytest.mark.parametrize("game", GAMES, ids=[game.name for game in GAMES])
def test_a_menu_offers_the_games_options_then_the_hosts_each_name_once(
    game: Game[Any, Any],
) -> None:
    names = [arg.name for arg in new_args(game)]
    assert len(names) == len(set(names))
    assert names[: len(game.option_args)] == [arg.name for arg in game.option_args]
    assert set(names) == {arg.name for arg in game.option_args} | set(host_options(game).keys)


def test_a_game_opened_with_fill_robots_may_change_its_options_in_setup(kit: HostKit) -> None:
    # `fill` is kept with the game's options: `options` used to hand it to the game,
    # which refused it as unknown, so no option could change any more.
    kit.say("alice", "#uboat new uboat fill=robots:strong")
    effect = kit.say("alice", "options rounds=5")
    assert effect.outcome.value != "refused"
    options = loads(kit.game().options)
    assert (options["rounds"], options["fill"]) == ("5", "robots:strong")
    effect = kit.say("alice", "options fill=people")
    assert effect.outcome.value == "refused"
    kit.say("alice", "#uboat join")
    kit.say("alice", "start")
    assert kit.game().phase == GamePhase.RUNNING


def test_the_seed_is_kept_in_its_canonical_text(kit: HostKit) -> None:
    kit.say("alice", "#bst new size=10x10 seed=0042")
    game = kit.game()
    assert game.seed == 42
    assert loads(game.options)["seed"] == "42"
