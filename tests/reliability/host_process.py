"""A real host in its own process, for the crash, restart and two-process tests.

``python tests/reliability/host_process.py --db FILE --inbox FILE --sent FILE --clock FILE``

* The store is a SQLite file (or ``--db postgresql://…``); the host is built by
  :func:`bot.wiring.build_host`, exactly as ``bst run`` builds it.
* The one platform, ``queue``, reads inbound messages from an append-only JSONL
  inbox. Its position is a cursor in the database (the ``CursorStore``), advanced
  only after a message was handled, so what was written while this process was
  dead is caught up on restart.
* Every send appends one JSON line to the sent log. Like a platform nonce, a send
  whose ``Outbound.key`` is already in the log is not appended again: a crash
  between the platform accepting and the outbox marking the row sent must not
  double a message. Every attempt is also appended to ``SENT.attempts`` (never
  deduplicated) so a test can see retries.
* Time is the number in the ``--clock`` file (UTC epoch seconds), which the test
  advances; the process loops: catch up, tick (resolve what is due, relay), sleep.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path

from bot.config import Config
from bot.host.messages import (
    Address,
    Capabilities,
    CursorStore,
    Inbound,
    InboundHandler,
    InboundKind,
    Outbound,
    Sender,
)
from bot.host.runtime.clock import to_datetime
from bot.store import Store
from bot.wiring import build_host, no_network, sqlite_url

PLATFORM = "queue"


class FileClock:
    """now() is the number the test wrote in a file (written by rename, so never torn)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def now(self) -> float:
        return float(self.path.read_text(encoding="ascii"))


def append_line(path: Path, record: dict[str, object]) -> None:
    """One write(2) of one whole line, appended: a SIGKILL cannot tear it."""
    data = (json.dumps(record, sort_keys=True) + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def read_lines(path: Path) -> list[dict[str, object]]:
    """Whole lines only (a line still being written by the test is left for later)."""
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    complete = text[: text.rfind("\n") + 1]
    return [json.loads(line) for line in complete.splitlines() if line.strip()]


class QueueAdapter:
    """A ChatAdapter over two files: the inbox (JSONL) and the sent log (JSONL)."""

    platform = PLATFORM
    capabilities = Capabilities()

    def __init__(self, inbox: Path, sent: Path, *, dedupe: bool = True, name: str = "") -> None:
        self.inbox = inbox
        self.sent = sent
        self.attempts = sent.with_name(sent.name + ".attempts")
        self.dedupe = dedupe
        self.name = name or str(os.getpid())

    async def start(self, on_inbound: InboundHandler) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def send(self, address: Address, outbound: Outbound) -> str:
        record: dict[str, object] = {
            "key": outbound.key,
            "channel": address.channel,
            "user_id": address.user_id,
            "text": outbound.text,
            "attachments": [a.filename for a in outbound.attachments],
            "by": self.name,
        }
        append_line(self.attempts, record)
        if self.dedupe:
            for line in read_lines(self.sent):
                if line["key"] == outbound.key:
                    return f"{PLATFORM}-{outbound.key}"  # the platform's nonce: already posted
        append_line(self.sent, record)
        return f"{PLATFORM}-{outbound.key}"

    async def fetch_since(self, cursors: CursorStore, on_inbound: InboundHandler) -> int:
        position = int(await cursors.get(PLATFORM, "inbox") or 0)
        lines = read_lines(self.inbox)
        handled = 0
        for index in range(position, len(lines)):
            await on_inbound(inbound_of(lines[index]))
            await cursors.set(PLATFORM, "inbox", str(index + 1))
            handled += 1
        return handled


def inbound_of(line: dict[str, object]) -> Inbound:
    user = str(line["user"])
    return Inbound(
        platform=PLATFORM,
        channel=str(line.get("channel", "")),
        sender=Sender(
            PLATFORM,
            str(line.get("user_id", f"id-{user}")),
            user,
            avatar_url=line.get("avatar_url"),  # type: ignore[arg-type]
        ),
        kind=InboundKind.DM if line.get("dm") else InboundKind.PUBLIC,
        text=str(line["text"]),
        message_id=str(line["id"]),
        sent_at=to_datetime(float(line["sent_at"])),  # type: ignore[arg-type]
    )


async def serve(args: argparse.Namespace) -> None:
    url = args.db if "://" in args.db else sqlite_url(args.db)
    store = Store(url, auto_migrate=True)
    clock = FileClock(Path(args.clock))
    adapter = QueueAdapter(Path(args.inbox), Path(args.sent), dedupe=not args.no_dedupe)
    host = build_host(store, clock, {PLATFORM: adapter}, Config(), avatar_fetch=no_network)
    await adapter.start(host.on_inbound)
    ready = Path(args.sent).with_name(Path(args.sent).name + f".ready-{os.getpid()}")
    ready.write_text("ready")
    go = Path(args.go) if args.go else None
    while go is not None and not go.exists():
        await asyncio.sleep(0.005)
    while True:
        await host.catch_up()
        await host.tick()
        await asyncio.sleep(args.sleep)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", required=True)
    parser.add_argument("--inbox", required=True)
    parser.add_argument("--sent", required=True)
    parser.add_argument("--clock", required=True)
    parser.add_argument("--sleep", type=float, default=0.01)
    parser.add_argument("--go", default="", help="wait for this file before the first tick")
    parser.add_argument("--no-dedupe", action="store_true", help="log every send (no nonce)")
    args = parser.parse_args(argv)
    asyncio.run(serve(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
