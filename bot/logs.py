"""Logging set-up, with every secret value scrubbed from every record.

The adapters already keep tokens out of what they log; this filter is the
second lock: whatever a library prints, a known secret value never reaches a
log line, nor a token in a URL where a platform declares its URLs carry one
(``Platform.tokens_in_urls``: Discord's follow-ups are ``/webhooks/APP/TOKEN``).

At DEBUG the platform libraries log whole requests and gateway events: every
private board sent by DM, every interaction token, X's OAuth headers. Their
loggers (each platform's declared ``libraries``, and the transport libraries
below) are therefore held at INFO whatever the level asked for (ours log only
what is safe: ids, lengths, routes).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable

from bot.platforms import platforms

REDACTED = "[secret]"
QUIET_LIBRARIES = (
    *(library for declared in platforms() for library in declared.libraries),
    "aiohttp",
    "websockets",
    "oauthlib",
    "requests_oauthlib",
)
"""Libraries whose DEBUG carries message text, tokens or headers: never below INFO."""
_TOKENS_IN_URLS = tuple(
    re.compile(pattern) for declared in platforms() for pattern in declared.tokens_in_urls
)


class SecretFilter(logging.Filter):
    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = sorted({s for s in secrets if len(s) >= 6}, key=len, reverse=True)

    def scrub(self, text: str) -> str:
        for value in self.secrets:
            if value in text:
                text = text.replace(value, REDACTED)
        for pattern in _TOKENS_IN_URLS:
            text = pattern.sub(rf"\1{REDACTED}", text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.exc_text:
            # A traceback a logger's own filter already wrote (and masked: the web page's
            # private links) is kept as written; formatted afresh, it would bring back
            # what that filter took out.
            message += "\n" + record.exc_text
        elif record.exc_info:
            message += "\n" + logging.Formatter().formatException(record.exc_info)
        if record.exc_info or record.exc_text:
            record.exc_info = None
            record.exc_text = None
        record.msg = self.scrub(message)
        record.args = ()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line, for log collectors ([logging] json = true)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(level: str, secrets: Iterable[str], *, as_json: bool = False) -> None:
    handler = logging.StreamHandler()
    if as_json:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(SecretFilter(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    quiet_libraries()


def quiet_libraries() -> None:
    """Hold the platform libraries' loggers at INFO (see the module docstring)."""
    floor = max(logging.INFO, logging.getLogger().getEffectiveLevel())
    for name in QUIET_LIBRARIES:
        logging.getLogger(name).setLevel(floor)
