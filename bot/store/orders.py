"""The orders table: every order given, kept as history; a player's standing order for
a turn is their newest of it (bot.store.records.Order)."""

from __future__ import annotations

from sqlmodel import col, select

from bot.store.models import (
    OrderRow,
)
from bot.store.records import (
    ORDER_FIELDS,
    Order,
)
from bot.store.tx import TxBase, columns_of

# A player's standing order for a turn is the newest row of that turn (the history stays).
# A withdrawal is an order row with no order: the player's earlier orders of that turn no
# longer stand (they stay, as history).
WITHDRAWN = ""


SQL_STANDING = (
    'SELECT "order" FROM orders WHERE game_id = :game_id AND turn = :turn '
    "AND player_key = :player_key ORDER BY id DESC LIMIT 1"
)


_ORDER_COLUMNS = ", ".join(f'"{name}"' for name in ORDER_FIELDS)  # ("order" is a keyword)


SQL_ORDERS_OF_TURN = (
    f"SELECT {_ORDER_COLUMNS} FROM orders WHERE game_id = :game_id AND turn = :turn ORDER BY id"
)


SQL_INSERT_ORDER = (
    'INSERT INTO orders (game_id, player_key, turn, "order", text, inbound_id, sent_at) '
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)


class OrderTable(TxBase):
    """The reads and writes of orders."""

    def standing_orders(self, game_id: int, turn: int) -> dict[str, Order]:
        """Each player's standing order for the turn: their newest order of it."""
        query = (
            select(*columns_of(OrderRow, ORDER_FIELDS))
            .where(OrderRow.game_id == game_id, OrderRow.turn == turn)
            .order_by(col(OrderRow.id))
        )
        standing: dict[str, Order] = {}
        for found in self.session.execute(query).all():
            row = Order(*found)
            standing[row.player_key] = row  # a newer one replaces an older one
        return {key: row for key, row in standing.items() if row.order != WITHDRAWN}

    def standing_order(self, game_id: int, turn: int, player_key: str) -> Order | None:
        query = (
            select(*columns_of(OrderRow, ORDER_FIELDS))
            .where(
                OrderRow.game_id == game_id,
                OrderRow.turn == turn,
                OrderRow.player_key == player_key,
            )
            .order_by(col(OrderRow.id).desc())
            .limit(1)
        )
        found = self.session.execute(query).first()
        standing = None if found is None else Order(*found)
        return None if standing is None or standing.order == WITHDRAWN else standing

    def new_order(
        self,
        *,
        game_id: int,
        player_key: str,
        turn: int,
        order: str,
        text: str,
        inbound_id: int,
        sent_at: float,
    ) -> str | None:
        """Record an order, which becomes the player's standing order for its turn;
        returns the JSON of the order it replaces, if any. The earlier orders stay, as
        history: the newest one stands, so replacing one is a single INSERT. ``order``
        :data:`WITHDRAWN` takes the standing one back."""
        known = (game_id, turn, player_key)
        previous: str | None
        try:
            previous = self._standing[known]
        except KeyError:
            found = self._run(
                SQL_STANDING, {"game_id": game_id, "turn": turn, "player_key": player_key}
            ).fetchone()
            previous = None if found is None else found[0]
        self.insert_later(
            SQL_INSERT_ORDER, (game_id, player_key, turn, order, text, inbound_id, sent_at)
        )
        self._standing[known] = order
        identity_map = self.session.identity_map
        if identity_map:
            for obj in list(identity_map.values()):
                if isinstance(obj, OrderRow):
                    self.session.expire(obj)
        return None if previous == WITHDRAWN else previous

    def orders_of_turn(self, game_id: int, turn: int) -> list[Order]:
        """Every order given in a turn, oldest first (the game decides which stand), but
        for those a player withdrew: a withdrawal takes back the orders before it."""
        given: list[Order] = []
        for found in self._run(SQL_ORDERS_OF_TURN, {"game_id": game_id, "turn": turn}).fetchall():
            row = Order(*found)
            if row.order == WITHDRAWN:
                given = [g for g in given if g.player_key != row.player_key]
            else:
                given.append(row)
        return given
