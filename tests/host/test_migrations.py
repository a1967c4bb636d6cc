"""Schema migrations (Alembic, `bst migrate`): a fresh database upgraded to the head is
exactly the models; a database the hand-written migrations made (versions 1, 1–2,
1–3, or 1–2 from before version 3) upgrades with no row lost; a second run does
nothing; a failure changes nothing. On SQLite, and on PostgreSQL where
BST_TEST_POSTGRES_URL is set (each test in a schema of its own)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, SQLModel, col, select

from bot.store import OrderRow, Store, TurnRow
from bot.store.database import (
    SchemaTooNew,
    alembic_config,
    current_revisions,
    head_revision,
    include_object,
    make_engine,
    migrate,
)

POSTGRES = os.environ.get("BST_TEST_POSTGRES_URL", "")
ROOT = Path(__file__).resolve().parents[2]

CREATED = "0001: create the tables (the schema of the hand-written version 3)"
STAMPED = CREATED + " (stamped: the schema it creates is already there)"
TIMERS_AND_STEPS = (
    "0002: game timers and turn steps: games.timers, turns.step and .cause, "
    "turns unique by (game_id, number, step)"
)
ROOMS = "0003: game rooms and message extras: games.lobby, outbox.extras"
WEB_LINKS = "0004: web links: a player's private link to their own view on the web page"
REACH = "0005: where a game can be reached: games.community, games.open_to_all"
LUCK = "0006: committed luck: games.secret, games.luck, players.nonce"
SETTINGS = "0007: a player's settings: player_settings (time zone, quiet hours, away, linked accounts); ratings"
SEATS = (
    "0008: seats and rooms: seat_changes (a substitute: who played a seat from which turn), "
    "players.account_name; game_rooms; games.deadline indexed"
)
JOURNAL = "0009: the rules journal: journal (every call the host made to a game's rules)"
UNUSED_COLUMN = "0010: drop games.turn_seconds: a column nothing reads"
STATE_DIGEST = "0011: game state digest: games.state_digest; on SQLite, big columns last"
OFFERS = "0012: offers: a seat or a bridge the host offered, until its newcomer or room accepts"
AWARDS = "0013: awards in ratings: ratings.awards"
ROBOTS = '0014: robot seats: players.robot, the level of the robot playing a seat ("" for a person)'
ROBOT_GAMES = "0015: robot games in ratings: ratings.robot_games"
ON_WEB = (
    "0016: shown on the web: player_settings.on_web, whether the web page shows a "
    "person's ratings and games"
)
LEGACY_2 = "legacy 2: index the standing orders"
LEGACY_3 = "legacy 3: the newest order stands: drop orders.active"

# What the hand-written migrations ran to make a database: `schema_version` first,
# then version 1, `SQLModel.metadata.create_all` of the models as they were before
# Alembic (git show 0af6c36:bot/store/models.py), exactly as SQLAlchemy emitted it.
# {serial} is how it spelled an integer primary key: INTEGER on SQLite, SERIAL on
# PostgreSQL (which it also wrote `key` unquoted: the same column).
LEGACY_DDL = [
    """CREATE TABLE schema_version (
	version {serial} NOT NULL,
	applied_at FLOAT NOT NULL,
	PRIMARY KEY (version)
)""",
    """CREATE TABLE cursors (
	platform VARCHAR NOT NULL,
	"key" VARCHAR NOT NULL,
	value VARCHAR NOT NULL,
	PRIMARY KEY (platform, "key")
)""",
    """CREATE TABLE games (
	id {serial} NOT NULL,
	kind VARCHAR NOT NULL,
	platform VARCHAR NOT NULL,
	channel VARCHAR NOT NULL,
	creator VARCHAR NOT NULL,
	options VARCHAR NOT NULL,
	seed BIGINT NOT NULL,
	phase VARCHAR NOT NULL,
	turn INTEGER NOT NULL,
	turn_seconds FLOAT NOT NULL,
	deadline FLOAT,
	turn_opened_at FLOAT,
	paused_remaining FLOAT,
	state VARCHAR NOT NULL,
	created_at FLOAT NOT NULL,
	finished_at FLOAT,
	PRIMARY KEY (id)
)""",
    "CREATE INDEX ix_games_channel ON games (channel)",
    """CREATE TABLE inbound (
	id {serial} NOT NULL,
	platform VARCHAR NOT NULL,
	message_id VARCHAR NOT NULL,
	channel VARCHAR NOT NULL,
	user_id VARCHAR NOT NULL,
	user_name VARCHAR NOT NULL,
	avatar_url VARCHAR,
	is_channel_admin BOOLEAN NOT NULL,
	kind VARCHAR NOT NULL,
	text VARCHAR NOT NULL,
	sent_at FLOAT NOT NULL,
	received_at FLOAT NOT NULL,
	game_id INTEGER,
	outcome VARCHAR NOT NULL,
	PRIMARY KEY (id),
	UNIQUE (platform, message_id)
)""",
    "CREATE INDEX ix_inbound_game_id ON inbound (game_id)",
    """CREATE TABLE orders (
	id {serial} NOT NULL,
	game_id INTEGER NOT NULL,
	player_key VARCHAR NOT NULL,
	turn INTEGER NOT NULL,
	"order" VARCHAR NOT NULL,
	text VARCHAR NOT NULL,
	inbound_id INTEGER NOT NULL,
	sent_at FLOAT NOT NULL,
	PRIMARY KEY (id)
)""",
    "CREATE INDEX ix_orders_turn_player ON orders (game_id, turn, player_key)",
    """CREATE TABLE outbox (
	id {serial} NOT NULL,
	game_id INTEGER NOT NULL,
	turn INTEGER NOT NULL,
	kind VARCHAR NOT NULL,
	recipient VARCHAR NOT NULL,
	address VARCHAR NOT NULL,
	text VARCHAR NOT NULL,
	render VARCHAR NOT NULL,
	status VARCHAR NOT NULL,
	attempts INTEGER NOT NULL,
	next_attempt_at FLOAT NOT NULL,
	platform_message_id VARCHAR,
	error VARCHAR NOT NULL,
	created_at FLOAT NOT NULL,
	PRIMARY KEY (id),
	UNIQUE (game_id, turn, kind, recipient)
)""",
    "CREATE INDEX ix_outbox_pending ON outbox (status, next_attempt_at)",
    """CREATE TABLE players (
	id {serial} NOT NULL,
	game_id INTEGER NOT NULL,
	"key" VARCHAR NOT NULL,
	platform VARCHAR NOT NULL,
	user_id VARCHAR NOT NULL,
	name VARCHAR NOT NULL,
	avatar_url VARCHAR,
	join_order INTEGER NOT NULL,
	PRIMARY KEY (id),
	UNIQUE (game_id, platform, user_id)
)""",
    "CREATE INDEX ix_players_game_id ON players (game_id)",
    """CREATE TABLE turns (
	id {serial} NOT NULL,
	game_id INTEGER NOT NULL,
	number INTEGER NOT NULL,
	orders VARCHAR NOT NULL,
	events VARCHAR NOT NULL,
	state VARCHAR NOT NULL,
	resolved_at FLOAT NOT NULL,
	deadline FLOAT,
	PRIMARY KEY (id),
	UNIQUE (game_id, number)
)""",
]

# A database made before version 3 had orders with an `active` flag and two indexes.
ORDERS_BEFORE_V3 = [
    "DROP TABLE orders",
    """CREATE TABLE orders (id {serial} NOT NULL, game_id INTEGER NOT NULL,
	player_key VARCHAR NOT NULL, turn INTEGER NOT NULL, "order" VARCHAR NOT NULL,
	text VARCHAR NOT NULL, inbound_id INTEGER NOT NULL, sent_at FLOAT NOT NULL,
	active BOOLEAN NOT NULL, PRIMARY KEY (id))""",
    "CREATE INDEX ix_orders_game_turn ON orders (game_id, turn)",
    "CREATE INDEX ix_orders_standing ON orders (game_id, turn, player_key, active)",
]

# One row in every table, as the code of the time wrote them.
ROWS = [
    "INSERT INTO cursors (platform, \"key\", value) VALUES ('x', 'since_id', '12')",
    "INSERT INTO games (kind, platform, channel, creator, options, seed, phase, turn, "
    "turn_seconds, deadline, turn_opened_at, paused_remaining, state, created_at, finished_at) "
    "VALUES ('bst', 'discord', 'c1', 'discord:u1', '{{}}', 3000000000, 'battle', 2, 60.0, "
    "120.5, 60.5, NULL, '{{\"board\": 1}}', 1.5, NULL)",
    "INSERT INTO inbound (platform, message_id, channel, user_id, user_name, avatar_url, "
    "is_channel_admin, kind, text, sent_at, received_at, game_id, outcome) VALUES "
    "('discord', 'm1', 'c1', 'u1', 'Ann', NULL, {true}, 'public', 'bst join', 1.0, 1.25, 1, "
    "'handled')",
    "INSERT INTO outbox (game_id, turn, kind, recipient, address, text, render, status, "
    "attempts, next_attempt_at, platform_message_id, error, created_at) VALUES "
    "(1, 2, 'map', 'public', '{{}}', 'the map', '', 'sent', 1, 0.0, 'p9', '', 2.0)",
    'INSERT INTO players (game_id, "key", platform, user_id, name, avatar_url, join_order) '
    "VALUES (1, 'p1', 'discord', 'u1', 'Ann', 'https://a/1.png', 0)",
    "INSERT INTO turns (game_id, number, orders, events, state, resolved_at, deadline) "
    "VALUES (1, 0, '[]', '[]', '{{}}', 60.5, 120.5)",
    "INSERT INTO turns (game_id, number, orders, events, state, resolved_at, deadline) "
    'VALUES (1, 1, \'[{{"player": "p1"}}]\', \'[{{"type": "shot"}}]\', \'{{}}\', 120.5, NULL)',
]
ORDER_ROWS = [  # p1 replaced F1 with F2; p2 gave one order
    ("p1", "F1", False),
    ("p2", "A1", True),
    ("p1", "F2", True),
]


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


TABLES = ("cursors", "games", "inbound", "orders", "outbox", "players", "turns")


@contextmanager
def fresh_postgres_schema() -> Iterator[str]:
    """A URL of BST_TEST_POSTGRES_URL's database whose only schema (search_path) is a new,
    empty one, dropped afterwards: tests neither see nor leave anything else."""
    schema = f"bst_test_{uuid.uuid4().hex[:12]}"
    admin = make_engine(POSTGRES)
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield POSTGRES + ("&" if "?" in POSTGRES else "?") + f"options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param(
            "postgresql",
            marks=[
                pytest.mark.postgres,
                pytest.mark.skipif(
                    not POSTGRES, reason="set BST_TEST_POSTGRES_URL to run against PostgreSQL"
                ),
            ],
        ),
    ]
)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """An empty database, its engine made as the store makes it."""
    if request.param == "sqlite":
        made = make_engine(sqlite_url(tmp_path / "m.sqlite"))
        yield made
        made.dispose()
        return
    with fresh_postgres_schema() as url:
        made = make_engine(url)
        yield made
        made.dispose()


def _sql(engine: Engine, statement: str) -> str:
    postgres = engine.dialect.name == "postgresql"
    return statement.format(
        serial="SERIAL" if postgres else "INTEGER", true="true" if postgres else "1"
    )


def make_legacy(engine: Engine, versions: list[int], *, orders_before_v3: bool = False) -> None:
    """A database as the hand-written migrations left it at `versions`, with rows."""
    with engine.begin() as connection:
        for statement in LEGACY_DDL + (ORDERS_BEFORE_V3 if orders_before_v3 else []) + ROWS:
            connection.execute(text(_sql(engine, statement)))
        for version in versions:
            connection.execute(
                text("INSERT INTO schema_version (version, applied_at) VALUES (:v, 0.5)"),
                {"v": version},
            )
        active = ", active" if orders_before_v3 else ""
        for player, cell, is_active in ORDER_ROWS:
            connection.execute(
                text(
                    f'INSERT INTO orders (game_id, player_key, turn, "order", text, inbound_id, '
                    f"sent_at{active}) VALUES (1, :player, 2, :order, :cell, 1, 3.0"
                    + (", :active)" if orders_before_v3 else ")")
                ),
                {"player": player, "order": f'{{"cell": "{cell}"}}', "cell": cell}
                | ({"active": is_active} if orders_before_v3 else {}),
            )


def rows(engine: Engine) -> dict[str, list[dict[str, Any]]]:
    with engine.connect() as connection:
        return {
            table: [
                dict(row._mapping)
                for row in connection.execute(text(f"SELECT * FROM {table} ORDER BY 1, 2"))
            ]
            for table in TABLES
        }


def differences(engine: Engine) -> list[Any]:
    """What separates the database from the models, as Alembic's autogenerate sees it."""
    with engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"include_object": include_object, "compare_type": True}
        )
        return list(compare_metadata(context, SQLModel.metadata))


def test_a_fresh_database_upgraded_to_the_head_is_exactly_the_models(engine: Engine) -> None:
    assert differences(engine) != []  # (the comparison sees a missing table)
    assert migrate(engine) == [
        CREATED,
        TIMERS_AND_STEPS,
        ROOMS,
        WEB_LINKS,
        REACH,
        LUCK,
        SETTINGS,
        SEATS,
        JOURNAL,
        UNUSED_COLUMN,
        STATE_DIGEST,
        OFFERS,
        AWARDS,
        ROBOTS,
        ROBOT_GAMES,
        ON_WEB,
    ]
    assert differences(engine) == []
    with engine.connect() as connection:
        assert current_revisions(connection) == (head_revision(),)
    assert head_revision() == "0016"
    assert migrate(engine) == []


@pytest.mark.parametrize(
    ("versions", "done"),
    [
        (
            [1],
            [
                LEGACY_2,
                LEGACY_3,
                STAMPED,
                TIMERS_AND_STEPS,
                ROOMS,
                WEB_LINKS,
                REACH,
                LUCK,
                SETTINGS,
                SEATS,
                JOURNAL,
                UNUSED_COLUMN,
                STATE_DIGEST,
                OFFERS,
                AWARDS,
                ROBOTS,
                ROBOT_GAMES,
                ON_WEB,
            ],
        ),
        (
            [1, 2],
            [
                LEGACY_3,
                STAMPED,
                TIMERS_AND_STEPS,
                ROOMS,
                WEB_LINKS,
                REACH,
                LUCK,
                SETTINGS,
                SEATS,
                JOURNAL,
                UNUSED_COLUMN,
                STATE_DIGEST,
                OFFERS,
                AWARDS,
                ROBOTS,
                ROBOT_GAMES,
                ON_WEB,
            ],
        ),
        (
            [1, 2, 3],
            [
                STAMPED,
                TIMERS_AND_STEPS,
                ROOMS,
                WEB_LINKS,
                REACH,
                LUCK,
                SETTINGS,
                SEATS,
                JOURNAL,
                UNUSED_COLUMN,
                STATE_DIGEST,
                OFFERS,
                AWARDS,
                ROBOTS,
                ROBOT_GAMES,
                ON_WEB,
            ],
        ),
    ],
    ids=["v1", "v2", "v3"],
)
def test_a_database_the_old_migrations_made_upgrades_with_no_row_lost(
    engine: Engine, versions: list[int], done: list[str]
) -> None:
    make_legacy(engine, versions)
    before = rows(engine)
    assert migrate(engine) == done
    after = rows(engine)
    assert {table: len(found) for table, found in after.items()} == {
        table: len(found) for table, found in before.items()
    }
    assert [game.pop("timers") for game in after["games"]] == ["[]"]
    assert [turn.pop("step") for turn in after["turns"]] == [0, 0]
    assert [turn.pop("cause") for turn in after["turns"]] == ["start", "turn"]  # 0 is setup's close
    assert [game.pop("lobby") for game in after["games"]] == [""]  # never moved into a room
    assert [game.pop("community") for game in after["games"]] == [""]  # reached as before
    assert [bool(game.pop("open_to_all")) for game in after["games"]] == [False]
    assert [(game.pop("secret"), game.pop("luck")) for game in after["games"]] == [("", "")]
    assert {player.pop("nonce") for player in after["players"]} == {""}  # drew from the seed
    assert {player.pop("account_name") for player in after["players"]} == {""}  # no substitute
    assert {player.pop("robot") for player in after["players"]} == {""}  # people (0014)
    assert [row.pop("extras") for row in after["outbox"]] == [""]
    assert [game.pop("turn_seconds") for game in before["games"]] == [60.0]  # dropped (0010)
    assert [game.pop("state_digest") for game in after["games"]] == [None]  # until written (0011)
    assert after == before  # every other value as it was
    assert differences(engine) == []
    with engine.connect() as connection:
        kept = connection.execute(text("SELECT version FROM schema_version ORDER BY 1"))
        assert [row[0] for row in kept] == [1, 2, 3]  # the old record stays, complete
    assert migrate(engine) == []


def test_turns_are_unique_by_game_number_and_step(engine: Engine) -> None:
    make_legacy(engine, [1, 2, 3])
    migrate(engine)
    with Session(engine) as session:  # turn 1 of game 1 is there, step 0
        session.add(TurnRow(game_id=1, number=1, step=1, orders="[]", events="[]", state="{}",
                            resolved_at=121.0))  # fmt: skip
        session.commit()
        session.add(TurnRow(game_id=1, number=1, step=1, orders="[]", events="[]", state="{}",
                            resolved_at=122.0))  # fmt: skip
        with pytest.raises(IntegrityError):
            session.commit()
        session.rollback()
        steps = session.exec(select(TurnRow.step).where(TurnRow.number == 1)).all()
    assert sorted(steps) == [0, 1]


def test_a_database_made_before_version_3_keeps_every_order_and_the_standing_ones(
    engine: Engine,
) -> None:
    make_legacy(engine, [1, 2], orders_before_v3=True)
    assert migrate(engine) == [
        LEGACY_3,
        STAMPED,
        TIMERS_AND_STEPS,
        ROOMS,
        WEB_LINKS,
        REACH,
        LUCK,
        SETTINGS,
        SEATS,
        JOURNAL,
        UNUSED_COLUMN,
        STATE_DIGEST,
        OFFERS,
        AWARDS,
        ROBOTS,
        ROBOT_GAMES,
        ON_WEB,
    ]
    assert "active" not in {c["name"] for c in inspect(engine).get_columns("orders")}
    assert {i["name"] for i in inspect(engine).get_indexes("orders")} == {"ix_orders_turn_player"}
    assert differences(engine) == []
    store = Store(engine.url.render_as_string(hide_password=False), auto_migrate=False)
    try:
        with store.transaction() as tx:
            standing = {key: row.text for key, row in tx.standing_orders(1, 2).items()}
            assert standing == {"p1": "F2", "p2": "A1"}  # the orders that were active
            history = [
                row.text for row in tx.session.exec(select(OrderRow).order_by(col(OrderRow.id)))
            ]
            assert history == ["F1", "A1", "F2"]  # nothing lost
            previous = tx.new_order(
                game_id=1, player_key="p1", turn=2, order='{"cell": "F3"}', text="F3",
                inbound_id=0, sent_at=4.0,
            )  # fmt: skip
            assert previous == '{"cell": "F2"}'
    finally:
        store.dispose()


def test_two_processes_migrating_at_once_take_turns(engine: Engine) -> None:
    """Two hosts started together on a new database: one migrates, the other waits for
    it (SQLite's BEGIN IMMEDIATE, PostgreSQL's advisory lock), then has nothing to do."""
    other = make_engine(engine.url.render_as_string(hide_password=False))
    start = threading.Barrier(2)
    done: list[list[str]] = []

    def run(which: Engine) -> None:
        start.wait()
        done.append(migrate(which))

    threads = [threading.Thread(target=run, args=(w,), daemon=True) for w in (engine, other)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    other.dispose()
    assert sorted(done, key=len) == [
        [],
        [
            CREATED,
            TIMERS_AND_STEPS,
            ROOMS,
            WEB_LINKS,
            REACH,
            LUCK,
            SETTINGS,
            SEATS,
            JOURNAL,
            UNUSED_COLUMN,
            STATE_DIGEST,
            OFFERS,
            AWARDS,
            ROBOTS,
            ROBOT_GAMES,
            ON_WEB,
        ],
    ]


def test_the_store_migrates_sqlite_on_start_and_leaves_postgresql_to_bst_migrate(
    engine: Engine,
) -> None:
    make_legacy(engine, [1, 2, 3])
    store = Store(engine.url.render_as_string(hide_password=False))
    store.dispose()
    with engine.connect() as connection:
        expected = ("0016",) if engine.dialect.name == "sqlite" else ()
        assert current_revisions(connection) == expected


def test_a_failed_migration_changes_nothing(engine: Engine) -> None:
    with engine.begin() as connection:  # in the way of 0001's last table
        connection.execute(text("CREATE TABLE turns (id INTEGER PRIMARY KEY)"))
    with pytest.raises(Exception, match=r"(?i)turns"):
        migrate(engine)
    assert set(inspect(engine).get_table_names()) == {"turns"}  # no alembic_version either


def test_a_database_newer_than_this_bst_is_refused_saying_so(engine: Engine) -> None:
    migrate(engine)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    with pytest.raises(SchemaTooNew, match=r"revision 0099, newer than this bst knows"):
        migrate(engine)


def test_alembic_runs_its_own_transactions_on_a_url(tmp_path: Path) -> None:
    """Alembic's commands on a URL (no connection handed over: as `alembic` itself
    would), through the store's engine and its BEGIN IMMEDIATE: the work is
    committed, and a downgrade and upgrade again round-trip."""
    url = sqlite_url(tmp_path / "own.sqlite")
    command.upgrade(alembic_config(url=url), "head")
    engine = make_engine(url)  # another engine: sees only what was committed
    try:
        assert differences(engine) == []
        command.downgrade(alembic_config(url=url), "0001")
        assert "step" not in {c["name"] for c in inspect(engine).get_columns("turns")}
        command.upgrade(alembic_config(url=url), "head")
        assert differences(engine) == []
        assert migrate(engine) == []
    finally:
        engine.dispose()


def test_alembic_runs_its_own_transaction_on_a_connection_without_one(engine: Engine) -> None:
    with engine.connect() as connection:
        command.upgrade(alembic_config(connection), "head")
        connection.commit()  # (SQLAlchemy's autobegin after Alembic's own commit)
    assert differences(engine) == []
    with engine.connect() as connection:
        assert current_revisions(connection) == ("0016",)


def _bst(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(cwd)},
    )


def test_bst_migrate_prints_what_it_did_then_that_it_is_up_to_date(tmp_path: Path) -> None:
    database = tmp_path / "old.sqlite"
    make_legacy(engine := make_engine(sqlite_url(database)), [1, 2])
    engine.dispose()
    config = tmp_path / "config.toml"
    config.write_text(f'[database]\nurl = "{sqlite_url(database)}"\n')
    first = _bst("migrate", "--config", str(config), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines() == [
        f"{sqlite_url(database)}: migrated to revision 0016:",
        f"  {LEGACY_3}",
        f"  {STAMPED}",
        f"  {TIMERS_AND_STEPS}",
        f"  {ROOMS}",
        f"  {WEB_LINKS}",
        f"  {REACH}",
        f"  {LUCK}",
        f"  {SETTINGS}",
        f"  {SEATS}",
        f"  {JOURNAL}",
        f"  {UNUSED_COLUMN}",
        f"  {STATE_DIGEST}",
        f"  {OFFERS}",
        f"  {AWARDS}",
        f"  {ROBOTS}",
        f"  {ROBOT_GAMES}",
        f"  {ON_WEB}",
    ]
    again = _bst("migrate", "--config", str(config), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stdout == f"{sqlite_url(database)}: up to date (revision 0016)\n"
