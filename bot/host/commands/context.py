"""What a command handler needs of the host that runs it: the clock, who may host any
game, the defaults for new games and the decoded-state cache. (A protocol, so the
handlers depend on it and not on :class:`bot.host.commands.inbox.Commands`, which calls them.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from bot.host.play.states import Descriptions, States
from bot.host.runtime.clock import Clock
from bot.host.runtime.limits import Limits


class CommandContext(Protocol):
    clock: Clock
    admins: frozenset[str]
    default_turn: str
    default_game: str
    states: States
    described: Descriptions
    # The platforms where a game gets a room of its own (a Discord thread): their
    # adapters can open one (see bot.host.messages.RoomAdapter).
    room_platforms: frozenset[str]
    # The platforms that show a message's card (a Discord embed): there `status` is a
    # card with the latest public picture in it.
    card_platforms: frozenset[str]
    # The platforms where a person types (not a script): there a step that cannot be
    # undone (`leave` during a battle) asks to be confirmed first.
    confirm_platforms: frozenset[str]
    # The web page's public address ([web] base_url): players get private links to it;
    # "" = no web page, no links.
    web_base_url: str
    # What one person may ask of this host (clock minimums, command rates, quotas).
    limits: Limits
    # Draws a game's secret (bot.host.play.seeds.draw_secret) for committed luck; None (scripts,
    # tests) = games draw from their seed as before, so their records stay the same.
    draw_secret: Callable[[], str] | None
