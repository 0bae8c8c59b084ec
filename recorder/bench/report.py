"""Run each bench section and print its figures beside the targets."""

from __future__ import annotations

import os
import platform
from collections.abc import Callable

from .plan import (
    APPEND_TARGET_P99_MS,
    APPEND_TARGET_PER_SECOND,
    ENGINE_TARGETS,
    EXPORT_FLAT_RATIO,
    EXPORT_TARGET_PER_SECOND,
    READ_TARGET_RATIO,
    SERVED,
    Plan,
    verdict,
)

Echo = Callable[[str], None]


def machine() -> str:
    return f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores"


def engine(plan: Plan, echo: Echo) -> None:
    from recorder.rules import VARIANTS

    from . import engine as bench_engine

    echo(
        f"engine: seeded random legal playouts, move generation included ({machine()}, "
        f"~{plan.engine_seconds:g} s per variant)"
    )
    echo("  laps counted by replaying the same playout untimed with a trace (1 + relays per sowing)")
    for name, rules_class in VARIANTS.items():
        figures = bench_engine.measure(rules_class({}), seconds=plan.engine_seconds)
        target = ENGINE_TARGETS.get(name)
        goal = f"target ≥ {target:,} laps/s  {verdict(figures.laps_per_second >= target)}" if target else "no target"
        echo(
            f"  {name:15s} {figures.laps_per_second:>10,.0f} laps/s {figures.sowings_per_second:>10,.0f} sowings/s"
            f"  ({figures.games} games, {figures.sowings:,} sowings)  {goal}"
        )
    for name in sorted(set(ENGINE_TARGETS) - set(VARIANTS)):
        echo(f"  {name:15s} not registered: no figure")


def api(plan: Plan, echo: Echo) -> None:
    from . import appends

    echo(
        f"api append: {appends.CLIENTS} clients recording different Qelat games, keep-alive HTTP/1.1, "
        f"{SERVED.describe()}, {plan.append_seconds:g} s or {plan.append_requests:,} requests"
    )
    backends = [("SQLite", None)] + ([("PostgreSQL", plan.postgres)] if plan.postgres else [])
    for name, database in backends:
        figures = appends.measure(
            seconds=plan.append_seconds, max_requests=plan.append_requests, config=SERVED, database=database
        )
        met = figures.per_second >= APPEND_TARGET_PER_SECOND and figures.p99_ms <= APPEND_TARGET_P99_MS
        echo(
            f"  {name + ':':<12}{figures.per_second:,.0f} appends/s  p50 {figures.p50_ms:.1f} ms"
            f"  p99 {figures.p99_ms:.1f} ms  ({figures.tally.requests:,} appends, {figures.refused} not 201)"
            f"  target ≥ {APPEND_TARGET_PER_SECOND:,}/s, p99 ≤ {APPEND_TARGET_P99_MS:g} ms  {verdict(met)}"
        )
        server_us = figures.cpu_per_append_us(figures.server_cpu)
        client_us = figures.cpu_per_append_us(figures.client_cpu)
        if server_us is not None:
            echo(
                f"  {'':<12}CPU per append: app server {server_us:,.0f} µs, load generator {client_us:,.0f} µs "
                f"(both share this machine's {os.cpu_count()} cores{'' if database is None else ' with PostgreSQL'})"
            )


def read(plan: Plan, echo: Echo) -> None:
    from . import reads

    echo(f"read: GET /api/games/ID/state, one client, {plan.read_requests} reads per game, {SERVED.describe()}")
    echo("  games: Qelat setup + random legal sowings (+ annotations up to 1,000 events)")
    figures = reads.measure(requests=plan.read_requests, config=SERVED)
    met = figures.warm_ratio <= READ_TARGET_RATIO
    echo(
        f"  {reads.SHORT:>5} events: {figures.warm_ms[reads.SHORT]:.2f} ms   "
        f"{reads.LONG:,} events: {figures.warm_ms[reads.LONG]:.2f} ms   ratio {figures.warm_ratio:.2f}"
        f"  target ≤ {READ_TARGET_RATIO:g}×  {verdict(met)}"
    )
    echo(
        f"  cold (cache dropped, full fold, in-process): {figures.cold_ms[reads.SHORT]:.2f} ms vs "
        f"{figures.cold_ms[reads.LONG]:.2f} ms, ratio {figures.cold_ratio:.1f} (no target: each worker folds once)"
    )


def export(plan: Plan, echo: Echo) -> None:
    from . import exports

    if not exports.available():
        echo("export: not available (no export feature in this build)")
        return
    echo(f"export: {exports.describe()}")
    measured = exports.measure(plan.export_sizes)
    for figures in measured.pop(exports.REFERENCE):
        echo(
            f"  ceiling  {figures.games:>6,} games: {figures.per_second:>6,.0f} games/s "
            f"{figures.events_per_second:>8,.0f} events/s  (a bare loop writing one stored column per event,"
            " the same database now: no target, read the figures below against it)"
        )
    for fmt, results in measured.items():
        for figures in results:
            met = figures.per_second >= EXPORT_TARGET_PER_SECOND
            echo(
                f"  {fmt:8s} {figures.games:>6,} games ({figures.events:,} events): "
                f"{figures.per_second:>6,.0f} games/s {figures.events_per_second:>8,.0f} events/s  "
                f"peak {figures.peak_mib:.1f} MiB (at start {figures.baseline_mib:.1f})  "
                f"target ≥ {EXPORT_TARGET_PER_SECOND:,} games/s  {verdict(met)}"
            )
        small, large = results[0], results[-1]
        ratio = large.peak_mib / small.peak_mib
        echo(
            f"  {fmt:8s} peak memory {large.games:,} vs {small.games:,} games: ratio {ratio:.2f}"
            f"  target flat (≤ {EXPORT_FLAT_RATIO:g}×)  {verdict(ratio <= EXPORT_FLAT_RATIO)}"
        )
