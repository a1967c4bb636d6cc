"""A simulated admiral for ``bst demo --game silentships`` (:class:`bot.games.base.Robot`).

It sees only its own view (:class:`~bot.games.silentships.views.PrivateView`: the public
board, its own hand and its own units' ships) and sends one order at a time, which the
host answers before it is asked again. It plays legally and with some sense, not well:

* in its turn: accept a standing offer that it would win; take back its country; strike
  an enemy unit when its attack (with the supports it can pay for) likely beats the
  target's defence (a face-down enemy counts as the average ship it might be); dash a
  Speed Boat onto the enemy's empty country; block its own country when an enemy stands
  next to it; play ships (never the Flag Ship, which it keeps safe in hand); move units
  towards the enemy country and its islands while it has cards to spare; then ``end``;
* attacking: add supports while the defence might still win, then ``go``; send a
  retreating target as far from its own country as it can;
* defending: add supports while the attack looks stronger; retreat a Flag Ship or a
  Fire Ship (lost in any combat) when it can; else ``pass``.

Cards to discard are the least useful first (the Flag Ship, never played, goes first).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.games.base import PlayerId, Said
from bot.games.silentships.cells import ALL_CELLS, ISLANDS, Cell, play_squares
from bot.games.silentships.ships import SHIP_ORDER, Ship
from bot.games.silentships.state import Phase, Side, TurnStep
from bot.games.silentships.views import AttackView, OwnUnitView, PrivateView, PublicView

KEEP: dict[Ship, int] = {
    Ship.FLAG_SHIP: 0,
    Ship.SPECIAL_OPERATIONS_CRAFT: 1,
    Ship.SALVAGE_SHIP: 2,
    Ship.PATROL_SHIP: 2,
    Ship.MISSILE_BOAT: 3,
    Ship.SUBMARINE: 3,
    Ship.RAMMING_SHIP: 4,
    Ship.AMMUNITION_SHIP: 4,
    Ship.FRIGATE: 5,
    Ship.SPEED_BOAT: 5,
    Ship.FIRE_SHIP: 6,
}
"""How much the robot wants to keep a card in hand: it discards the lowest first."""

RESERVE = 1
"""Cards kept in hand, when it can, for supports and retreats in the opponent's turn."""


@dataclass(frozen=True)
class Unit:
    """A unit on the board as this robot knows it (``ship`` None: an enemy face-down)."""

    cell: Cell
    mine: bool
    ship: Ship | None
    face_up: bool


def _distance(a: Cell, b: Cell) -> int:
    return abs(a.row - b.row) + abs(a.col - b.col)


class Reading:
    """What the robot reads off its view, once per decision."""

    def __init__(self, view: PrivateView, player: PlayerId) -> None:
        public = view.public
        self.view = view
        self.public = public
        self.me = player
        own = {unit.cell: unit for unit in view.units}
        self.units: dict[Cell, Unit] = {}
        for unit in public.units:
            mine: OwnUnitView | None = own.get(unit.cell) if unit.owner == player else None
            ship = mine.ship if mine is not None else unit.ship
            self.units[unit.cell] = Unit(unit.cell, unit.owner == player, ship, unit.face_up)
        admirals = {a.id: a for a in public.admirals}
        me = admirals[player]
        other = next(a for a in public.admirals if a.id != player)
        self.sank = len(me.sank)
        self.their_sank = len(other.sank)
        self.their_hand = other.hand_size
        self.moves_first = me.moves_first
        assert me.country is not None and other.country is not None
        self.home: Cell = me.country
        self.target_country: Cell = other.country
        self.hand = sorted(view.hand, key=lambda ship: (KEEP[ship], ship.order))
        # What a face-down enemy may be: their ships not face-up nor sunk by me.
        seen = [u.ship for u in public.units if u.owner != player and u.face_up and u.ship]
        unknown = [s for s in SHIP_ORDER if s not in seen and s not in me.sank]
        self.unknown_value = sum(s.card.attack for s in unknown) / len(unknown) if unknown else 3.0

    # --- the board ----------------------------------------------------------

    def mine(self) -> list[Unit]:
        return [u for u in self.units.values() if u.mine]

    def enemies(self) -> list[Unit]:
        return [u for u in self.units.values() if not u.mine]

    def empty(self, cell: Cell) -> bool:
        return cell not in self.units

    def value(self, unit: Unit, *, as_target: bool = False, as_support: bool = False) -> float:
        """What a unit is likely to count in a combat."""
        if unit.ship is None:
            return self.unknown_value + (0.5 if as_target else 0.0)
        card = unit.ship.card
        if as_support and card.support_value is not None:
            return card.support_value
        sank = self.sank if unit.mine else self.their_sank
        value = card.attack_now(sank)
        return value + (card.target_bonus if as_target else 0)

    def supporters(self, target: Cell, *, mine: bool, busy: set[Cell]) -> list[Unit]:
        """Units of one side that could support an attack on ``target``."""
        found = []
        for unit in self.units.values():
            if unit.mine != mine or unit.cell in busy or unit.cell == target:
                continue
            near = unit.cell.is_next_to(target)
            missile = (
                unit.face_up
                and unit.ship is not None
                and unit.ship.card.support_reach >= 2
                and unit.cell.in_line(target, 2)
            )
            if near or missile:
                found.append(unit)
        return found

    def free_support(self, unit: Unit) -> bool:
        return unit.face_up and unit.ship is not None and not unit.ship.card.support_discard

    # --- cards --------------------------------------------------------------

    def cheapest(self, keep: int = 0) -> Ship | None:
        """The card to discard, if more than ``keep`` are held."""
        return self.hand[0] if len(self.hand) > keep else None


def _playable(hand: list[Ship]) -> list[Ship]:
    """The ships of ``hand`` that may be played: all but the Flag Ship."""
    return [s for s in hand if s is not Ship.FLAG_SHIP]


def _strongest(ships: list[Ship]) -> Ship:
    """The ship of most attack (the earlier in the ship order on a tie)."""
    return max(ships, key=lambda s: (s.card.attack, -s.order))


def _dm(text: str) -> list[Said]:
    return [Said(text, public=False)]


def _say(text: str) -> list[Said]:
    return [Said(text, public=True)]


class SilentShipsRobot:
    """The simulated admiral (``ROBOT``)."""

    demo_players = 2
    play_reserve = RESERVE
    """Cards it keeps in hand when it plays a ship (to move and support with)."""
    strike_margin = 0.0
    """How much stronger an attack must look to be made (a lost attack loses a ship)."""

    def orders(self, view: object, player: PlayerId, rng: random.Random) -> list[Said]:
        if not isinstance(view, PrivateView):
            return []
        public = view.public
        if public.phase is not Phase.BATTLE or public.step is None:
            return []
        read = self._reading(view, player)
        attack = public.attack
        if attack is not None:
            if public.step is TurnStep.SUPPORTS and attack.attacker == player:
                return self._supports(read, attack)
            if public.step is TurnStep.RESPONSE and attack.defender == player:
                return self._answer(read, attack)
            if public.step is TurnStep.RETREAT and attack.attacker == player:
                return self._retreat_to(read, attack)
            return []
        if public.to_move != player:
            return []
        return self._turn(read, public, rng)

    def _reading(self, view: PrivateView, player: PlayerId) -> Reading:
        """What this admiral makes of its view (the strong one counts the cards too)."""
        return Reading(view, player)

    # --- attacking ----------------------------------------------------------

    def _margin(self, read: Reading, unit: Unit, cell: Cell) -> float:
        """How much ``unit``'s attack on ``cell``, with the supports it can have, is
        likely to beat the defence there by."""
        busy = {unit.cell, cell}
        ours = read.value(unit)
        helpers = read.supporters(cell, mine=True, busy=busy)
        paid = sorted(
            (read.value(h, as_support=True) for h in helpers if not read.free_support(h)),
            reverse=True,
        )
        free = sum(read.value(h, as_support=True) for h in helpers if read.free_support(h))
        ours += free + sum(paid[: max(0, len(read.hand) - 1)])
        return ours - self._defence_estimate(read, cell, busy)

    def _defence_estimate(self, read: Reading, target: Cell, busy: set[Cell]) -> float:
        unit = read.units[target]
        defence = read.value(unit, as_target=True)
        helpers = read.supporters(target, mine=False, busy=busy)
        # They can pay for as many supports as they hold cards.
        values = sorted((read.value(u, as_support=True) for u in helpers), reverse=True)
        return defence + sum(values[: read.their_hand])

    def _supports(self, read: Reading, attack: AttackView) -> list[Said]:
        busy = {attack.origin, attack.target, *(s.cell for s in attack.supports)}
        attacker = read.units[attack.origin]
        total = read.value(attacker) + sum(
            read.value(read.units[s.cell], as_support=True)
            for s in attack.supports
            if s.side is Side.ATTACK
        )
        if total <= self._defence_estimate(read, attack.target, busy):
            for unit in sorted(
                read.supporters(attack.target, mine=True, busy=busy),
                key=lambda u: -read.value(u, as_support=True),
            ):
                if read.free_support(unit):
                    return _dm(f"support from {unit.cell}")
                card = read.cheapest()
                if card is not None:
                    return _dm(f"support from {unit.cell} discard {card.card.short}")
        return _say("go")

    def _retreat_to(self, read: Reading, attack: AttackView) -> list[Said]:
        squares = sorted(
            attack.retreat_squares, key=lambda cell: (-_distance(cell, read.home), cell)
        )
        return _say(f"retreat to {squares[0]}")

    # --- defending ----------------------------------------------------------

    def _answer(self, read: Reading, attack: AttackView) -> list[Said]:
        target = read.units[attack.target]
        busy = {attack.origin, attack.target, *(s.cell for s in attack.supports)}
        theirs = read.value(read.units[attack.origin]) + sum(
            read.value(read.units[s.cell], as_support=True)
            for s in attack.supports
            if s.side is Side.ATTACK
        )
        ours = read.value(target, as_target=True) + sum(
            read.value(read.units[s.cell], as_support=True)
            for s in attack.supports
            if s.side is Side.DEFENCE
        )
        supported = any(s.side is Side.DEFENCE for s in attack.supports)
        precious = target.ship is not None and (
            target.ship.card.loses_the_game_when_sunk or target.ship.card.sinks_after_defending
        )
        room = [c for c in attack.target.neighbours() if c != attack.origin and read.empty(c)]
        card = read.cheapest()
        if precious and not supported and room and card is not None:
            return _dm(f"retreat discard {card.card.short}")
        if ours <= theirs:
            for unit in read.supporters(attack.target, mine=True, busy=busy):
                if read.free_support(unit):
                    return _dm(f"support from {unit.cell}")
                if card is not None:
                    return _dm(f"support from {unit.cell} discard {card.card.short}")
            if not supported and room and card is not None and ours + 1 < theirs:
                return _dm(f"retreat discard {card.card.short}")
        return _dm("pass")

    # --- its own turn -------------------------------------------------------

    def _turn(self, read: Reading, public: PublicView, rng: random.Random) -> list[Said]:
        if public.offer is not None and public.offer != read.me and self._wins_count(read):
            return _say("accept")
        for choose in (
            self._retake_country,
            self._strike,
            self._dash,
            self._guard_country,
            self._play,
            self._advance,
        ):
            said = choose(read, rng)
            if said:
                return said
        return _say("end")

    @staticmethod
    def _wins_count(read: Reading) -> bool:
        """Whether the ships sunk would give it the game now."""
        if read.sank != read.their_sank:
            return read.sank > read.their_sank
        return not read.moves_first  # the second player wins ties

    def _attack_order(self, read: Reading, unit: Unit, target: Cell) -> list[Said]:
        card = read.cheapest()
        if card is None:
            return []
        return _dm(f"move {unit.cell} to {target} discard {card.card.short}")

    def _retake_country(self, read: Reading, rng: random.Random) -> list[Said]:
        invader = read.units.get(read.home)
        if invader is None or invader.mine:
            return []
        near = [u for u in read.mine() if u.cell.is_next_to(read.home)]
        if near:
            best = max(near, key=lambda u: (read.value(u), u.cell))
            return self._attack_order(read, best, read.home)
        return []

    def _strike(self, read: Reading, rng: random.Random) -> list[Said]:
        """The most promising attack, if one looks worth a card."""
        if not read.hand:
            return []
        best: tuple[float, Cell, Cell] | None = None
        for unit in read.mine():
            if unit.ship is None or unit.ship.card.loses_the_game_when_sunk:
                continue
            if not self._strikes_from(read, unit):
                continue
            for cell in unit.cell.neighbours():
                enemy = read.units.get(cell)
                if enemy is None or enemy.mine:
                    continue
                margin = self._strike_margin(read, unit, cell, enemy)
                ties = unit.ship.card.wins_ties_attacking
                fire = enemy.face_up and enemy.ship is Ship.FIRE_SHIP
                least = self.strike_margin
                worth = (
                    fire
                    or margin > least
                    or (ties and margin >= least)
                    or cell == read.target_country
                )
                if worth and (best is None or margin > best[0]):
                    best = (margin, unit.cell, cell)
        if best is None:
            return []
        return self._attack_order(read, read.units[best[1]], best[2])

    def _strikes_from(self, read: Reading, unit: Unit) -> bool:
        """Whether ``unit`` may leave its square to attack: any may."""
        return True

    def _strike_margin(self, read: Reading, unit: Unit, cell: Cell, enemy: Unit) -> float:
        """How much stronger ``unit``'s attack on ``enemy`` at ``cell`` looks."""
        return self._margin(read, unit, cell)

    def _dash(self, read: Reading, rng: random.Random) -> list[Said]:
        """A Speed Boat with a clear line to the enemy's empty country takes it."""
        goal = read.target_country
        if not read.empty(goal) or not read.hand:
            return []
        for unit in read.mine():
            if unit.ship is not Ship.SPEED_BOAT:
                continue
            path = unit.cell.path_to(goal)
            if path is None or len(path) > unit.ship.card.reach:
                continue
            if any(not read.empty(cell) for cell in path):
                continue
            if not unit.face_up:
                return _say(f"reveal {unit.cell}")
            return _dm(f"move {unit.cell} to {goal} discard {read.hand[0].card.short}")
        return []

    def _guard_country(self, read: Reading, rng: random.Random) -> list[Said]:
        """An enemy next to an empty country: put a ship on it."""
        if not read.empty(read.home):
            return []
        if not any(not u.mine and u.cell.is_next_to(read.home) for u in read.units.values()):
            return []
        playable = _playable(read.hand)
        if not playable:
            return []
        return _dm(f"play {_strongest(playable).card.short} at {read.home}")

    def _play(self, read: Reading, rng: random.Random) -> list[Said]:
        """A ship from hand onto a free square of its country's row, cards allowing."""
        playable = _playable(read.hand)
        if len(read.hand) <= self.play_reserve or not playable or len(read.mine()) >= 5:
            return []
        free = [c for c in play_squares(read.home) if read.empty(c)]
        if not free:
            return []
        return self._play_onto(read, rng, playable, free)

    def _play_onto(
        self, read: Reading, rng: random.Random, playable: list[Ship], free: list[Cell]
    ) -> list[Said]:
        """The strongest of ``playable`` onto one of the ``free`` squares, at random."""
        return _dm(f"play {_strongest(playable).card.short} at {rng.choice(free)}")

    def _advance(self, read: Reading, rng: random.Random) -> list[Said]:
        """One step of a unit towards the enemy country (or onto a free island), cards
        to spare. A unit holding an island mostly stays: one more card each turn."""
        if len(read.hand) <= RESERVE:
            return []
        moves: list[tuple[int, Cell, Cell]] = []
        for unit in read.mine():
            if unit.ship is Ship.FLAG_SHIP or (unit.cell in ISLANDS and rng.random() < 0.7):
                continue
            here = _distance(unit.cell, read.target_country)
            for cell in unit.cell.neighbours():
                if not read.empty(cell) or cell == read.home:
                    continue
                gain = _distance(cell, read.target_country) - here
                if cell in ISLANDS:
                    gain -= 2
                if gain < 0:
                    moves.append((gain, unit.cell, cell))
        if not moves:
            return []
        moves.sort(key=lambda move: (move[0], ALL_CELLS.index(move[1]), ALL_CELLS.index(move[2])))
        _, origin, cell = moves[0]
        return _dm(f"move {origin} to {cell} discard {read.hand[0].card.short}")


ROBOT = SilentShipsRobot()
