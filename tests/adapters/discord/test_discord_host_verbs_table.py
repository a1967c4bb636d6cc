"""Discord's menus of the host's verbs are read from the host's table (bot.host.commands.verbs)."""

from __future__ import annotations

import pytest
from test_discord_game_commands import payload, shape

from bot.games.base import Arg, ArgKind
from bot.games.catalog import games
from bot.host.commands import verbs
from bot.host.commands.verbs import HostVerb, Where, Who

STRING = 3


def test_a_verb_added_to_the_hosts_table_is_in_discords_command_tree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    added = HostVerb(
        "shuffle",
        Who.HOST,
        Where.PUBLIC,
        "Shuffle the seats",
        (Arg("how", ArgKind.TEXT, "how to shuffle"),),
        on_game=lambda call: None,
    )
    monkeypatch.setattr(verbs, "HOST_VERBS", (*verbs.HOST_VERBS, added))
    groups = {group["name"]: group for group in payload(games())}
    host = shape(groups["host"])
    assert [(o["name"], o["type"], o["required"]) for o in host["shuffle"]] == [
        ("how", STRING, True)
    ]
    # And in each game's own ``host`` subgroup.
    bst = {sub["name"]: sub for sub in groups["bst"]["options"]}
    assert "shuffle" in [sub["name"] for sub in bst["host"]["options"]]


def test_the_verbs_kept_out_of_the_menus_are_not_in_discords_tree() -> None:
    groups = {group["name"]: group for group in payload(games())}
    offered = [sub["name"] for sub in groups["host"]["options"]]
    assert offered == [verb.name for verb in verbs.HOST_VERBS if verb.menu]
    assert "options" not in offered and "add" not in offered


def test_a_verb_gives_exactly_one_handler() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        HostVerb("odd", Who.HOST, Where.PUBLIC, "Neither")


def test_a_personal_verb_added_to_the_table_is_in_discords_me_group(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    added = verbs.PersonalVerb(
        "colour",
        "colour",
        "The colour of your boards",
        lambda *args, **kwargs: None,
        (Arg("colour", ArgKind.TEXT, "e.g. blue"),),
    )
    monkeypatch.setattr(verbs, "PERSONAL_VERBS", (*verbs.PERSONAL_VERBS, added))
    groups = {group["name"]: group for group in payload(games())}
    assert [(o["name"], o["type"]) for o in shape(groups["me"])["colour"]] == [("colour", STRING)]
    # ``me top``'s game is a choice of the games the tree was built with.
    assert shape(groups["me"])["top"][0]["choices"] == [game.name for game in games()]
