"""``recorder bench`` measures; these tests only pin what it counts and how it talks.

No timing is asserted: figures are printed by the command, never checked here.
"""

from __future__ import annotations

import os
import sys
import threading

import pytest
from werkzeug.serving import make_server

from recorder.bench import Plan, parse_sections
from recorder.bench.engine import count_laps, measure
from recorder.bench.loadgen import Budget, LeanConnection, Tally, record_games, run_clients
from recorder.bench.server import BENCH_TOKEN
from recorder.cli.main import main
from recorder.rules.gabata import Gabata
from recorder.rules.qelat import Qelat

pytestmark = pytest.mark.timeout(60)


def test_bench_counts_one_lap_per_qelat_sowing():
    figures = measure(Qelat({}), seconds=0.01, max_games=3)
    assert figures.games == 3
    assert figures.laps == figures.sowings > 0


def test_bench_counts_every_relay_as_a_lap():
    figures = measure(Gabata({}), seconds=0.01, max_games=5)
    assert figures.laps > figures.sowings > 0
    # The same seed and number of games replay the same playout (the timed pass may stop early under load).
    assert count_laps(Gabata({}), seed=2024, games=figures.games) == (figures.laps, figures.sowings)


@pytest.mark.parametrize("variant", ["selus", "gabata", "qelat", "lahemay_walida", "tuz"])
def test_the_timed_pass_plays_the_same_games_as_the_traced_one(variant):
    """The timed pass sows up to each decision in one call (rules.playout.random_sowings); the
    traced pass one sowing at a time: the same draws, so the same sowings and the same rng after."""
    import random

    from recorder.bench.engine import play_random_game
    from recorder.rules import find_variant

    rules = find_variant(variant)({})
    for seed in range(3):
        timed, traced = random.Random(seed), random.Random(seed)
        traces: list[list] = []
        sowings = play_random_game(rules, timed)
        assert sowings == play_random_game(rules, traced, traces.append) == len(traces) > 0
        assert timed.random() == traced.random()


def test_bench_sections_are_checked():
    assert parse_sections("engine, read") == ("engine", "read")
    with pytest.raises(ValueError):
        parse_sections("engine,speed")


def test_bench_refuses_an_unknown_section(runner):
    result = runner.invoke(main, ["bench", "--only", "speed"])
    assert result.exit_code == 2 and "unknown section" in result.output


def test_quick_plan_is_shorter_than_the_full_one():
    quick, full = Plan.make(True), Plan.make(False)
    assert quick.append_seconds < full.append_seconds and quick.export_sizes < full.export_sizes
    assert full.export_sizes == (1_000, 10_000)


def test_latency_percentiles_are_nearest_rank():
    tally = Tally(latencies=[i / 1000 for i in range(1, 101)])
    assert tally.percentile(50) == 0.050 and tally.percentile(99) == 0.099 and tally.percentile(100) == 0.100


@pytest.fixture
def served_app(app):
    """The app on loopback with werkzeug's server, which closes every connection; its admin
    token is the one the load generator sends (as the bench's gunicorn gets it)."""
    app.extensions["auth"].admin_token = BENCH_TOKEN
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()
    thread.join(timeout=10)


def test_the_load_generator_records_legal_moves_and_reconnects_when_closed(app, served_app):
    tally = run_clients(2, record_games(served_app, seed=1), Budget(seconds=30, requests=40))
    assert tally.statuses == {201: 40} and tally.failures == 0
    store, games = app.extensions["recorder"].store, app.extensions["recorder"].games
    assert sum(store.version(game_id) - 1 for game_id in games.iter_ids()) == 40


def test_the_load_generator_with_clocks_records_a_reading_on_every_sowing(app, served_app):
    tally = run_clients(2, record_games(served_app, seed=1, clocks=True), Budget(seconds=30, requests=20))
    assert tally.statuses == {201: 20} and tally.failures == 0
    store, games = app.extensions["recorder"].store, app.extensions["recorder"].games
    sowings = [e for game_id in games.iter_ids() for e in store.read(game_id) if e.type == "sowed"]
    assert len(sowings) == 20 and all(set(e.payload["clock"]) == {"south", "north"} for e in sowings)


def test_the_export_benchs_templates_with_clocks_carry_a_reading_on_every_move(tmp_path):
    from recorder.bench.exports import recorded_templates

    for events, _, notation in recorded_templates(str(tmp_path), clocks=True):
        moves = [e for e in events if e.type not in ("game_created", "annotated", "moves_retracted")]
        assert moves and all("clock" in e.payload for e in moves)
        assert "[%clk" in notation


def test_lean_connection_reads_json_and_problem_replies(served_app):
    connection = LeanConnection(served_app)
    assert connection.call("GET", "/api/variants").status == 200
    missing = connection.call("GET", "/api/games/nothing-here")
    assert missing.status == 404 and missing.body["status"] == 404
    connection.close()


def test_pairing_bench_pairs_every_round_of_a_seeded_swiss():
    from recorder.bench.pairing import measure as measure_pairing

    figures = measure_pairing(16, 4)
    assert figures.rounds == 4 and len(figures.seconds) == len(figures.cpu_seconds) == 4
    assert parse_sections("pairing") == ("pairing",)


def test_pairing_identity_counts_every_corpus_round_by_size(tmp_path):
    import json
    import shutil

    from conftest import FIXTURES

    from recorder.bench.pairing import identity

    corpus = FIXTURES / "pairings"
    expected = json.loads((corpus / "expected.json").read_text())
    chosen = {name: expected[name] for name in ("n008-1", "n013-1")}
    for name in chosen:
        shutil.copy(corpus / f"{name}.trf", tmp_path)
    (tmp_path / "expected.json").write_text(json.dumps(chosen))
    bands = {(b.low, b.high): b for b in identity(tmp_path)}
    small, middle = bands[(8, 12)], bands[(13, 21)]
    assert (small.tournaments, small.rounds) == (1, len(chosen["n008-1"]["rounds"]))
    assert (middle.tournaments, middle.rounds) == (1, len(chosen["n013-1"]["rounds"]))
    for band in (small, middle):
        assert band.identical + sum(band.kinds.values()) == band.rounds
    assert bands[(101, 200)].rounds == 0 and bands[(101, 200)].rate == 0.0


def test_the_archive_bench_builds_imports_and_searches_what_it_counts():
    from recorder.bench.archive import measure

    figures = measure(14)  # one copy of each fixture game
    assert figures.games == 14 and figures.events > 14 * 50
    assert set(figures.seconds) == {"read source", "export", "import", "verify", "check ceiling", "store floor"}
    assert all(s > 0 for s in figures.seconds.values()) and figures.source_bytes > 0
    assert len(figures.search_ms) == 200 and figures.page_ms and figures.bytes_on_disk > 0
    assert figures.verify_processes == 1  # 14 streams: fewer than one range, verified in process
    assert figures.check_processes == 1  # fewer events than are worth starting workers for
    if sys.platform.startswith("linux"):  # the machine's busy time, where the system counts it
        assert set(figures.busy_seconds) == {"import", "check ceiling", "store floor"} and figures.cores >= 1


def test_the_archive_bench_with_clocks_imports_an_archive_whose_moves_carry_readings(tmp_path):
    from recorder.archive.transfer import Archive
    from recorder.bench.archive import source_archive
    from recorder.store import SQLiteEventStore

    source, _ = source_archive(20, 5, str(tmp_path), tmp_path / "cache", lambda line: None, clocks=True)
    assert source.endswith("-clocks.sqlite3")
    with SQLiteEventStore(source) as store:
        ids = list(Archive(store).select())
        moves = [e for game_id in ids for e in store.read(game_id) if e.type in ("sowed", "result_recorded")]
    assert len(ids) == 20 and moves and all("clock" in e.payload for e in moves)


def test_the_archive_bench_reports_each_step_when_measured_and_reuses_a_cached_source(tmp_path):
    from recorder.bench import archive

    lines: list[str] = []
    steps = {name: (lambda figures, name=name: lines.append(f"{name} {sorted(figures.seconds)}")) for name in STEPS}
    first = archive.measure(40, seed=3, cache=tmp_path, echo=lines.append, steps=steps)
    assert lines[0] == "  building the source archive: 40 of 40 games" + lines[0][lines[0].index(" (") :]
    assert lines[1:] == [
        "build []",
        "export ['export', 'read source']",
        "import ['export', 'import', 'read source']",
        "verify ['export', 'import', 'read source', 'verify']",
        *(f"{name} ['export', 'import', 'read source', 'verify']" for name in ("pages", "searches")),
        "check ceiling ['check ceiling', 'export', 'import', 'read source', 'verify']",
        *(
            f"{name} ['check ceiling', 'export', 'import', 'read source', 'store floor', 'verify']"
            for name in ("store floor", "disk")
        ),
    ]
    assert first.build_seconds is not None
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith("-writer.lock")) == [
        f"archive-40-3-{archive.corpus_digest()}.sqlite3"
    ]
    again = archive.measure(40, seed=3, cache=tmp_path)
    assert again.build_seconds is None and (again.games, again.events) == (first.games, first.events)


STEPS = ("build", "export", "import", "verify", "pages", "searches", "check ceiling", "store floor", "disk")


def test_the_archive_section_prints_each_figure_beside_its_target():
    from recorder.bench.archive import ArchiveFigures
    from recorder.bench.report import archive_lines

    seconds = {
        "read source": 0.5,
        "export": 0.25,
        "import": 5.0,
        "verify": 1.0,
        "check ceiling": 5.0,
        "store floor": 2.5,
    }
    figures = ArchiveFigures(2_000, 250_000, seconds, [1.0, 60.0], [2.0])
    figures.bytes_on_disk, figures.verify_processes, figures.source_bytes = 2 * 2**20, 2, 100 * 2**20
    figures.check_processes = 2
    lines: list[str] = []
    for report in archive_lines(lines.append).values():
        report(figures)
    assert "(from the cache)" in lines[0]
    assert "8,000 games/s  target ≥ 5,000 games/s  MET" in lines[1]
    assert "the source's 100 MiB read through first, in 0.5 s at 200 MiB/s" in lines[2]
    assert "50,000 events/s  target ≥ 60,000 events/s  MISSED" in lines[3]
    assert "250,000 events/s (2 processes)  target ≥ 100,000 events/s  MET" in lines[4]
    assert "p99 60.0 ms over 2  target ≤ 50 ms  MISSED" in lines[5] and "p99 2.0 ms over 1" in lines[6]
    assert "check ceiling     50,000 events/s  (the exported file read and every game checked" in lines[7]
    assert "in 2 worker processes, nothing stored" in lines[7] and lines[7].endswith(", below its target)")
    assert "store floor      100,000 events/s  (the imported rows stored again by SQL alone" in lines[8]
    assert not lines[8].endswith("below its target)")
    assert lines[9].endswith("1.0 MiB per 1,000 games (no target)")
    figures.seconds["store floor"] = 5.0  # 50,000 events/s
    archive_lines(lines.append)["store floor"](figures)
    assert lines[10].endswith("the most an import can reach here, below its target)")


def test_the_machine_busy_time_is_read_from_the_system_counters(tmp_path):
    """The import's CPU is every process's (its workers come from a fork server, so no
    rusage of this process counts them): the machine's busy time, /proc/stat's first line
    less its idle and iowait columns; None where the system keeps no such file."""
    from recorder.bench.archive import machine_busy_seconds

    stat = tmp_path / "stat"
    stat.write_text("cpu  100 5 50 1000 20 3 2 7 40 0\ncpu0 50 2 25 500 10 1 1 3 20 0\n", encoding="ascii")
    ticks = os.sysconf("SC_CLK_TCK")
    assert machine_busy_seconds(str(stat)) == (100 + 5 + 50 + 3 + 2 + 7) / ticks  # guest time is in user already
    stat.write_text("intr 5\n", encoding="ascii")
    assert machine_busy_seconds(str(stat)) is None
    assert machine_busy_seconds(str(tmp_path / "absent")) is None


def test_the_archive_section_prints_the_cpu_an_event_costs_and_the_bound_of_both_halves():
    """With the machine's busy time measured: the import's CPU per event and how busy the
    cores were; each ceiling's CPU per event; and the pace the two halves together allow
    on these cores, beside the import's target."""
    from recorder.bench.archive import ArchiveFigures
    from recorder.bench.report import archive_lines

    seconds = {"import": 5.0, "check ceiling": 5.0, "store floor": 2.5}
    figures = ArchiveFigures(2_000, 250_000, seconds, [1.0], [2.0])
    figures.busy_seconds = {"import": 8.0, "check ceiling": 7.5, "store floor": 2.5}
    figures.cores, figures.check_processes, figures.source_bytes = 2, 2, 2**20
    lines: list[str] = []
    reports = archive_lines(lines.append)
    for step in ("import", "check ceiling", "store floor"):
        reports[step](figures)
    assert lines[0].startswith("  import") and "MISSED" in lines[0]
    assert lines[1] == "    (32.0 µs of CPU per event, the machine's 2 cores 80 % busy)"
    assert lines[2].startswith("  check ceiling") and lines[3] == "    (30.0 µs of CPU per event)"
    assert lines[4].startswith("  store floor") and lines[5] == "    (10.0 µs of CPU per event)"
    assert lines[6] == (
        "  both halves       50,000 events/s  (30.0 + 10.0 µs of CPU per event on 2 cores never idle:"
        " the most an import of this code can reach here, below its target)"
    )


@pytest.mark.timeout(240)
def test_the_hall_section_times_appends_on_recorder_serve_beside_spectators_and_heavy_readers():
    """The hall section's machinery on ``recorder serve`` itself, small: every board's
    appends timed in both runs, every spectator held, the heavy readers' reads answered,
    nothing refused; and its report prints both p99s, their ratio and the refused count."""
    from recorder.bench.hall import measure as measure_hall
    from recorder.bench.report import hall_lines

    figures = measure_hall(spectators=20, seconds=3.0, pairs=200)
    assert figures.events == 1 + 150 + 2 * 200
    assert figures.quiet.requests >= 40 and figures.loaded.requests >= 40
    assert figures.admitted == 20 and figures.refused_requests == 0
    assert figures.reads.statuses.get(200, 0) >= 4
    lines = hall_lines(figures)
    assert lines[0].startswith("  append p99: ") and "×  target ≤ 150 ms and ≤ 3×" in lines[0]
    assert "spectators held: 20 of 20" in lines[2] and "requests refused: 0" in lines[2]


def test_the_quick_hall_is_smaller_than_the_full_one():
    quick, full = Plan.make(True).hall, Plan.make(False).hall
    assert full == (500, 60.0, 9_925) and all(q < f for q, f in zip(quick, full))


def test_the_dossier_section_prints_build_time_and_size_beside_their_targets_and_missed_where_missed():
    from recorder.bench.dossier import DossierFigures
    from recorder.bench.report import dossier_lines

    met = dossier_lines(DossierFigures(1_500, 0.25, 480_000, 0.5, True), 3)
    assert "1,500-event selus game" in met[0] and "median of 3 builds" in met[0]
    assert (
        met[1] == "  built in 0.250 s  target ≤ 2 s  MET" and met[2] == "  480,000 bytes  target ≤ 1,000,000 bytes  MET"
    )
    assert met[3].endswith("every part verified")
    missed = dossier_lines(DossierFigures(1_500, 2.5, 1_000_001, 0.5, False), 3)
    assert missed[1].endswith("MISSED") and missed[2].endswith("MISSED") and missed[3].endswith("a part FAILED")


def test_the_dossier_bench_builds_a_dossier_of_the_game_it_counts_that_verifies():
    from recorder.bench.dossier import measure

    figures = measure(repeats=1, events=60)
    assert figures.events == 60 and figures.verified and figures.size_bytes > 0
