"""The script adapter: a platform whose "server" is a text file.

The format is shared/contracts/script-and-record.md: ``@game``, ``@start``,
``@close``, ``@wait``, ``@host`` directives and ``NAME public:`` / ``NAME dm:``
lines. Each player line becomes an :class:`Inbound` exactly as a Discord or X
message would, and everything the host sends is printed as ``-> public: TEXT``
or ``-> dm NAME: TEXT`` with attachments written to a folder. The clock is
virtual and moves only when the script says, so a script replays a game (or a
bug report) exactly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.adapters.local_base import LocalAdapter
from bot.games.base import OptionError
from bot.games.duration import parse_duration
from bot.host.messages import Address, Inbound, InboundKind, Outbound, Sender
from bot.host.runtime.clock import VirtualClock, to_datetime

PLATFORM = "script"
CHANNEL = "script"
OPERATOR_ID = "operator"
OPERATOR_NAME = "host"

_PLAYER_LINE = re.compile(r"^([A-Za-z0-9_-]+)\s+(public|dm)\s*:\s?(.*)$")
_DIRECTIVE = re.compile(r"^@(game|start|close|wait|host)\b\s*(.*)$")


class ScriptError(Exception):
    """A line the script adapter cannot read; the message names the line."""


@dataclass(frozen=True)
class ScriptLine:
    number: int
    action: str  # game | start | close | wait | host | public | dm
    argument: str
    name: str = ""


def read_script(path: Path) -> list[ScriptLine]:
    """:func:`parse_script` of a file, which must be UTF-8 text."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ScriptError(
            f"{path}, line {line}: not UTF-8 text (byte 0x{data[error.start]:02x}); "
            "save the script as UTF-8"
        ) from error
    return parse_script(text, str(path))


def parse_script(text: str, source: str = "script") -> list[ScriptLine]:
    """Read a whole script first, so a bad line stops it before anything runs."""
    lines: list[ScriptLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        directive = _DIRECTIVE.match(line)
        if directive:
            action, argument = directive.group(1), directive.group(2).strip()
            if action == "game" and not argument:
                raise ScriptError(
                    f"{source}, line {number}: expected `@game KIND [key=value …]`, "
                    "a game's name and its options (`help` lists the games)"
                )
            if action == "wait":
                if not argument:
                    raise ScriptError(
                        f"{source}, line {number}: expected `@wait DURATION`, e.g. `@wait 8h`"
                    )
                try:
                    parse_duration(argument)
                except OptionError as error:
                    raise ScriptError(
                        f"{source}, line {number}: `@wait` {error}, e.g. `@wait 8h`"
                    ) from error
            if action == "host" and not argument:
                raise ScriptError(
                    f"{source}, line {number}: expected `@host TEXT`, e.g. `@host pause`"
                )
            if action == "close" and argument:
                raise ScriptError(f"{source}, line {number}: `@close` takes nothing after it")
            if action == "start" and len(argument.split()) > 1:
                raise ScriptError(
                    f"{source}, line {number}: expected `@start` or `@start NAME` (who moves "
                    "first, where the game's rules let the host choose)"
                )
            lines.append(ScriptLine(number, action, argument))
            continue
        player = _PLAYER_LINE.match(line)
        if player:
            text_value = player.group(3).replace("\\n", "\n")
            lines.append(ScriptLine(number, player.group(2), text_value, player.group(1)))
            continue
        raise ScriptError(
            f"{source}, line {number}: cannot read {line[:60]!r}: expected `NAME public: TEXT`, "
            "`NAME dm: TEXT`, or a directive (@game, @start, @close, @wait, @host)"
        )
    return lines


class ScriptAdapter(LocalAdapter):
    """Delivers script lines as inbound messages and prints what the host sends."""

    platform = PLATFORM

    def __init__(
        self,
        clock: VirtualClock,
        out_dir: Path,
        *,
        echo: Callable[[str], None] = print,
        channel: str = CHANNEL,
    ) -> None:
        """``channel``: where the script's game is played (several scripts kept in one
        database each play in their own; their messages' ids name it)."""
        super().__init__()
        self.channel = channel
        self.clock = clock
        self.out_dir = out_dir
        self.echo = echo
        self.transcript: list[str] = []
        self._written = 0

    def inbound(self, line: ScriptLine, text: str, *, operator: bool = False) -> Inbound:
        name = OPERATOR_NAME if operator else line.name
        user_id = OPERATOR_ID if operator else f"user:{line.name}"
        kind = InboundKind.DM if line.action == "dm" else InboundKind.PUBLIC
        return Inbound(
            platform=PLATFORM,
            channel=self.channel,
            sender=Sender(PLATFORM, user_id, name),
            kind=kind,
            text=text,
            message_id=(
                f"line-{line.number}"
                if self.channel == CHANNEL
                else f"{self.channel}:line-{line.number}"
            ),
            sent_at=to_datetime(self.clock.now()),
        )

    async def deliver(self, inbound: Inbound) -> None:
        await self.handler(inbound)

    async def send(self, address: Address, outbound: Outbound) -> str:
        # A redelivered row (after a crash) is recognised by its key, as a
        # platform's idempotency nonce would be.
        earlier = self.already_sent(outbound.key)
        if earlier:
            return earlier
        text = outbound.text.replace("\n", "\\n")
        head = f"-> dm {address.user_name or address.user_id}: " if address.is_dm else "-> public: "
        parts = [head + text]
        for attachment in outbound.attachments:
            self._written += 1
            path = self.out_dir / f"{self._written:04d}-{attachment.filename}"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(attachment.data)
            parts.append(f"[{attachment.kind.value}: {path}]")
        line = " ".join(parts)
        self.transcript.append(line)
        self.echo(line)
        return self.remember(outbound.key, f"sent-{len(self.transcript)}")


def operator_text(line: ScriptLine) -> str:
    """The host command an operator directive stands for."""
    if line.action == "game":
        return f"new {line.argument}"
    if line.action == "start":
        return f"start {line.argument}".strip()
    return line.argument


__all__: Sequence[str] = [
    "ScriptAdapter",
    "ScriptError",
    "ScriptLine",
    "operator_text",
    "parse_script",
]
