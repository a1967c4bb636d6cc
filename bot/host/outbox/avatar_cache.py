"""Avatars for the maps, downloaded once and never waited on for long.

The only non-pure part of drawing: :class:`AvatarCache` downloads a player's avatar with a
hard byte cap and a short timeout, decodes it through :func:`renderers.avatars.decode_avatar`
(formats, size and pixel limits), and keeps the decoded picture in memory (and, if given a
folder, the accepted bytes on disk). Any failure gives the generated avatar instead: a post
never waits on a broken avatar.

Memory is bounded by bytes, least recently used first: each decoded avatar costs about
0.6 MB, and a bot that meets ten thousand players must not keep six gigabytes of them.
The folder is bounded the same way (an avatar file is touched when read, the oldest
files go first), since players change avatars and a bot runs for years.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import urlsplit

from PIL import Image

from renderers.avatars import MAX_AVATAR_BYTES, AvatarError, decode_avatar, generated_avatar

log = logging.getLogger(__name__)

Fetch = Callable[[str], Awaitable[bytes]]


class AvatarTooLarge(AvatarError):
    """The download went past the byte cap."""


def safe_url(url: str) -> str:
    """The URL without query string or fragment (they may carry tokens) for logs."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparsable url>"
    return f"{parts.scheme}://{parts.hostname or ''}{parts.path}"


async def download(url: str, *, max_bytes: int = MAX_AVATAR_BYTES, timeout_s: float = 5.0) -> bytes:
    """GET ``url`` with aiohttp, streaming, refusing more than ``max_bytes`` (also by
    Content-Length) and giving up after ``timeout_s`` in total."""
    import aiohttp

    parts = urlsplit(url)
    if parts.scheme not in ("https", "http"):
        raise AvatarError(f"avatar URL scheme {parts.scheme!r} is not http(s)")
    timeout = aiohttp.ClientTimeout(total=timeout_s)
    async with (
        aiohttp.ClientSession(timeout=timeout) as session,
        session.get(url, allow_redirects=True, max_redirects=3) as response,
    ):
        response.raise_for_status()
        if response.content_length is not None and response.content_length > max_bytes:
            raise AvatarTooLarge(f"avatar is {response.content_length} bytes")
        chunks: list[bytes] = []
        total = 0
        async for chunk in response.content.iter_chunked(64 * 1024):
            total += len(chunk)
            if total > max_bytes:
                raise AvatarTooLarge(f"avatar is more than {max_bytes} bytes")
            chunks.append(chunk)
        return b"".join(chunks)


class AvatarCache:
    """Decoded avatars by (player, url); the generated avatar on any failure."""

    def __init__(
        self,
        *,
        cache_dir: Path | str | None = None,
        fetch: Fetch | None = None,
        size: int = 256,
        timeout_s: float = 5.0,
        max_bytes: int = MAX_AVATAR_BYTES,
        memory_bytes: int = 64_000_000,
        disk_bytes: int = 256_000_000,
    ) -> None:
        self._dir = Path(cache_dir) if cache_dir is not None else None
        self._fetch = fetch
        self._size = size
        self._timeout_s = timeout_s
        self._max_bytes = max_bytes
        self._memory_bytes = memory_bytes
        self._images: OrderedDict[tuple[str, str], Image.Image] = OrderedDict()
        self._held = 0  # bytes of the decoded pictures in ``_images``
        self._pending: dict[tuple[str, str], asyncio.Future[Image.Image]] = {}
        self._disk_bytes = disk_bytes
        self._on_disk: int | None = None  # bytes in the folder; counted on first write

    async def get(self, player_id: str, name: str, url: str | None) -> Image.Image:
        """The player's avatar, or their generated one (never raises for a bad avatar)."""
        if not url:
            # Drawn once and kept like a downloaded one: a deadline draws every player's
            # avatar on each of their game's pictures, and drawing it is a font render.
            generated = ("", f"{player_id}\n{name}")
            image = self._images.get(generated)
            if image is None:
                image = generated_avatar(player_id, name, self._size)
                self._keep(generated, image)
            else:
                self._images.move_to_end(generated)
            return image
        key = (player_id, url)
        cached = self._images.get(key)
        if cached is not None:
            self._images.move_to_end(key)
            return cached
        if key in self._pending:
            return await asyncio.shield(self._pending[key])
        future: asyncio.Future[Image.Image] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            image = await self._load(player_id, name, url)
            self._keep(key, image)
            future.set_result(image)
            return image
        except BaseException as error:  # cancelled: let waiters fall back too
            if not future.done():
                future.set_result(generated_avatar(player_id, name, self._size))
            raise error
        finally:
            del self._pending[key]

    @property
    def held_bytes(self) -> int:
        """Bytes of decoded pictures held in memory now (never above ``memory_bytes``)."""
        return self._held

    def _keep(self, key: tuple[str, str], image: Image.Image) -> None:
        """Hold ``image``, dropping the least recently used ones past the byte budget."""
        cost = _bytes_of(image)
        if cost > self._memory_bytes:
            return  # bigger than the whole budget: used once, not kept
        previous = self._images.pop(key, None)
        if previous is not None:
            self._held -= _bytes_of(previous)
        self._images[key] = image
        self._held += cost
        while self._held > self._memory_bytes:
            _, dropped = self._images.popitem(last=False)
            self._held -= _bytes_of(dropped)

    def _disk_path(self, player_id: str, url: str) -> Path | None:
        if self._dir is None:
            return None
        digest = hashlib.sha256(f"{player_id}\n{url}".encode()).hexdigest()
        return self._dir / f"{digest}.avatar"

    async def _load(self, player_id: str, name: str, url: str) -> Image.Image:
        path = self._disk_path(player_id, url)
        try:
            if path is not None and path.is_file():
                try:
                    image = decode_avatar(path.read_bytes())
                    os.utime(path)  # recently used: the last to be trimmed
                    return image
                except (OSError, AvatarError):
                    path.unlink(missing_ok=True)
            data = await asyncio.wait_for(self._download(url), timeout=self._timeout_s + 1)
            if len(data) > self._max_bytes:
                raise AvatarTooLarge(f"avatar is {len(data)} bytes")
            image = decode_avatar(data)
            if path is not None:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    tmp = path.with_suffix(".tmp")
                    tmp.write_bytes(data)
                    tmp.replace(path)
                    self._trim_disk(len(data))
                except OSError as error:
                    log.warning("avatar cache folder not writable: %s", error)
            return image
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.warning(
                "avatar of %s from %s not used (%s: %s); using a generated one",
                player_id,
                safe_url(url),
                type(error).__name__,
                str(error)[:200].replace(url, safe_url(url)),
            )
            return generated_avatar(player_id, name, self._size)

    def _trim_disk(self, written: int) -> None:
        """Keep the folder within ``disk_bytes``: past it, delete the least recently
        used files down to nine tenths of it (so a busy bot does not list the folder
        on every download)."""
        assert self._dir is not None
        if self._on_disk is None:
            self._on_disk = sum(_size(path) for path in self._dir.glob("*.avatar"))
        else:
            self._on_disk += written
        if self._on_disk <= self._disk_bytes:
            return
        files = sorted(self._dir.glob("*.avatar"), key=_used_at)
        self._on_disk = sum(_size(path) for path in files)
        for path in files:
            if self._on_disk <= self._disk_bytes * 9 // 10:
                break
            self._on_disk -= _size(path)
            path.unlink(missing_ok=True)

    async def _download(self, url: str) -> bytes:
        if self._fetch is not None:
            return await self._fetch(url)
        return await download(url, max_bytes=self._max_bytes, timeout_s=self._timeout_s)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:  # deleted by another process meanwhile
        return 0


def _used_at(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _bytes_of(image: Image.Image) -> int:
    """What a decoded picture holds in memory: a byte per band per pixel."""
    return image.width * image.height * len(image.getbands())
