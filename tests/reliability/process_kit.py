"""Driving host_process.py from a test: its files, its clock, starting and killing it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.host.runtime.clock import SCRIPT_EPOCH

HERE = Path(__file__).parent
HOST_PROCESS = HERE / "host_process.py"
REPO = HERE.parent.parent


def nightly() -> bool:
    return os.environ.get("BST_NIGHTLY") == "1"


def wait_for(predicate: Callable[[], bool], *, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class ProcessFiles:
    """The inbox, sent log and clock file shared by the test and its host processes."""

    def __init__(self, folder: Path, db: str | None = None, start: float = SCRIPT_EPOCH) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.db = db or str(folder / "host.sqlite")
        self.inbox = folder / "inbox.jsonl"
        self.sent = folder / "sent.jsonl"
        self.clock = folder / "clock.txt"
        self.go = folder / "go"
        self._now = start
        self._ids = 0
        self.written: list[dict[str, Any]] = []
        self.set_clock(start)

    # --- time ---
    def now(self) -> float:
        return self._now

    def set_clock(self, when: float) -> None:
        self._now = when
        tmp = self.clock.with_suffix(".tmp")
        tmp.write_text(repr(when), encoding="ascii")
        os.replace(tmp, self.clock)

    def advance(self, seconds: float) -> None:
        self.set_clock(self._now + seconds)

    # --- messages ---
    def say(self, user: str, text: str, *, channel: str, dm: bool = False, **extra: Any) -> str:
        """Append one inbound message, stamped with the current clock."""
        self._ids += 1
        record = {
            "id": f"m{self._ids}",
            "user": user,
            "channel": channel,
            "dm": dm,
            "text": text,
            "sent_at": self._now,
            **extra,
        }
        self.written.append(record)
        data = (json.dumps(record, sort_keys=True) + "\n").encode()
        fd = os.open(self.inbox, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
        return record["id"]

    def sent_lines(self, attempts: bool = False) -> list[dict[str, Any]]:
        path = self.sent.with_name(self.sent.name + ".attempts") if attempts else self.sent
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


class HostProcess:
    """One ``host_process.py`` child; killed with SIGKILL, never asked nicely."""

    def __init__(self, files: ProcessFiles, *extra: str) -> None:
        self.files = files
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = files.folder / "process.log"

    def start(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    str(HOST_PROCESS),
                    "--db",
                    self.files.db,
                    "--inbox",
                    str(self.files.inbox),
                    "--sent",
                    str(self.files.sent),
                    "--clock",
                    str(self.files.clock),
                    *self.extra,
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=REPO,
            )

    def wait_ready(self, timeout: float = 30.0) -> None:
        assert self.proc is not None
        ready = self.files.sent.with_name(self.files.sent.name + f".ready-{self.proc.pid}")
        wait_for(
            lambda: ready.exists() or self.proc.poll() is not None, timeout=timeout, what="ready"
        )  # type: ignore[union-attr]
        self.check_alive()

    def check_alive(self) -> None:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise AssertionError(
                f"host process exited with {self.proc.returncode}:\n{self.log.read_text()[-4000:]}"
            )

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)
        self.proc = None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None
