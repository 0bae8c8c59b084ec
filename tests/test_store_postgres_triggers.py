"""PostgreSQL's protective triggers (recorder/store/pg_schema.py, ``PROTECTIONS``) come back
on every open, as SQLite's do, and ``recorder verify`` fails a store that lacked them.

The owner of the tables (or a superuser) can drop, disable or rewrite a trigger; migrations
run once, so on PostgreSQL a trigger taken away stayed away, and every later UPDATE or
DELETE of the log went through. Now the store checks them as it opens (a catalogue read, no
DDL while they are whole) and recreates what is missing; ``recorder verify`` names each
protection that was missing when it opened the store, or is missing when it ends, and
exits 1. The server is the one tests/conftest.py starts; skipped, with the reason, without one.
"""

from __future__ import annotations

import psycopg
import pytest
from click.testing import CliRunner

from recorder.cli import main
from recorder.store import NewEvent
from recorder.store.postgres import PostgresEventStore

pytestmark = pytest.mark.timeout(120)

QELAT = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}

# Ways the tables' owner takes a protection away, each with the protection it takes.
TAKEN_AWAY = {
    "dropped": ("DROP TRIGGER events_no_change ON events", "events_no_change"),
    "disabled": ("ALTER TABLE events DISABLE TRIGGER events_no_change", "events_no_change"),
    "all disabled": ("ALTER TABLE events DISABLE TRIGGER USER", "events_append_only"),
    "head deletable": ("DROP TRIGGER stream_heads_no_delete ON stream_heads", "stream_heads_no_delete"),
    "truncatable": ("DROP TRIGGER streams_no_truncate ON streams", "streams_no_truncate"),
    "function dropped": ("DROP FUNCTION recorder_refuse_change() CASCADE", "recorder_refuse_change"),
    "function neutered": (
        "CREATE OR REPLACE FUNCTION recorder_refuse_change() RETURNS trigger LANGUAGE plpgsql"
        " AS $$ BEGIN RETURN OLD; END $$",
        "recorder_refuse_change",
    ),
    "retargeted": (
        "DROP TRIGGER events_no_change ON events;"
        " CREATE TRIGGER events_no_change AFTER INSERT ON events"
        " FOR EACH ROW EXECUTE FUNCTION recorder_refuse_change()",
        "events_no_change",
    ),
}

# What the protections refuse, whoever asks (the owner included).
CHANGES = (
    "UPDATE events SET payload = '{}'",
    "DELETE FROM events",
    "TRUNCATE events CASCADE",
    "DELETE FROM streams",
    "DELETE FROM stream_heads",
    "INSERT INTO events SELECT game_id, seq + 5, type, payload, recorded_at, recorded_by, prev_hash, hash, line"
    " FROM events WHERE seq = 1",
)


def moves(*pits: int) -> list[NewEvent]:
    return [NewEvent("sow", {"pit": pit}) for pit in pits]


def as_owner(url: str, statement: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(statement)


def refused_changes(url: str) -> list[str]:
    refused = []
    for statement in CHANGES:
        with psycopg.connect(url, autocommit=True) as conn:
            try:
                conn.execute(statement)
            except psycopg.errors.IntegrityConstraintViolation:
                refused.append(statement)
    return refused


@pytest.mark.parametrize("how", TAKEN_AWAY)
def test_a_protective_trigger_taken_away_is_back_when_the_store_next_opens(postgres_url, how):
    statement, protection = TAKEN_AWAY[how]
    with PostgresEventStore(postgres_url) as store:
        store.append("g", 0, moves(1, 2))
        assert store.missing_protections() == []
        as_owner(postgres_url, statement)
        assert any(protection in problem for problem in store.missing_protections())
    with PostgresEventStore(postgres_url) as store:
        assert any(protection in problem for problem in store.protections_restored)
        assert store.missing_protections() == []
        assert refused_changes(postgres_url) == list(CHANGES)
        assert store.version("g") == 2


def test_a_store_whose_protections_are_whole_opens_without_restoring_any(postgres_url):
    with PostgresEventStore(postgres_url) as store:
        assert store.protections_restored == ()
    with PostgresEventStore(postgres_url) as store:
        assert store.protections_restored == () and store.missing_protections() == []


def test_verify_fails_a_postgres_store_that_lacked_a_protective_trigger(postgres_url):
    runner = CliRunner()
    app_made = runner.invoke(main, ["verify", "--db", postgres_url])
    assert app_made.exit_code == 0, app_made.output
    as_owner(postgres_url, "DROP TRIGGER events_no_change ON events")
    result = runner.invoke(main, ["verify", "--db", postgres_url])
    assert result.exit_code == 1, result.output
    assert "events_no_change" in result.output and "missing" in result.output
    again = runner.invoke(main, ["verify", "--db", postgres_url])  # the open before restored it
    assert again.exit_code == 0, again.output


def test_verify_fails_when_a_protection_goes_while_it_walks(postgres_url, monkeypatch):
    """Missing at the time of the check: taken away after verify opened the store."""
    from recorder.audit import walk

    stream_problems = walk.stream_problems

    def dropped_meanwhile(store, game_ids):
        as_owner(postgres_url, "ALTER TABLE stream_heads DISABLE TRIGGER stream_heads_forward")
        return stream_problems(store, game_ids)

    monkeypatch.setattr(walk, "stream_problems", dropped_meanwhile)
    result = CliRunner().invoke(main, ["verify", "--db", postgres_url])
    assert result.exit_code == 1, result.output
    assert "stream_heads_forward" in result.output and "disabled" in result.output


def test_an_application_role_opens_a_store_it_cannot_repair_and_verify_says_so(postgres_server, postgres_url):
    """The application role owns nothing, so it may not recreate a trigger: it opens the
    store all the same (its privileges still refuse it any change) and names what is missing."""
    role = "recorder_app_unrepairing"  # a role of its own: another test's holds grants in its databases
    as_owner(postgres_url, f"DO $$ BEGIN CREATE ROLE {role} LOGIN; EXCEPTION WHEN duplicate_object THEN END $$")
    assert CliRunner().invoke(main, ["init-db", "--db", postgres_url, "--app-role", role]).exit_code == 0
    as_owner(postgres_url, "DROP TRIGGER events_no_change ON events")
    as_app = postgres_url.replace("postgres@", f"{role}@")
    with PostgresEventStore(as_app) as store:
        store.append("g", 0, moves(1))
        assert store.protections_restored == ()
        assert [problem for problem in store.missing_protections() if "events_no_change" in problem]
    result = CliRunner().invoke(main, ["verify", "--db", as_app])
    assert result.exit_code == 1 and "events_no_change" in result.output, result.output


# -- SQLite, for comparison: every open creates its triggers; verify names the ones it lacked --


def test_verify_fails_a_sqlite_file_that_lacked_a_protective_trigger(tmp_path):
    import sqlite3

    from recorder.store.sqlite import SQLiteEventStore

    path = str(tmp_path / "records.sqlite3")
    with SQLiteEventStore(path) as store:
        assert store.protections_restored == () and store.missing_protections() == []
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TRIGGER events_no_delete")
    result = CliRunner().invoke(main, ["verify", "--db", path])
    assert result.exit_code == 1, result.output
    assert "trigger events_no_delete on events: missing when verify opened the store" in result.output
    again = CliRunner().invoke(main, ["verify", "--db", path])
    assert again.exit_code == 0 and "protective triggers: each in place" in again.output, again.output
