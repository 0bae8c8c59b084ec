"""Run each bench section and print its figures beside the targets."""

from __future__ import annotations

import os
import platform
from collections.abc import Callable

from .plan import (
    APPEND_TARGET_P99_MS,
    APPEND_TARGET_PER_SECOND,
    COST_TARGET_RATIO,
    COST_TARGET_SECONDS,
    DOSSIER_TARGET_BYTES,
    DOSSIER_TARGET_SECONDS,
    ENGINE_TARGETS,
    EXPORT_FLAT_RATIO,
    EXPORT_TARGET_PER_SECOND,
    FAIRNESS_TARGET_P99_MS,
    HALL_APPEND_P99_MS,
    HALL_APPEND_RATIO,
    IMPORT_TARGET_EVENTS,
    LIVE_APPEND_RATIO,
    LIVE_TARGET_MS,
    LIVE_TARGET_SPECTATORS,
    PAGE_TARGET_P99_MS,
    PAIRING_IDENTITY_TARGET,
    PAIRING_TARGETS_MS,
    PLAYER_SEARCH_TARGET_P99_MS,
    RATINGS_REBUILD_TARGET_SECONDS,
    RATINGS_REFLECT_TARGET_MS,
    READ_TARGET_RATIO,
    SERVED,
    VERIFY_TARGET_EVENTS,
    Plan,
    verdict,
)

Echo = Callable[[str], None]


def machine() -> str:
    return f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores"


def engine(plan: Plan, echo: Echo) -> None:
    from recorder.engine import current as current_engine
    from recorder.rules import VARIANTS

    from . import engine as bench_engine
    from .pure import measure_pure

    echo(
        f"engine: seeded random legal playouts, move generation included ({machine()}, "
        f"~{plan.engine_seconds:g} s per variant)"
    )
    echo("  laps counted by replaying the same playout untimed with a trace (1 + relays per sowing);")
    echo("  'of a core': the CPU this process had while timed (below 100 %, other load slowed the figure)")
    ran = current_engine()
    echo(f"  rules engine: {ran.describe()}")
    if ran.kind == "compiled":
        echo("  pure: the same playouts right after, in a second interpreter on the pure modules")
    for name, rules_class in VARIANTS.items():
        figures = bench_engine.measure(rules_class({}), seconds=plan.engine_seconds)
        pure = ""
        if ran.kind == "compiled":
            slow = measure_pure(name, plan.engine_seconds)
            ratio = figures.laps_per_second / slow.laps_per_second
            pure = f"  pure {slow.laps_per_second:>9,.0f} laps/s ({slow.cpu_share:.0%} of a core; {ratio:.1f}×)"
        target = ENGINE_TARGETS.get(name)
        goal = f"target ≥ {target:,} laps/s  {verdict(figures.laps_per_second >= target)}" if target else "no target"
        echo(
            f"  {name:15s} {figures.laps_per_second:>10,.0f} laps/s {figures.sowings_per_second:>10,.0f} sowings/s"
            f"  ({figures.games} games, {figures.sowings:,} sowings, {figures.cpu_share:.0%} of a core){pure}  {goal}"
        )
    for name in sorted(set(ENGINE_TARGETS) - set(VARIANTS)):
        echo(f"  {name:15s} not registered: no figure")


def api(plan: Plan, echo: Echo) -> None:
    from . import appends

    echo(
        f"api append: {appends.CLIENTS} clients recording different Qelat games, keep-alive HTTP/1.1, "
        f"{SERVED.describe()}, {plan.append_seconds:g} s or {plan.append_requests:,} requests"
        + (", each sowing with a clock reading" if plan.clocks else "")
    )
    backends = [("SQLite", None)] + ([("PostgreSQL", plan.postgres)] if plan.postgres else [])
    for name, database in backends:
        figures = appends.measure(
            seconds=plan.append_seconds,
            max_requests=plan.append_requests,
            config=SERVED,
            database=database,
            clocks=plan.clocks,
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
    echo(f"export: {exports.describe()}" + (", each sowing and decision with a clock reading" if plan.clocks else ""))
    measured = exports.measure(plan.export_sizes, plan.clocks)
    for figures in measured.pop(exports.REFERENCE):
        echo(
            f"  bare loop {figures.games:>5,} games: {figures.per_second:>6,.0f} games/s "
            f"{figures.events_per_second:>8,.0f} events/s  (a query per game, each event's stored line written"
            " as read, the same database now: no target, a yardstick for how loaded the machine is)"
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


def pairing(plan: Plan, echo: Echo) -> None:
    from . import pairing as bench_pairing

    echo(
        f"pairing: seeded Swiss events, {plan.pairing_rounds} rounds, random results with draws, "
        f"each round paired by the Dutch system (FIDE C.04.3) and timed ({machine()})"
    )
    echo("  wall clock, and CPU time of this process (the machine is shared: CPU time is what a round costs)")
    for players, target in PAIRING_TARGETS_MS.items():
        f = bench_pairing.measure(players, plan.pairing_rounds)
        goal = "no target"
        if target:
            wall, cpu = verdict(f.max_ms <= target), verdict(f.cpu_max_ms <= target)
            goal = f"target ≤ {target:,.0f} ms: wall {wall}, CPU {cpu}"
        echo(
            f"  {players:>4} players: wall {f.mean_ms:>7,.1f} ms per round (slowest {f.max_ms:,.1f}), "
            f"CPU {f.cpu_mean_ms:>7,.1f} ms (slowest {f.cpu_max_ms:,.1f})  {goal}"
        )
    pairing_identity(echo)


def pairing_identity(echo: Echo) -> None:
    from . import pairing as bench_pairing

    if not (bench_pairing.CORPUS / "expected.json").exists():
        echo("  identity: the reference corpus (fixtures/pairings) is not here; not measured")
        return
    echo(
        "  identity with a FIDE-endorsed engine (bbpPairings, the 2026 Dutch rules) over the reference corpus "
        "(fixtures/pairings): same pairs, seats, bye and board order, each round from the rounds before it"
    )
    for band in bench_pairing.identity():
        kinds = ", ".join(f"{kind} {count}" for kind, count in band.kinds.most_common()) or "none"
        met = verdict(band.rate >= PAIRING_IDENTITY_TARGET)
        echo(
            f"  {band.low:>3}-{band.high:<3} players ({band.tournaments} events): {band.identical:>4} of "
            f"{band.rounds:>4} rounds identical, {100 * band.rate:5.1f}%  target ≥ "
            f"{100 * PAIRING_IDENTITY_TARGET:g}%  {met}  (the others differ in: {kinds})"
        )


def cost(plan: Plan, echo: Echo) -> None:
    from . import cost as bench_cost

    echo(
        f"cost: every per-game endpoint, {bench_cost.VARIANT} games built through the store, one client, "
        f"{SERVED.describe()}, median of {plan.cost_repeats}"
    )
    echo(
        f"  adversarial: setup, {bench_cost.ADVERSARIAL_SOWINGS} moves, {bench_cost.ADVERSARIAL_PAIRS:,} x "
        f"{{sowing, retract 1}}; plain: {bench_cost.PLAIN_EVENTS:,} events, no retraction"
    )
    figures = bench_cost.measure(repeats=plan.cost_repeats, config=SERVED, fairness_seconds=plan.append_seconds)
    events = figures.events
    echo(
        f"  {'endpoint':22s} {events['adversarial']:,} ev.  {events['plain']:,} ev.  per event"
        "  | server CPU: adversarial  plain  per event"
    )
    for name, wall in figures.seconds.items():
        cpu = figures.cpu[name]
        ratio, cpu_ratio = figures.per_event_ratio(name), figures.per_event_ratio(name, cpu=True)
        met = wall["adversarial"] <= COST_TARGET_SECONDS and ratio <= COST_TARGET_RATIO
        cpu_met = cpu["adversarial"] <= COST_TARGET_SECONDS and cpu_ratio <= COST_TARGET_RATIO
        echo(
            f"  {name:22s} {wall['adversarial']:>7.3f} s {wall['plain']:>7.3f} s {ratio:>6.2f}x"
            f"  | {cpu['adversarial']:>7.3f} s {cpu['plain']:>6.3f} s {cpu_ratio:>5.2f}x"
            f"  target ≤ {COST_TARGET_SECONDS:g} s, ≤ {COST_TARGET_RATIO:g}x:"
            f" wall {verdict(met)}, CPU {verdict(cpu_met)}"
        )
    echo(
        f"  (the machine's load average was {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores: wall times include "
        "waiting for a core; on an idle machine wall ≈ CPU)"
    )
    fair = figures.fairness
    if fair is not None:
        met = fair.p99_ms <= FAIRNESS_TARGET_P99_MS and fair.appends.failures == 0
        echo(
            f"  fairness: {fair.appends.requests:,} appends to other games while 4 clients read /moves and /verify "
            f"({fair.reads.requests} reads): p50 {fair.appends.percentile(50) * 1000:.0f} ms, "
            f"p99 {fair.p99_ms:.0f} ms  target p99 ≤ {FAIRNESS_TARGET_P99_MS:g} ms  {verdict(met)}"
        )


def dossier(plan: Plan, echo: Echo) -> None:
    from . import dossier as bench_dossier

    for line in dossier_lines(bench_dossier.measure(repeats=plan.cost_repeats), plan.cost_repeats):
        echo(line)


def dossier_lines(figures, repeats: int) -> list[str]:
    """The dossier's build time and size beside their targets, and its offline check."""
    from .dossier import DISPUTED, cost

    built, size = figures.build_seconds, figures.size_bytes
    checked = "every part verified" if figures.verified else "a part FAILED"
    return [
        f"dossier: the appeal dossier of a {figures.events:,}-event {cost.VARIANT} game, "
        f"{DISPUTED} moves traced and one what-if, median of {repeats} builds",
        f"  built in {built:.3f} s  target ≤ {DOSSIER_TARGET_SECONDS:g} s  {verdict(built <= DOSSIER_TARGET_SECONDS)}",
        f"  {size:,} bytes  target ≤ {DOSSIER_TARGET_BYTES:,} bytes  {verdict(size <= DOSSIER_TARGET_BYTES)}",
        f"  checked offline (recorder verify --dossier) in {figures.check_seconds:.3f} s: {checked}",
    ]


def live(plan: Plan, echo: Echo) -> None:
    from . import live as bench_live

    echo(
        f"live: {plan.live_spectators:,} spectators (SSE on loopback, an asyncio load generator) over "
        f"{bench_live.GAMES} games, each game a move every ~{bench_live.MOVE_EVERY:g} s from its recording client, "
        f"{plan.live_seconds:g} s with nobody watching then {plan.live_seconds:g} s watched ({machine()})"
    )
    figures = bench_live.measure(spectators=plan.live_spectators, seconds=plan.live_seconds)
    echo(f"  served: {figures.servers}; {figures.cores}")
    for line in live_lines(figures):
        echo(line)


def spread(tally, q: float) -> str:
    return f"{tally.percentile(q) * 1000:.1f}"


def live_lines(figures) -> list[str]:
    """The live section's figures, each beside its target (a quick run opens fewer spectators than the target)."""
    p50, p99 = figures.delivery_at(50) * 1000, figures.delivery_at(99) * 1000
    worst = figures.delivery[-1] * 1000 if figures.delivery else float("nan")
    alone, watched = figures.alone.percentile(99) * 1000, figures.watched.percentile(99) * 1000
    ratio = watched / alone if alone else float("nan")
    per_stream = figures.bytes_per_stream / 1024
    held = figures.admitted >= LIVE_TARGET_SPECTATORS and figures.refused == 0 and figures.failed == 0
    appends_ok = figures.alone.failures == 0 and figures.watched.failures == 0 and ratio <= LIVE_APPEND_RATIO
    return [
        f"  spectators open at once: {figures.admitted:,} of {figures.spectators:,} "
        f"(opened in {figures.ramp_seconds:.0f} s), {figures.refused} refused, {figures.failed} failed  "
        f"target {LIVE_TARGET_SPECTATORS:,}, 0 refused  {verdict(held)}",
        f"  move to every spectator: p50 {p50:.0f} ms  p99 {p99:.0f} ms  max {worst:.0f} ms "
        f"({len(figures.delivery):,} deliveries)  target p99 ≤ {LIVE_TARGET_MS:,} ms  "
        f"{verdict(bool(figures.delivery) and p99 <= LIVE_TARGET_MS)}",
        f"  moves lost: {figures.lost} of {figures.lost + len(figures.delivery):,} (spectator, move) pairs  "
        f"target 0  {verdict(figures.lost == 0 and bool(figures.delivery))}",
        f"  append p99: {alone:.1f} ms with nobody watching ({figures.alone.requests} appends), "
        f"{watched:.1f} ms watched ({figures.watched.requests}): {ratio:.2f}×  target ≤ {LIVE_APPEND_RATIO:g}×  "
        f"{verdict(appends_ok)}",
        f"    (p50 {spread(figures.alone, 50)} → {spread(figures.watched, 50)} ms, "
        f"p90 {spread(figures.alone, 90)} → {spread(figures.watched, 90)} ms; the database {figures.database})",
        f"  memory per open stream: {per_stream:.0f} kB (live process {figures.rss_before / 2**20:.0f} MB "
        f"→ {figures.rss_open / 2**20:.0f} MB); live process CPU while watched: "
        f"{figures.live_cpu / figures.seconds * 100:.0f} % of a core",
    ]


def hall(plan: Plan, echo: Echo) -> None:
    from . import hall as bench_hall

    spectators, seconds, pairs = plan.hall
    echo(
        f"hall: recorder serve (as the README starts it), {bench_hall.BOARDS} boards each a move every "
        f"~{bench_hall.MOVE_EVERY:g} s, {spectators:,} live spectators; {seconds:g} s of moves, then {seconds:g} s "
        f"with {bench_hall.READERS} anonymous clients looping on verify, what-if, trace and export of a "
        f"{bench_hall.SETUP_EVENTS + 2 * pairs:,}-event game ({machine()})"
    )
    for line in hall_lines(bench_hall.measure(spectators=spectators, seconds=seconds, pairs=pairs)):
        echo(line)


def hall_lines(figures) -> list[str]:
    """The hall section's figures, each beside its target."""
    quiet, loaded = figures.quiet.percentile(99) * 1000, figures.loaded.percentile(99) * 1000
    ratio = loaded / quiet if quiet else float("nan")
    met = loaded <= HALL_APPEND_P99_MS and ratio <= HALL_APPEND_RATIO and figures.refused_requests == 0
    return [
        f"  append p99: {quiet:.1f} ms without the heavy readers ({figures.quiet.requests} appends), "
        f"{loaded:.1f} ms with them ({figures.loaded.requests}): {ratio:.2f}×  "
        f"target ≤ {HALL_APPEND_P99_MS:g} ms and ≤ {HALL_APPEND_RATIO:g}×  {verdict(met)}",
        f"    (p50 {spread(figures.quiet, 50)} → {spread(figures.loaded, 50)} ms, "
        f"max {max(figures.quiet.latencies, default=float('nan')) * 1000:.1f} → "
        f"{max(figures.loaded.latencies, default=float('nan')) * 1000:.1f} ms; the database {figures.database})",
        f"  spectators held: {figures.admitted:,} of {figures.spectators:,}; heavy reads answered: "
        f"{figures.reads.statuses.get(200, 0)} (p50 {spread(figures.reads, 50)} ms); requests refused: "
        f"{figures.refused_requests}  target 0  {verdict(figures.refused_requests == 0)}",
    ]


def players(plan: Plan, echo: Echo) -> None:
    from . import players as bench_players

    count, games = plan.players
    echo(
        f"players: {count:,} registry players, {games:,} rated {bench_players.VARIANT} games over 12 months "
        f"(registered, tournaments created, games restored from NDJSON: the real paths) ({machine()})"
    )
    f = bench_players.measure(count, games)
    echo(f"  built in {f.build_seconds:,.1f} s")
    met = f.rebuild_seconds <= RATINGS_REBUILD_TARGET_SECONDS
    echo(
        f"  rating lists rebuilt: {f.rebuild_seconds:,.2f} s ({f.periods} months, {f.entries:,} entries)"
        f"  target ≤ {RATINGS_REBUILD_TARGET_SECONDS:g} s  {verdict(met)}"
    )
    slowest = max(f.reflect_ms)
    echo(
        f"  a new result in this month's list: p99 {f.reflect_p99_ms:,.1f} ms (median "
        f"{sorted(f.reflect_ms)[len(f.reflect_ms) // 2]:,.1f}, slowest {slowest:,.1f}) of {len(f.reflect_ms)}"
        f"  target ≤ {RATINGS_REFLECT_TARGET_MS:g} ms  {verdict(slowest <= RATINGS_REFLECT_TARGET_MS)}"
    )
    echo(
        f"  player search: p99 {f.search_p99_ms:,.2f} ms of {len(f.search_ms)} (a prefix, either script)"
        f"  target ≤ {PLAYER_SEARCH_TARGET_P99_MS:g} ms  {verdict(f.search_p99_ms <= PLAYER_SEARCH_TARGET_P99_MS)}"
    )
    met = f.duplicate_p99_ms <= PLAYER_SEARCH_TARGET_P99_MS
    echo(
        f"  duplicate check: p99 {f.duplicate_p99_ms:,.2f} ms of {len(f.duplicate_ms)} (a registered name misspelt:"
        f" {f.near_found} found)  target ≤ {PLAYER_SEARCH_TARGET_P99_MS:g} ms  {verdict(met)}"
    )


def archive(plan: Plan, echo: Echo) -> None:
    from . import archive as archive_bench

    cache = archive_bench.cache_folder()
    echo(
        f"archive: {plan.archive_games:,} games (fixture and seeded random games under seeded names, imported"
        + (", each sowing and decision with a clock reading" if plan.clocks else "")
        + "),"
        f" exported, imported, verified, listed, searched, then checked with nothing stored and stored with nothing"
        f" checked (the import's two ceilings); built sources kept in {cache}"
    )
    archive_bench.measure(plan.archive_games, cache=cache, echo=echo, steps=archive_lines(echo), clocks=plan.clocks)


def archive_lines(echo: Echo) -> dict[str, Callable]:
    """What prints each step's figure of the archive bench, as soon as it is measured."""
    from . import archive as archive_bench

    def built(figures) -> None:
        how = "from the cache" if figures.build_seconds is None else f"built in {figures.build_seconds:,.0f} s"
        echo(f"  source: {figures.games:,} games, {figures.events:,} events ({how})")

    def exported(figures) -> None:
        rate = figures.per_second("export", "games")
        met = verdict(rate >= EXPORT_TARGET_PER_SECOND)
        echo(f"  export NDJSON  {rate:>9,.0f} games/s  target ≥ {EXPORT_TARGET_PER_SECOND:,} games/s  {met}")
        mib, seconds = figures.source_bytes / 2**20, figures.seconds["read source"]
        echo(
            f"    (the source's {mib:,.0f} MiB read through first, in {seconds:.1f} s at {mib / seconds:,.0f} MiB/s:"
            " the export is timed on pages in the OS cache, a first read from disk is the disk's pace)"
        )

    def rate_line(step: str, target: int) -> Callable:
        def line(figures) -> None:
            rate = figures.per_second(step)
            echo(f"  {step:<14} {rate:>9,.0f} events/s  target ≥ {target:,} events/s  {verdict(rate >= target)}")

        return line

    def verify_line(figures) -> None:
        rate, processes = figures.per_second("verify"), figures.verify_processes
        ran = f"({processes} process{'es' * (processes != 1)})"
        met = verdict(rate >= VERIFY_TARGET_EVENTS)
        echo(f"  verify         {rate:>9,.0f} events/s {ran}  target ≥ {VERIFY_TARGET_EVENTS:,} events/s  {met}")

    def timings_line(label: str, attribute: str) -> Callable:
        def line(figures) -> None:
            timings = getattr(figures, attribute)
            worst = archive_bench.p99(timings)
            echo(
                f"  {label:<25} p99 {worst:.1f} ms over {len(timings)}  target ≤ {PAGE_TARGET_P99_MS:g} ms  "
                f"{verdict(worst <= PAGE_TARGET_P99_MS)}"
            )

        return line

    def cpu_line(step: str, report: Callable) -> Callable:
        """The step's line, then the CPU each event took in it, where the machine counts it."""

        def line(figures) -> None:
            report(figures)
            cpu = figures.cpu_per_event(step)
            if cpu is None:
                return
            busy = ""
            if step == "import":  # how near the import came to the bound: how much of the cores it used
                used = 100 * figures.busy_seconds[step] / (figures.seconds[step] * figures.cores)
                busy = f", the machine's {figures.cores} cores {used:.0f} % busy"
            echo(f"    ({cpu * 1e6:.1f} µs of CPU per event{busy})")

        return line

    def both_halves(figures) -> None:
        """What the check and the storing allow together: their CPU per event, on cores never idle."""
        check, store = figures.cpu_per_event("check ceiling"), figures.cpu_per_event("store floor")
        if check is None or store is None:
            return
        rate = figures.cores / (check + store)
        below = ", below its target" if rate < IMPORT_TARGET_EVENTS else ""
        echo(
            f"  both halves    {rate:>9,.0f} events/s  ({check * 1e6:.1f} + {store * 1e6:.1f} µs of CPU per event"
            f" on {figures.cores} cores never idle: the most an import of this code can reach here{below})"
        )

    def check_ceiling(figures) -> None:
        rate, processes = figures.per_second("check ceiling"), figures.check_processes
        below = ", below its target" if rate < IMPORT_TARGET_EVENTS else ""
        echo(
            f"  check ceiling  {rate:>9,.0f} events/s  (the exported file read and every game checked as the"
            f" import checks it, in {processes} worker process{'es' * (processes != 1)}, nothing stored:"
            f" the most an import can reach here{below})"
        )

    def store_floor(figures) -> None:
        rate = figures.per_second("store floor")
        below = ", below its target" if rate < IMPORT_TARGET_EVENTS else ""
        echo(
            f"  store floor    {rate:>9,.0f} events/s  (the imported rows stored again by SQL alone, no line read"
            f" and no event checked: the most an import can reach here{below})"
        )

    def floor_and_both_halves(figures) -> None:
        cpu_line("store floor", store_floor)(figures)
        both_halves(figures)

    def disk(figures) -> None:
        per_thousand = figures.bytes_on_disk / figures.games * 1000 / 2**20
        echo(f"  database on disk: {per_thousand:.1f} MiB per 1,000 games (no target)")

    return {
        "build": built,
        "export": exported,
        "import": cpu_line("import", rate_line("import", IMPORT_TARGET_EVENTS)),
        "verify": verify_line,
        "pages": timings_line("page by player or event", "page_ms"),
        "searches": timings_line("position search", "search_ms"),
        "check ceiling": cpu_line("check ceiling", check_ceiling),
        "store floor": floor_and_both_halves,
        "disk": disk,
    }
