"""Drawing an outbox row's attachment from the stored history, just before it is sent.

A row names what to attach (``public_map`` / ``private_board`` after turn N — its last
step, or the ``step`` named — or the ``replay``); this module loads that step's state,
asks the game for the view the recipient may see, and hands the view — never the state —
to the game's pictures (declared in :mod:`renderers.catalog`, found by its name). A
game with no pictures gets no attachment: its text board is in the post already.

The replay is a fold over the stored history: one frame per stored step, in
``(number, step)`` order, each labelled in the game's words (``frame_label``). Drawing runs
in a worker thread so the event loop (Discord's heartbeat, the clock) never waits on Pillow
or the video encoder.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.games.catalog import get_game
from bot.host.messages import Attachment, AttachmentKind
from bot.host.outbox import posts
from bot.host.outbox.avatar_cache import AvatarCache
from bot.host.play.ending import FINAL_MAP
from bot.store import Store, loads, records
from renderers.catalog import pictures_for
from renderers.pictures import Pictures, Replay

OUTSIDE_PLAY = frozenset({"leave", "kick", "end"})
"""Causes of stored steps that are not moves of the game (the replay's end frame shows
what they changed)."""


def _when(value: float | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, UTC)


AVATARS_FOR_EVERYONE = 256
"""Up to this many players, each picture is given every player's avatar; past it, a player's
own board is given theirs alone and the public picture none, and the pictures draw the
generated avatar for the rest (as for anyone without one). A crowd's pictures are
digests and neighbourhoods that show few faces, and fetching 100,000 avatars for each of
100,000 boards would cost hours and gigabytes."""

STEPS_KEPT = 2
"""Stored steps kept decoded for the pictures still to come (a deadline's boards are drawn
from one step a game, and the lanes of the relay draw a few games at once)."""


@dataclass(frozen=True)
class _Step:
    """One stored step of a game, as every picture drawn from it needs it."""

    game_row: records.Game
    pictures: Pictures
    state: Any
    players: dict[str, records.Player]

    def avatared(self, recipient: str | None) -> list[records.Player]:
        """The players whose avatars a picture of this step is given (see
        :data:`AVATARS_FOR_EVERYONE`); ``recipient``: whose own board it is, if anyone's."""
        if len(self.players) <= AVATARS_FOR_EVERYONE:
            return list(self.players.values())
        own = self.players.get(recipient) if recipient is not None else None
        return [own] if own is not None else []


class AttachmentRenderer:
    def __init__(self, store: Store, avatars: AvatarCache, *, replay_gif: bool = True) -> None:
        self.store = store
        self.avatars = avatars
        self.replay_gif = replay_gif
        self._cache: dict[tuple[Any, ...], list[Attachment]] = {}
        self._replays: dict[tuple[Any, ...], Replay] = {}
        self._steps: dict[tuple[Any, ...], asyncio.Future[_Step | None]] = {}

    async def __call__(self, row: records.Post) -> Sequence[Attachment]:
        spec = loads(row.render) or {}
        kind = spec.get("kind")
        # without a ``step`` the spec means the turn's last step, which is the same picture
        # for every recipient of one post (the cache's purpose)
        key = (row.game_id, kind, spec.get("turn"), spec.get("step"), spec.get("player"))
        if key in self._cache:
            return self._cache[key]
        if kind == "replay":
            result = await self._replay_of(row)
        elif kind == FINAL_MAP:
            result = await self._final_map_of(row)
        else:
            result = await self._board_of(row, spec)
        if result is None:
            return []
        if len(self._cache) > 256:
            self._cache.clear()
        self._cache[key] = result
        return result

    async def _board_of(self, row: records.Post, spec: dict[str, Any]) -> list[Attachment] | None:
        """The picture of the step the spec names; None when there is nothing to draw."""
        if row.game_id is None:
            return None
        step = await self._step(row.game_id, spec.get("turn", 0), spec.get("step"))
        if step is None:
            return None
        avatars = {
            p.key: await self.avatars.get(p.key, p.name, p.avatar_url)
            for p in step.avatared(
                spec.get("player") if spec.get("kind") == "private_board" else None
            )
        }
        return await asyncio.to_thread(self._board, step, spec, avatars)

    async def _step(self, game_id: int, turn: int, number: int | None) -> _Step | None:
        """The stored step, read and decoded once however many pictures are drawn from it
        (a deadline draws every player's board from one step: reading and decoding its
        state for each of them costs the crowd's size a board). Callers drawing from one
        step at once wait for the one read."""
        key = (game_id, turn, number)
        pending = self._steps.get(key)
        if pending is None:
            pending = asyncio.ensure_future(
                asyncio.to_thread(self._read_step, game_id, turn, number)
            )
            while len(self._steps) >= STEPS_KEPT:
                self._steps.pop(next(iter(self._steps)))
            self._steps[key] = pending
        try:
            return await asyncio.shield(pending)
        except Exception:
            if self._steps.get(key) is pending:
                del self._steps[key]  # a failed read is tried again by the next picture
            raise

    def _read_step(self, game_id: int, turn: int, number: int | None) -> _Step | None:
        # On a worker thread: a transaction may wait for the database's lock (a deadline's
        # resolutions hold it turn by turn), and the event loop must not wait with it.
        with self.store.transaction() as tx:
            game_row = tx.game(game_id)
            if game_row is None or (pictures := pictures_for(game_row.kind)) is None:
                return None
            stored = tx.turn(game_id, turn, number)
            if stored is None:
                return None
            players = {p.key: p for p in tx.players(game_id)}
        state = get_game(game_row.kind).codec.decode_state(loads(stored.state))
        return _Step(game_row, pictures, state, players)

    async def _replay_of(self, row: records.Post) -> list[Attachment] | None:
        """The replay of the whole stored history; None when there is nothing to draw."""
        drawn = await self._drawn_replay(row)
        if drawn is None:
            return None
        game_row, replay = drawn
        return self._replay_attachments(game_row, replay)

    async def _final_map_of(self, row: records.Post) -> list[Attachment] | None:
        """The final map of the end post: the replay's last picture, everything revealed
        (the replay is drawn once for both posts)."""
        drawn = await self._drawn_replay(row)
        if drawn is None or not drawn[1].final:
            return None
        game_row, replay = drawn
        title = posts.title(game_row)
        return [
            Attachment(
                AttachmentKind.IMAGE,
                f"game{game_row.id}-final.png",
                replay.final,
                "image/png",
                f"{title} as it ended, every ship revealed",
            )
        ]

    async def _drawn_replay(self, row: records.Post) -> tuple[records.Game, Replay] | None:
        with self.store.transaction() as tx:
            game_row = tx.game(row.game_id)
            if game_row is None or (pictures := pictures_for(game_row.kind)) is None:
                return None
            history = tx.turns(row.game_id)
        key = (row.game_id, len(history), game_row.state)
        replay = self._replays.get(key)
        if replay is None:
            replay = await asyncio.to_thread(self._replay, pictures, game_row, history)
            self._replays.clear()  # one game's replay is kept: its two posts go together
            self._replays[key] = replay
        return game_row, replay

    def _board(
        self, step: _Step, spec: dict[str, Any], avatars: dict[str, Any]
    ) -> list[Attachment]:
        game_row, pictures, state = step.game_row, step.pictures, step.state
        game = get_game(game_row.kind)
        options = {
            "title": spec.get("title", posts.title(game_row)),
            "deadline": _when(spec.get("deadline")),
            "now": _when(spec.get("now")),
        }
        turn = spec.get("turn", 0)
        if spec.get("kind") == "private_board":
            view = game.views.view(state, spec["player"])
            picture = pictures.private(view, avatars=avatars, **options)
            name = f"game{game_row.id}-turn{turn}-board-{spec['player']}.png"
        else:
            view = game.views.view(state, None)
            picture = pictures.public(view, avatars=avatars, **options)
            name = f"game{game_row.id}-turn{turn}-map.png"
        return [Attachment(AttachmentKind.IMAGE, name, picture.png, "image/png", picture.alt)]

    def _replay(
        self, pictures: Pictures, game_row: records.Game, history: Sequence[records.Step]
    ) -> Replay:
        game = get_game(game_row.kind)
        boards: list[tuple[Any, str]] = []
        for stored in sorted(history, key=lambda t: (t.number, t.step)):
            if stored.cause in OUTSIDE_PLAY:
                continue  # the game's own moves make the frames; its last state closes it
            board = game.views.reveal(game.codec.decode_state(loads(stored.state)))
            boards.append((board, pictures.frame_label(stored.number, stored.step)))
        final = game.views.reveal(game.codec.decode_state(loads(game_row.state)))
        if not boards or boards[-1][0] != final:
            boards.append((final, pictures.end_label()))
        return pictures.replay(boards, title=posts.title(game_row), gif=self.replay_gif)

    def _replay_attachments(self, game_row: records.Game, replay: Replay) -> list[Attachment]:
        title = posts.title(game_row)
        result = [
            Attachment(
                AttachmentKind.VIDEO,
                f"game{game_row.id}-replay.mp4",
                replay.mp4,
                "video/mp4",
                f"Replay of {title}",
            )
        ]
        if self.replay_gif:
            result.append(
                Attachment(
                    AttachmentKind.IMAGE,
                    f"game{game_row.id}-replay.gif",
                    replay.gif,
                    "image/gif",
                    f"Replay of {title} (animated)",
                )
            )
        return result
