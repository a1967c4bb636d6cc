"""Logging: JSON lines on request, and secrets scrubbed from every record."""

from __future__ import annotations

import json
import logging

import pytest

from bot.logs import QUIET_LIBRARIES, JsonFormatter, SecretFilter, configure_logging


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


BOARD = "Your board: carrier C1-C5, sub A2"
TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OTA6c2VjcmV0"


@pytest.fixture
def debug_logging(capsys):
    """bst's own logging at DEBUG, as `[logging] level = "DEBUG"` sets it; restored after."""
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    saved_libraries = {name: logging.getLogger(name).level for name in QUIET_LIBRARIES}
    configure_logging("DEBUG", [])
    yield lambda: capsys.readouterr().err
    root.handlers[:], level = saved
    root.setLevel(level)
    for name, library_level in saved_libraries.items():
        logging.getLogger(name).setLevel(library_level)


def test_debug_logs_hold_no_private_board_and_no_interaction_token(debug_logging) -> None:
    # What discord.py and tweepy log at DEBUG: whole requests, bodies and gateway events.
    logging.getLogger("discord.http").debug(
        "%s %s with %s has returned %s",
        "POST",
        f"https://discord.com/api/v10/webhooks/1100000000000000001/{TOKEN}",
        {"content": BOARD},
        200,
    )
    logging.getLogger("discord.gateway").debug(
        "For Shard ID %s: WebSocket Event: %s", 0, {"d": {"token": TOKEN, "content": BOARD}}
    )
    logging.getLogger("tweepy.client").debug("Making API request: POST …\nBody: %s", BOARD)
    # Ours still log at DEBUG, and a library's warnings still show, token scrubbed.
    logging.getLogger("bot.adapters.twitter.client").debug("X API request: %s %s", "GET", "/2/x")
    logging.getLogger("discord.webhook.async_").warning(
        "Webhook ID %s is rate limited: /interactions/1100000000000000009/%s/callback",
        1,
        TOKEN,
    )
    said = debug_logging()
    assert "X API request: GET /2/x" in said
    assert "is rate limited" in said
    assert BOARD not in said
    assert TOKEN not in said


def test_verbose_command_line_holds_the_libraries_at_info() -> None:
    from bot.__main__ import main

    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    saved_libraries = {name: logging.getLogger(name).level for name in QUIET_LIBRARIES}
    try:
        for name in QUIET_LIBRARIES:
            logging.getLogger(name).setLevel(logging.NOTSET)
        root.setLevel(logging.DEBUG)  # as -v leaves it
        main(["-v", "check-config", "/nonexistent/config.toml"])
        assert logging.getLogger("discord.http").getEffectiveLevel() >= logging.INFO
        assert logging.getLogger("tweepy").getEffectiveLevel() >= logging.INFO
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
        for name, library_level in saved_libraries.items():
            logging.getLogger(name).setLevel(library_level)


def test_a_traceback_a_logger_filter_masked_stays_masked_in_the_bots_log() -> None:
    """``bst web`` masks private links in aiohttp's own tracebacks (a logger filter); the
    bot's log handler formatted the traceback afresh from the exception and brought the
    token back."""
    import io

    from bot.logs import SecretFilter
    from bot.web.links import MaskTokens

    logger = logging.getLogger("test.masked.traceback")
    logger.propagate = False
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(SecretFilter(["hunter2-secret"]))
    logger.addHandler(handler)
    logger.addFilter(MaskTokens())
    try:
        try:
            raise ValueError("bad request line: GET /p/tok-0123456789abcdef/x HTTP/1.1")
        except ValueError:
            logger.exception("Error handling request")
    finally:
        logger.removeHandler(handler)
    written = stream.getvalue()
    assert "Error handling request" in written and "/p/…" in written
    assert "tok-0123456789abcdef" not in written
