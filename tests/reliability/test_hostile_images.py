"""Rule 8: hostile avatars are refused before decoding, the generated avatar stands in,
and the turn's map still goes out. Served over real HTTP by a local aiohttp server and
downloaded by AvatarCache's own download path (byte cap, timeout)."""

from __future__ import annotations

import asyncio
import resource
import struct
import zlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from host_kit import MultiKit

from bot.host.messages import Inbound, InboundKind, Sender
from bot.host.outbox.attachments import AttachmentRenderer
from bot.host.outbox.avatar_cache import AvatarCache
from bot.host.runtime.clock import to_datetime
from renderers import AvatarError, decode_avatar, generated_avatar

FIFTY_MB = 50 * 1024 * 1024


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def pixel_bomb(side: int = 40_000) -> bytes:
    """A PNG header declaring side×side RGBA pixels, with a tiny IDAT: ~100 bytes on the wire,
    6.4 GB if anyone decoded it."""
    header = struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(b"\x00" * 1024))
        + _chunk(b"IEND", b"")
    )


def real_png() -> bytes:
    import io

    buffer = io.BytesIO()
    generated_avatar("x", "X", 64).save(buffer, format="PNG")
    return buffer.getvalue()


def max_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@pytest.fixture
async def hostile_server() -> AsyncIterator[str]:
    async def bomb(request: web.Request) -> web.Response:
        return web.Response(body=pixel_bomb(), content_type="image/png")

    async def text(request: web.Request) -> web.Response:
        return web.Response(
            text="<html>not an image at all</html>\n" * 50, content_type="image/png"
        )

    async def huge_declared(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "image/png"})
        response.content_length = FIFTY_MB
        await response.prepare(request)
        try:
            for _ in range(FIFTY_MB // 65536):
                await response.write(b"\x89PNG\r\n\x1a\n" + b"\x00" * (65536 - 8))
        except (ConnectionResetError, RuntimeError):
            pass
        return response

    async def huge_chunked(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "image/png"})
        response.enable_chunked_encoding()  # no Content-Length: only the byte cap can stop it
        await response.prepare(request)
        try:
            for _ in range(FIFTY_MB // 65536):
                await response.write(b"\x89PNG\r\n\x1a\n" + b"\x00" * (65536 - 8))
        except (ConnectionResetError, RuntimeError):
            pass
        return response

    async def good(request: web.Request) -> web.Response:
        return web.Response(body=real_png(), content_type="image/png")

    app = web.Application()
    app.router.add_get("/bomb.png", bomb)
    app.router.add_get("/text.png", text)
    app.router.add_get("/huge-declared.png", huge_declared)
    app.router.add_get("/huge-chunked.png", huge_chunked)
    app.router.add_get("/good.png", good)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    yield str(server.make_url("")).rstrip("/")
    await server.close()


def test_pixel_bomb_is_refused_from_its_header() -> None:
    data = pixel_bomb()
    assert len(data) < 200
    before = max_rss_mb()
    with pytest.raises(AvatarError, match="pixels"):
        decode_avatar(data)
    assert max_rss_mb() - before < 100


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("/bomb.png", "40,000×40,000 PNG"),
        ("/text.png", "text served as image/png"),
        ("/huge-declared.png", "50 MB with Content-Length"),
        ("/huge-chunked.png", "50 MB chunked, no Content-Length"),
    ],
)
async def test_hostile_avatar_falls_back_quickly_without_memory_blowup(
    hostile_server: str, path: str, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    cache = AvatarCache(timeout_s=5.0)  # the real aiohttp download path
    fallback = generated_avatar("p1", "alice", 256)
    before = max_rss_mb()
    image = await cache.get("p1", "alice", hostile_server + path + "?token=secret-query")
    assert image.tobytes() == fallback.tobytes(), f"{reason}: the generated avatar is used"
    assert max_rss_mb() - before < 150, f"{reason}: memory grew by {max_rss_mb() - before:.0f} MB"
    assert "not used" in caplog.text
    assert "secret-query" not in caplog.text, "avatar URLs are logged without their query"


async def test_a_good_avatar_is_used(hostile_server: str) -> None:
    cache = AvatarCache()
    image = await cache.get("p1", "alice", hostile_server + "/good.png")
    assert image.tobytes() != generated_avatar("p1", "alice", 256).tobytes()


@pytest.mark.parametrize("path", ["/bomb.png", "/text.png", "/huge-chunked.png"])
async def test_the_turn_posts_its_map_when_a_shooter_has_a_hostile_avatar(
    tmp_path: Path, hostile_server: str, path: str
) -> None:
    kit = MultiKit(tmp_path, ["discord"])
    renderer = AttachmentRenderer(kit.store, AvatarCache(timeout_s=3.0))
    kit.host.relay.attachments = renderer
    try:
        ids = iter(range(1000))

        async def say(user: str, text: str, dm: bool = False, avatar: str | None = None) -> None:
            await kit.host.on_inbound(
                Inbound(
                    platform="discord",
                    channel="c",
                    sender=Sender("discord", f"id-{user}", user, avatar_url=avatar),
                    kind=InboundKind.DM if dm else InboundKind.PUBLIC,
                    text=text,
                    message_id=f"m{next(ids)}",
                    sent_at=to_datetime(kit.clock.now()),
                )
            )

        await say("alice", "#bst new size=10x10 turn=1h")
        await say("alice", "join", avatar=hostile_server + path)
        await say("bob", "join", avatar=hostile_server + "/good.png")
        await say("alice", "random", dm=True)
        await say("bob", "random", dm=True)
        await say("alice", "start")
        await say("alice", "#bst H5", avatar=hostile_server + path)
        kit.clock.advance(3601)
        assert await kit.host.tick() == 1
        sent = kit.adapters["discord"].sent
        maps = [
            o
            for a, o in sent
            if not a.is_dm and any(x.filename.endswith("-map.png") for x in o.attachments)
        ]
        assert len(maps) == 2, "turn 0 and turn 1 maps were posted"
        png = maps[-1].attachments[0].data
        assert png.startswith(b"\x89PNG") and len(png) > 1000
        assert all(r.status == "sent" for r in kit.outbox())
    finally:
        kit.close()
        await asyncio.sleep(0)
