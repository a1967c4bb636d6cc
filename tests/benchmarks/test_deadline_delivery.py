"""A small deadline through the real host, relay and Discord adapter, against the fake
Discord with its rate limits on (the ``deadline`` benchmark's own run, at 3 games).

No timing is asserted (figures come from ``python -m benchmarks``): what is checked is
that every map and board reached Discord exactly once, and that the bot made no request
beyond one per message except those Discord refused with 429 and it then sent again.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # the benchmarks package lives beside bot/, not installed
    sys.path.insert(0, str(ROOT))

from benchmarks import deadline  # noqa: E402


def test_a_deadline_is_delivered_once_with_one_request_a_message() -> None:
    result = deadline.measure(3)
    rows = result["rows"]
    assert rows > 3 * 2  # each game's map, and boards
    assert result["statuses"] == {"sent": rows}
    assert result["messages"] == result["posted"] == rows
    assert result["duplicates"] == 0
    assert result["requests"] - result["rate_limited"] == result["messages"]
    # the gateway was connected: the deadline's catch-up read no history
    assert set(result["kinds"]) == {"POST channels"}
    assert result["seconds"] > 0 and result["floor"] > 0
