"""Golden images: a picture drawn by a test, checked byte for byte against the one kept in
its game's ``golden/`` folder, and a PNG decoded to sample its pixels.

``BST_REGENERATE_GOLDEN=1 pytest tests/games`` writes every golden image again: look at
them before committing. A missing golden image is written, and its test fails once so the
picture is looked at.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image

REGENERATE = os.environ.get("BST_REGENERATE_GOLDEN") == "1"
ROOT = Path(__file__).resolve().parents[1]


class Golden:
    """The golden images of one folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def check(self, name: str, data: bytes) -> None:
        path = self.folder / name
        if REGENERATE or not path.exists():
            self.folder.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            if not REGENERATE:
                pytest.fail(f"golden {name} was missing and has been written; look at it and rerun")
            return
        tests = self.folder.parent.relative_to(ROOT)
        assert data == path.read_bytes(), (
            f"{name} differs from its golden image; if the change is intended, look at it "
            f"and regenerate with BST_REGENERATE_GOLDEN=1 pytest {tests}"
        )


def decode_png(data: bytes) -> Image.Image:
    """The picture of PNG bytes (it must be a PNG), loaded."""
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()
    return image
