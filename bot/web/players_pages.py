"""The web's pages of players: each kind of game's leaderboard (OpenSkill), and a page
for each rated person: their ratings, their game's awards (U-Boat's marks of victory)
and the public games they played. Only persons who did not keep off the web (``me web
off``) appear, under the name they last played with; a person's address is a digest
of their account key, which it does not tell."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from bot.store.records import Rating
from bot.web.pages import document

LEADERS = 20
"""Persons on one kind's leaderboard at most."""


def player_address(person: str) -> str:
    """The address of a person's page: a digest of their account key (``discord:123``),
    not the key itself."""
    digest = hashlib.sha256(f"bst-web-player:{person}".encode()).hexdigest()[:20]
    return f"/players/{digest}"


def ordinal(rated: Rating) -> float:
    """OpenSkill's ordinal: a rating sure to be at least this (mu - 3 sigma)."""
    return rated.mu - 3 * rated.sigma


def _awards(rated: Rating, award: tuple[str, str] | None) -> str:
    if award is None:
        return ""
    return f"{rated.awards} {award[0] if rated.awards == 1 else award[1]}"


@dataclass(frozen=True)
class PlayedGame:
    """One of a person's public games, on their page."""

    number: int
    title: str
    phase: str
    result: str


def leaderboards(
    by_kind: Sequence[tuple[str, Sequence[Rating]]], awards: dict[str, tuple[str, str]]
) -> bytes:
    """Each kind's best (:data:`LEADERS` at most), a link to each one's page."""
    sections = []
    for kind, rated in by_kind:
        rows = "".join(
            f'<li><a href="{player_address(r.person)}">{escape(r.name or "someone")}</a>: '
            f"{ordinal(r):.1f} ({r.played} played, {r.won} won"
            + (f", {escape(_awards(r, awards.get(kind)))}" if kind in awards else "")
            + ")</li>"
            for r in rated[:LEADERS]
        )
        sections.append(f'<h2>{escape(kind)}</h2><ol class="leaders">{rows}</ol>')
    body = "".join(sections) or '<p class="note">No game has been rated yet.</p>'
    note = (
        '<p class="note">OpenSkill ratings: the figure is mu − 3 sigma. A player who said '
        "<code>me web off</code> is left out.</p>"
    )
    return document("Players", f"<main><h1>Players</h1>{note}{body}</main>")


def player_page(
    name: str,
    rated: Sequence[Rating],
    games: Sequence[PlayedGame],
    awards: dict[str, tuple[str, str]],
) -> bytes:
    """A person's ratings in each kind and the public games they played."""
    ratings = "".join(
        f"<li>{escape(r.kind)}: {ordinal(r):.1f} (mu {r.mu:.1f}, sigma {r.sigma:.1f}); "
        f"{r.played} played, {r.won} won"
        + (f", {escape(_awards(r, awards.get(r.kind)))}" if r.kind in awards else "")
        + "</li>"
        for r in rated
    )
    played = "".join(
        f'<li><a href="/games/{g.number}">{escape(g.title)}</a> — {escape(g.phase)}'
        + (f": {escape(g.result)}" if g.result else "")
        + "</li>"
        for g in games
    )
    parts = [
        f"<h1>{escape(name)}</h1>",
        f"<h2>Ratings</h2><ul>{ratings}</ul>",
        f"<h2>Games</h2><ul>{played}</ul>" if played else "",
        '<p><a href="/players">Every leaderboard</a></p>',
    ]
    return document(name, f"<main>{''.join(parts)}</main>")
