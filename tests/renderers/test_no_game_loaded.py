"""Importing the shared renderers loads no game's pictures (issue 32): a game's drawing code is
loaded only by the code that asks for that game."""

import subprocess
import sys


def test_importing_renderers_loads_no_game() -> None:
    code = (
        "import sys, renderers, renderers.style, renderers.grid, renderers.replay\n"
        "print(sorted(m for m in sys.modules if m.startswith(('renderers.bst', 'bot.games.bst'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
