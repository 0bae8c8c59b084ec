"""The bench's sections, targets and run lengths."""

from __future__ import annotations

from dataclasses import dataclass

from recorder import gunicorn_conf as conf

from .server import GunicornConfig

SECTIONS = ("engine", "api", "read", "export", "cost", "dossier", "pairing", "live", "hall", "players", "archive")
DEFAULT_SECTIONS = SECTIONS[:-1]  # the archive section takes hours: only when asked for

# Targets: engine laps per second, append throughput and latency, read and export ratios.
# Engine laps per second: Qelat twice Ludii's; the others at least where the pure engine was
# (measured under some load). docs/engine.md: compiled by `recorder engine build`.
ENGINE_TARGETS = {"qelat": 600_000, "selus": 124_000, "gabata": 163_000, "lahemay_walida": 152_000, "tuz": 175_000}
APPEND_TARGET_PER_SECOND = 1_100
APPEND_TARGET_P99_MS = 50.0
READ_TARGET_RATIO = 1.5  # latest-state read at 1,000 events / at 10 events
EXPORT_TARGET_PER_SECOND = 5_000
EXPORT_FLAT_RATIO = 1.10  # peak memory at 10,000 games / at 1,000 games ("flat")
LIVE_TARGET_MS = 1_000  # p99: a recorded move reaches every open live stream within a second
LIVE_TARGET_SPECTATORS = 5_000  # open streams at once on this machine, none refused, no move lost
LIVE_APPEND_RATIO = 1.5  # the appends' p99 with the spectators watching / with nobody watching
PAIRING_TARGETS_MS = {16: None, 100: 50.0, 500: None, 1_000: 2_000.0}  # per Swiss round, by players
PAIRING_IDENTITY_TARGET = 0.99  # rounds paired exactly as the reference engine did, at every size
IMPORT_TARGET_EVENTS = 60_000  # validated import, events per second
VERIFY_TARGET_EVENTS = 100_000
PAGE_TARGET_P99_MS = 50.0  # a page of a player's games, and a position search
RATINGS_REBUILD_TARGET_SECONDS = 20.0  # every published list of 10,000 players and 100,000 rated games
RATINGS_REFLECT_TARGET_MS = 100.0  # a new result in this month's list
PLAYER_SEARCH_TARGET_P99_MS = 50.0  # a search of 10,000 players

COST_TARGET_SECONDS = 0.5  # each per-game endpoint on the 12,151-event game with 6,000 retractions
DOSSIER_TARGET_SECONDS = 2.0  # an appeal dossier of a 1,500-event game, built
DOSSIER_TARGET_BYTES = 1_000_000  # and its size
COST_TARGET_RATIO = 3.0  # its time per event / a plain 1,500-event game's
FAIRNESS_TARGET_P99_MS = 250.0  # appends to other games while four expensive reads run
HALL_APPEND_P99_MS = 150.0  # recorder serve: 50 boards' appends beside spectators and four heavy readers
HALL_APPEND_RATIO = 3.0  # the appends' p99 with the heavy readers / without them, in the same run
HALL_SPECTATORS = 500
HALL_LONG_GAME_PAIRS = 9_925  # the heavy readers' game: 151 events, then as many pairs of a sowing and its retraction

# The served configuration the bench measures (docs/deployment.md recommends the same):
# gthread workers, so a long export or an expensive read holds one thread, never a whole
# worker, and the worker's heartbeat (what --timeout watches) keeps beating meanwhile.
SERVED = GunicornConfig(
    workers=conf.workers,
    threads=conf.threads,
    worker_class=conf.worker_class,
    timeout=conf.timeout,
    graceful_timeout=conf.graceful_timeout,
    config="python:recorder.gunicorn_conf",
)


@dataclass(frozen=True)
class Plan:
    """How long each section runs: ``quick`` for a smoke run, the default for figures."""

    engine_seconds: float
    append_seconds: float
    append_requests: int
    read_requests: int
    export_sizes: tuple[int, int]
    cost_repeats: int
    pairing_rounds: int
    live_spectators: int
    archive_games: int
    postgres: str | None = None  # a scratch PostgreSQL database: the api section runs on it too
    players: tuple[int, int] = (10_000, 100_000)  # the players section's registry and rated games
    # Each run of moves of the live section, with and without spectators: long enough for
    # the appends' p99 to be the twelfth slowest, short enough that the spectators' streams
    # (LIVE_MAX_SECONDS, opened during the ramp) outlast the watched run.
    live_seconds: float = 180.0
    # The hall section: its spectators, each run of moves, and the long game's pairs
    # (20,001 events in all). Both runs and the ramp fit within a stream's 300 s.
    hall: tuple[int, float, int] = (HALL_SPECTATORS, 60.0, HALL_LONG_GAME_PAIRS)
    clocks: bool = False  # every sowing and decision the api, export and archive sections record carries a reading

    @classmethod
    def make(cls, quick: bool, append_seconds: float | None = None) -> Plan:
        if quick:
            quick_players = (1_000, 5_000)
            quick_hall = (100, 8.0, 1_000)
            return cls(
                0.5,
                append_seconds or 3.0,
                20_000,
                100,
                (100, 1_000),
                1,
                3,
                500,
                200,
                None,
                quick_players,
                10.0,
                quick_hall,
            )
        return cls(3.0, append_seconds or 10.0, 100_000, 500, (1_000, 10_000), 3, 9, LIVE_TARGET_SPECTATORS, 100_000)


def verdict(met: bool) -> str:
    return "MET" if met else "MISSED"


def parse_sections(only: str) -> tuple[str, ...]:
    chosen = tuple(part.strip() for part in only.split(",") if part.strip())
    unknown = [part for part in chosen if part not in SECTIONS]
    if unknown:
        raise ValueError(f"unknown section {unknown[0]!r}; choose from {', '.join(SECTIONS)}")
    return chosen
