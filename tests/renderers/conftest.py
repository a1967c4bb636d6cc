"""Make the hand-built views (``render_views``) and the project importable from here."""

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
for _path in (_HERE, _HERE.parent.parent):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))
