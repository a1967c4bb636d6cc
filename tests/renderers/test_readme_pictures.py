"""The README shows one current picture of each game, small enough to keep in the repo."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("#bst", "#sonar", "#uboat", "#sugardog", "#silentships")
IMAGE = re.compile(r'<img src="([^"]+)" width="\d+" alt="([^"]+)">')


def sections() -> dict[str, str]:
    """Each game's section of the README, by its tag."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    games = readme.split("## The games", 1)[1].split("\n## ", 1)[0]
    found = {}
    for part in games.split("\n### ")[1:]:
        heading = part.splitlines()[0]
        (tag,) = [tag for tag in GAMES if f"(`{tag}`)" in heading]
        found[tag] = part
    return found


def test_27_each_games_section_shows_one_picture_of_it() -> None:
    found = sections()
    assert set(found) == set(GAMES)
    total = 0
    for text in found.values():
        (image,) = IMAGE.findall(text)
        path, alt = image
        picture = ROOT / path
        assert picture.is_file(), path
        assert path.startswith("tests/renderers/golden/readme/")
        with Image.open(picture) as opened:
            assert opened.format == "PNG" and opened.width >= 700
        assert alt.split(" ")[:2] == ["The", "public"], alt
        total += picture.stat().st_size
    assert total <= 300_000  # a few hundred KB in all
