"""Drawing an outbox row's attachment from the stored turns, just before it is sent.

A row names what to attach (``public_map`` / ``private_board`` of turn N, or
the ``replay``); this module loads that turn's state, asks the game for the
view the recipient may see, and hands the view — never the state — to the
renderers. Drawing runs in a worker thread so the event loop (Discord's
heartbeat, the clock) never waits on Pillow or the video encoder.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.games.base import get_game
from bot.host import posts
from bot.host.avatar_cache import AvatarCache
from bot.host.messages import Attachment, AttachmentKind
from bot.store import GameRow, OutboxRow, Store, loads
from renderers import (
    ReplayFrame,
    private_alt_text,
    public_alt_text,
    render_private_board,
    render_public_map,
    render_replay,
)


def _when(value: float | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, UTC)


class AttachmentRenderer:
    def __init__(self, store: Store, avatars: AvatarCache, *, replay_gif: bool = True) -> None:
        self.store = store
        self.avatars = avatars
        self.replay_gif = replay_gif
        self._cache: dict[tuple[Any, ...], list[Attachment]] = {}

    async def __call__(self, row: OutboxRow) -> Sequence[Attachment]:
        spec = loads(row.render) or {}
        kind = spec.get("kind")
        key = (row.game_id, kind, spec.get("turn"), spec.get("player"))
        if key in self._cache:
            return self._cache[key]
        with self.store.transaction() as tx:
            game_row = tx.game(row.game_id)
            if game_row is None:
                return []
            turns = tx.turns(row.game_id)
            players = tx.players(row.game_id)
        avatars = {p.key: await self.avatars.get(p.key, p.name, p.avatar_url) for p in players}
        if kind == "replay":
            result = await asyncio.to_thread(self._replay, game_row, turns)
        else:
            turn = next((t for t in turns if t.number == spec.get("turn")), None)
            if turn is None:
                return []
            result = await asyncio.to_thread(self._board, game_row, turn.state, spec, avatars)
        if len(self._cache) > 256:
            self._cache.clear()
        self._cache[key] = result
        return result

    def _board(
        self, game_row: GameRow, state_json: str, spec: dict[str, Any], avatars: dict[str, Any]
    ) -> list[Attachment]:
        game = get_game(game_row.kind)
        state = game.decode_state(loads(state_json))
        options = {
            "title": spec.get("title", posts.title(game_row)),
            "deadline": _when(spec.get("deadline")),
            "now": _when(spec.get("now")),
        }
        turn = spec.get("turn", 0)
        if spec.get("kind") == "private_board":
            view = game.view(state, spec["player"])
            data = render_private_board(view, avatars=avatars, **options)
            alt = private_alt_text(view, **options)
            name = f"game{game_row.id}-turn{turn}-board-{spec['player']}.png"
        else:
            view = game.view(state, None)
            data = render_public_map(view, avatars=avatars, **options)
            alt = public_alt_text(view, **options)
            name = f"game{game_row.id}-turn{turn}-map.png"
        return [Attachment(AttachmentKind.IMAGE, name, data, "image/png", alt)]

    def _replay(self, game_row: GameRow, turns: Sequence[Any]) -> list[Attachment]:
        game = get_game(game_row.kind)
        frames = []
        for turn in turns:
            label = "The fleets at the start" if turn.number == 0 else f"Turn {turn.number}"
            frames.append(
                ReplayFrame(board=game.reveal(game.decode_state(loads(turn.state))), label=label)
            )
        final = game.reveal(game.decode_state(loads(game_row.state)))
        if not frames or frames[-1].board != final:
            frames.append(ReplayFrame(board=final, label="The end"))
        replay = render_replay(frames, title=posts.title(game_row), gif=self.replay_gif)
        result = [
            Attachment(
                AttachmentKind.VIDEO,
                f"game{game_row.id}-replay.mp4",
                replay.mp4,
                "video/mp4",
                f"Replay of {posts.title(game_row)}",
            )
        ]
        if self.replay_gif:
            result.append(
                Attachment(
                    AttachmentKind.IMAGE,
                    f"game{game_row.id}-replay.gif",
                    replay.gif,
                    "image/gif",
                    f"Replay of {posts.title(game_row)} (animated)",
                )
            )
        return result
