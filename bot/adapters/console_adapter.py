"""The console adapter: one terminal where you speak as any player.

Lines (``:help`` prints this):

    alice> join               alice posts in the game's channel (a game's tag may lead)
    alice dm> random          alice sends a direct message to the bot
    :as bob                   speak as bob from now on; then
    > H14                     (or a bare line) bob posts in public
    dm> pass                  bob sends a DM
    :board                    bob's board (a DM with the text board and an image)
    :next                     close the turn now (bst play only)
    :quit                     leave

Everything the host sends is printed as ``[public] …`` or ``[dm NAME] …``,
with images written to a folder. Everyone at a local console is trusted as a
host (there is nobody else at the keyboard).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.adapters.local_base import LocalAdapter
from bot.host.messages import Address, Capabilities, Inbound, InboundKind, Outbound, Sender

PLATFORM = "console"
CHANNEL = "console"
HELP = (__doc__ or "").split("Lines (``:help`` prints this):", 1)[-1].split("Everything", 1)[0]

_SPEAK = re.compile(r"^([A-Za-z0-9_-]+)?\s*(dm)?>\s?(.*)$")


@dataclass(frozen=True)
class ConsoleLine:
    """What one typed line means: a message, or a console command (``:next``…)."""

    speaker: str | None = None
    text: str = ""
    private: bool = False
    command: str | None = None
    argument: str = ""
    error: str | None = None


def read_line(line: str, current: str | None) -> ConsoleLine:
    line = line.strip()
    if not line:
        return ConsoleLine(command="noop")
    if line.startswith(":"):
        word, _, rest = line[1:].partition(" ")
        word = word.lower()
        if word in ("as", "next", "help", "quit", "exit", "board"):
            return ConsoleLine(command="quit" if word == "exit" else word, argument=rest.strip())
        return ConsoleLine(error=f"unknown console command :{word}; try :help")
    match = _SPEAK.match(line)
    if match and (match.group(1) or match.group(2) or line.startswith(">")):
        speaker, private = match.group(1), bool(match.group(2))
        if speaker and speaker.lower() == "dm" and not private:
            speaker, private = None, True  # "dm> text": the current speaker, privately
        speaker = speaker or current
        if speaker is None:
            return ConsoleLine(error="who is speaking? write `alice> join` or `:as alice` first")
        return ConsoleLine(speaker=speaker, text=match.group(3), private=private)
    if current is None:
        return ConsoleLine(error="who is speaking? write `alice> join` or `:as alice` first")
    return ConsoleLine(speaker=current, text=line)


class ConsoleAdapter(LocalAdapter):
    platform = PLATFORM
    capabilities = Capabilities(withdraws=True)

    def __init__(
        self,
        images_dir: Path,
        *,
        write: Callable[[str], None] = print,
        now: Callable[[], float] | None = None,
    ) -> None:
        self.images_dir = images_dir
        super().__init__()
        self.write = write
        self.now = now or (lambda: datetime.now(UTC).timestamp())
        self.current: str | None = None
        self._ids = itertools.count(1)

    async def say(self, speaker: str, text: str, *, private: bool) -> None:
        inbound = Inbound(
            platform=PLATFORM,
            channel=CHANNEL,
            sender=Sender(PLATFORM, speaker.lower(), speaker, None, is_channel_admin=True),
            kind=InboundKind.DM if private else InboundKind.PUBLIC,
            text=text,
            message_id=f"console-{int(self.now() * 1000)}-{next(self._ids)}",
            sent_at=datetime.fromtimestamp(self.now(), UTC),
        )
        await self.handler(inbound)

    async def send(self, address: Address, outbound: Outbound) -> str:
        earlier = self.already_sent(outbound.key)
        if earlier:
            return earlier
        head = f"[dm {address.user_name}]" if address.is_dm else "[public]"
        self.write(f"{head} {outbound.text}")
        if outbound.link:
            self.write(f"    (page: {outbound.link})")
        for attachment in outbound.attachments:
            self.images_dir.mkdir(parents=True, exist_ok=True)
            path = self.images_dir / attachment.filename
            path.write_bytes(attachment.data)
            self.write(f"    ({attachment.kind.value} saved: {path})")
        return self.remember(outbound.key, f"console-out-{len(self._sent) + 1}")

    async def withdraw(self, address: Address) -> None:
        """As Discord would: the public message that gave a secret away is taken down."""
        self.write("[public] (that message was removed: it gave a secret away)")
