"""How a round of U-Boat Shootout resolves (``shared/rules/uboat.md`` §3, §6, §7).

At the evade window's deadline the boats damaged last round make their invisible
moves, and their standing orders that no longer fit from the new cell are
withdrawn. At the round's end, in order: (1) every fire at once on the positions
at the round's start — a direct hit does 2 damage (3 with Heavy torpedoes), a
neighbour 1, every boat in the cross is hit, the shooter's own included; a
direct hit on an island captures it unless two or more boats hit it directly;
(2) a boat damaged by fire does not move or ram; (3) all moves at once; (4) all
rams move at once, then strike at once for 2 damage on every boat on the tile
one further; (5) boats at 0 health are destroyed and their islands freed, their
crews adrift; then Dry dock heals, adrift players from an earlier round join a
crew, and the end is checked. If the game goes on, the owner of island 1 gets a
Sonar reading, and boats damaged this round (still afloat) get an evade window.
Powers act for the owner as the round began.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.games.base import Event, Given, Notice, PlayerId, Resolution
from bot.games.grid import Direction
from bot.games.uboat import scoring
from bot.games.uboat.cells import route_text
from bot.games.uboat.legality import problem
from bot.games.uboat.orders import Evade, Fire, Move, Order, Ram, describe_order
from bot.games.uboat.precedence import (
    latest_round_orders,
    standing_crew_choices,
    standing_evasions,
    standing_round_orders,
)
from bot.games.uboat.state import Boat, Ending, Phase, Player, UboatState
from bot.games.uboat.values import FULL_HEALTH, Colour, Power

DIRECT, BESIDE, HEAVY, RAM = 2, 1, 3, 2


def _route(route: Sequence[Direction]) -> list[str]:
    return [step.value for step in route]


def close_window(state: UboatState, orders: Sequence[Given[Order]]) -> Resolution[UboatState]:
    """The evade window closes: invisible moves, then orders that no longer fit withdrawn."""
    events: list[Event] = []
    records: list[dict[str, Any]] = []
    notices: list[Notice] = []
    changed: set[PlayerId] = set()
    evaded: set[Colour] = set()
    new_state = state
    for colour, evasion in sorted(
        standing_evasions(state, orders).items(), key=lambda item: item[0].index
    ):
        boat = new_state.boat(colour)
        assert boat is not None
        if problem(new_state, boat, evasion.order) is not None:
            continue  # checked on arrival from this very cell: cannot happen, but never sail
        cell = new_state.sea.end_of(boat.cell, evasion.order.route)
        new_state = new_state.with_boat(replace(boat, cell=cell))
        evaded.add(colour)
        route = _route(evasion.order.route)
        events.append(Event("evaded", {"boat": colour.value, "route": route, "cell": str(cell)}))
        records.append(
            {"boat": colour.value, "player": evasion.player, "action": "evade", "route": route}
        )
        crew = new_state.crew_of(colour)
        changed.update(p.id for p in crew)
        notices.append(
            Notice(
                f"Round {state.turn}: {colour.title} evaded "
                f"{route_text(evasion.order.route, ', ')}, unannounced; it is now at {cell}.",
                to=crew[0].id,
                crew=True,
            )
        )
    withdrawn = set(state.withdrawn)
    for player, given in latest_round_orders(new_state, orders).items():
        boat = new_state.boat_of(player)
        if boat is None or boat.colour not in evaded:
            continue
        reason = problem(new_state, boat, given.order)
        if reason is None:
            continue
        withdrawn.add((player, given.sequence))
        notices.append(
            Notice(
                f"Round {state.turn}: after the evasion, your `{describe_order(given.order)}` "
                f"no longer fits and is withdrawn ({reason}). Send a new order.",
                to=player,
                crew=True,
            )
        )
    # The crew's board shows what stands: evasions are done, withdrawn orders gone.
    silenced = {player for player, _ in withdrawn - set(state.withdrawn)}
    said = tuple(
        s for s in new_state.said if not isinstance(s.order, Evade) and s.player not in silenced
    )
    new_state = replace(
        new_state,
        window_open=False,
        evaders=frozenset(),
        withdrawn=frozenset(withdrawn),
        said=said,
        this_window=tuple(event.record() for event in events),
    )
    return Resolution(new_state, tuple(events), frozenset(changed), tuple(notices), tuple(records))


def close_round(state: UboatState, orders: Sequence[Given[Order]]) -> Resolution[UboatState]:
    """The round's end: everything of rules §3 in order, then §6's end check."""
    prefix: Resolution[UboatState] | None = None
    if state.window_open:
        # A round cannot end before its window (the window is shorter), but if the host
        # is ever asked to, the invisible moves still come first.
        prefix = close_window(state, orders)
        state = prefix.state
    result = _Round(state, orders).resolve()
    if prefix is None:
        return result
    return Resolution(
        result.state,
        prefix.events + result.events,
        prefix.changed | result.changed,
        prefix.notices + result.notices,
        prefix.orders + result.orders,
    )


class _Round:
    """One round's resolution, step by step (the numbers are the rules' steps)."""

    def __init__(self, state: UboatState, orders: Sequence[Given[Order]]) -> None:
        self.state = state
        self.sea = state.sea
        self.number = state.turn
        self.standing = standing_round_orders(state, orders)
        self.choices = standing_crew_choices(state, orders)
        self.afloat = state.afloat  # as the round began, colour order
        self.health = {boat.colour: boat.health for boat in state.boats}
        self.cells = {boat.colour: boat.cell for boat in state.boats}
        self.owners = list(state.owners)
        self.crew = {p.id: p.crew for p in state.players}
        self.events: list[Event] = []
        self.notices: list[Notice] = []
        self.fired: set[Colour] = set()
        self.damaged: set[Colour] = set()
        self.joins: list[tuple[PlayerId, Colour]] = list(state.joins)

    # --- the steps -----------------------------------------------------------

    def resolve(self) -> Resolution[UboatState]:
        hit_by_fire = self.fire()  # 1
        self.cancel(hit_by_fire)  # 2
        self.move(hit_by_fire)  # 3
        self.ram(hit_by_fire)  # 4
        sunk, sunk_crews = self.destroy()  # 5
        self.heal()
        self.join()
        state = self.new_state()
        ending = self.ending(state, sunk, sunk_crews)
        if ending is not None:
            self.events.append(Event("finished", scoring.finished_event_data(ending)))
            state = replace(state, phase=Phase.FINISHED, ending=ending, window_open=False)
            state = replace(state, evaders=frozenset())
        else:
            self.sonar(state)
            self.open_windows(state)
            state = replace(state, turn=self.number + 1)
        state = replace(state, last_round=tuple(event.record() for event in self.events))
        return Resolution(
            state,
            tuple(self.events),
            frozenset(p.id for p in state.present),
            tuple(self.notices),
            tuple(self.order_records()),
        )

    def fire(self) -> set[Colour]:
        direct_on_islands: dict[int, set[Colour]] = {}
        damage: dict[Colour, int] = {}
        for boat in self.afloat:
            standing = self.standing.get(boat.colour)
            if standing is None or not isinstance(standing.order, Fire):
                continue
            target = standing.order.cell
            cross = self.sea.cross(target)
            heavy = self.state.holds(boat.colour, Power.HEAVY_TORPEDOES)
            hits = []
            for other in self.afloat:
                if other.cell == target:
                    dealt = HEAVY if heavy else DIRECT
                elif other.cell in cross:
                    dealt = BESIDE
                else:
                    continue
                hits.append({"boat": other.colour.value, "damage": dealt})
                damage[other.colour] = damage.get(other.colour, 0) + dealt
            self.events.append(
                Event("fire", {"boat": boat.colour.value, "cell": str(target), "hits": hits})
            )
            self.fired.add(boat.colour)
            number = self.state.island_number.get(target)
            if number is not None:
                direct_on_islands.setdefault(number, set()).add(boat.colour)
        for index, island in enumerate(self.state.options.islands):
            shooters = direct_on_islands.get(island.number, set())
            if len(shooters) != 1:
                continue
            (shooter,) = shooters
            if self.owners[index] is shooter:
                continue
            previous = self.owners[index]
            self.owners[index] = shooter
            self.events.append(
                Event(
                    "captured",
                    {
                        "island": island.number,
                        "boat": shooter.value,
                        "from": previous.value if previous else None,
                    },
                )
            )
        for colour, dealt in damage.items():
            self.health[colour] = max(0, self.health[colour] - dealt)
        self.damaged |= set(damage)
        return set(damage)

    def cancel(self, hit_by_fire: set[Colour]) -> None:
        for boat in self.afloat:
            standing = self.standing.get(boat.colour)
            if boat.colour not in hit_by_fire or standing is None:
                continue
            if isinstance(standing.order, Move | Ram):
                action = "move" if isinstance(standing.order, Move) else "ram"
                self.events.append(
                    Event("cancelled", {"boat": boat.colour.value, "action": action})
                )
                self._tell_crew(
                    boat.colour,
                    f"Round {self.number}: {boat.colour.title} was hit, so its "
                    f"`{describe_order(standing.order)}` did not happen.",
                )

    def _fog(self, colour: Colour) -> bool:
        return self.state.holds(colour, Power.FOG)

    def move(self, hit_by_fire: set[Colour]) -> None:
        for boat in self.afloat:
            standing = self.standing.get(boat.colour)
            if standing is None or boat.colour in hit_by_fire:
                continue
            if isinstance(standing.order, Move):
                route = standing.order.route
                cell = self.sea.end_of(boat.cell, route)
                self.cells[boat.colour] = cell
                self.events.append(
                    Event(
                        "moved",
                        {
                            "boat": boat.colour.value,
                            "route": _route(route),
                            "cell": str(cell),
                            "fog": self._fog(boat.colour),
                        },
                    )
                )

    def ram(self, hit_by_fire: set[Colour]) -> None:
        rams: list[tuple[Boat, Ram]] = []
        for boat in self.afloat:
            standing = self.standing.get(boat.colour)
            if standing is None or boat.colour in hit_by_fire:
                continue
            if isinstance(standing.order, Ram):
                self.cells[boat.colour] = self.sea.end_of(boat.cell, standing.order.route)
                rams.append((boat, standing.order))
        damage: dict[Colour, int] = {}
        for boat, order in rams:
            cell = self.cells[boat.colour]
            struck = self.sea.step(cell, order.route[-1])
            hits = []
            for other in self.afloat:  # 0 health but not yet destroyed: struck too
                if self.cells[other.colour] == struck:
                    hits.append({"boat": other.colour.value, "damage": RAM})
                    damage[other.colour] = damage.get(other.colour, 0) + RAM
            self.events.append(
                Event(
                    "rammed",
                    {
                        "boat": boat.colour.value,
                        "route": _route(order.route),
                        "cell": str(cell),
                        "struck": str(struck),
                        "hits": hits,
                        "fog": self._fog(boat.colour),
                    },
                )
            )
        for colour, dealt in damage.items():
            self.health[colour] = max(0, self.health[colour] - dealt)
        self.damaged |= set(damage)

    def destroy(self) -> tuple[list[Colour], list[PlayerId]]:
        sunk: list[Colour] = []
        sunk_crews: list[PlayerId] = []
        for boat in self.afloat:
            if self.health[boat.colour] > 0:
                continue
            sunk.append(boat.colour)
            freed = []
            for index, island in enumerate(self.state.options.islands):
                if self.owners[index] is boat.colour:
                    freed.append(island.number)
                    self.owners[index] = None
            self.events.append(Event("destroyed", {"boat": boat.colour.value, "freed": freed}))
            for player in self.state.crew_of(boat.colour):
                sunk_crews.append(player.id)
                self.crew[player.id] = None
        afloat_now = [b.colour for b in self.afloat if self.health[b.colour] > 0]
        if len(afloat_now) <= 1 or self.number >= self.state.options.rounds:
            # The game ends this round: there is no crew left to join.
            for adrift in sunk_crews:
                self.notices.append(
                    Notice(f"Round {self.number}: your U-boat was sunk.", to=adrift)
                )
        else:
            choices = tuple(colour.value for colour in afloat_now)
            for adrift in sunk_crews:
                self.notices.append(
                    Notice(
                        f"Round {self.number}: your U-boat was sunk. You are adrift: send "
                        f"`crew {choices[0]}` (any of {', '.join(choices)}) by DM before round "
                        f"{self.number + 1} ends to join that crew; otherwise you join the crew "
                        "with fewest members.",
                        to=adrift,
                        choices=tuple(f"crew {choice}" for choice in choices),
                    )
                )
        return sunk, sunk_crews

    def heal(self) -> None:
        dock = self._owner_as_round_began(Power.DRY_DOCK)
        if dock is None or dock in self.fired or self.health[dock] <= 0:
            return
        if self.health[dock] >= FULL_HEALTH:
            return
        self.health[dock] += 1
        self.events.append(Event("healed", {"boat": dock.value, "health": self.health[dock]}))
        self._tell_crew(
            dock,
            f"Round {self.number}: the Dry dock repaired {dock.title}: health {self.health[dock]}.",
        )

    def _owner_as_round_began(self, power: Power) -> Colour | None:
        if not self.state.options.island_powers:
            return None
        owner = self.state.owner(power.value)
        return owner if owner is not None and self.state.holds(owner, power) else None

    def join(self) -> None:
        afloat_now = [b.colour for b in self.afloat if self.health[b.colour] > 0]
        if not afloat_now:
            return
        for player in self.state.players:
            # Only players adrift as the round began: this round's sunk crews join next round.
            if player.left or player.crew is not None or player.colour is None:
                continue
            choice = self.choices.get(player.id)
            chosen = choice is not None and choice in afloat_now
            if choice is None or not chosen:

                def size(colour: Colour) -> tuple[int, int]:
                    members = sum(
                        1
                        for p in self.state.players
                        if not p.left and self.crew.get(p.id) is colour
                    )
                    return (members, colour.index)

                choice = min(afloat_now, key=size)
            self.crew[player.id] = choice
            self.joins.append((player.id, choice))
            self.events.append(
                Event("joined", {"player": player.id, "crew": choice.value, "chosen": chosen})
            )
            self.notices.append(
                Notice(
                    f"Round {self.number}: you joined {choice.title}'s crew"
                    + ("" if chosen else " (the crew with fewest members)")
                    + ". Its captain's orders stand first; yours count when the captain sends none.",
                    to=player.id,
                )
            )

    # --- the state after --------------------------------------------------------

    def new_state(self) -> UboatState:
        boats = tuple(
            replace(
                boat,
                cell=self.cells[boat.colour],
                health=self.health[boat.colour],
                fired_in_a_row=(boat.fired_in_a_row + 1) if boat.colour in self.fired else 0,
            )
            for boat in self.state.boats
        )
        players = tuple(replace(p, crew=self.crew.get(p.id)) for p in self.state.players)
        evaders = frozenset(colour for colour in self.damaged if self.health[colour] > 0)
        return replace(
            self.state,
            boats=boats,
            players=players,
            owners=tuple(self.owners),
            evaders=evaders,
            window_open=bool(evaders),
            withdrawn=frozenset(),
            said=(),
            crew_choices=(),
            joins=tuple(self.joins),
            this_window=(),
        )

    def ending(
        self, state: UboatState, sunk: list[Colour], sunk_crews: list[PlayerId]
    ) -> Ending | None:
        afloat = state.afloat
        if not afloat:
            return scoring.sunk_together(scoring.by_name(state, sunk_crews), sunk)
        if len(afloat) == 1:
            # The losing boat went down last: this round (the earliest colour of several).
            losing = sunk[0] if sunk else None
            return scoring.with_awards(state, scoring.last_boat_standing(state), losing)
        if self.number >= state.options.rounds:
            ending = scoring.count_islands(state)
            return scoring.with_awards(state, ending, scoring.runner_up(state, ending))
        return None

    def sonar(self, state: UboatState) -> None:
        owner = self._owner_after(state, Power.SONAR)
        if owner is None:
            return
        boat = state.boat(owner)
        assert boat is not None
        others = [other for other in state.afloat if other.colour is not owner]
        if not boat.afloat or not others:
            return
        distance = min(state.sea.distance(boat.cell, other.cell) for other in others)
        self.events.append(Event("sonar", {"boat": owner.value, "distance": distance}))
        self._tell_crew(
            owner,
            f"Round {self.number + 1} begins. Sonar (island {Power.SONAR.value}): the nearest "
            f"enemy U-boat is {distance} away.",
            state,
        )

    def open_windows(self, state: UboatState) -> None:
        for colour in sorted(state.evaders, key=lambda c: c.index):
            self._tell_crew(
                colour,
                f"{colour.title} was damaged in round {self.number}: you may send an invisible "
                "move by DM, `evade` and 1 to 3 steps (e.g. `evade down left`), until the "
                "evade window closes.",
                state,
            )

    def _owner_after(self, state: UboatState, power: Power) -> Colour | None:
        if not state.options.island_powers:
            return None
        owner = state.owner(power.value)
        return owner if owner is not None and state.holds(owner, power) else None

    # --- words and records -----------------------------------------------------

    def _tell_crew(self, colour: Colour, text: str, state: UboatState | None = None) -> None:
        crew = (state or self.state).crew_of(colour)
        if crew:
            self.notices.append(Notice(text, to=crew[0].id, crew=True))

    def order_records(self) -> list[dict[str, Any]]:
        records: list[dict[str, Any]] = []
        for boat in self.afloat:
            standing = self.standing.get(boat.colour)
            if standing is None:
                continue
            order = standing.order
            entry: dict[str, Any] = {"boat": boat.colour.value, "player": standing.player}
            if isinstance(order, Fire):
                entry |= {"action": "fire", "cell": str(order.cell)}
            elif isinstance(order, Move | Ram):
                action = "move" if isinstance(order, Move) else "ram"
                entry |= {"action": action, "route": _route(order.route)}
            else:
                continue  # a standing hold is absent
            records.append(entry)
        for player, colour in sorted(
            self.choices.items(), key=lambda item: _name_key(self.state.players, item[0])
        ):
            records.append({"player": player, "action": "crew", "crew": colour.value})
        return records


def _name_key(players: Sequence[Player], player: PlayerId) -> tuple[str, str]:
    names: Mapping[PlayerId, str] = {p.id: p.name for p in players}
    return (names.get(player, ""), player)
