"""Avatars: safe decoding of downloaded bytes, generated stand-ins and round crops.

``decode_avatar`` is the gate for untrusted bytes: it accepts only PNG, JPEG, GIF and WebP
(by magic bytes, before Pillow sees them), at most 1 MB, and refuses images whose header
declares too many pixels before anything is decoded (``Image.open`` is lazy) and treats
Pillow's decompression-bomb warning as an error.
"""

from __future__ import annotations

import functools
import hashlib
import io
import threading
import warnings
from collections import OrderedDict

from PIL import Image, ImageChops, ImageDraw

from renderers.style import darker, drawable, font, owner_colour

MAX_AVATAR_BYTES = 1_000_000
MAX_AVATAR_PIXELS = 4_000_000
_SIDE = 512  # decoded avatars are kept at most this big; they are drawn far smaller

_FORMATS = {"PNG", "JPEG", "GIF", "WEBP"}


class AvatarError(ValueError):
    """The bytes are not an avatar we are willing to decode."""


def sniff_format(data: bytes) -> str | None:
    """The image format named by the first bytes, if it is one we accept."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "GIF"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    return None


def decode_avatar(data: bytes, *, max_pixels: int = MAX_AVATAR_PIXELS) -> Image.Image:
    """Decode untrusted avatar bytes into an RGBA image, or raise :class:`AvatarError`."""
    if len(data) > MAX_AVATAR_BYTES:
        raise AvatarError(f"avatar is {len(data)} bytes, more than {MAX_AVATAR_BYTES}")
    kind = sniff_format(data)
    if kind is None:
        raise AvatarError("avatar is not a PNG, JPEG, GIF or WebP image")
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with Image.open(io.BytesIO(data), formats=[kind]) as opened:
                width, height = opened.size
                if width <= 0 or height <= 0 or width * height > max_pixels:
                    raise AvatarError(f"avatar declares {width}x{height} pixels, too many")
                opened.seek(0)  # the first frame of an animation
                opened.load()
                image = opened.convert("RGBA")
        except AvatarError:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
            raise AvatarError("avatar declares too many pixels (decompression bomb)") from error
        except Exception as error:
            raise AvatarError(f"avatar could not be decoded: {type(error).__name__}") from error
    if max(image.size) > _SIDE:
        image.thumbnail((_SIDE, _SIDE), Image.Resampling.LANCZOS)
    return image


def initials(name: str) -> str:
    """Up to two letters for a generated avatar: first letters of two words, else two letters."""
    words = [w for w in drawable(name).replace("_", " ").replace(".", " ").split() if w]
    words = ["".join(c for c in w if c.isalnum()) for w in words]
    words = [w for w in words if w]
    if len(words) >= 2:
        return (words[0][0] + words[1][0]).upper()
    if words:
        return words[0][:1].upper() + words[0][1:2].lower()
    return "?"


def generated_avatar(player_id: str, name: str, size: int) -> Image.Image:
    """Initials on the player's colour: the same picture for the same id and name, always."""
    size = max(8, size)
    colour = owner_colour(player_id)
    image = Image.new("RGBA", (size, size), (*colour, 255))
    draw = ImageDraw.Draw(image)
    # a darker lower half gives some depth without randomness
    draw.rectangle((0, size * 6 // 10, size, size), fill=(*darker(colour, 0.82), 255))
    text = initials(name)
    text_size = max(6, int(size * (0.56 if len(text) < 2 else 0.46)))
    draw.text(
        (size / 2, size / 2),
        text,
        font=font(text_size, text),
        fill=(255, 255, 255, 255),
        anchor="mm",
        stroke_width=max(1, text_size // 10),
        stroke_fill=(*darker(colour, 0.45), 255),
    )
    return image


def _square(image: Image.Image) -> Image.Image:
    width, height = image.size
    side = min(width, height)
    left, top = (width - side) // 2, (height - side) // 2
    return image.crop((left, top, left + side, top + side))


def round_mask(size: int) -> Image.Image:
    """An anti-aliased disc: drawn four times bigger, then reduced."""
    return _round_mask(size).copy()


@functools.lru_cache(maxsize=64)
def _round_mask(size: int) -> Image.Image:
    """The shared (never modified) mask behind :func:`round_mask`."""
    big = Image.new("L", (size * 4, size * 4), 0)
    ImageDraw.Draw(big).ellipse((0, 0, size * 4 - 1, size * 4 - 1), fill=255)
    return big.resize((size, size), Image.Resampling.LANCZOS)


# Round crops of recent avatars, keyed by the picture's content (not its identity, which
# Python may reuse) and the size: a map shows every shooter's avatar, and the next map of
# the game shows the same ones again. Bounded, and shared by the drawing threads.
_ROUND_CACHE: OrderedDict[tuple[str, tuple[int, int], bytes, int], Image.Image] = OrderedDict()
_ROUND_CACHE_SIZE = 128
_ROUND_LOCK = threading.Lock()


def _fingerprint(image: Image.Image) -> bytes:
    """A digest of everything that decides how ``image`` looks in RGBA: its pixels, its
    palette and a transparent colour, if it has them."""
    digest = hashlib.sha256(image.tobytes())  # SHA-256: fast where CPUs have SHA extensions
    if image.palette is not None:
        digest.update(b"palette" + image.palette.mode.encode() + image.palette.tobytes())
    if "transparency" in image.info:
        digest.update(b"transparency" + repr(image.info["transparency"]).encode())
    return digest.digest()


def round_avatar(image: Image.Image, size: int) -> Image.Image:
    """``image`` cropped to a centred square, scaled to ``size`` and masked to a circle (RGBA)."""
    size = max(1, size)
    key = (image.mode, image.size, _fingerprint(image), size)
    with _ROUND_LOCK:
        cached = _ROUND_CACHE.get(key)
        if cached is not None:
            _ROUND_CACHE.move_to_end(key)
            return cached.copy()
    square = _square(image.convert("RGBA")).resize((size, size), Image.Resampling.LANCZOS)
    alpha = square.getchannel("A")
    square.putalpha(ImageChops.multiply(alpha, _round_mask(size)))
    with _ROUND_LOCK:
        _ROUND_CACHE[key] = square.copy()
        while len(_ROUND_CACHE) > _ROUND_CACHE_SIZE:
            _ROUND_CACHE.popitem(last=False)
    return square
