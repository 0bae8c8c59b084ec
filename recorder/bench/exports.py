"""Export throughput and peak memory for 1,000 and 10,000 games (recorder/archive/transfer.py).

The corpus is the project's own complete recorded games (``fixtures/games/*.json``, all
five variants, about 120 events each), recorded once through the service, then copied
under new game ids into a fresh database (one store append per game, 500 per commit) until it holds N
games. Each export runs in a fresh child process, as ``recorder export`` would: it
selects the ids in batches and streams every game through ``Archive`` to a file written
as ``recorder export --output`` writes one (recorder/archive/export_file.py); the
child reports the seconds spent and its peak resident memory (``peak_kib``), so the
parent's own memory never counts. The notation cache is filled as ``recorder rebuild``
fills it (each template's text written once: a copy under another id has the same text).
"""

from __future__ import annotations

import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "games"
FORMATS = ("ndjson", "notation")
# A yardstick on this machine, now: a bare loop writing each event's stored line, a game per query
# (the NDJSON export reads 16 games per query, joined by the database, so it runs faster than this).
REFERENCE = "reference"
FILL_BATCH = 500  # games copied per transaction while the database grows


@dataclass(frozen=True)
class ExportFigures:
    games: int
    events: int
    fmt: str
    seconds: float
    peak_mib: float
    baseline_mib: float  # the child's resident memory before the export started
    bytes_written: int

    @property
    def per_second(self) -> float:
        return self.games / self.seconds

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds


def available() -> bool:
    return importlib.util.find_spec("recorder.archive") is not None and FIXTURES.is_dir()


def describe() -> str:
    return (
        f"Archive.select + export_<format> to a file, in a fresh child process; corpus: the "
        f"{len(list(FIXTURES.glob('*.json')))} recorded games of fixtures/games, copied to N games"
    )


def recorded_templates(folder: str, clocks: bool = False) -> list[tuple[list, dict, str]]:
    """Each fixture game recorded once through the service: its events, its summary row and
    its notation (what ``recorder rebuild`` caches: a copy under another id has the same text).
    With ``clocks``, every sowing and decision carries a clock reading (TIME-2)."""
    from recorder.bench.loadgen import reading
    from recorder.games.service import Recorder, stored_pairs, summary_of
    from recorder.notation.writer import write_game
    from recorder.store import NewEvent, SQLiteEventStore

    store = SQLiteEventStore(os.path.join(folder, "templates.sqlite3"))
    recorder, templates = Recorder(store), []
    for path in sorted(FIXTURES.glob("*.json")):
        record = json.loads(path.read_text())
        with store.batch():  # one commit per game, not one per move
            game = recorder.create_game(record["setup"], recorded_by="bench").game
            game_id = game.game_id
            for command in record["commands"]:
                command = dict(command)
                if clocks and command["type"] not in ("retract", "annotate"):
                    command["clock"] = reading(game.version)
                game = recorder.record(game_id, command, expected_version=game.version, recorded_by="bench").game
        events = [NewEvent(e.type, e.payload) for e in store.read(game_id)]
        notation = write_game(list(stored_pairs(store.read(game_id))))
        templates.append((events, summary_of(recorder.game(game_id)), notation))
    store.close()
    return templates


def fill(store, templates: list, start: int, stop: int) -> int:
    """Copies of the templates as games ``start``..``stop - 1``; returns the events added."""
    from recorder.games.caches import NotationCache
    from recorder.games.games_list import GamesList

    games, notations, events = GamesList(store), NotationCache(store), 0
    for first in range(start, stop, FILL_BATCH):
        numbers = range(first, min(stop, first + FILL_BATCH))
        with store.batch():  # one commit per batch of games, not one per game
            for number in numbers:
                template, summary, _ = templates[number % len(templates)]
                store.append(f"bench-{number:06d}", 0, template, projection=games.write(summary))
                events += len(template)
        chosen = [(number, templates[number % len(templates)]) for number in numbers]
        notations.put([(f"bench-{number:06d}", len(template), text) for number, (template, _, text) in chosen])
    return events


def measure(sizes: tuple[int, ...], clocks: bool = False) -> dict[str, list[ExportFigures]]:
    """Grow one database to each size in turn; after each step export it whole in each format."""
    from recorder.store import SQLiteEventStore

    results: dict[str, list[ExportFigures]] = {fmt: [] for fmt in (*FORMATS, REFERENCE)}
    with tempfile.TemporaryDirectory(prefix="recorder-bench-") as folder:
        templates = recorded_templates(folder, clocks)
        path = os.path.join(folder, "export.sqlite3")
        store, games, events = SQLiteEventStore(path), 0, 0
        for size in sizes:
            events += fill(store, templates, games, size)
            games = size
            for fmt in (*FORMATS, REFERENCE):
                output = os.path.join(folder, f"out.{fmt}")
                results[fmt].append(export_in_child(path, fmt, output, games, events))
        store.close()
    return results


def export_in_child(path: str, fmt: str, output: str, games: int, events: int) -> ExportFigures:
    command = [sys.executable, "-m", "recorder.bench.exports", path, fmt, output]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the export child failed:\n{done.stderr}")
    report = json.loads(done.stdout)
    if report["games"] != games:
        raise RuntimeError(f"exported {report['games']} games, the database holds {games}")
    return ExportFigures(
        games,
        events,
        fmt,
        report["seconds"],
        report["peak_kib"] / 1024,
        report["baseline_kib"] / 1024,
        os.path.getsize(output),
    )


def child_main(path: str, fmt: str, output: str) -> None:
    """In the child: export every game of ``path`` to ``output``; print what it cost."""
    from recorder.archive.export_file import write_export
    from recorder.archive.transfer import Archive
    from recorder.store import SQLiteEventStore

    store = SQLiteEventStore(path)
    archive = Archive(store)
    baseline = peak_kib()
    counted = [0]

    def counting(ids):
        for game_id in ids:
            counted[0] += 1
            yield game_id

    started = time.perf_counter()
    ids = counting(archive.select())
    if fmt == REFERENCE:
        chunks = bare_loop(store, ids)
    else:
        chunks = archive.ndjson_archive(ids) if fmt == "ndjson" else archive.notation_archive(ids)
    write_export(output, chunks)  # as recorder export --output writes a file
    seconds = time.perf_counter() - started
    store.close()
    peak = peak_kib()
    print(json.dumps({"games": counted[0], "seconds": seconds, "peak_kib": peak, "baseline_kib": baseline}))


def peak_kib() -> int:
    """This process's peak resident memory in KiB. Linux keeps ``ru_maxrss`` across exec, so
    a child started by a larger parent would report the parent's peak: the kernel's own
    high-water mark of this program (VmHWM) is read instead where there is one."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def bare_loop(store, ids):
    """The stored line of each event (the very bytes an NDJSON export writes), read a game
    at a time and written as it is: what SQLite and Python do here with no export around
    it, so an export's figure can be read against it on a loaded machine."""
    db = store.handle()
    for game_id in ids:
        for (line,) in db.execute("SELECT line FROM events WHERE game_id = ? ORDER BY seq", (game_id,)):
            yield line + "\n"


if __name__ == "__main__":
    child_main(*sys.argv[1:4])
