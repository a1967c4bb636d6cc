"""Silent Ships' ``strong`` robot (:class:`StrongSilentShipsRobot`): the easy admiral's
sense, with the cards counted and the countries minded first.

From its own :class:`~bot.games.silentships.views.PrivateView` alone
(``shared/rules/silentships.md``):

* **Counting the cards.** The other admiral's deck is the eleven ships; those face-up on
  the board and those it sank are known, so a face-down enemy is one of the rest, each
  as likely: its expected attack (as target, with the Patrol Ship's bonus), and the chance
  it is the Flag Ship (sinking it wins) or a Speed Boat (three squares at a dash).
* **The countries decide most games** (an enemy left on a country at the end of its
  owner's turn wins), so in its turn, in this order: it retakes its own country (in
  force: ships played beside it first when those there would not win); it
  takes the other's when it is empty and within reach, or attacks it when the count says
  the attack wins; it keeps a ship on its own country whenever an enemy could reach it
  next turn (a face-down enemy in a clear line within three squares may be a Speed
  Boat), the best defender it holds (never the Flag Ship, nor the Fire Ship, sunk after
  any defence); then it strikes (never with that guard), plays and advances as the easy
  admiral does, with the count's values; near the turn limit, ahead on ships sunk, it
  only defends.

Pure: no I/O, randomness only from the source it is given.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.games.base import PlayerId, Said
from bot.games.silentships.cells import Cell, play_squares
from bot.games.silentships.robot import (
    Reading,
    SilentShipsRobot,
    Unit,
    _dm,
    _playable,
    _say,
    _strongest,
)
from bot.games.silentships.ships import SHIP_ORDER, Ship
from bot.games.silentships.views import PrivateView, PublicView

FLAG_WORTH = 8.0
"""What the chance of sinking the Flag Ship adds to an attack's margin (it wins the game)."""
SPEED_REACH = 3
PLAY_RESERVE = 1
"""Cards it keeps in hand when it plays a ship (to move and support with)."""
STRIKE_MARGIN = 0.0
"""How much stronger an attack must look to be made (a lost attack loses a ship)."""
GUARD_GAP = 3
"""An enemy this close (in squares) to its empty country calls for a guard."""


class CountedReading(Reading):
    """The easy admiral's reading, with the other admiral's unseen ships counted."""

    def __init__(self, view: PrivateView, player: PlayerId) -> None:
        super().__init__(view, player)
        public = view.public
        me = next(a for a in public.admirals if a.id == player)
        seen = [u.ship for u in public.units if u.owner != player and u.face_up and u.ship]
        self.pool = [s for s in SHIP_ORDER if s not in seen and s not in me.sank]
        count = len(self.pool) or 1
        self.target_value = (
            sum(s.card.attack + s.card.target_bonus for s in self.pool) / count
            if self.pool
            else 3.0
        )
        self.flag_chance = (Ship.FLAG_SHIP in self.pool) / count
        self.speed_chance = (Ship.SPEED_BOAT in self.pool) / count

    def value(self, unit: Unit, *, as_target: bool = False, as_support: bool = False) -> float:
        if unit.ship is None and as_target:
            return self.target_value
        return super().value(unit, as_target=as_target, as_support=as_support)

    def could_speed_boat(self, unit: Unit) -> bool:
        if unit.mine:
            return False
        if unit.ship is not None:
            return unit.ship is Ship.SPEED_BOAT
        return self.speed_chance > 0


class StrongSilentShipsRobot(SilentShipsRobot):
    """Silent Ships' ``strong`` robot; see the module docstring."""

    play_reserve = PLAY_RESERVE
    strike_margin = STRIKE_MARGIN

    def _reading(self, view: PrivateView, player: PlayerId) -> Reading:
        """As the easy admiral decides (attacking, answering, its turn), from the count."""
        return CountedReading(view, player)

    def _turn(self, read: Reading, public: PublicView, rng: random.Random) -> list[Said]:
        assert isinstance(read, CountedReading)
        counted = read
        if public.offer is not None and public.offer != counted.me and self._wins_count(counted):
            return _say("accept")
        defending = self._ahead_near_the_end(counted, public)
        choices: tuple[Callable[[Reading, random.Random], list[Said]], ...] = (
            self._retake_in_force,
            self._take_country,
            self._guard_country_early,
            *(() if defending else (self._strike,)),
            self._play,
            *(() if defending else (self._advance_keeping_guard,)),
        )
        for choose in choices:
            said = choose(counted, rng)
            if said:
                return said
        return _say("end")

    @staticmethod
    def _ahead_near_the_end(read: CountedReading, public: PublicView) -> bool:
        return public.turn >= public.max_turns - 4 and SilentShipsRobot._wins_count(read)

    def _retake_in_force(self, read: Reading, rng: random.Random) -> list[Said]:
        """An enemy on its own country: attack it when the units beside it (the best
        attacking, the others supporting, cards allowing) beat its likely defence; else
        first play ships beside the country to attack and support with; as a last resort
        attack anyway (left there, it loses the game)."""
        home = read.home
        invader = read.units.get(home)
        if invader is None or invader.mine or not read.hand:
            return []
        near = [u for u in read.mine() if u.cell.is_next_to(home) and u.ship is not Ship.FLAG_SHIP]
        defence = self._defence_estimate(read, home, {home})
        if near:
            attacker = max(near, key=lambda u: (read.value(u), u.cell))
            supports = sorted(
                (read.value(u, as_support=True) for u in near if u is not attacker),
                reverse=True,
            )
            total = read.value(attacker) + sum(supports[: len(read.hand) - 1])
            ties = attacker.ship is not None and attacker.ship.card.wins_ties_attacking
            if total > defence or (ties and total >= defence):
                return self._attack_order(read, attacker, home)
        free = [c for c in play_squares(home) if c != home and read.empty(c)]
        playable = _playable(read.hand)
        if free and playable and len(read.hand) >= 2:
            return _dm(f"play {_strongest(playable).card.short} at {free[0]}")
        if near:
            attacker = max(near, key=lambda u: (read.value(u), u.cell))
            return self._attack_order(read, attacker, home)
        return []

    def _take_country(self, read: Reading, rng: random.Random) -> list[Said]:
        """Onto the other's country when it is empty: any unit next to it, or a Speed Boat
        with a clear line."""
        goal = read.target_country
        if not read.empty(goal) or not read.hand:
            return []
        for unit in read.mine():
            if unit.ship is not Ship.FLAG_SHIP and unit.cell.is_next_to(goal):
                return _dm(f"move {unit.cell} to {goal} discard {read.hand[0].card.short}")
        return self._dash(read, rng)

    def _guard_country_early(self, read: Reading, rng: random.Random) -> list[Said]:
        """A ship on its own empty country whenever an enemy could reach it next turn."""
        assert isinstance(read, CountedReading)
        home = read.home
        if not read.empty(home):
            return []
        threat = False
        for unit in read.enemies():
            gap = abs(unit.cell.row - home.row) + abs(unit.cell.col - home.col)
            if gap <= GUARD_GAP:
                threat = True
            elif gap <= SPEED_REACH and read.could_speed_boat(unit):
                path = unit.cell.path_to(home)
                if path is not None and all(read.empty(c) for c in path):
                    threat = True
        if not threat:
            return []
        guard = _best_guard(read.hand)
        if guard is not None:
            return _dm(f"play {guard.card.short} at {home}")
        # no ship to play: bring the nearest unit home, cards allowing
        near = [u for u in read.mine() if u.cell.is_next_to(home) and u.ship is not Ship.FLAG_SHIP]
        if near and read.hand:
            best = max(near, key=lambda u: read.value(u))
            return _dm(f"move {best.cell} to {home} discard {read.hand[0].card.short}")
        return []

    def _strikes_from(self, read: Reading, unit: Unit) -> bool:
        """Any unit but the guard of its country: the guard stays."""
        return unit.cell != read.home

    def _strike_margin(self, read: Reading, unit: Unit, cell: Cell, enemy: Unit) -> float:
        """The easy admiral's margin, with the Flag Ship's chance in a face-down target."""
        assert isinstance(read, CountedReading)
        margin = self._margin(read, unit, cell)
        if enemy.ship is None:
            return margin + FLAG_WORTH * read.flag_chance
        if enemy.ship is Ship.FLAG_SHIP:
            return margin + FLAG_WORTH
        return margin

    def _advance_keeping_guard(self, read: Reading, rng: random.Random) -> list[Said]:
        """The easy admiral's advance, never with the guard of its country."""
        said = self._advance(read, rng)
        if said and said[0].text.startswith(f"move {read.home} "):
            return []
        return said

    def _play_onto(
        self, read: Reading, rng: random.Random, playable: list[Ship], free: list[Cell]
    ) -> list[Said]:
        """Onto its country first (its best guard), then beside it."""
        if read.home in free:
            guard = _best_guard(read.hand)
            if guard is not None:
                return _dm(f"play {guard.card.short} at {read.home}")
        return super()._play_onto(read, rng, playable, free)


def _best_guard(hand: list[Ship]) -> Ship | None:
    """The ship to hold its country with: the best defence, never the Flag Ship (sunk, it
    loses the game) nor the Fire Ship (sunk after any defence)."""
    guards = [
        s for s in hand if not s.card.loses_the_game_when_sunk and not s.card.sinks_after_defending
    ]
    if not guards:
        return None
    return max(guards, key=lambda s: (s.card.attack + s.card.target_bonus, -s.order))


STRONG_ROBOT = StrongSilentShipsRobot()
