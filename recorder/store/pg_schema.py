"""The PostgreSQL schema: the described tables (recorder/store/catalogue.py), the log's
protections, and the numbered migrations that brought databases of older releases up to date.

A new database is created from the tables' one description (recorder/store/tables.py),
which the SQLite file's DDL is generated from too, with the log's trigger functions,
triggers and revocations, and every migration recorded as applied (``migrate``): the
ecosystem's convention (Alembic's "create_all, then stamp head"). A database of an older
release runs the migrations it lacks instead: they are history, never edited once shipped
(their SQL is the schema as it was then); the last ones are generated from the
descriptions, and a test holds a database migrated through the whole history against one
created from the descriptions. A column added to a description takes one migration here,
generated from it (``tables.postgres_add_column``).

Each migration runs once, in one transaction, and is recorded in ``recorder_migrations``;
concurrent runners (two app servers starting together) queue on one advisory lock, so a
migration is never applied twice. Nothing is ever run by hand.

Payloads, times and lines stay ``text``, never ``jsonb``/``timestamptz``: the hash chain
covers their exact bytes, which PostgreSQL would normalise. Ids use the "C" collation
(``Column.ordered``) so streams sort by code point, as SQLite sorts them, whatever the
cluster's locale.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from recorder.core import chain

from . import catalogue
from .tables import POSTGRES, Table, missing_columns, on, postgres_add_column, postgres_ddl

# pg_advisory_xact_lock key taken by every migration run ("recorder" in ASCII).
MIGRATION_LOCK = 0x7265636F72646572

# The bodies of the protective triggers' functions (``PROTECTIONS`` below), as the
# migrations created them: an open compares them with the catalogue's (``pg_proc.prosrc``).
_REFUSE_CHANGE = """
BEGIN
  RAISE EXCEPTION '% are immutable', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
END """

# Append only: each insert must extend its stream's chain exactly. Racing inserts that
# skipped the advisory lock could both pass this check; the primary key stops the second.
_APPEND_ONLY = f"""
DECLARE
  last_seq bigint;
  last_hash text;
BEGIN
  SELECT seq, hash INTO last_seq, last_hash FROM events WHERE game_id = NEW.game_id ORDER BY seq DESC LIMIT 1;
  IF NEW.seq IS DISTINCT FROM COALESCE(last_seq, 0) + 1
     OR NEW.prev_hash IS DISTINCT FROM COALESCE(last_hash, '{chain.GENESIS}') THEN
    RAISE EXCEPTION 'events are immutable: append only, extending the hash chain'
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END """

_HEAD_FORWARD = """
BEGIN
  IF NEW.stream_id <> OLD.stream_id OR NEW.head_seq <= OLD.head_seq THEN
    RAISE EXCEPTION 'a stream head only moves forward' USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END """

_EVENTS = f"""
CREATE TABLE streams (
  stream_id   text COLLATE "C" PRIMARY KEY,
  stream_type text NOT NULL CHECK (stream_type IN ('game', 'tournament')),
  created_at  text COLLATE "C" NOT NULL
);
CREATE INDEX streams_by_type ON streams (stream_type, created_at, stream_id);

CREATE TABLE events (
  game_id     text COLLATE "C" NOT NULL REFERENCES streams (stream_id),
  seq         bigint NOT NULL CHECK (seq >= 1),
  type        text NOT NULL,
  payload     text NOT NULL,  -- canonical JSON text: the exact bytes that were hashed
  recorded_at text NOT NULL,  -- ISO text as hashed; never re-rendered by the database
  recorded_by text,
  prev_hash   text NOT NULL,
  hash        text NOT NULL,
  line        text NOT NULL,  -- the event's canonical JSON, as an NDJSON export writes it
  PRIMARY KEY (game_id, seq)
);

CREATE TABLE idempotency_keys (
  key         text PRIMARY KEY,
  fingerprint text NOT NULL,
  game_id     text COLLATE "C" NOT NULL,
  first_seq   bigint NOT NULL,
  last_seq    bigint NOT NULL,
  created_at  text NOT NULL
);

CREATE FUNCTION recorder_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $${_REFUSE_CHANGE}$$;

-- Append only: each insert must extend its stream's chain exactly. Racing inserts that
-- skipped the advisory lock could both pass this check; the primary key stops the second.
CREATE FUNCTION recorder_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $${_APPEND_ONLY}$$;

CREATE TRIGGER events_append_only BEFORE INSERT ON events
  FOR EACH ROW EXECUTE FUNCTION recorder_events_append_only();
CREATE TRIGGER events_no_change BEFORE UPDATE OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION recorder_refuse_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION recorder_refuse_change();
CREATE TRIGGER streams_no_change BEFORE UPDATE OR DELETE ON streams
  FOR EACH ROW EXECUTE FUNCTION recorder_refuse_change();
CREATE TRIGGER streams_no_truncate BEFORE TRUNCATE ON streams
  FOR EACH STATEMENT EXECUTE FUNCTION recorder_refuse_change();
REVOKE UPDATE, DELETE, TRUNCATE ON events, streams FROM PUBLIC;
"""

_PROJECTIONS = """
CREATE TABLE games (
  game_id text COLLATE "C" PRIMARY KEY,
  variant text, south text, north text, event text, site text, date text, round text,
  tournament_id text, board text, status text, result text,
  created_at text COLLATE "C" NOT NULL,
  updated_at text NOT NULL,
  metadata text
);
CREATE INDEX games_variant ON games (variant);
CREATE INDEX games_south ON games (south);
CREATE INDEX games_north ON games (north);
CREATE INDEX games_tournament ON games (tournament_id);
CREATE INDEX games_created ON games (created_at, game_id);

CREATE TABLE notations (game_id text COLLATE "C" PRIMARY KEY, version bigint NOT NULL, text text NOT NULL);

CREATE TABLE positions (
  position text COLLATE "C" NOT NULL,
  game_id text COLLATE "C" NOT NULL,
  seq bigint NOT NULL,
  PRIMARY KEY (position, game_id, seq)
);
CREATE INDEX positions_by_game ON positions (game_id);

-- Access tokens of every kind (arbiter, recorder, the first-run admin): digests only.
CREATE TABLE access_tokens (
  token_id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  kind text NOT NULL,
  tournament_id text,
  holder text NOT NULL,
  created_at text NOT NULL,
  revoked_at text
);
CREATE INDEX access_tokens_tournament ON access_tokens (tournament_id);
"""

# The position index as digests and game numbers (recorder/games/caches.py, ``PositionIndex``):
# each key's SHA-256 cut to 128 bits, as two signed 64-bit integers (``caches.key_digest``).
_POSITION_DIGESTS = """
CREATE TABLE position_games (
  game bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  game_id text COLLATE "C" NOT NULL UNIQUE
);
INSERT INTO position_games (game_id) SELECT DISTINCT game_id FROM positions ORDER BY 1;

CREATE TABLE position_digests (
  game bigint NOT NULL,
  seq bigint NOT NULL,
  key_high bigint NOT NULL,
  key_low bigint NOT NULL,
  PRIMARY KEY (game, seq)
);
INSERT INTO position_digests (key_high, key_low, game, seq)
  SELECT ('x' || encode(substring(digest FROM 1 FOR 8), 'hex'))::bit(64)::bigint,
         ('x' || encode(substring(digest FROM 9 FOR 8), 'hex'))::bit(64)::bigint,
         game, seq
    FROM (SELECT sha256(convert_to(position, 'UTF8')) AS digest, game_id, seq FROM positions) AS texts
    JOIN position_games USING (game_id)
  ON CONFLICT DO NOTHING;
DROP TABLE positions;
ALTER TABLE position_digests RENAME TO positions;
CREATE INDEX positions_by_key ON positions (key_high, key_low, game, seq);
"""

# A search by player ignores case and spacing (``recorder.core.names.player_key``): the keys
# of the rows stored before. PostgreSQL's lower() is Python's casefold() for every name but
# a few (ß, ligatures): ``recorder verify --projections`` names such a row and ``recorder
# rebuild`` writes its exact key.
_PLAYER_KEYS = r"""
ALTER TABLE games ADD COLUMN south_key text, ADD COLUMN north_key text;
UPDATE games SET south_key = lower(btrim(regexp_replace(south, '\s+', ' ', 'g'))),
                 north_key = lower(btrim(regexp_replace(north, '\s+', ' ', 'g')));
DROP INDEX games_south;
DROP INDEX games_north;
CREATE INDEX games_south_key ON games (south_key);
CREATE INDEX games_north_key ON games (north_key);
"""

# Each stream's head (its last event's seq and hash), recorded by every append
# (``sql.UPSERT_HEAD``), read from the events for the streams already stored; it only
# moves forward and is never removed (docs/security.md, "What verify checks").
_STREAM_HEADS = f"""
CREATE TABLE stream_heads (
  stream_id text COLLATE "C" PRIMARY KEY REFERENCES streams (stream_id),
  head_seq  bigint NOT NULL,
  head_hash text NOT NULL
);
INSERT INTO stream_heads (stream_id, head_seq, head_hash)
  SELECT DISTINCT ON (game_id) game_id, seq, hash FROM events ORDER BY game_id, seq DESC;
CREATE FUNCTION recorder_head_forward() RETURNS trigger LANGUAGE plpgsql AS $${_HEAD_FORWARD}$$;
CREATE TRIGGER stream_heads_forward BEFORE UPDATE ON stream_heads
  FOR EACH ROW EXECUTE FUNCTION recorder_head_forward();
CREATE TRIGGER stream_heads_no_delete BEFORE DELETE ON stream_heads
  FOR EACH ROW EXECUTE FUNCTION recorder_refuse_change();
CREATE TRIGGER stream_heads_no_truncate BEFORE TRUNCATE ON stream_heads
  FOR EACH STATEMENT EXECUTE FUNCTION recorder_refuse_change();
REVOKE DELETE, TRUNCATE ON stream_heads FROM PUBLIC;
"""

# The player registry (recorder/players/registry.py): a third stream type and its projections.
_REGISTRY = """
ALTER TABLE streams DROP CONSTRAINT streams_stream_type_check;
ALTER TABLE streams ADD CONSTRAINT streams_stream_type_check CHECK (stream_type IN ('game', 'tournament', 'player'));
CREATE TABLE players (
  player_id text COLLATE "C" PRIMARY KEY, name text NOT NULL, name_geez text, federation text NOT NULL,
  club text, birth_year bigint, external_id text, merged_into text COLLATE "C", version bigint NOT NULL,
  name_key text COLLATE "C" NOT NULL, geez_key text COLLATE "C", created_at text NOT NULL, updated_at text NOT NULL
);
CREATE INDEX players_by_name_key ON players (name_key);
CREATE INDEX players_by_geez_key ON players (geez_key);
CREATE TABLE player_keys (
  key text COLLATE "C" NOT NULL, player_id text COLLATE "C" NOT NULL, PRIMARY KEY (key, player_id)
);
CREATE INDEX player_keys_by_player ON player_keys (player_id);
CREATE TABLE player_entries (
  tournament_id text COLLATE "C" NOT NULL, number bigint NOT NULL, player_id text COLLATE "C" NOT NULL,
  PRIMARY KEY (tournament_id, number)
);
CREATE INDEX player_entries_by_player ON player_entries (player_id);
CREATE TABLE player_games (
  game_id text COLLATE "C" NOT NULL, side text NOT NULL, player_id text COLLATE "C" NOT NULL,
  PRIMARY KEY (game_id, side)
);
CREATE INDEX player_games_by_player ON player_games (player_id);
CREATE TABLE rating_lists (
  variant text COLLATE "C" NOT NULL, period text COLLATE "C" NOT NULL, player_id text COLLATE "C" NOT NULL,
  rank bigint, rating double precision NOT NULL, rd double precision NOT NULL,
  volatility double precision NOT NULL, games bigint NOT NULL, provisional bigint NOT NULL, explanation text NOT NULL,
  PRIMARY KEY (variant, period, player_id)
);
CREATE INDEX rating_lists_by_player ON rating_lists (player_id, variant, period);
CREATE TABLE rating_list_digests (
  variant text COLLATE "C" NOT NULL, period text COLLATE "C" NOT NULL, digest text NOT NULL,
  PRIMARY KEY (variant, period)
);
CREATE INDEX games_finished ON games (updated_at) WHERE status = 'finished';
"""

# Each change of a game's result, and the corrections a published rating list states
# (recorder/games/results.py, recorder/ratings/lists_table.py); the results of the games finished
# before, as the lists read them.
_RESULTS = """
CREATE TABLE game_results (
  game_id text COLLATE "C" NOT NULL, seq bigint NOT NULL, recorded_at text COLLATE "C" NOT NULL, result text,
  PRIMARY KEY (game_id, seq)
);
CREATE INDEX game_results_by_time ON game_results (recorded_at);
CREATE TABLE rating_list_corrections (
  variant text COLLATE "C" NOT NULL, period text COLLATE "C" NOT NULL, game_id text COLLATE "C" NOT NULL,
  game_period text COLLATE "C" NOT NULL, before text, after text,
  PRIMARY KEY (variant, period, game_id)
);
INSERT INTO game_results (game_id, seq, recorded_at, result)
  SELECT g.game_id, e.seq, e.recorded_at, g.result FROM games g JOIN events e ON e.game_id = g.game_id
  WHERE g.status = 'finished'
    AND e.seq = (SELECT MAX(x.seq) FROM events x WHERE x.game_id = g.game_id AND x.type != 'annotated');
"""

# The months from which a variant's published rating lists are stale (recorder/store/schema.py).
_STALE_LISTS = """
CREATE TABLE rating_lists_stale (
  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  variant text COLLATE "C" NOT NULL, since text COLLATE "C" NOT NULL
);
CREATE INDEX rating_lists_stale_by_variant ON rating_lists_stale (variant, id);
"""

# The sound key of each player's names (recorder/players/registry.py): near spellings.
# Filled by `recorder rebuild` (the keys are computed in Python, recorder/players/geez.py).
_PLAYER_SOUNDS = """
CREATE TABLE player_sounds (
  key text COLLATE "C" NOT NULL, player_id text COLLATE "C" NOT NULL, PRIMARY KEY (key, player_id)
);
CREATE INDEX player_sounds_by_player ON player_sounds (player_id);
"""

# Teams in the registry (recorder/teams): a fourth stream type, with no projection.
_TEAMS = """
ALTER TABLE streams DROP CONSTRAINT streams_stream_type_check;
ALTER TABLE streams ADD CONSTRAINT streams_stream_type_check
  CHECK (stream_type IN ('game', 'tournament', 'player', 'team'));
"""

# The indexes as the descriptions name them (the SQLite file's names): those of the
# migrations above renamed, the two they lacked created, the token digests' UNIQUE
# constraint left to its unique index.
_RENAMED_INDEXES = {
    "streams_by_type": "idx_streams_stream_type_created_at_stream_id",
    "games_variant": "idx_games_variant",
    "games_south_key": "idx_games_south_key",
    "games_north_key": "idx_games_north_key",
    "games_tournament": "idx_games_tournament_id",
    "games_created": "idx_games_created_at_game_id",
    "access_tokens_tournament": "idx_access_tokens_tournament_id",
}
_DESCRIBED_INDEXES = ";\n".join(
    [
        *(f"ALTER INDEX IF EXISTS {old} RENAME TO {new}" for old, new in _RENAMED_INDEXES.items()),
        "CREATE INDEX IF NOT EXISTS idx_games_event ON games (event)",
        "CREATE UNIQUE INDEX IF NOT EXISTS idx_access_tokens_token_hash ON access_tokens (token_hash)",
        "ALTER TABLE access_tokens DROP CONSTRAINT IF EXISTS access_tokens_token_hash_key",
    ]
)

# (version, name, SQL): append new ones at the end; never edit one that has shipped.
MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (1, "events, streams, idempotency keys, immutability triggers", _EVENTS),
    (2, "projections: games list, notation cache, position index; tokens", _PROJECTIONS),
    (3, "position index: key digests and game numbers", _POSITION_DIGESTS),
    (4, "games list: players' search keys", _PLAYER_KEYS),
    (5, "stream heads", _STREAM_HEADS),
    (6, "player registry: player streams, players, search keys, entries, rating lists", _REGISTRY),
    (7, "rating lists: each game's result changes, the corrections a list states", _RESULTS),
    (8, "rating lists: the months an import made stale", _STALE_LISTS),
    (9, "player registry: the sound keys of the names", _PLAYER_SOUNDS),
    (10, "team registry: team streams", _TEAMS),
    (11, "indexes named as the tables' descriptions name them", _DESCRIBED_INDEXES),
)
LATEST = MIGRATIONS[-1][0]
DESCRIBED = 11  # the migration the tables' descriptions stand at: a database created from them is at it

# The tables an application role may only read and append to, and those it may rewrite
# (projections, rebuilt by `recorder rebuild`; tokens, revoked by an update).
APPEND_ONLY_TABLES = ("events", "streams", "idempotency_keys")
FORWARD_ONLY_TABLES = ("stream_heads",)  # inserted and updated (triggers keep them moving forward), never deleted
# Every other table (the features', rebuilt by `recorder rebuild`, or revoked by an update)
# is rewritable: ``grant_app_role`` reads them from the catalogue.
_REWRITABLE_TABLES = (
    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
    " AND NOT tablename = ANY (%s) ORDER BY tablename"
)


def applied_version(cursor) -> int:
    """The highest migration applied, 0 on an empty database."""
    cursor.execute("SELECT to_regclass('recorder_migrations') IS NOT NULL")
    if not cursor.fetchone()[0]:
        return 0
    cursor.execute("SELECT COALESCE(MAX(version), 0) FROM recorder_migrations")
    return cursor.fetchone()[0]


def migrate(conn, *, from_descriptions: bool = True) -> list[int]:
    """Apply every migration not yet applied, each in its own transaction; returns their
    versions. A database with none applied, asked for every one, is created at once from
    the descriptions instead (``from_descriptions``), each migration recorded as applied."""
    done = []
    for version, name, sql in MIGRATIONS:
        with conn.transaction(), conn.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            cursor.execute(
                "CREATE TABLE IF NOT EXISTS recorder_migrations"
                " (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            applied = applied_version(cursor)
            if applied >= version:
                continue
            if from_descriptions and applied == 0 and MIGRATIONS[-1][0] == DESCRIBED:
                cursor.execute(create_from_descriptions())
                cursor.executemany(
                    "INSERT INTO recorder_migrations (version, name) VALUES (%s, %s)",
                    [(number, title) for number, title, _ in MIGRATIONS],
                )
                return [number for number, _, _ in MIGRATIONS]
            cursor.execute(sql)
            cursor.execute("INSERT INTO recorder_migrations (version, name) VALUES (%s, %s)", (version, name))
            done.append(version)
    return done


def create_from_descriptions() -> str:
    """A new database's schema: the log's described tables with their indexes, then its
    trigger functions, protective triggers and revocations. Each feature's tables are
    created from their descriptions when it hands them to the store (``ensure_tables``)."""
    statements = [statement for table in catalogue.LOG_TABLES for statement in postgres_ddl(table)]
    statements += [
        f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $${body}$$"
        for name, (body, _) in TRIGGER_FUNCTIONS.items()
    ]
    statements += [protection.create() for protection in PROTECTIONS]
    statements += [
        "REVOKE UPDATE, DELETE, TRUNCATE ON events, streams FROM PUBLIC",
        "REVOKE DELETE, TRUNCATE ON stream_heads FROM PUBLIC",
    ]
    return ";\n".join(statements)


def ensure_tables(conn, tables: Iterable[Table]) -> None:
    """The described tables, their columns and indexes created where the catalogue lacks
    them, in one transaction under the migrations' lock; nothing written (the catalogue
    only read) when none is lacking, so an application role opens a whole database. A
    database whose migrations stop short of the descriptions (``DESCRIBED``) is left as
    they made it: the migrations still to run create those tables."""
    tables = on(POSTGRES, tables)
    with conn.cursor() as cursor:
        if applied_version(cursor) < DESCRIBED or not lacking(cursor, tables):
            return  # a database behind the descriptions takes its tables from its migrations
    with conn.transaction(), conn.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        for table in tables:
            create, *indexes = postgres_ddl(table)
            columns = _catalogue_columns(cursor, table.name)
            if not columns:
                cursor.execute(create)
            for name in missing_columns(table, columns) if columns else ():
                cursor.execute(postgres_add_column(table, name))
            for statement in indexes:
                cursor.execute(statement)


def _catalogue_columns(cursor, table: str) -> list[str]:
    cursor.execute(_CATALOGUE_COLUMNS + " AND table_name = %s", (table,))
    return [row[1] for row in cursor.fetchall()]


_CATALOGUE_COLUMNS = (
    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
)
_CATALOGUE_INDEXES = "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"


def lacking(cursor, tables: Iterable[Table]) -> list[str]:
    """The described columns and indexes the database lacks (a table lacking: all its columns)."""
    tables = on(POSTGRES, tables)
    cursor.execute(_CATALOGUE_COLUMNS)
    columns = {tuple(row) for row in cursor.fetchall()}
    cursor.execute(_CATALOGUE_INDEXES)
    indexes = {row[0] for row in cursor.fetchall()}
    missing = [f"{t.name}.{name}" for t in tables for name in t.column_names if (t.name, name) not in columns]
    return missing + [each.name for t in tables for each in t.indexes if each.name not in indexes]


def grant_app_role(conn, role: str) -> None:
    """Let ``role`` (which must not own the tables) read and append events, never change them."""
    from psycopg import sql

    name = sql.Identifier(role)
    with conn.transaction(), conn.cursor() as cursor:
        cursor.execute(sql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(name))
        for table in APPEND_ONLY_TABLES:
            cursor.execute(sql.SQL("GRANT SELECT, INSERT ON {} TO {}").format(sql.Identifier(table), name))
            cursor.execute(sql.SQL("REVOKE UPDATE, DELETE, TRUNCATE ON {} FROM {}").format(sql.Identifier(table), name))
        for table in FORWARD_ONLY_TABLES:
            cursor.execute(sql.SQL("GRANT SELECT, INSERT, UPDATE ON {} TO {}").format(sql.Identifier(table), name))
            cursor.execute(sql.SQL("REVOKE DELETE, TRUNCATE ON {} FROM {}").format(sql.Identifier(table), name))
        cursor.execute(_REWRITABLE_TABLES, ([*APPEND_ONLY_TABLES, *FORWARD_ONLY_TABLES, "recorder_migrations"],))
        for (table,) in cursor.fetchall():
            cursor.execute(
                sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON {} TO {}").format(sql.Identifier(table), name)
            )
        cursor.execute(sql.SQL("GRANT SELECT ON recorder_migrations TO {}").format(name))


# -- The protective triggers, checked on every open ----------------------------------------
# Migrations run once: a trigger its owner dropped, disabled or rewrote afterwards would stay
# so. SQLite creates its triggers again on every open (schema.py); here an open reads the
# catalogue (no DDL while all is whole, so an application role without CREATE opens it) and
# creates again whatever differs from what the migrations made (``restore_protections``).

# Each function's body, and the migration that created it (a database not migrated that
# far lacks nothing: its migrations create it).
TRIGGER_FUNCTIONS = {
    "recorder_refuse_change": (_REFUSE_CHANGE, 1),
    "recorder_events_append_only": (_APPEND_ONLY, 1),
    "recorder_head_forward": (_HEAD_FORWARD, 5),
}

# pg_trigger.tgtype's bits (PostgreSQL's catalog/pg_trigger.h).
_ROW, _BEFORE = 1, 2
_EVENT_BITS = {"INSERT": 4, "DELETE": 8, "UPDATE": 16, "TRUNCATE": 32}


@dataclass(frozen=True)
class Protection:
    """One trigger as the migrations created it: ``BEFORE {events}`` on ``table``, for
    each row (or statement), running ``function``, on every change, enabled."""

    name: str
    table: str
    events: str  # "UPDATE OR DELETE"
    per_row: bool
    function: str
    since: int  # the migration that created it

    def create(self) -> str:
        level = "ROW" if self.per_row else "STATEMENT"
        return (
            f"CREATE TRIGGER {self.name} BEFORE {self.events} ON {self.table}"
            f" FOR EACH {level} EXECUTE FUNCTION {self.function}()"
        )

    def tgtype(self) -> int:
        return _BEFORE | (_ROW if self.per_row else 0) | sum(_EVENT_BITS[e] for e in self.events.split(" OR "))


PROTECTIONS = (
    Protection("events_append_only", "events", "INSERT", True, "recorder_events_append_only", 1),
    Protection("events_no_change", "events", "UPDATE OR DELETE", True, "recorder_refuse_change", 1),
    Protection("events_no_truncate", "events", "TRUNCATE", False, "recorder_refuse_change", 1),
    Protection("streams_no_change", "streams", "UPDATE OR DELETE", True, "recorder_refuse_change", 1),
    Protection("streams_no_truncate", "streams", "TRUNCATE", False, "recorder_refuse_change", 1),
    Protection("stream_heads_forward", "stream_heads", "UPDATE", True, "recorder_head_forward", 5),
    Protection("stream_heads_no_delete", "stream_heads", "DELETE", True, "recorder_refuse_change", 5),
    Protection("stream_heads_no_truncate", "stream_heads", "TRUNCATE", False, "recorder_refuse_change", 5),
)

# Every user trigger of the protected tables, as the catalogue holds it: the function it
# runs, whether it fires (tgenabled 'O' in normal sessions, 'A' always), and whether it
# fires on every change (no column list, no WHEN condition).
_TRIGGERS_NOW = """
SELECT t.tgname, c.relname, t.tgtype, t.tgenabled, p.proname,
       cardinality(t.tgattr::int2[]) = 0 AND t.tgqual IS NULL
  FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
 WHERE NOT t.tgisinternal AND t.tgrelid = ANY (SELECT to_regclass(name) FROM unnest(%s::text[]) AS name)
"""
_FUNCTIONS_NOW = """
SELECT p.proname, p.prosrc, l.lanname
  FROM unnest(%s::text[]) AS f(name)
  JOIN pg_proc p ON p.oid = to_regprocedure(f.name || '()') JOIN pg_language l ON l.oid = p.prolang
"""
_FIRES = {"O": "", "A": "", "D": "disabled", "R": "disabled (fires on replicas only)"}


def protection_problems(cursor) -> list[str]:
    """What differs from the protections the migrations applied made, one line each (empty: whole)."""
    applied = applied_version(cursor)
    functions = {name: body for name, (body, since) in TRIGGER_FUNCTIONS.items() if since <= applied}
    protections = [p for p in PROTECTIONS if p.since <= applied]
    cursor.execute(_FUNCTIONS_NOW, (list(functions),))
    found = {name: (source, language) for name, source, language in cursor.fetchall()}
    problems = [_function_problem(name, body, found.get(name)) for name, body in functions.items()]
    cursor.execute(_TRIGGERS_NOW, (list(dict.fromkeys(p.table for p in protections)),))
    triggers = {(name, table): rest for name, table, *rest in cursor.fetchall()}
    problems += [_trigger_problem(p, triggers.get((p.name, p.table))) for p in protections]
    return [problem for problem in problems if problem]


def _function_problem(name: str, body: str, found: tuple[str, str] | None) -> str:
    if found is None:
        return f"function {name}(): missing"
    return "" if found == (body, "plpgsql") else f"function {name}(): its body was changed"


def _trigger_problem(protection: Protection, found: tuple | None) -> str:
    where = f"trigger {protection.name} on {protection.table}"
    if found is None:
        return f"{where}: missing"
    tgtype, enabled, function, every_change = found
    if tgtype != protection.tgtype() or function != protection.function or not every_change:
        return f"{where}: changed (it is not {protection.create().removeprefix('CREATE TRIGGER ')})"
    fires = _FIRES.get(enabled, f"in the state {enabled!r}")
    return f"{where}: {fires}" if fires else ""


def restore_protections(conn) -> tuple[str, ...]:
    """Create again, in one transaction, every protection that differs from the migrations';
    what differed (nothing is written when nothing does). Raises psycopg's
    InsufficientPrivilege for a role that does not own the tables."""
    with conn.transaction(), conn.cursor() as cursor:
        problems = protection_problems(cursor)
        if not problems:
            return ()
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        applied = applied_version(cursor)
        for name, (body, since) in TRIGGER_FUNCTIONS.items():
            if since <= applied:
                cursor.execute(f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $${body}$$")
        for protection in PROTECTIONS:
            if protection.since <= applied:
                cursor.execute(f"DROP TRIGGER IF EXISTS {protection.name} ON {protection.table}")
                cursor.execute(protection.create())
    return tuple(problems)
