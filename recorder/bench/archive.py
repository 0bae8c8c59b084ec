"""The archive bench: N games exported, imported, verified, listed and searched by position.

The source archive is built once, through the real import path: the project's fixture
games (``fixtures/games/*.json``) and seeded random games of every variant, each recorded
once through the service, are written out as notation under seeded player and event
names (200 players, 50 events; each copy's ``Round`` tag numbers it, so no two copies
are the same record) and imported by ``recorder import``'s own code, a part of
``PART_GAMES`` games at a time (every move decided, batched commits). The built file is
kept in a cache folder under a name made of N, the seed and a digest of the corpus, so
a second run with the same N and seed reuses it (``cache=None`` builds in the run's
temporary folder instead). Then, each timed and printed as soon as measured: the NDJSON
export of the whole archive to one file, written as ``recorder export --output`` writes
it, once the source file has been read through (so the export's own pace is timed, not
the disk's first read of a cached source; that read is timed and printed beside it);
its import into a fresh database through
``recorder import``'s path (the one file, its frame checked a block at a time, then its
games read a line at a time); the verification of
every stream (``recorder verify``'s walk, in a worker process per CPU); pages of 50 games
of a player and of an event by keyset pagination; position searches of keys the first
games of the list reached; the check ceiling: the exported file read and every game
checked as the import checks it, in its worker processes, nothing stored
(``check_ceiling``); the storing
floor: the imported rows copied into a fresh database by SQL alone, no line read and no
event checked (``store_floor``). An import does both, the check and the storing, so each
is the most an import could reach on this machine with this code; and since it does both
on the same cores, the CPU each takes per event (the machine's busy time while it runs,
``machine_busy_seconds``) bounds it too: the cores divided by their sum. Last, the
database's size on disk per 1,000 games.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from recorder.store.sql import _EVENT_COLUMNS

from .exports import FIXTURES, recorded_templates

PLAYERS = [f"Player {number:03d}" for number in range(200)]
EVENTS = [f"Open {number:02d}" for number in range(50)]
RANDOM_GAMES = 3  # seeded random games per variant, beside the fixture games
RANDOM_MAX_EVENTS = 200
PART_GAMES = 2_000  # games per notation file of the build (a notation file is read whole)
ADJUDICATED_DRAW = {"type": "result", "kind": "adjudication", "winner": None}  # no sowing can end (GEN-35)
CACHE_VERSION = 1  # raise when the way the source is built changes
FLOOR_BATCH_GAMES = 160  # games per transaction of the storing floor: about an import batch's 0.2 s
_NAME_TAGS = re.compile(r'^\[(South|North|Event|Round) "[^\n]*"\]\n', re.MULTILINE)

Echo = Callable[[str], None]


@dataclass
class ArchiveFigures:
    games: int = 0
    events: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    page_ms: list[float] = field(default_factory=list)
    search_ms: list[float] = field(default_factory=list)
    bytes_on_disk: int = 0
    source_bytes: int = 0  # the source file's size, read through before the export
    build_seconds: float | None = None  # None: the source came from the cache
    verify_processes: int = 1  # how many processes the verification ran in
    check_processes: int = 1  # how many worker processes checked the file for the check ceiling
    busy_seconds: dict[str, float] = field(default_factory=dict)  # the machine's busy time during a step
    cores: int = 1  # the CPUs the import's processes may run on

    def cpu_per_event(self, step: str) -> float | None:
        """Seconds of CPU an event took in ``step``, every process counted; None unmeasured."""
        busy = self.busy_seconds.get(step)
        return None if busy is None else busy / self.events

    def per_second(self, step: str, of: str = "events") -> float:
        return (self.events if of == "events" else self.games) / self.seconds[step]


PROC_STAT = "/proc/stat"
_IDLE_COLUMNS = (3, 4)  # idle, iowait; guest and guest_nice (8, 9) are counted in user and nice already


def machine_busy_seconds(stat: str = PROC_STAT) -> float | None:
    """Seconds of CPU every process of the machine has used since it started (Linux's
    ``/proc/stat``, its ``cpu`` line less its idle columns), or None where the system does
    not say. An import's workers come from a fork server, not from this process, so no
    rusage of this process counts them: the machine's busy time does (run on a quiet machine)."""
    try:
        with open(stat, encoding="ascii") as handle:
            fields = handle.readline().split()
        if not fields or fields[0] != "cpu":
            return None
        ticks = [int(value) for value in fields[1:9]]
    except (OSError, ValueError):
        return None
    busy = sum(value for column, value in enumerate(ticks) if column not in _IDLE_COLUMNS)
    return busy / os.sysconf("SC_CLK_TCK")


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0


def _quiet(line: str) -> None:
    pass


# ------------------------------------------------------------------ the source archive


def random_templates(folder: str, seed: int, clocks: bool = False) -> list[str]:
    """``RANDOM_GAMES`` seeded random games of each variant, recorded through the service,
    as notation (a game no sowing can end is adjudicated a draw, GEN-35); with ``clocks``,
    each sowing and decision carries a clock reading (TIME-2)."""
    from recorder.bench.loadgen import reading
    from recorder.core.playout import random_move
    from recorder.core.redecide import command_for
    from recorder.games.service import Recorder, stored_pairs
    from recorder.notation.writer import write_game
    from recorder.rules import VARIANTS
    from recorder.store import SQLiteEventStore

    rng, texts = random.Random(seed), []
    with SQLiteEventStore(os.path.join(folder, "random.sqlite3")) as store:
        recorder = Recorder(store)
        for variant, rules_class in sorted(VARIANTS.items()):
            for _ in range(RANDOM_GAMES):
                setup = {"variant": variant, "south": "South", "north": "North"}
                if rules_class.has_first_player:
                    setup["first_player"] = rng.choice(("south", "north"))
                with store.batch():  # one commit per game, not one per move
                    game = recorder.create_game(setup, recorded_by="bench").game
                    while not game.state.game_over and game.version < RANDOM_MAX_EVENTS:
                        move = random_move(game.rules, game.state, rng)
                        command = command_for(move[0]) if move else ADJUDICATED_DRAW
                        if clocks:
                            command = {**command, "clock": reading(game.version)}
                        game = recorder.record(
                            game.game_id, command, expected_version=game.version, recorded_by="bench"
                        ).game
                texts.append(write_game(list(stored_pairs(store.read(game.game_id)))))
    return texts


def copies(templates: list[str], games: int, seed: int) -> Iterator[str]:
    """Game ``number`` is template ``number % len(templates)`` under seeded names."""
    rng = random.Random(seed)
    for number in range(games):
        south, north, event = rng.choice(PLAYERS), rng.choice(PLAYERS), rng.choice(EVENTS)
        body = _NAME_TAGS.sub("", templates[number % len(templates)])
        yield f'[Event "{event}"]\n[Round "{number + 1}"]\n[South "{south}"]\n[North "{north}"]\n{body}'


def build_source(
    path: str, folder: str, games: int, seed: int = 2026, echo: Echo = _quiet, clocks: bool = False
) -> None:
    """The source archive at ``path``: ``games`` copies imported by ``recorder import``'s
    code, a part of ``PART_GAMES`` at a time, with a line of progress after each part;
    with ``clocks``, every sowing and decision of the copies carries a clock reading."""
    from recorder.api.archive import schema_check
    from recorder.archive.importer import import_into
    from recorder.store import SQLiteEventStore

    recorded = [notation for _, _, notation in recorded_templates(folder, clocks)]
    templates = recorded + random_templates(folder, seed, clocks)
    started, done = time.perf_counter(), 0
    texts = copies(templates, games, seed)
    with SQLiteEventStore(path) as store:
        while done < games:
            part = os.path.join(folder, "part.mn")
            count = min(PART_GAMES, games - done)
            with open(part, "w", encoding="utf-8") as out:
                out.write("\n".join(next(texts) for _ in range(count)))
            counts, refused = import_into(store, [part], recorded_by="bench", check_command=schema_check)
            if refused or counts["imported"] != count:
                raise RuntimeError(f"building the source archive: {counts}, refused {len(refused)}")
            done += count
            rate = done / (time.perf_counter() - started)
            echo(f"  building the source archive: {done:,} of {games:,} games ({rate:,.0f} games/s)")


def cache_folder() -> Path:
    """Where built sources are kept: $RECORDER_BENCH_CACHE, else the user's cache folder."""
    chosen = os.environ.get("RECORDER_BENCH_CACHE")
    if chosen:
        return Path(chosen)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "mancala-recorder" / "bench"


def corpus_digest() -> str:
    """The fixture games and this way of building: a cached source built otherwise is not reused."""
    digest = hashlib.sha256(f"{CACHE_VERSION} {RANDOM_GAMES} {RANDOM_MAX_EVENTS}".encode())
    for path in sorted(FIXTURES.glob("*.json")):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:12]


def source_archive(
    games: int, seed: int, folder: str, cache: Path | None, echo: Echo, clocks: bool = False
) -> tuple[str, float | None]:
    """The built source's path, and the seconds building it took (None when it was cached).
    A cached source is built in a folder of its own and moved into place once complete, so
    an interrupted build is never reused."""
    started = time.perf_counter()
    if cache is None:
        scratch = os.path.join(folder, "source.sqlite3")
        build_source(scratch, folder, games, seed, echo, clocks)
        return scratch, time.perf_counter() - started
    path = cache / f"archive-{games}-{seed}-{corpus_digest()}{'-clocks' if clocks else ''}.sqlite3"
    if path.exists():
        echo(f"  source archive: {path} (cached)")
        return str(path), None
    building = cache / (path.name + ".building")
    shutil.rmtree(building, ignore_errors=True)  # what an interrupted build left
    building.mkdir(parents=True)
    build_source(str(building / "source.sqlite3"), folder, games, seed, echo, clocks)
    os.replace(building / "source.sqlite3", path)
    shutil.rmtree(building)
    return str(path), time.perf_counter() - started


# ------------------------------------------------------------------ the measured steps


Report = Callable[[ArchiveFigures], None]


def measure(
    games: int,
    *,
    seed: int = 2026,
    cache: Path | None = None,
    echo: Echo = _quiet,
    steps: dict[str, Report] | None = None,
    clocks: bool = False,
) -> ArchiveFigures:
    """Every step on an archive of ``games`` games. ``echo`` gets a line of progress while
    the source is built; ``steps[name]`` (build, export, import, verify, pages, searches,
    check ceiling, store floor, disk) is called with the figures as soon as that step is
    measured. With ``clocks``, every sowing and decision of the archive carries a reading."""
    return Measurement(games, seed, cache, echo, steps or {}, clocks).run()


class Measurement:
    """One run of the archive bench; ``steps`` maps a step's name to what prints its figure."""

    def __init__(
        self, games: int, seed: int, cache: Path | None, echo: Echo, steps: dict[str, Report], clocks: bool = False
    ):
        self.figures = ArchiveFigures(games=games)
        self.seed, self.cache, self.echo, self.steps, self.clocks = seed, cache, echo, steps, clocks

    def done(self, step: str) -> None:
        report = self.steps.get(step)
        if report is not None:
            report(self.figures)

    def run(self) -> ArchiveFigures:
        from recorder.store import SQLiteEventStore

        figures = self.figures
        with tempfile.TemporaryDirectory(prefix="recorder-archive-") as folder:
            source, figures.build_seconds = source_archive(
                figures.games, self.seed, folder, self.cache, self.echo, self.clocks
            )
            with SQLiteEventStore(source) as store:
                figures.events = _events_of(store)
            self.done("build")
            target, dump = os.path.join(folder, "t.sqlite3"), os.path.join(folder, "a.ndjson")
            self._export(source, dump)
            self._import_and_read(target, [dump])
            self._check_ceiling(target, dump)
            os.remove(dump)
            self._store_floor(target, os.path.join(folder, "floor.sqlite3"))
            figures.bytes_on_disk = sum(
                os.path.getsize(target + suffix) for suffix in ("", "-wal") if os.path.exists(target + suffix)
            )
            self.done("disk")
        return figures

    @contextlib.contextmanager
    def _busy(self, step: str) -> Iterator[None]:
        """The machine's busy time while ``step`` runs, kept where the system counts it."""
        before = machine_busy_seconds()
        yield
        after = machine_busy_seconds()
        if before is not None and after is not None:
            self.figures.busy_seconds[step] = after - before

    def _export(self, source: str, dump: str) -> None:
        from recorder.archive.export_file import write_export
        from recorder.archive.transfer import Archive
        from recorder.store import SQLiteEventStore

        self.figures.source_bytes, self.figures.seconds["read source"] = _read_through(source)
        with SQLiteEventStore(source) as store:
            archive = Archive(store)
            chunks = archive.ndjson_archive(archive.select())  # a generator: the work starts in the timing
            self.figures.seconds["export"] = _timed(lambda: write_export(dump, chunks))
        self.done("export")

    def _import_and_read(self, target: str, files: list[str]) -> None:
        from recorder.api.archive import schema_check
        from recorder.archive.importer import import_into
        from recorder.games.service import Recorder
        from recorder.store import SQLiteEventStore
        from recorder.workers import default_jobs

        figures = self.figures
        figures.cores = default_jobs()
        with SQLiteEventStore(target) as store:
            with self._busy("import"):
                figures.seconds["import"] = _timed(
                    lambda: import_into(
                        store, files, jobs=default_jobs(), recorded_by="bench", check_command=schema_check
                    )
                )
            self.done("import")
            recorder = Recorder(store)
            figures.seconds["verify"], figures.verify_processes = _verify(store, target)
            self.done("verify")
            figures.page_ms = _pages(recorder)
            self.done("pages")
            figures.search_ms = _searches(recorder)
            self.done("searches")

    def _check_ceiling(self, target: str, dump: str) -> None:
        from recorder.store import SQLiteEventStore
        from recorder.workers import default_jobs

        with SQLiteEventStore(target) as store, self._busy("check ceiling"):  # the check reads nothing from it
            seconds, processes = check_ceiling(store, dump, default_jobs())
        self.figures.seconds["check ceiling"], self.figures.check_processes = seconds, processes
        self.done("check ceiling")

    def _store_floor(self, target: str, floor: str) -> None:
        with self._busy("store floor"):
            self.figures.seconds["store floor"] = store_floor(target, floor)
        for suffix in ("", "-wal", "-shm", "-writer.lock"):  # at once: at full size it takes as much disk as the target
            if os.path.exists(floor + suffix):
                os.remove(floor + suffix)
        self.done("store floor")


def check_ceiling(store, path: str, jobs: int) -> tuple[float, int]:
    """Seconds to check the NDJSON file ``path`` as ``recorder import`` checks it, storing
    nothing, and how many worker processes checked it: its frame read in blocks, its
    games read and grouped, each game's chain and events checked (in ``jobs`` workers when
    the import would use them, which then store nothing) and their reports taken back in
    file order. An import does this and stores what it checked: this and the storing floor
    are the two halves that bound its pace. The workers' start is timed, as an import's
    is. ``store`` only makes the importing archive (the workers open its database, as an
    import's do): nothing is read from it or written to it."""
    from recorder.api.archive import schema_check
    from recorder.archive import parallel
    from recorder.archive.importer import file_logs, import_job, importing_archive, ndjson_frame, ndjson_worker_reports
    from recorder.archive.transfer import GameReport

    archive = importing_archive(store, "bench", schema_check)
    job = import_job(archive, store=False)
    started = time.perf_counter()
    framed, events = ndjson_frame(path)
    in_workers = job is not None and parallel.worth_workers(jobs, events)
    if job is not None and in_workers:
        reports = ndjson_worker_reports(job, path, framed, jobs)
    else:
        checked = map(archive.check_log, file_logs(path, framed))
        reports = (done if isinstance(done, GameReport) else done.checked() for done in checked)
    refused = sum(report.status == "refused" for report in reports)
    seconds = time.perf_counter() - started
    if refused:
        raise RuntimeError(f"the check refused {refused} of the exported archive's games")
    return seconds, jobs if in_workers else 1


def store_floor(source: str, floor: str) -> float:
    """Seconds to store ``source``'s games again in the fresh database ``floor`` by SQL
    alone: each batch of ``FLOOR_BATCH_GAMES`` games' streams, events, games list rows and
    positions copied by ``INSERT … SELECT`` in one transaction, through the same schema and
    append-only trigger, with the batch's settings an import's batch has; then the queued
    positions indexed by ``PositionIndex.index_pending``, as an import's are. No line is
    read and no event checked, so this is what SQLite alone needs to store what an import
    stores: with the check ceiling, what bounds an import's pace on this machine."""
    from recorder.games.caches import PositionIndex
    from recorder.store.sqlite import SQLiteEventStore

    with contextlib.closing(SQLiteEventStore(floor)) as store:
        db = store.handle()
        db.execute("ATTACH DATABASE ? AS source", (source,))
        ids = [row[0] for row in db.execute("SELECT stream_id FROM source.streams ORDER BY rowid")]
        started = time.perf_counter()
        for first in range(0, len(ids), FLOOR_BATCH_GAMES):
            with store.batch():  # an import batch's transaction and settings
                _copy_rows(db, ids[first : first + FLOOR_BATCH_GAMES])
        PositionIndex(store).index_pending()
        seconds = time.perf_counter() - started
        copied, expected = (
            db.execute(f"SELECT count(*) FROM {schema}.events").fetchone()[0] for schema in ("main", "source")
        )
        if copied != expected:
            raise RuntimeError(f"the storing floor copied {copied} events of {expected}")
        db.execute("DETACH DATABASE source")
    return seconds


_FLOOR_EVENT_COLUMNS = f"{_EVENT_COLUMNS}, line"
_FLOOR_COPIES = (
    "INSERT INTO streams (stream_id, stream_type, created_at)"
    " SELECT stream_id, stream_type, created_at FROM source.streams WHERE stream_id IN ({})",
    f"INSERT INTO events ({_FLOOR_EVENT_COLUMNS}) SELECT {_FLOOR_EVENT_COLUMNS} FROM source.events"
    " WHERE game_id IN ({}) ORDER BY game_id, seq",
    "INSERT INTO games SELECT * FROM source.games WHERE game_id IN ({})",  # both made by create_schema
    "INSERT INTO position_games (game, game_id) SELECT game, game_id FROM source.position_games WHERE game_id IN ({})",
    "INSERT INTO positions_pending (key_high, key_low, game, seq) SELECT key_high, key_low, game, seq"
    " FROM source.positions WHERE game IN (SELECT game FROM source.position_games WHERE game_id IN ({}))",
)


def _copy_rows(db, batch: list[str]) -> None:
    marks = ", ".join("?" * len(batch))
    for statement in _FLOOR_COPIES:
        db.execute(statement.format(marks), batch)  # the games' numbers kept: the target starts empty


def _read_through(path: str, chunk: int = 8 << 20) -> tuple[int, float]:
    """A file read from start to end, (bytes, seconds): afterwards its pages are in the
    operating system's cache, as a database in use is, whether it came from the cache
    folder (untouched since an earlier run) or was built a moment ago."""
    started, size = time.perf_counter(), 0
    with open(path, "rb", buffering=0) as handle:
        while block := handle.read(chunk):
            size += len(block)
    return size, time.perf_counter() - started


def _verify(store, target: str) -> tuple[float, int]:
    """``recorder verify``'s walk with its default jobs: every stream in the events table,
    ranges of streams verified in worker processes (recorder/audit/walk.py). Returns the
    seconds, the start of the workers included, and how many processes it ran in."""
    from recorder.audit.walk import checked_streams, processes_for, streams_to_walk
    from recorder.workers import default_jobs

    streams, jobs = streams_to_walk(store), default_jobs()
    failed = 0
    started = time.perf_counter()
    for checked in checked_streams(store, target, streams, jobs):
        failed += sum(not ok for _, _, ok in checked)
    seconds = time.perf_counter() - started
    if failed:
        raise RuntimeError(f"{failed} streams of the imported archive did not verify")
    return seconds, processes_for(streams, jobs)


def _events_of(store) -> int:
    from recorder.games.games_list import GamesList

    return sum(store.version(game_id) for game_id in GamesList(store).iter_ids())


def _timed(work) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def _pages(recorder, players: int = 20) -> list[float]:
    """Each page of 50 of a player's, then an event's, games, in ms: the rows ``GET
    /api/games?player=…&after=…`` answers with, each page continuing from the last by keyset."""
    timings = []
    filters = [{"player": player} for player in PLAYERS[:players]] + [{"event": event} for event in EVENTS[:players]]
    for chosen in filters:
        after = None
        while True:
            started = time.perf_counter()
            page = recorder.games.page(**chosen, limit=50, after=after)
            timings.append((time.perf_counter() - started) * 1000)
            if len(page) < 50:
                break
            after = (page[-1]["created_at"], page[-1]["game_id"])
    return timings


def _searches(recorder, count: int = 200, seed: int = 7) -> list[float]:
    from recorder.projections import search

    rng = random.Random(seed)
    keys = sorted(_reached_keys(recorder))
    timings = []
    for key in (rng.choice(keys) for _ in range(count if keys else 0)):
        started = time.perf_counter()
        search(recorder, key)
        timings.append((time.perf_counter() - started) * 1000)
    return timings


def _reached_keys(recorder, limit: int = 5000) -> set[str]:
    """Up to ``limit`` distinct position keys, from every position the first games of the
    list reached (the index holds digests, not texts): start positions, reached by every
    game of their variant, among them."""
    from recorder.rules.position_text import position_key

    keys: set[str] = set()
    for game_id in recorder.games.iter_ids():
        keys.update(position_key(game.rules, game.state) for game in recorder.history(game_id))
        if len(keys) >= limit:
            break
    return keys
