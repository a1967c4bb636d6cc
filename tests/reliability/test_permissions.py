"""Host commands need the game's host, on every platform: the check is in host code,
not in an adapter. And identity is the platform's user id, never a display name."""

from __future__ import annotations

from pathlib import Path

import pytest
from host_kit import MultiKit

from bot.host.commands.inbox import Outcome

PLATFORMS = ("discord", "twitter", "console", "script")
HOST_COMMANDS = ("start", "pause", "resume", "extend 2h", "kick @bob", "end", "kick alice")


def _state(kit: MultiKit, game_id: int) -> tuple[object, ...]:
    game = kit.game(game_id)
    with kit.store.transaction() as tx:
        players = [(p.key, p.user_id) for p in tx.players(game_id)]
    return (game.phase, game.turn, game.deadline, game.paused_remaining, game.state, players)


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("phase", ["setup", "battle"])
def test_host_commands_from_a_non_host_are_refused(
    tmp_path: Path, platform: str, phase: str
) -> None:
    kit = MultiKit(tmp_path, PLATFORMS)
    try:
        if phase == "battle":
            game_id = kit.battle(platform, "c")
        else:
            kit.say(platform, "alice", "#bst new size=10x10 turn=1h", channel="c")
            kit.say(platform, "alice", "join", channel="c")
            kit.say(platform, "bob", "join", channel="c")
            kit.say(platform, "alice", "random", channel="c", dm=True)
            kit.say(platform, "bob", "random", channel="c", dm=True)
            game_id = 1
        before = _state(kit, game_id)
        for who in ("bob", "mallory"):  # a captain, and a stranger
            for command in HOST_COMMANDS:
                for dm in (False, True):
                    effect = kit.say(platform, who, f"#bst {command}", channel="c", dm=dm)
                    assert effect.outcome is Outcome.REFUSED, (platform, who, command, dm)
                    assert _state(kit, game_id) == before, (platform, who, command)
        # Someone named like the host is not the host either.
        effect = kit.say(platform, "alice", "#bst end", channel="c", user_id="impostor")
        assert effect.outcome is Outcome.REFUSED
        assert _state(kit, game_id) == before
        # While the real host is obeyed (the refusals above were not just "always no").
        assert kit.say(platform, "alice", "#bst pause" if phase == "battle" else "#bst start",
                       channel="c").outcome is Outcome.HANDLED  # fmt: skip
        assert _state(kit, game_id) != before
    finally:
        kit.close()


def test_channel_admin_and_configured_admin_may_host(tmp_path: Path) -> None:
    kit = MultiKit(tmp_path, ["discord"], admins=frozenset({"discord:id-root"}))
    try:
        kit.battle("discord", "c")
        assert (
            kit.say("discord", "mod", "#bst pause", channel="c", admin=True).outcome
            is Outcome.HANDLED
        )
        assert kit.say("discord", "root", "#bst resume", channel="c").outcome is Outcome.HANDLED
        # A configured admin on one platform is not an admin on another.
        assert "discord:id-root" in kit.host.commands.admins
    finally:
        kit.close()


def test_x_new_account_with_an_old_players_handle_is_not_that_player(tmp_path: Path) -> None:
    kit = MultiKit(tmp_path, ["twitter"])
    try:
        game_id = kit.battle("twitter", "x")  # alice is id-alice, display name "alice"
        kit.say("twitter", "alice", "#bst join", channel="x", user_id="id-alice")
        before = _state(kit, game_id)
        # Alice deleted her account; someone registered @alice (a new user id).
        for text, dm in (("#bst H5", False), ("move sub at A2 1 down", True), ("#bst board", False),
                         ("#bst pass", False), ("#bst leave", False), ("#bst end", False)):  # fmt: skip
            effect = kit.say("twitter", "@alice", text, channel="x", dm=dm, user_id="new-9999")
            assert effect.outcome is Outcome.REFUSED, text
        assert _state(kit, game_id) == before
        refusals = [r for r in kit.outbox(game_id) if r.recipient == "twitter:new-9999"]
        assert refusals and all("not in this game" in r.text or "host" in r.text for r in refusals)
        # Nothing private of alice's went to the newcomer.
        to_new = [r for r in kit.outbox() if '"user_id":"new-9999"' in r.address]
        assert all("Your fleet" not in r.text and "board" not in r.render for r in to_new)
        with kit.store.transaction() as tx:
            orders = tx.standing_orders(game_id, 1)
        assert orders == {}
        # The real alice (same id, new display name) is still alice.
        effect = kit.say("twitter", "Alice (new name)", "#bst H5", channel="x", user_id="id-alice")
        assert effect.outcome is Outcome.HANDLED
    finally:
        kit.close()
