"""Avatar safety: only small PNG/JPEG/GIF/WebP images are decoded; everything else falls back
to the generated avatar, and a bad avatar never stops a post."""

from __future__ import annotations

import io
import struct
import time
import zlib
from pathlib import Path

import pytest
from PIL import Image

from bot.host.outbox.avatar_cache import AvatarCache, safe_url
from renderers.avatars import AvatarError, decode_avatar, generated_avatar, round_avatar


def png_bytes(
    size: tuple[int, int] = (48, 48), colour: tuple[int, int, int] = (0, 200, 0)
) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format="PNG")
    return out.getvalue()


def huge_png_header(width: int = 40_000, height: int = 40_000) -> bytes:
    """A PNG whose header declares width x height pixels, followed by a tiny IDAT."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 100))
        + chunk(b"IEND", b"")
    )


def test_a_small_png_decodes() -> None:
    image = decode_avatar(png_bytes())
    assert image.size == (48, 48) and image.mode == "RGBA"


@pytest.mark.parametrize("fmt", ["JPEG", "GIF", "WEBP"])
def test_other_allowed_formats_decode(fmt: str) -> None:
    out = io.BytesIO()
    Image.new("RGB", (20, 20), (10, 20, 30)).save(out, format=fmt)
    assert decode_avatar(out.getvalue()).size == (20, 20)


def test_huge_pixel_count_is_refused_before_decoding() -> None:
    start = time.perf_counter()
    with pytest.raises(AvatarError, match="pixels"):
        decode_avatar(huge_png_header())
    assert time.perf_counter() - start < 0.5


def test_text_file_named_png_is_refused() -> None:
    with pytest.raises(AvatarError, match="not a PNG"):
        decode_avatar(b"<html>this is not an image</html>\n")


def test_more_than_one_megabyte_is_refused() -> None:
    with pytest.raises(AvatarError, match="bytes"):
        decode_avatar(b"\x89PNG\r\n\x1a\n" + bytes(50 * 1024 * 1024))


def test_other_formats_are_refused_by_magic_bytes() -> None:
    out = io.BytesIO()
    Image.new("RGB", (8, 8)).save(out, format="BMP")
    with pytest.raises(AvatarError):
        decode_avatar(out.getvalue())


def test_truncated_png_is_refused() -> None:
    with pytest.raises(AvatarError):
        decode_avatar(png_bytes((64, 64))[:60])


def test_generated_avatar_is_deterministic_and_differs_by_player() -> None:
    a = generated_avatar("u1", "alice", 64)
    assert a.tobytes() == generated_avatar("u1", "alice", 64).tobytes()
    assert a.tobytes() != generated_avatar("u2", "alice", 64).tobytes()
    assert a.size == (64, 64)


def test_round_avatar_is_transparent_in_the_corners() -> None:
    image = round_avatar(Image.new("RGB", (100, 60), (255, 0, 0)), 40)
    assert image.size == (40, 40)
    assert image.getpixel((0, 0))[3] == 0  # type: ignore[index]
    assert image.getpixel((20, 20))[3] == 255  # type: ignore[index]


class FakeFetch:
    def __init__(self, payloads: dict[str, bytes | Exception]) -> None:
        self.payloads = payloads
        self.calls: list[str] = []

    async def __call__(self, url: str) -> bytes:
        self.calls.append(url)
        payload = self.payloads[url]
        if isinstance(payload, Exception):
            raise payload
        return payload


BAD = {
    "https://img.example/huge.png?token=secret": huge_png_header(),
    "https://img.example/text.png": b"just some text, not a picture",
    "https://img.example/big.png": b"\x89PNG\r\n\x1a\n" + bytes(50 * 1024 * 1024),
    "https://img.example/down.png": ConnectionError("refused"),
}


@pytest.mark.parametrize("url", sorted(BAD))
async def test_cache_falls_back_to_the_generated_avatar(
    url: str, caplog: pytest.LogCaptureFixture
) -> None:
    fetch = FakeFetch(dict(BAD))
    cache = AvatarCache(fetch=fetch, size=64)
    image = await cache.get("u1", "alice", url)
    assert image.tobytes() == generated_avatar("u1", "alice", 64).tobytes()
    assert "secret" not in caplog.text


async def test_cache_downloads_once_per_player_and_url(tmp_path: Path) -> None:
    url = "https://img.example/ok.png"
    fetch = FakeFetch({url: png_bytes()})
    cache = AvatarCache(fetch=fetch, cache_dir=tmp_path)
    first = await cache.get("u1", "alice", url)
    second = await cache.get("u1", "alice", url)
    assert first is second and fetch.calls == [url]
    assert first.getpixel((5, 5))[:3] == (0, 200, 0)  # type: ignore[index]
    # a new cache with the same folder reads the disk instead of the network
    again = AvatarCache(fetch=FakeFetch({}), cache_dir=tmp_path)
    assert (await again.get("u1", "alice", url)).size == (48, 48)


async def test_no_url_gives_the_generated_avatar() -> None:
    cache = AvatarCache(fetch=FakeFetch({}), size=32)
    image = await cache.get("u9", "zed", None)
    assert image.tobytes() == generated_avatar("u9", "zed", 32).tobytes()


async def test_a_generated_avatar_is_drawn_once_and_kept() -> None:
    """A deadline draws each player's avatar on every picture of their game: the
    generated one is kept like a downloaded one, per player and name."""
    cache = AvatarCache(fetch=FakeFetch({}), size=32)
    first = await cache.get("u9", "zed", None)
    assert await cache.get("u9", "zed", "") is first
    renamed = await cache.get("u9", "ahab", None)
    assert renamed is not first
    assert renamed.tobytes() == generated_avatar("u9", "ahab", 32).tobytes()
    assert cache.held_bytes == 2 * 32 * 32 * 4


def test_logged_urls_lose_their_query_string() -> None:
    assert safe_url("https://cdn.example/a/b.png?sig=abc#x") == "https://cdn.example/a/b.png"


async def test_memory_is_bounded_by_bytes_least_recently_used_dropped_first() -> None:
    urls = [f"https://img.example/{n}.png" for n in range(40)]
    fetch = FakeFetch({url: png_bytes() for url in urls})
    one = 48 * 48 * 4  # a decoded 48×48 RGBA avatar
    cache = AvatarCache(fetch=fetch, memory_bytes=10 * one)
    for n, url in enumerate(urls):
        await cache.get(f"u{n}", "p", url)
        await cache.get("u0", "p", urls[0])  # u0 is used all the time
        assert cache.held_bytes <= 10 * one
    assert cache.held_bytes == 10 * one
    assert fetch.calls.count(urls[0]) == 1  # kept: recently used
    await cache.get("u1", "p", urls[1])  # long unused: dropped, fetched again
    assert fetch.calls.count(urls[1]) == 2


async def test_an_avatar_bigger_than_the_memory_budget_is_used_but_not_kept() -> None:
    url = "https://img.example/ok.png"
    fetch = FakeFetch({url: png_bytes()})
    cache = AvatarCache(fetch=fetch, memory_bytes=100)
    assert (await cache.get("u1", "alice", url)).size == (48, 48)
    assert cache.held_bytes == 0


async def test_the_avatar_folder_is_bounded_least_recently_used_deleted_first(
    tmp_path: Path,
) -> None:
    urls = [f"https://img.example/{n}.png" for n in range(30)]
    data = png_bytes()
    fetch = FakeFetch({url: data for url in urls})
    budget = 10 * len(data)
    cache = AvatarCache(fetch=fetch, cache_dir=tmp_path, memory_bytes=1, disk_bytes=budget)
    for n, url in enumerate(urls):
        await cache.get(f"u{n}", "p", url)
        await cache.get("u0", "p", urls[0])  # read from disk each time: recently used
        on_disk = sum(path.stat().st_size for path in tmp_path.glob("*.avatar"))
        assert on_disk <= budget
    assert len(list(tmp_path.glob("*.avatar"))) >= 9  # trimmed to nine tenths, not emptied
    assert fetch.calls.count(urls[0]) == 1  # kept on disk: read, never fetched again
    await cache.get("u1", "p", urls[1])  # long unused: deleted, fetched again
    assert fetch.calls.count(urls[1]) == 2
