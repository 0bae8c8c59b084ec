"""The archive bench: N games exported, imported, verified, listed and searched by position.

The corpus is the project's fixture games (``fixtures/games/*.json``, recorded once
through the service), copied under seeded player and event names (200 players, 50
events) into a source database until it holds N games. Then, each timed: the NDJSON
export of the whole archive; its import into a fresh database through ``recorder
import``'s own path (every event re-decided, every chain checked, batched commits); the
verification of every game (``recorder verify``'s check); pages of 50 games of one
player by keyset pagination; position searches of positions taken from the index; and
the database's size on disk per 1,000 games.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from dataclasses import dataclass, field

from .exports import recorded_templates

PLAYERS = [f"Player {number:03d}" for number in range(200)]
EVENTS = [f"Open {number:02d}" for number in range(50)]


@dataclass
class ArchiveFigures:
    games: int = 0
    events: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    page_ms: list[float] = field(default_factory=list)
    search_ms: list[float] = field(default_factory=list)
    bytes_on_disk: int = 0

    def per_second(self, step: str, of: str = "events") -> float:
        return (self.events if of == "events" else self.games) / self.seconds[step]


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0


def build_source(path: str, folder: str, games: int, seed: int = 2026) -> int:
    """The source archive: fixture games under seeded names; returns the events stored."""
    from recorder.service import Recorder
    from recorder.store import NewEvent, SQLiteEventStore

    rng, templates, events = random.Random(seed), recorded_templates(folder), 0
    with SQLiteEventStore(path) as store:
        recorder = Recorder(store)
        for number in range(games):
            template, summary, _ = templates[number % len(templates)]
            names = {"south": rng.choice(PLAYERS), "north": rng.choice(PLAYERS), "event": rng.choice(EVENTS)}
            setup = template[0]
            payload = {**setup.payload, **{k: names[k] for k in ("south", "north")}}
            payload["metadata"] = {**payload.get("metadata", {}), "event": names["event"]}
            copy = [NewEvent(setup.type, payload), *template[1:]]
            row = {**summary, **names, "metadata": payload["metadata"]}
            store.append(f"archive_{number:06d}", 0, copy, projection=recorder.games.write(row))
            events += len(copy)
    return events


def measure(games: int) -> ArchiveFigures:
    from recorder.api.archive import schema_check
    from recorder.archive.transfer import Archive
    from recorder.audit.verify import verify_record
    from recorder.cli.archive import import_files
    from recorder.service import Recorder
    from recorder.store import SQLiteEventStore

    figures = ArchiveFigures(games=games)
    with tempfile.TemporaryDirectory(prefix="recorder-archive-") as folder:
        source, target, dump = (os.path.join(folder, name) for name in ("source.sqlite3", "t.sqlite3", "a.ndjson"))
        figures.events = build_source(source, folder, games)
        with SQLiteEventStore(source) as store, open(dump, "w", encoding="utf-8") as out:
            archive = Archive(store, recorded_by="bench", restore=True)
            figures.seconds["export"] = _timed(lambda: out.writelines(archive.ndjson_archive(archive.select())))
        with SQLiteEventStore(target) as store:
            archive = Archive(store, recorded_by="bench", check_command=schema_check, restore=True)
            figures.seconds["import"] = _timed(lambda: import_files(archive, [dump]))
            recorder = Recorder(store)
            # recorder verify's walk: every stream, in one ordered scan, a batch of streams per query
            figures.seconds["verify"] = _timed(lambda: [verify_record(g, events) for g, events in store.read_streams()])
            figures.page_ms = _pages(recorder)
            figures.search_ms = _searches(recorder, store)
        figures.bytes_on_disk = sum(
            os.path.getsize(target + suffix) for suffix in ("", "-wal") if os.path.exists(target + suffix)
        )
    return figures


def _timed(work) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def _pages(recorder, players: int = 20) -> list[float]:
    """Each page of 50 of a player's, then an event's, games, by keyset pagination, in ms."""
    timings = []
    filters = [{"player": player} for player in PLAYERS[:players]] + [{"event": event} for event in EVENTS[:players]]
    for chosen in filters:
        pages = recorder.games.iter_ids(**chosen, batch_size=50)
        while True:
            started = time.perf_counter()
            page = [game_id for _, game_id in zip(range(50), pages)]
            timings.append((time.perf_counter() - started) * 1000)
            if len(page) < 50:
                break
    return timings


def _searches(recorder, store, count: int = 200, seed: int = 7) -> list[float]:
    from recorder.projections import search

    rng = random.Random(seed)
    keys = [row[0] for row in store._db().execute("SELECT position FROM positions LIMIT 5000").fetchall()]
    timings = []
    for key in (rng.choice(keys) for _ in range(count if keys else 0)):
        started = time.perf_counter()
        search(recorder, key)
        timings.append((time.perf_counter() - started) * 1000)
    return timings
