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
