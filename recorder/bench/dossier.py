"""The appeal dossier of a 1,500-event game: how long it takes to build, how large it is,
and how long a committee's offline check takes.

The game is the cost section's plain Selus game (``cost.plain``: random legal sowings and
the match decisions due, fixed seed), built straight through the store on a fresh
database. The dossier is built as ``GET /api/games/{id}/dossier`` builds it: the stored
events read, the record verified, the disputed moves traced (the last three sowings) and
one what-if replayed (Selus's ``empty_wegue_landing``), then signed.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass

from recorder.audit import dossier, dossier_check
from recorder.audit.checkpoints import SigningKey
from recorder.store import SQLiteEventStore

from . import cost

GAME_ID = "dossier"
DISPUTED = 3  # the sowings traced: the game's last three
WHAT_IF = {"empty_wegue_landing": "capture_seed"}  # SEL-9b against SEL-9c, the "Selus Problem"


@dataclass(frozen=True)
class DossierFigures:
    events: int
    build_seconds: float  # the median build, from reading the events to the signed bytes
    size_bytes: int
    check_seconds: float  # ``recorder verify --dossier``'s work on the file
    verified: bool


def measure(repeats: int = 3, events: int = cost.PLAIN_EVENTS) -> DossierFigures:
    with tempfile.TemporaryDirectory(prefix="recorder-bench-") as folder:
        store = SQLiteEventStore(os.path.join(folder, "dossier.sqlite3"))
        try:
            cost.build(store, GAME_ID, cost.setup_body("Dossier"), cost.plain(events))
            key = SigningKey.load_or_create(os.path.join(folder, "bench.ed25519"))
            builds = sorted(_built(store, key) for _ in range(repeats))
            count = len(store.read(GAME_ID))
        finally:
            store.close()
    seconds, data = builds[len(builds) // 2]
    started = time.perf_counter()
    findings = dossier_check.check(data)
    checked = time.perf_counter() - started
    return DossierFigures(count, seconds, len(data), checked, not dossier_check.failed(findings))


def _built(store: SQLiteEventStore, key: SigningKey) -> tuple[float, bytes]:
    started = time.perf_counter()
    stored = store.read(GAME_ID)
    sowings = [e.seq for e in stored if e.type == "sowed"][-DISPUTED:]
    data = dossier.build(key, GAME_ID, stored, moves=sowings, what_ifs=[WHAT_IF])
    return time.perf_counter() - started, data
