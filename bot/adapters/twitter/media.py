"""The X API v2 chunked media upload, without the SDK.

tweepy 4.17 uploads media only through the retired v1.1 endpoint, so the
adapter uploads through v2 itself. This module knows the protocol and nothing
about HTTP or OAuth: it takes an *authorised request* callable (the adapter's,
which signs with OAuth 1.0a user context, maps HTTP errors and records rate
budgets) and so stays testable and free of the platform SDK.

The protocol, per ``x-api-v2-openapi.json``:

1. ``POST /2/media/upload/initialize`` JSON ``{media_type, total_bytes,
   media_category}`` → ``data.id``;
2. ``POST /2/media/upload/{id}/append`` multipart ``media`` + ``segment_index``
   (0..999), one call per chunk of at most 1 MiB here;
3. ``POST /2/media/upload/{id}/finalize`` → ``data.processing_info`` for media
   X transcodes (video, GIF);
4. while ``processing_info.state`` is ``pending``/``in_progress``: wait
   ``check_after_secs`` and ``GET /2/media/upload?media_id=…&command=STATUS``;
5. images and GIFs with alt text: ``POST /2/media/metadata``
   ``{id, metadata: {alt_text: {text}}}`` (≤ 1000 characters).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.host.messages import DeliveryError

log = logging.getLogger(__name__)

CHUNK_SIZE = 1024 * 1024  # X accepts up to 5 MB per segment; 1 MiB keeps retries cheap
MAX_SEGMENTS = 1000  # segment_index is 0..999 in the spec
ALT_TEXT_LIMIT = 1000
MAX_STATUS_POLLS = 60  # ~minutes of transcoding at X's usual check_after_secs

# media_type values the spec's InitializeMediaUploadRequest enumerates that we send.
_IMAGE_TYPES = {"image/png", "image/jpeg", "image/webp", "image/bmp", "image/tiff", "image/pjpeg"}
_VIDEO_TYPES = {"video/mp4", "video/quicktime", "video/webm", "video/mp2t"}


@dataclass(frozen=True)
class FormPart:
    """One field of a multipart body (the append call's chunk or its index)."""

    name: str
    value: bytes | str
    filename: str | None = None
    content_type: str | None = None


class AuthorisedRequest(Protocol):
    """An HTTP call to the X API, already authorised, returning the JSON body.

    Raises on any non-2xx status (the adapter maps statuses to DeliveryError).
    """

    def __call__(
        self,
        method: str,
        route: str,
        *,
        params: Mapping[str, str] | None = None,
        json: Mapping[str, Any] | None = None,
        multipart: Sequence[FormPart] | None = None,
    ) -> Awaitable[dict[str, Any]]: ...


Sleep = Callable[[float], Awaitable[None]]


class MediaUploadError(DeliveryError):
    """X could not take or process the media (bad format, failed transcoding)."""


def media_category(mime_type: str, *, for_dm: bool) -> str:
    """X's ``media_category`` for a MIME type and a destination (post or DM)."""
    prefix = "dm" if for_dm else "tweet"
    if mime_type == "image/gif":
        return f"{prefix}_gif"
    if mime_type in _VIDEO_TYPES:
        return f"{prefix}_video"
    if mime_type in _IMAGE_TYPES:
        return f"{prefix}_image"
    raise MediaUploadError(f"X does not take media of type {mime_type!r}", permanent=True)


def _processing_info(body: Mapping[str, Any]) -> Mapping[str, Any] | None:
    data = body.get("data") or {}
    info = data.get("processing_info")
    return info if isinstance(info, Mapping) else None


async def upload_media(
    request: AuthorisedRequest,
    data: bytes,
    *,
    mime_type: str,
    for_dm: bool = False,
    alt_text: str = "",
    chunk_size: int = CHUNK_SIZE,
    sleep: Sleep = asyncio.sleep,
    max_status_polls: int = MAX_STATUS_POLLS,
) -> str:
    """Upload ``data`` in chunks and return the media id to attach to a post or DM.

    ``sleep`` is injectable so tests can run the status polling without
    waiting for real; in production it is :func:`asyncio.sleep`, which yields
    the event loop instead of blocking it.
    """
    if not data:
        raise MediaUploadError("empty media", permanent=True)
    if chunk_size <= 0 or -(-len(data) // chunk_size) > MAX_SEGMENTS:
        raise MediaUploadError("media too large for a chunked upload", permanent=True)
    category = media_category(mime_type, for_dm=for_dm)

    initialized = await request(
        "POST",
        "/2/media/upload/initialize",
        json={"media_type": mime_type, "total_bytes": len(data), "media_category": category},
    )
    media_id = str((initialized.get("data") or {}).get("id") or "")
    if not media_id:
        raise MediaUploadError("X did not return a media id on initialize")

    for segment_index, start in enumerate(range(0, len(data), chunk_size)):
        await request(
            "POST",
            f"/2/media/upload/{media_id}/append",
            multipart=(
                FormPart(
                    "media",
                    data[start : start + chunk_size],
                    filename="blob",
                    content_type="application/octet-stream",
                ),
                FormPart("segment_index", str(segment_index)),
            ),
        )

    finalized = await request("POST", f"/2/media/upload/{media_id}/finalize")
    info = _processing_info(finalized)
    polls = 0
    while info is not None and info.get("state") in ("pending", "in_progress"):
        if polls >= max_status_polls:
            raise MediaUploadError(f"X is still processing media {media_id}; giving up for now")
        polls += 1
        await sleep(float(info.get("check_after_secs") or 1))
        status = await request(
            "GET", "/2/media/upload", params={"media_id": media_id, "command": "STATUS"}
        )
        info = _processing_info(status)
    if info is not None and info.get("state") == "failed":
        # The same bytes will fail the same way: retrying cannot help.
        raise MediaUploadError(f"X failed to process media {media_id}", permanent=True)

    alt = alt_text.strip()[:ALT_TEXT_LIMIT]
    if alt and category.endswith(("_image", "_gif")):
        await request(
            "POST",
            "/2/media/metadata",
            json={"id": media_id, "metadata": {"alt_text": {"text": alt}}},
        )
    log.debug("uploaded media %s (%d bytes, %s)", media_id, len(data), category)
    return media_id
