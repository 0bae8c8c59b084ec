"""The bench's sections, targets and run lengths."""

from __future__ import annotations

from dataclasses import dataclass

from .server import GunicornConfig

SECTIONS = ("engine", "api", "read", "export")

# Targets: engine laps per second, append throughput and latency, read and export ratios.
ENGINE_TARGETS = {"qelat": 300_000, "tuz": 100_000, "selus": 120_000}  # laps per second
APPEND_TARGET_PER_SECOND = 1_100
APPEND_TARGET_P99_MS = 50.0
READ_TARGET_RATIO = 1.5  # latest-state read at 1,000 events / at 10 events
EXPORT_TARGET_PER_SECOND = 5_000
EXPORT_FLAT_RATIO = 1.10  # peak memory at 10,000 games / at 1,000 games ("flat")

# The served configuration the bench measures (docs/deployment.md recommends the same).
SERVED = GunicornConfig(workers=2)


@dataclass(frozen=True)
class Plan:
    """How long each section runs: ``quick`` for a smoke run, the default for figures."""

    engine_seconds: float
    append_seconds: float
    append_requests: int
    read_requests: int
    export_sizes: tuple[int, int]
    postgres: str | None = None  # a scratch PostgreSQL database: the api section runs on it too

    @classmethod
    def make(cls, quick: bool, append_seconds: float | None = None) -> Plan:
        if quick:
            return cls(0.5, append_seconds or 3.0, 20_000, 100, (100, 1_000))
        return cls(3.0, append_seconds or 10.0, 100_000, 500, (1_000, 10_000))


def verdict(met: bool) -> str:
    return "MET" if met else "MISSED"


def parse_sections(only: str) -> tuple[str, ...]:
    chosen = tuple(part.strip() for part in only.split(",") if part.strip())
    unknown = [part for part in chosen if part not in SECTIONS]
    if unknown:
        raise ValueError(f"unknown section {unknown[0]!r}; choose from {', '.join(SECTIONS)}")
    return chosen
