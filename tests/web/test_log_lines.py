"""Log lines (issue 43): a path's control characters are escaped (a ``%0A`` forges no
line), and aiohttp's own errors about a request it could not parse write a private
link's token as ``/p/…``."""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import pytest
from test_pages import FIRST_GAME
from web_kit import play, served

TOKEN = "secret-token-0123456789abcdefghijklmnopqrstu"


def _raw(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    return answer


def test_a_forged_line_and_a_token_in_a_bad_request_never_reach_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    database = tmp_path / "games.sqlite"
    play(database, FIRST_GAME, tmp_path / "s")
    with (
        caplog.at_level(logging.DEBUG),
        caplog.at_level(logging.DEBUG, logger="aiohttp.access"),
        caplog.at_level(logging.DEBUG, logger="aiohttp.server"),
        served(database) as site,
    ):
        site.get("/games/1%0AGET%20/forged%20200")
        answer = _raw(
            site.server.port,
            f"GET /p/{TOKEN}/x\x01y HTTP/1.1\r\nHost: a\r\n\r\n".encode("latin-1"),
        )
        bad_header = _raw(
            site.server.port,
            f"GET /p/{TOKEN} HTTP/1.1\r\nHost: a\r\nBroken header\r\n\r\n".encode(),
        )
    assert b" 400 " in answer.split(b"\r\n")[0] and b" 400 " in bad_header.split(b"\r\n")[0]
    lines = []
    for record in caplog.records:
        lines.append(record.getMessage())
        if record.exc_text:
            lines.append(record.exc_text)
        elif record.exc_info:
            lines.append(logging.Formatter().formatException(record.exc_info))
    text = "\n".join(lines)
    assert TOKEN not in text, text
    assert any("/games/1\\x0aGET /forged 200" in line for line in lines), lines
    assert not any(line.startswith("GET /forged") for line in text.splitlines())
