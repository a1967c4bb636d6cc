"""Pictures for Bluesky: an image blob is at most 1,000,000 bytes (app.bsky.embed.images).

The renderers draw PNGs for Discord and X, which take several megabytes; a big map can
pass Bluesky's limit. Such a picture is re-encoded here: first as an optimised PNG
(crisp lines stay crisp), then as JPEG at falling quality, then smaller, until it fits.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

MAX_IMAGE_BYTES = 1_000_000
IMAGES_PER_POST = 4
ALT_TEXT_GRAPHEMES = 2000  # what Bluesky's app lets people write; the lexicon sets none


@dataclass(frozen=True)
class Fitted:
    data: bytes
    mime_type: str
    width: int
    height: int


def fit_image(data: bytes, mime_type: str, limit: int = MAX_IMAGE_BYTES) -> Fitted:
    """``data`` as an image of at most ``limit`` bytes, with its size in pixels."""
    with Image.open(io.BytesIO(data)) as opened:
        opened.load()
        image = opened.copy()
    width, height = image.size
    if len(data) <= limit and mime_type in ("image/png", "image/jpeg", "image/webp"):
        return Fitted(data, mime_type, width, height)
    attempt = _encode(image, "PNG", optimize=True)
    if len(attempt) <= limit:
        return Fitted(attempt, "image/png", width, height)
    rgb = image.convert("RGB")
    scale = 1.0
    while True:
        sized = (
            rgb
            if scale == 1.0
            else rgb.resize(
                (max(1, int(width * scale)), max(1, int(height * scale))), Image.Resampling.LANCZOS
            )
        )
        for quality in (90, 80, 70, 60):
            attempt = _encode(sized, "JPEG", quality=quality, optimize=True)
            if len(attempt) <= limit:
                return Fitted(attempt, "image/jpeg", sized.width, sized.height)
        scale *= 0.75


def _encode(image: Image.Image, kind: str, **options: object) -> bytes:
    out = io.BytesIO()
    image.save(out, kind, **options)
    return out.getvalue()
