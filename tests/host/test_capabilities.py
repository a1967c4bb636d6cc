"""Capabilities are declared on the platform, never probed (house rule 13).

What a platform can do beyond its four verbs is its adapter's ``capabilities``
(:class:`bot.host.messages.Capabilities`); the host, the web page and the command line
read it, and never ask an adapter with ``getattr``/``hasattr`` whether it has a method.
A declaration that says less or more than the adapter does is caught here too.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from bot.adapters.bluesky.adapter import BlueskyAdapter
from bot.adapters.console_adapter import ConsoleAdapter
from bot.adapters.discord.adapter import DiscordAdapter
from bot.adapters.files_adapter import FilesAdapter
from bot.adapters.mastodon.adapter import MastodonAdapter
from bot.adapters.script_adapter import ScriptAdapter
from bot.adapters.twitter.adapter import TwitterAdapter
from bot.cli.run import PatientConsole
from bot.host.messages import Capabilities

ROOT = Path(__file__).resolve().parents[2]

# Each flag naming an optional protocol, and the members that protocol has.
SPOKEN = {
    "lanes": ("lane",),
    "mentions": ("mention",),
    "channel_links": ("channel_link",),
    "group_rooms": ("send_to_group",),
    "game_rooms": ("open_room", "room_member", "close_room"),
    "withdraws": ("withdraw",),
    "picks_attachments": ("accepts_attachments",),
    "scoped_catch_up": ("fetch_live",),
}
PROBED_NAMES = {
    *(field.name for field in dataclasses.fields(Capabilities)),
    *(member for members in SPOKEN.values() for member in members),
    "link",
}


def _probes(path: Path) -> list[str]:
    """The ``getattr``/``hasattr`` calls of a module that ask an adapter or a platform
    for something, or ask anything for a capability's name."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and node.args
        ):
            continue
        target = ast.unparse(node.args[0]).lower()
        name = node.args[1] if len(node.args) > 1 else None
        asked = name.value if isinstance(name, ast.Constant) else None
        if "adapter" in target or "platform" in target or asked in PROBED_NAMES:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_host_the_web_page_and_the_command_line_probe_no_platform() -> None:
    modules = [
        *(ROOT / "bot").glob("*.py"),
        *(ROOT / "bot" / "host").rglob("*.py"),
        *(ROOT / "bot" / "web").rglob("*.py"),
        *(ROOT / "bot" / "cli").rglob("*.py"),
    ]
    probes = [probe for module in sorted(modules) for probe in _probes(module)]
    assert probes == [], "read adapter.capabilities instead:\n" + "\n".join(probes)


@pytest.mark.parametrize(
    "adapter",
    [
        DiscordAdapter,
        TwitterAdapter,
        MastodonAdapter,
        BlueskyAdapter,
        ConsoleAdapter,
        PatientConsole,
        ScriptAdapter,
        FilesAdapter,
    ],
    ids=lambda adapter: adapter.__name__,
)
def test_each_adapter_declares_what_it_speaks_no_more_no_less(adapter: type) -> None:
    declared: Capabilities = adapter.capabilities  # type: ignore[attr-defined]
    for flag, members in SPOKEN.items():
        spoken = [member for member in members if hasattr(adapter, member)]
        if getattr(declared, flag):
            assert spoken == list(members), f"{adapter.__name__} declares {flag}"
        else:
            assert spoken == [], f"{adapter.__name__} has {spoken} but not {flag}"
