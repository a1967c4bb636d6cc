"""Mastodon's words: a status's HTML as plain text, and a direct post's addressing.

SDK-free: pure string functions the adapter and its tests share.

Mastodon's rule for direct posts: **every ``@handle`` a direct post names joins its
audience**. A private message must reach its one player and nobody else, so
:func:`direct_text` opens with the recipient's handle and writes every other handle
without its ``@`` (``bob@example.social``), which Mastodon does not read as a mention.
The mention pattern is Mastodon's own (``Account::MENTION_RE``), case-insensitive.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

# Mastodon's Account::MENTION_RE: "@user" or "@user@domain", not after a word character,
# "=" or "/" (an e-mail address or a URL is no mention).
MENTION = re.compile(
    r"(?<![=/\w])@((?:[a-z0-9_]+(?:[a-z0-9_.-]+[a-z0-9_]+)?)(?:@[\w.-]+\w+)?)",
    re.IGNORECASE,
)
_LEADING_MENTIONS = re.compile(
    r"^(?:\s*@[a-z0-9_]+(?:[a-z0-9_.-]+[a-z0-9_]+)?(?:@[\w.-]+\w+)?)+\s*", re.IGNORECASE
)


class _PlainText(HTMLParser):
    """Mastodon's status HTML (``<p>``, ``<br>``, links, ``<span>``) as the text typed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._paragraphs = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            self.parts.append("\n")
        elif tag == "p":
            if self._paragraphs:
                self.parts.append("\n\n")
            self._paragraphs += 1

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def plain_text(content: str) -> str:
    """A status's ``content`` (HTML) as plain text: paragraphs and line breaks kept, the
    markup gone, entities undone."""
    parser = _PlainText()
    parser.feed(content)
    parser.close()
    return html.unescape("".join(parser.parts)).strip()


def strip_leading_mentions(text: str) -> str:
    """``@bstbot @friend@example.social #sonar f11`` → ``#sonar f11``: the handles a
    reply opens with are addressing, not words."""
    return _LEADING_MENTIONS.sub("", text, count=1).strip()


def handle(acct: str) -> str:
    """``@acct`` as Mastodon writes a mention: ``@alice`` on the bot's instance,
    ``@bob@example.social`` elsewhere."""
    return "@" + acct.strip().lstrip("@")


def unmention(text: str, *, keep: str = "") -> str:
    """``text`` with every handle but ``keep`` written without its ``@``, so that no one
    else is added to a direct post's audience."""
    kept = keep.strip().lstrip("@").lower()

    def written(match: re.Match[str]) -> str:
        return match.group(0) if kept and match.group(1).lower() == kept else match.group(1)

    return MENTION.sub(written, text)


def direct_text(text: str, recipient_acct: str) -> str:
    """A direct post to ``recipient_acct``: their handle first (which makes them its
    audience), then ``text`` naming nobody else with an ``@``."""
    body = unmention(text, keep="")
    return f"{handle(recipient_acct)} {body}".strip()
