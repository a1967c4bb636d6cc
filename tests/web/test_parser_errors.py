"""aiohttp's own answers to a request it could not parse (issue 43, item 9): a bad
request line, a bad header, a header too long, a method that is not one. aiohttp
builds those 400s before any middleware runs; they carry the same security headers as
every other answer, and a private link's token in them never reaches a log.

These go over a real socket to the real server (``WebServer``), as raw bytes: the
headers come from a private hook of aiohttp's (``bot/web/app.py``, ``_Request``), and
this is the test that fails if an aiohttp upgrade stops calling it."""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import pytest
from test_pages import FIRST_GAME
from web_kit import play, served

from bot.web.pages import CONTENT_SECURITY_POLICY, ROBOTS

TOKEN = "secret-token-0123456789abcdefghijklmnopqrstu"

SECURITY = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "x-robots-tag": ROBOTS,
}

MALFORMED = {
    "a control character in the request line": f"GET /p/{TOKEN}/x\x01y HTTP/1.1\r\nHost: a\r\n\r\n",
    "a header without a colon": f"GET /p/{TOKEN} HTTP/1.1\r\nHost: a\r\nBroken header\r\n\r\n",
    "a header too long": f"GET /p/{TOKEN} HTTP/1.1\r\nHost: a\r\nX-Long: {'a' * 9000}\r\n\r\n",
    "a request line too long": f"GET /p/{TOKEN}/{'a' * 9000} HTTP/1.1\r\nHost: a\r\n\r\n",
    "no HTTP at all": "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
    "a bad version": "GET / HTTP/9.Z\r\nHost: a\r\n\r\n",
}


def _raw(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def _head(answer: bytes) -> tuple[str, dict[str, str]]:
    """The status line and the headers (names in lower case) of a raw answer."""
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    status, *lines = head.split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers


@pytest.mark.parametrize("what", list(MALFORMED))
def test_aiohttps_own_400s_carry_the_security_headers_and_log_no_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, what: str
) -> None:
    database = tmp_path / "games.sqlite"
    play(database, FIRST_GAME, tmp_path / "s")
    with (
        caplog.at_level(logging.DEBUG),
        caplog.at_level(logging.DEBUG, logger="aiohttp.access"),
        caplog.at_level(logging.DEBUG, logger="aiohttp.server"),
        served(database) as site,
    ):
        answer = _raw(site.server.port, MALFORMED[what].encode("latin-1"))
        # every other answer has them: a page that is not there, for one
        _, missing = _head(
            _raw(site.server.port, b"GET /nothing HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        )
    status, headers = _head(answer)
    assert " 400 " in status, status  # aiohttp's own refusal, not ours
    for name, value in SECURITY.items():
        assert headers.get(name) == value, (name, headers)
        assert missing.get(name) == value, (name, missing)
    assert headers.get("cache-control") == "no-store"
    text = "\n".join(
        [record.getMessage() for record in caplog.records]
        + [record.exc_text or "" for record in caplog.records]
    )
    assert TOKEN not in text, text
