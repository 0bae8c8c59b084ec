"""What a backend implements is small: the append's algorithm, every read, the tables'
transactions, batches and schemas are written once (recorder/store/sql.py, ``SqlStreams``),
over a few hooks; each backend class defines at most eight public methods of its own."""

import inspect

import pytest

from recorder.store.interface import StoreBackend
from recorder.store.sqlite import SQLiteEventStore

MOST_PUBLIC_METHODS = 8


def backends() -> list[type]:
    found: list[type] = [SQLiteEventStore]
    if _has_psycopg():
        from recorder.store.postgres import PostgresEventStore

        found.append(PostgresEventStore)
    return found


def _has_psycopg() -> bool:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return False
    return True


def public_methods(backend: type) -> list[str]:
    """The public methods the class itself defines (not those it inherits)."""
    return sorted(name for name, value in vars(backend).items() if not name.startswith("_") and callable(value))


@pytest.mark.parametrize("backend", backends(), ids=lambda backend: backend.__name__)
def test_a_backend_implements_at_most_eight_public_methods(backend):
    assert len(public_methods(backend)) <= MOST_PUBLIC_METHODS, public_methods(backend)


@pytest.mark.parametrize("backend", backends(), ids=lambda backend: backend.__name__)
def test_a_backend_is_a_whole_store_backend(backend):
    assert issubclass(backend, StoreBackend) and not inspect.isabstract(backend)


def test_a_column_added_to_a_description_is_added_to_an_older_file_on_its_next_open(tmp_path, monkeypatch):
    """A feature's table is described once (recorder/store/tables.py): a column added to
    the description reaches a file made before it, its older rows NULL there."""
    from recorder.store import tables

    monkeypatch.setattr(tables, "_REGISTERED", dict(tables._REGISTERED))
    path = str(tmp_path / "older.sqlite3")
    before = tables.Schema("notes", (tables.table("notes", tables.ids("note_id"), "note_id"),))
    tables.register(before)
    with SQLiteEventStore(path) as store, store.transaction() as db:
        db.execute("INSERT INTO notes (note_id) VALUES (?)", ("n1",))
    after = tables.table("notes", [*tables.ids("note_id"), tables.Column("text")], "note_id")
    tables.register(tables.Schema("notes", (after,)))
    with SQLiteEventStore(path) as store:
        assert store.handle().execute("SELECT note_id, text FROM notes").fetchall() == [("n1", None)]
