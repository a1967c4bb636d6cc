"""Logging: JSON lines on request, and secrets scrubbed from every record."""

from __future__ import annotations

import json
import logging

from bot.logs import JsonFormatter, SecretFilter


def record(message: str, *args: object) -> logging.LogRecord:
    return logging.LogRecord("bst.test", logging.WARNING, __file__, 1, message, args, None)


def test_json_formatter_writes_one_object_per_line() -> None:
    line = JsonFormatter().format(record("turn %s resolved", 4))
    entry = json.loads(line)
    assert entry["message"] == "turn 4 resolved"
    assert entry["level"] == "WARNING"
    assert entry["logger"] == "bst.test"


def test_secret_filter_scrubs_values_from_messages_and_arguments() -> None:
    token = "MTEwMDAwMDAwMDAwMDAwMDAwMg.secret"
    item = record("login with %s failed", token)
    assert SecretFilter([token]).filter(item)
    assert token not in item.getMessage()
    assert "[secret]" in item.getMessage()
