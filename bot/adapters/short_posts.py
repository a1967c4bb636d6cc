"""The text of a short public post, for every platform that caps a post's length (X,
Mastodon, Bluesky): the weight of a text, shortening it to fit without losing what makes it
the game's post, and the mute line.

SDK-free on purpose: pure string functions each adapter and its tests share.

The weight is X's, the strictest of the three. X's ``twitter-text`` (v3) weighting gives
code points in a few Latin/punctuation ranges a weight of 1 and everything else (CJK, most
emoji, many symbols) a weight of 2, counts any URL as 23 (every link is wrapped in t.co) and
normalises to NFC first. For emoji sequences (ZWJ, skin tones, variation selectors) every
code point counts, which over-counts slightly. Over-counting is the safe side everywhere:
Mastodon counts code points (a link as 23) and Bluesky graphemes, never more than this, so a
post that fits here fits there too, never the other way round.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

MAX_WEIGHT = 280
URL_WEIGHT = 23
ELLIPSIS = "…"

# twitter-text v3 config: ranges of weight 1 (100/100); the default weight is 2.
_LIGHT_RANGES = ((0, 4351), (8192, 8205), (8208, 8223), (8242, 8247))

# A scheme URL, or a bare domain with a common TLD (X links "example.com" too).
_URL = re.compile(
    r"https?://[^\s]+"
    r"|\b(?:[a-z0-9-]+\.)+(?:com|org|net|io|co|me|ly|gg|app|dev|info|xyz|ai|tv)"
    r"\b(?:/[^\s]*)?",
    re.IGNORECASE,
)
# A line naming the game or the turn: kept whole when the body is shortened,
# because it is what makes every post unique (X refuses duplicate posts).
_TAG_LINE = re.compile(r"(?i)\b(?:game|turn)\b\s*#?\s*[\w-]*\d")
# The host's deadlines at the end of a line (``Turn 3 closes 2026-01-01 08:00 UTC.``): what
# a player must know, so a long line loses its middle (the list of shots) first.
_DEADLINES = re.compile(r"(?:\s+[^\s.][^.]*? closes \d{4}-\d\d-\d\d \d\d:\d\d UTC\.)+\s*$")
# Where a report's sentence ends (the host joins a report's sentences with spaces).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# A sentence that lists (``Shots: a hit B4, b miss C5.``): the routine part of a report.
# Not one with brackets or a second colon (``ann wins: … (ships sunk: ann 3, bob 2).``).
_LIST = re.compile(r"^([^:.]{1,40}):\s+([^:()]+)\.$")
# The head of a host's post (``#sonar game 3, turn 2:``), kept with the deadline.
_HEAD = re.compile(r"^[^:]{1,80}:\s")


def _char_weight(char: str) -> int:
    point = ord(char)
    for low, high in _LIGHT_RANGES:
        if low <= point <= high:
            return 1
    return 2


def weighted_length(text: str) -> int:
    """The length X charges for ``text`` against the 280 limit."""
    text = unicodedata.normalize("NFC", text)
    total = 0
    position = 0
    for match in _URL.finditer(text):
        total += sum(_char_weight(c) for c in text[position : match.start()])
        total += URL_WEIGHT
        position = match.end()
    total += sum(_char_weight(c) for c in text[position:])
    return total


def _truncate(text: str, budget: int) -> str:
    """The longest prefix of ``text`` that, with an ellipsis, weighs ≤ ``budget``."""
    if weighted_length(text) <= budget:
        return text
    room = budget - _char_weight(ELLIPSIS)
    if room <= 0:
        return ""
    # Drop whole words first (so a URL is never cut in half), then characters.
    words = text.split(" ")
    while len(words) > 1 and weighted_length(" ".join(words)) > room:
        words.pop()
    candidate = " ".join(words)
    while candidate and weighted_length(candidate) > room:
        candidate = candidate[:-1]
    return candidate.rstrip() + ELLIPSIS if candidate.strip() else ""


def _shrink_keeping_ends(line: str, budget: int) -> str:
    """``line`` within ``budget``: its head and its closing deadlines whole, the middle
    shortened. A report (``#TAG game 9, turn 7: …``) loses its routine before its news
    (see :func:`_shrink_lists_first`); any other line is cut from the end."""
    deadlines = _DEADLINES.search(line)
    tail = deadlines.group(0).rstrip() if deadlines else ""
    body = line[: deadlines.start()] if deadlines else line
    head_match = _HEAD.match(body)
    head = head_match.group(0) if head_match else ""
    room = budget - weighted_length(head) - weighted_length(tail)
    if room < 0 or not (head or tail):
        return _truncate(line, budget)
    if not head:
        # Not a report (``#TAG game 1 is open …``): its start names the game, kept.
        return _truncate(body, room) + tail
    middle = _shrink_lists_first(body[len(head) :], room)
    return head + middle + tail


def _shrink_lists_first(text: str, budget: int) -> str:
    """``text`` within ``budget``, its routine lists shrunk before its news is cut.

    A report's sentences are of two kinds: a list (``Shots: a hit B4, b miss C5.``,
    a label, a colon, items between commas) is routine, what happened everywhere; any
    other sentence (a sinking, an elimination, the winner) is news that changes the
    game. The lists lose their last items first ("… and 14 more"), earliest list first;
    then whole sentences go, earliest first, because a report tells the routine (shots,
    moves) before the news it led to (the sinkings, who is out); the last is cut only
    when it alone is too long."""
    if weighted_length(text) <= budget:
        return text
    sentences = _SENTENCE_END.split(text.strip())
    lists = {
        index: (found.group(1), found.group(2).split(", "))
        for index, sentence in enumerate(sentences)
        if (found := _LIST.match(sentence)) and ", " in found.group(2)
    }
    shown = {index: len(items) for index, (_, items) in lists.items()}

    dropped = 0

    def joined() -> str:
        out = [ELLIPSIS] if dropped else []
        for index, sentence in enumerate(sentences[dropped:], start=dropped):
            if index in lists:
                label, items = lists[index]
                sentence = _list_sentence(label, items, shown[index])
            out.append(sentence)
        return " ".join(out)

    for index in lists:
        while shown[index] > 0 and weighted_length(joined()) > budget:
            shown[index] -= 1
    while dropped < len(sentences) - 1 and weighted_length(joined()) > budget:
        dropped += 1
    return _truncate(joined(), budget)


def _list_sentence(label: str, items: Sequence[str], shown: int) -> str:
    """``Label: a, b and 14 more.`` (``Label: 16 in all.`` when none is shown)."""
    if shown >= len(items):
        return f"{label}: {', '.join(items)}."
    if shown == 0:
        return f"{label}: {len(items):,} in all."
    return f"{label}: {', '.join(items[:shown])} … and {len(items) - shown:,} more."


def mute_line(text: str, games: Sequence[tuple[str, str]]) -> str:
    """The line that lets people who do not play hide the host's posts
    (``mute #sonar to hide Sonar``; a game's rules may require it).

    ``games`` are the hosted games' (tag, title). The post names its game by the
    first tag it carries; a post that carries none (a refusal, the list of games)
    names every game's tag, since the line itself is what a muted tag then hides.
    No game, no line.
    """
    if not games:
        return ""
    titles = {tag.lower(): (tag, title) for tag, title in games}
    alternatives = sorted((re.escape(tag) for tag, _ in games), key=len, reverse=True)
    found = re.search(r"(?<![\w#])(" + "|".join(alternatives) + r")(?![\w-])", text, re.I)
    if found is not None:
        tag, title = titles[found.group(1).lower()]
        return f"mute {tag} to hide {title}"
    if len(games) == 1:
        tag, title = games[0]
        return f"mute {tag} to hide {title}"
    tags = [tag for tag, _ in games]
    return f"mute {', '.join(tags[:-1])} or {tags[-1]} to hide these games"


def compose_post(
    text: str,
    mute: str = "",
    *,
    limit: int = MAX_WEIGHT,
    link: str = "",
    keep: Sequence[str] = (),
) -> str:
    """The text of a public post: ``text`` shortened to fit, then ``link`` (the game's
    page, on a line of its own: X counts it as 23 whatever its length), then the ``mute``
    line (see :func:`mute_line`), once.

    When the whole does not fit, lines naming the game or turn (see ``_TAG_LINE``)
    stay intact and the other lines are shortened from the end with "…", because
    the tag keeps consecutive posts distinct and the mute line is not optional.
    The ``keep`` parts of ``text`` (``Outbound.keep``: a commitment, a root) are taken
    out before shortening and put back whole on a line of their own before the mute
    line: cut, they would prove nothing.
    """
    lines = [line.rstrip() for line in text.strip().splitlines()]
    if mute:
        lines = [line for line in lines if line.strip() != mute]
    while lines and not lines[-1].strip():
        lines.pop()
    if link:
        lines = [line for line in lines if line.strip() != link]
        while lines and not lines[-1].strip():
            lines.pop()
    tail = ("\n\n" + mute if lines or link else mute) if mute else ""
    if link:
        tail = ("\n" + link if lines else link) + tail
    whole = "\n".join(lines) + tail
    if weighted_length(whole) <= limit:
        return whole
    kept_parts = [part.strip() for part in keep if part.strip() and part.strip() in whole]
    if kept_parts:
        rest = text
        for part in kept_parts:
            rest = rest.replace(part, "", 1)
        rest = re.sub(r"[ \t]{2,}", " ", rest)
        proof = " ".join(kept_parts)
        shorter = compose_post(rest, "", limit=limit - weighted_length(proof + "\n" + tail))
        return (shorter + "\n" if shorter else "") + proof + tail

    tag_lines = [i for i, line in enumerate(lines) if _TAG_LINE.search(line)][:1]
    budget = limit - weighted_length(tail)
    for i in tag_lines:
        if weighted_length(lines[i]) > budget:
            # One long line (a busy turn's report): its list shrinks, its deadline stays.
            lines[i] = _shrink_keeping_ends(lines[i], budget)
    budget -= sum(weighted_length(lines[i]) + 1 for i in tag_lines)  # + its line break
    kept: list[str] = []
    for index, line in enumerate(lines):
        if index in tag_lines:
            kept.append(line)
            continue
        separator = 1 if kept else 0
        if budget <= separator:
            continue
        cost = weighted_length(line) + separator
        if cost <= budget:
            kept.append(line)
            budget -= cost
        else:
            short = _truncate(line, budget - separator)
            if short:
                kept.append(short)
            budget = 0
    # The tag line alone may be too long (a bug upstream): cut it as a last resort.
    result = "\n".join(kept) + tail
    if weighted_length(result) > limit:
        result = _truncate("\n".join(kept), limit - weighted_length(tail)) + tail
    return result


MOST_PARTS = 4
"""At most this many posts for one message: a crowd's list beyond them is cut."""


def compose_thread(
    text: str,
    mute: str = "",
    *,
    limit: int = MAX_WEIGHT,
    link: str = "",
    keep: Sequence[str] = (),
    most: int = MOST_PARTS,
) -> list[str]:
    """The posts of a message too long for one: a list of one entry a line under a head
    line naming the game (the end's standings) is split over numbered posts
    (``Final standings (2/3):``) rather than cut, each with the ``mute`` line. Any other
    message is one post (see :func:`compose_post`)."""
    one = [compose_post(text, mute, limit=limit, link=link, keep=keep)]
    lines = [line.rstrip() for line in text.strip().splitlines() if line.strip()]
    if keep or len(lines) < 3 or not _TAG_LINE.search(lines[0]):
        return one
    if weighted_length(compose_post(text, mute, limit=10**9, link=link)) <= limit:
        return one
    head, entries = lines[0], lines[1:]

    def numbered(number: int, total: int) -> str:
        mark = f" ({number}/{total})"
        return head[:-1] + mark + ":" if head.endswith(":") else head + mark

    reserve = weighted_length(compose_post(numbered(most, most), mute, limit=10**9, link=link))
    room = limit - reserve
    if any(weighted_length(entry) + 1 > room for entry in entries):
        return one  # not a list of short entries (a long text): cut, not spread
    chunks: list[list[str]] = [[]]
    for entry in entries:
        cost = weighted_length(entry) + 1
        if chunks[-1] and cost > room and len(chunks) < most:
            chunks.append([])
            room = limit - reserve
        chunks[-1].append(entry)
        room -= cost
    total = len(chunks)
    return [
        compose_post(
            "\n".join([numbered(number, total), *chunk]),
            mute,
            limit=limit,
            link=link if number == 1 else "",
        )
        for number, chunk in enumerate(chunks, start=1)
    ]
