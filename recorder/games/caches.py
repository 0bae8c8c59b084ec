"""Caches beside the event store: each game's notation at a version, and the positions it reached.

Both are projections: derived from the events (recorder/projections.py), rebuilt by
``recorder rebuild``, checked by ``recorder verify --projections``; dropping them loses
nothing. A notation row is used only while its version is the game's current version, so
an append never has to touch it: a stale row is simply not used (the export writes that
game from its events, as it always could).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence

from recorder.core.position_digest import key_digest
from recorder.store import ProjectionWrite, StoredEvent, Tables, Tx
from recorder.store.sql import insert_rows
from recorder.store.sqlite import SQLiteEventStore
from recorder.store.tables import on_conflict_update
from recorder.workers import default_jobs

from .tables import NOTATIONS, POSITIONS_BY_KEY, SCHEMA

_FRESH = (
    "SELECT text FROM notations WHERE game_id = ?"
    " AND version = (SELECT MAX(seq) FROM events WHERE game_id = notations.game_id)"
)


class NotationCache:
    """The notation of each game's effective line, as ``write_game`` gives it, at a version."""

    def __init__(self, store: Tables):
        self.store = store
        store.ensure(SCHEMA)

    def _handle(self) -> Tx:
        return self.store.handle()

    def fresh(self, game_id: str) -> str | None:
        """The game's text if it was written at the game's current version, else None."""
        row = self._handle().execute(_FRESH, (game_id,)).fetchone()
        return None if row is None else row[0]

    def stored(self, game_id: str) -> tuple[int, str] | None:
        """(version, text) as stored, fresh or not."""
        row = self._handle().execute("SELECT version, text FROM notations WHERE game_id = ?", (game_id,)).fetchone()
        return None if row is None else (row[0], row[1])

    def put(self, rows: Iterable[tuple[str, int, str]]) -> None:
        """Store ``(game_id, version, text)`` rows in one transaction."""
        with self.store.transaction() as db:
            db.executemany(_PUT_NOTATION, rows)

    def drop_orphans(self) -> None:
        with self.store.transaction() as db:
            db.execute("DELETE FROM notations WHERE game_id NOT IN (SELECT stream_id FROM streams)")


_PUT_NOTATION = "INSERT INTO notations (game_id, version, text) VALUES (?, ?, ?)" + on_conflict_update(
    NOTATIONS, ("game_id", "version", "text")
)


def game_number(db: Tx, game_id: str) -> int:
    """The number the position index knows ``game_id`` by, given on first use
    (``position_games``): the index's rows hold a game as an integer, not its id."""
    row = db.execute(_GAME_NUMBER, (game_id,)).fetchone()
    if row is None:
        db.execute("INSERT INTO position_games (game_id) VALUES (?) ON CONFLICT DO NOTHING", (game_id,))
        row = db.execute(_GAME_NUMBER, (game_id,)).fetchone()
    return int(row[0])


_GAME_NUMBER = "SELECT game FROM position_games WHERE game_id = ?"


class PositionIndex:
    """Every position each game reached: (game, seq, key digest), the key being the
    position text's first six fields (recorder/rules/position_text.py) and its digest
    ``key_digest``: the SHA-256 of the key cut to 128 bits, as two integers. Each game is
    held by its number (``game_number``), so a row is four integers, kept in game order
    (the table's key) and in key order (``positions_by_key``, what a search reads): a bulk
    import indexes them for less than rows of texts (docs/decisions.md). Two
    keys share a digest only by a collision in SHA-256's first 128 bits (docs/notation.md).
    Written in the append's transaction, so a search never misses a committed event.

    A bulk import into a SQLite file (``recorder import``) writes its games' positions
    to ``positions_pending`` instead, a plain heap kept in no order, and indexes them all
    at its end (``index_pending``) in key order. Kept in order one event at a time, the
    index would take a random page of a large B-tree per event, and each batch would
    write most of those pages again: most of a large import's time. Until the pending
    rows are indexed (or if an import stopped before), searches read them too."""

    def __init__(self, store: Tables):
        self.store = store
        store.ensure(SCHEMA)
        self.defers = isinstance(store, SQLiteEventStore)  # PostgreSQL indexes as it goes

    def _handle(self) -> Tx:
        return self.store.handle()

    def write(self, rows: list[tuple[int, str]]) -> ProjectionWrite:
        """What an append runs in its transaction: index the positions after its events."""
        return self._writer(rows, _INSERT_POSITION, IGNORE_KNOWN)

    def write_pending(self, rows: list[tuple[int, str]]) -> ProjectionWrite:
        """A bulk import's append: queue the positions, to be indexed by ``index_pending``."""
        if self.defers:
            return self._writer(rows, _QUEUE_POSITION)
        return self._writer(rows, _INSERT_POSITION, IGNORE_KNOWN)

    @staticmethod
    def _writer(rows: list[tuple[int, str]], statement: str, then: str = "") -> ProjectionWrite:
        digests = [(seq, *key_digest(key)) for seq, key in rows]  # before the append takes the write lock

        def insert(db: Tx, events: Sequence[StoredEvent]) -> None:
            game = game_number(db, events[0].stream_id)
            insert_rows(db, statement, [(high, low, game, seq) for seq, high, low in digests], then)

        return insert

    def pending(self) -> bool:
        """Whether positions wait to be indexed (an import is under way, or stopped before its end)."""
        return self.last_pending() > 0

    def count_pending(self) -> int:
        (count,) = self._handle().execute("SELECT count(*) FROM positions_pending").fetchone() if self.defers else (0,)
        return int(count)

    def index_pending(self, progress: Callable[[int], None] = lambda n: None) -> int:
        """Index every pending position, ``PENDING_CHUNK`` rows per transaction (live
        recording waits for one chunk at most); returns how many were pending.

        The index's table is in game order (its key is the game's number, then the seq), as
        the queue is: an import queues each game's rows as it stores the game, and numbers
        the games as it meets them, so the queue's rows, read in the order they were queued,
        go to the table's end, each page written once, with no sort. Its second B-tree
        (``positions_by_key``, what a search reads) is in key order, where each row lands at
        random: when the queue holds at least as many rows as the index (an import into a
        new file, or one that doubles the index) it is dropped first and created again at
        the end, in one sorted pass (``_by_key_created_after``). The queue is emptied only
        at the end: a search meanwhile reads both (duplicates removed), and an interrupted
        run is simply run again (``IGNORE_KNOWN``)."""
        last = self.last_pending()
        if not last:
            return 0
        db = self._handle()
        first, count = db.execute("SELECT MIN(id), count(*) FROM positions_pending WHERE id <= ?", (last,)).fetchone()
        with _sorting_threads(db), self._by_key_created_after(self._indexed_at_most(count) <= count):
            for start in range(first, last + 1, PENDING_CHUNK):
                end = min(start + PENDING_CHUNK - 1, last)
                with self.store.transaction() as db:
                    moved = db.execute(
                        f"INSERT INTO positions ({_COLUMNS}) SELECT {_COLUMNS}"
                        " FROM positions_pending WHERE id BETWEEN ? AND ? ORDER BY id ON CONFLICT DO NOTHING",
                        (start, end),
                    )
                progress(max(moved.rowcount, 0))
        with self.store.transaction() as db:
            (top,) = db.execute("SELECT MAX(id) FROM positions_pending").fetchone()
            if top == last:  # nothing queued since: the queue emptied whole, not row by row
                db.execute("DELETE FROM positions_pending")
            else:
                db.execute("DELETE FROM positions_pending WHERE id <= ?", (last,))
        return int(count)

    def _indexed_at_most(self, limit: int) -> int:
        """The rows indexed, counted up to ``limit + 1`` at most: a small import into a
        large index reads as many rows as it queued, not the whole index."""
        query = "SELECT count(*) FROM (SELECT 1 FROM positions LIMIT ?)"
        (count,) = self._handle().execute(query, (limit + 1,)).fetchone()
        return int(count)

    @contextlib.contextmanager
    def _by_key_created_after(self, bulk: bool) -> Iterator[None]:
        """With ``bulk``, ``positions_by_key`` is dropped for the duration and created again
        after it, in one transaction: live writers wait for that creation (its time grows
        with the index: docs/decisions.md), and while it is missing a search reads the whole index
        (as it reads the whole queue while an import is under way). An import stopped in
        between leaves it to be created by the next open of the file (``create_schema``)."""
        if bulk:
            with self.store.transaction() as db:
                db.execute("DROP INDEX IF EXISTS positions_by_key")
        yield
        if bulk:
            with self.store.transaction() as db:
                db.execute(POSITIONS_BY_KEY)

    def last_pending(self) -> int:
        """The id of the last row queued so far (0: none)."""
        (last,) = self._handle().execute("SELECT MAX(id) FROM positions_pending").fetchone() if self.defers else (0,)
        return int(last or 0)

    def drop_pending(self, last: int) -> None:
        """Forget the queue up to id ``last``: ``recorder rebuild`` wrote the positions of
        every game stored before it began, those rows' games among them. A row queued
        since, by an import still under way, stays for that import to index."""
        if self.defers:
            with self.store.transaction() as db:
                db.execute("DELETE FROM positions_pending WHERE id <= ?", (last,))

    def replace(self, games: list[tuple[str, list[tuple[int, str]]]]) -> None:
        """Rewrite the rows of each ``(game_id, [(seq, key)])`` in one transaction (rebuild)."""
        with self.store.transaction() as db:
            for game_id, rows in games:
                game = game_number(db, game_id)
                db.execute("DELETE FROM positions WHERE game = ?", (game,))
                insert_rows(db, _INSERT_POSITION, [(*key_digest(key), game, seq) for seq, key in rows], IGNORE_KNOWN)

    def of_game(self, game_id: str) -> list[tuple[int, tuple[int, int]]]:
        """The indexed positions of a game as (seq, key digest), in seq order (pending ones
        aside: ``pending`` says if there are any)."""
        query = (
            "SELECT seq, key_high, key_low FROM positions"
            " WHERE game = (SELECT game FROM position_games WHERE game_id = ?) ORDER BY seq"
        )
        rows = self._handle().execute(query, (game_id,)).fetchall()
        return [(seq, (high, low)) for seq, high, low in rows]

    def find(self, key: str, *, limit: int = 100, pending: bool = True) -> list[tuple[str, int]]:
        """(game_id, seq) of every occurrence, at most ``limit``: games in the order the
        index first met them (the order they were recorded or imported), then in event
        order. The index's own order, so the first ``limit`` are read and no more,
        however often the position occurred (a start position, in every game). Without
        ``pending``, only indexed rows are read (never a scan of an import's queue)."""
        return [(game_id, seq) for _, game_id, seq in self.find_after(key, (0, 0), limit=limit, pending=pending)]

    def find_after(
        self, key: str, after: tuple[int, int], *, limit: int, pending: bool = True
    ) -> list[tuple[int, str, int]]:
        """(game number, game_id, seq) of the occurrences past ``after`` (a game number and
        a seq) in the index's order, at most ``limit``: the next page of ``find``, the rows
        before ``after`` never read (a seek in the key B-tree)."""
        high, low = key_digest(key)
        found = "SELECT game, seq FROM positions WHERE key_high = ? AND key_low = ? AND (game, seq) > (?, ?)"
        params: tuple = (high, low, *after)
        if pending and self.pending():  # a scan of the queue: only while an import is under way (or was stopped)
            found += (
                " UNION SELECT game, seq FROM positions_pending"
                " WHERE key_high = ? AND key_low = ? AND (game, seq) > (?, ?)"
            )
            params += (high, low, *after)
        query = (
            f"SELECT hits.game, position_games.game_id, hits.seq FROM ({found} ORDER BY game, seq LIMIT ?) AS hits"
            " JOIN position_games ON position_games.game = hits.game ORDER BY hits.game, hits.seq"
        )
        rows = self._handle().execute(query, (*params, limit))
        return [(game, game_id, seq) for game, game_id, seq in rows.fetchall()]

    def find_visible(
        self, key: str, wanted: int, horizon: Callable[[str], int | None], *, pending: bool = True
    ) -> list[tuple[str, int]]:
        """The first ``wanted`` occurrences of ``key`` a reader may see, in the index's order:
        ``horizon(game_id)`` is the last event of the game he may see (None: all of it). What
        the index of a store holding only his events would give: rows past a game's horizon
        are passed over where they lie, not after a window was cut (which would count them).

        The work is bounded by the answer and the delay, not by the index: the index is read
        in pages of the occurrences still wanted, each page a seek past the last row read. A
        game held back is left at its first hidden row (its later rows are in seq order, all
        hidden): each page is either the last (short: the index has no more) or meets a
        hidden row of a new game, so the rows read are at most ``wanted`` visible ones and
        the hidden rows of the games a delay holds back, whose number is that of the games
        with a move younger than their tournament's delay (a day at most), whatever
        ``wanted`` the reader asks."""
        hits: list[tuple[str, int]] = []
        horizons: dict[str, int | None] = {}
        after = (0, 0)
        while len(hits) < wanted:
            asked = wanted - len(hits)
            page = self.find_after(key, after, limit=asked, pending=pending)
            for number, game_id, seq in page:
                if game_id not in horizons:
                    horizons[game_id] = horizon(game_id)
                upto = horizons[game_id]
                if upto is None or seq <= upto:
                    hits.append((game_id, seq))
                    after = (number, seq)
                else:
                    after = (number, PAST_ANY_SEQ)
            if len(page) < asked:
                break
        return hits

    def drop_orphans(self) -> None:
        """Forget the rows of games that are no streams. Their numbers stay: a number is
        given once, and a row queued for it meanwhile still names its game."""
        with self.store.transaction() as db:
            orphans = "SELECT game FROM position_games WHERE game_id NOT IN (SELECT stream_id FROM streams)"
            db.execute(f"DELETE FROM positions WHERE game IN ({orphans})")


@contextlib.contextmanager
def _sorting_threads(db: Tx) -> Iterator[None]:
    """SQLite's sort (the key B-tree's creation) helped by a thread per CPU this process may
    run on while the pending positions are indexed: the sort is the largest step of indexing
    a large queue, and the cores are otherwise idle then."""
    db.execute(f"PRAGMA threads = {min(default_jobs(), SORTING_THREADS)}")
    try:
        yield
    finally:
        db.execute("PRAGMA threads = 0")


PAST_ANY_SEQ = 2**62  # a seq beyond every event: a page after (game, PAST_ANY_SEQ) starts at the next game
PENDING_CHUNK = 200_000  # positions indexed per transaction by index_pending
SORTING_THREADS = 8  # the most SQLite's sorter takes (SQLITE_MAX_WORKER_THREADS)
_COLUMNS = "key_high, key_low, game, seq"  # a row's columns, as the queue and the key B-tree hold them
_INSERT_POSITION = f"INSERT INTO positions ({_COLUMNS})"  # VALUES: insert_rows, then IGNORE_KNOWN
_QUEUE_POSITION = f"INSERT INTO positions_pending ({_COLUMNS})"
IGNORE_KNOWN = " ON CONFLICT DO NOTHING"  # a position already indexed stays as it is
