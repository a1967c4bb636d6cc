"""Make bst's hand-built views (``tests/games/bst/render_views.py``, which the shared
renderer tests draw as their specimen) and the project importable from here."""

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
for _path in (_HERE.parent / "games" / "bst", _HERE.parent.parent):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))
