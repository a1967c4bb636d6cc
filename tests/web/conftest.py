from __future__ import annotations

import sys
from pathlib import Path

import pytest

_HERE = Path(__file__).resolve().parent
# The no-leak test reuses the twin games of three games' scenario tests (tests/games/KIND/).
_GAMES = [str(_HERE.parent / "games" / kind) for kind in ("sonar", "sugardog", "uboat")]
for _path in (str(_HERE), str(_HERE.parent / "host"), *_GAMES, str(_HERE.parent.parent)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from host_fakes import host_without_images  # noqa: E402

from bot.cli import script as script_cli  # noqa: E402


@pytest.fixture(autouse=True)
def _scripts_draw_no_chat_images(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(script_cli, "build_host", host_without_images)
