"""Logging set-up, with every secret value scrubbed from every record.

The adapters already keep tokens out of what they log; this filter is the
second lock: whatever a library prints, a known secret value never reaches a
log line.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

REDACTED = "[secret]"


class SecretFilter(logging.Filter):
    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = sorted({s for s in secrets if len(s) >= 6}, key=len, reverse=True)

    def scrub(self, text: str) -> str:
        for value in self.secrets:
            if value in text:
                text = text.replace(value, REDACTED)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        message = record.getMessage()
        if record.exc_info:
            message += "\n" + logging.Formatter().formatException(record.exc_info)
            record.exc_info = None
            record.exc_text = None
        record.msg = self.scrub(message)
        record.args = ()
        return True


def configure_logging(level: str, secrets: Iterable[str]) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(SecretFilter(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
