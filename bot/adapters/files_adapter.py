"""The files adapter: a local platform whose channel and DMs are folders.

Used by ``bst demo``: every public post is appended to ``public.txt`` with its
images and video beside it, and the DMs of the player being followed go to
``dm-NAME.txt`` with their boards. Files are numbered in the order they were sent
(``0042-game1-turn7-map.png``), so a turn's later pictures never overwrite its earlier ones. The simulated players do not read images,
so the boards of the others are not drawn (``accepts_attachments``), which
keeps the demo quick without changing anything in the host.
"""

from __future__ import annotations

from pathlib import Path

from bot.adapters.local_base import LocalAdapter
from bot.host.messages import Address, Capabilities, Outbound

PLATFORM = "local"


class FilesAdapter(LocalAdapter):
    platform = PLATFORM
    capabilities = Capabilities(picks_attachments=True)

    def __init__(self, out_dir: Path, *, follow: str | None) -> None:
        super().__init__()
        self.out_dir = out_dir
        self.follow = follow
        self.sent = 0
        self.written = 0
        self.files: list[Path] = []
        out_dir.mkdir(parents=True, exist_ok=True)

    def accepts_attachments(self, address: Address) -> bool:
        return not address.is_dm or address.user_name == self.follow

    def _log_for(self, address: Address) -> Path | None:
        if not address.is_dm:
            return self.out_dir / "public.txt"
        if address.user_name == self.follow:
            return self.out_dir / f"dm-{address.user_name}.txt"
        return None

    async def send(self, address: Address, outbound: Outbound) -> str:
        earlier = self.already_sent(outbound.key)
        if earlier:
            return earlier
        self.sent += 1
        message_id = self.remember(outbound.key, f"local-{self.sent}")
        log = self._log_for(address)
        if log is None:
            return message_id
        names = []
        for attachment in outbound.attachments:
            folder = self.out_dir / ("public" if not address.is_dm else f"dm-{address.user_name}")
            folder.mkdir(parents=True, exist_ok=True)
            # Numbered in the order sent: a turn may have several pictures of one name
            # (a step each), and the folder keeps every one.
            self.written += 1
            path = folder / f"{self.written:04d}-{attachment.filename}"
            path.write_bytes(attachment.data)
            self.files.append(path)
            names.append(str(path.relative_to(self.out_dir)))
        with log.open("a", encoding="utf-8") as handle:
            handle.write(outbound.text + "\n")
            for name in names:
                handle.write(f"  [attached: {name}]\n")
            handle.write("\n")
        return message_id
