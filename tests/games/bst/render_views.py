"""Hand-built views for the renderer tests (no game rules involved)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from bot.games.bst.cells import Cell
from bot.games.bst.fleet import ShipKind
from bot.games.bst.views import (
    CaptainStatus,
    CaptainView,
    FleetView,
    OwnShipView,
    Phase,
    PrivateView,
    PublicView,
    RevealedView,
    ShotView,
    WreckView,
)

NOW = datetime(2026, 1, 1, 0, 1, 30, tzinfo=UTC)
DEADLINE = datetime(2026, 1, 1, 8, 0, tzinfo=UTC)


def cells(text: str) -> tuple[Cell, ...]:
    """``C1-C5`` or ``A2`` as cells (test shorthand; the rules have their own parser)."""
    from bot.games.bst.cells import parse_cell

    if "-" not in text:
        return (parse_cell(text),)
    a, b = (parse_cell(t) for t in text.split("-"))
    return tuple(
        Cell(r, c)
        for r in range(min(a.row, b.row), max(a.row, b.row) + 1)
        for c in range(min(a.col, b.col), max(a.col, b.col) + 1)
    )


def cell(text: str) -> Cell:
    return cells(text)[0]


CAPTAINS = (
    CaptainView("u-alice", "alice", CaptainStatus.ALIVE),
    CaptainView("u-bob", "bob", CaptainStatus.ALIVE),
    CaptainView("u-carol", "Carol Danvers", CaptainStatus.ALIVE),
    CaptainView("u-dave", "dave", CaptainStatus.ELIMINATED),
)


def small_public() -> PublicView:
    """10x10, turn 4: alice and bob both hit E5, Carol missed B8; dave's cruiser is a wreck."""
    return PublicView(
        rows=10,
        cols=10,
        phase=Phase.BATTLE,
        turn=4,
        shots=(
            ShotView("u-alice", "alice", cell("E5"), True),
            ShotView("u-bob", "bob", cell("E5"), True),
            ShotView("u-carol", "Carol Danvers", cell("B8"), False),
        ),
        wrecks=(WreckView("u-dave", "dave", ShipKind.CRUISER, cells("G2-G4")),),
        captains=CAPTAINS,
    )


def small_private(public: PublicView | None = None) -> PrivateView:
    """alice's board: carrier C1-C5 hit at C3, submarine A2, a collision at D5."""
    return PrivateView(
        viewer="u-alice",
        viewer_name="alice",
        public=public or small_public(),
        ships=(
            OwnShipView(ShipKind.CARRIER, cells("C1-C5"), frozenset({cell("C3")}), False),
            OwnShipView(ShipKind.SUBMARINE, cells("A2"), frozenset(), False),
        ),
        collisions=(cell("D5"),),
    )


def big_public(rows: int = 250, cols: int = 250, shots: int = 3000, seed: int = 7) -> PublicView:
    rng = random.Random(seed)
    captains = tuple(
        CaptainView(
            f"u{i}", f"captain{i}", CaptainStatus.ALIVE if i % 7 else CaptainStatus.ELIMINATED
        )
        for i in range(120)
    )
    shot_views = tuple(
        ShotView(
            f"u{i % 120}",
            f"captain{i % 120}",
            Cell(rng.randrange(rows), rng.randrange(cols)),
            rng.random() < 0.1,
        )
        for i in range(shots)
    )
    wrecks = tuple(
        WreckView(
            f"u{i}",
            f"captain{i}",
            ShipKind.CRUISER,
            tuple(Cell(10 + 9 * i, 20 + c) for c in range(3)),
        )
        for i in range(0, 120, 7)
    )
    return PublicView(
        rows=rows,
        cols=cols,
        phase=Phase.BATTLE,
        turn=12,
        shots=shot_views,
        wrecks=wrecks,
        captains=captains,
    )


def medium_public(captains: int = 12, size: int = 20, seed: int = 3) -> PublicView:
    rng = random.Random(seed)
    caps = tuple(CaptainView(f"p{i}", f"player {i}", CaptainStatus.ALIVE) for i in range(captains))
    shots = tuple(
        ShotView(c.id, c.name, Cell(rng.randrange(size), rng.randrange(size)), rng.random() < 0.3)
        for c in caps
    )
    return PublicView(
        rows=size,
        cols=size,
        phase=Phase.BATTLE,
        turn=5,
        shots=shots,
        wrecks=(),
        captains=caps,
    )


def revealed_game(
    turns: int, size: int = 20, players: int = 6, seed: int = 11, hit_bias: float = 0.35
) -> list[RevealedView]:
    """A plausible game as revealed boards: each captain has a cruiser pair; random shots;
    a ship sinks when all its cells were hit. Not the rules, just pictures to draw."""
    rng = random.Random(seed)
    caps = [CaptainView(f"p{i}", f"captain {i}", CaptainStatus.ALIVE) for i in range(players)]
    ships: dict[str, list[tuple[Cell, ...]]] = {}
    taken: set[Cell] = set()
    for captain in caps:
        fleet: list[tuple[Cell, ...]] = []
        while len(fleet) < 2:
            r, c = rng.randrange(size), rng.randrange(size - 2)
            run = tuple(Cell(r, c + k) for k in range(3))
            if rng.random() < 0.5 and r <= size - 3:
                run = tuple(Cell(r + k, c) for k in range(3))
            if taken.isdisjoint(run):
                taken.update(run)
                fleet.append(run)
        ships[captain.id] = fleet
    hits: set[Cell] = set()
    frames: list[RevealedView] = []
    shots: tuple[ShotView, ...] = ()
    for turn in range(turns + 1):
        sunk = {
            (owner, i)
            for owner, fleet in ships.items()
            for i, run in enumerate(fleet)
            if set(run) <= hits
        }
        alive_ids = {o for o, fleet in ships.items() if any((o, i) not in sunk for i in range(2))}
        captain_views = tuple(
            CaptainView(
                c.id,
                c.name,
                CaptainStatus.ALIVE if c.id in alive_ids else CaptainStatus.ELIMINATED,
            )
            for c in caps
        )
        names = {c.id: c.name for c in caps}
        finished = turn == turns or len(alive_ids) <= 1
        public = PublicView(
            rows=size,
            cols=size,
            phase=Phase.FINISHED if finished else (Phase.BATTLE if turn else Phase.SETUP),
            turn=turn + 1 if not finished else turn,
            shots=shots,
            wrecks=tuple(
                WreckView(o, names[o], ShipKind.CRUISER, ships[o][i]) for o, i in sorted(sunk)
            ),
            captains=captain_views,
            winners=tuple(sorted(alive_ids)) if finished and len(alive_ids) == 1 else (),
            draw=finished and len(alive_ids) != 1,
        )
        fleets = tuple(
            FleetView(
                o,
                names[o],
                tuple(
                    OwnShipView(
                        ShipKind.CRUISER, run, frozenset(run) & frozenset(hits), (o, i) in sunk
                    )
                    for i, run in enumerate(fleet)
                ),
            )
            for o, fleet in ships.items()
        )
        frames.append(RevealedView(public=public, fleets=fleets))
        if finished:
            break
        live_cells = [
            cc
            for o, fleet in ships.items()
            for i, run in enumerate(fleet)
            if (o, i) not in sunk
            for cc in run
        ]
        new_shots = []
        for c in caps:
            if c.id not in alive_ids:
                continue
            if live_cells and rng.random() < hit_bias:
                target = rng.choice(live_cells)
            else:
                target = Cell(rng.randrange(size), rng.randrange(size))
            new_shots.append(ShotView(c.id, c.name, target, target in live_cells))
            if target in live_cells:
                hits.add(target)
        shots = tuple(new_shots)
    return frames
