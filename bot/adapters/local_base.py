"""What the adapters without a remote server share (script, console, files).

Their messages arrive the moment they are made, so there is nothing to catch
up on; and like a platform honouring an idempotency nonce, they recognise an
outbox row sent again after a crash by its key and do not repeat it.
"""

from __future__ import annotations

from bot.host.messages import Capabilities, CursorStore, InboundHandler


class LocalAdapter:
    platform: str
    capabilities = Capabilities()

    def __init__(self) -> None:
        self._handler: InboundHandler | None = None
        self._sent: dict[str, str] = {}

    async def start(self, on_inbound: InboundHandler) -> None:
        self._handler = on_inbound

    async def stop(self) -> None:
        self._handler = None

    async def fetch_since(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        return 0  # nothing is ever held back

    @property
    def handler(self) -> InboundHandler:
        assert self._handler is not None, "start() the adapter first"
        return self._handler

    def already_sent(self, key: str) -> str | None:
        """The message id of an earlier send of the same outbox row, if any."""
        return self._sent.get(key) if key else None

    def remember(self, key: str, message_id: str) -> str:
        if key:
            self._sent[key] = message_id
        return message_id
