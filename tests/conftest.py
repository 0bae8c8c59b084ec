import functools
import inspect
import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from werkzeug.datastructures import Headers

from recorder.app import create_app

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT.parent / "shared" / "rules"
FIXTURES = ROOT / "fixtures"

# Fields our state adds to the spec's §8 shape; the vectors do not carry them.
EXTRA_STATE_FIELDS = {
    "variant",
    "options",
    "round",
    "rounds",
    "legal_moves",
    "version",
    "result_reason",
    "needs_adjudication",
    "position_text",
}


BROWSER_TESTS = "tests/test_web_browser.py"
INSTALL = {
    "chromium": "apt-get install chromium",  # .ci/run does this; never a browser download
    "playwright": ".venv/bin/pip install -q -e '.[test]'",
}


def pytest_terminal_summary(terminalreporter):
    """One clear line at the end when the browser tests were skipped: what, why, and the
    one command that installs what they need (otherwise they skip silently)."""
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if BROWSER_TESTS in _where(r)]
    if not skipped:
        return
    reason = _skip_reason(skipped[0])
    command = INSTALL["playwright" if "playwright" in reason else "chromium"]
    terminalreporter.write_line(
        f"SKIPPED the browser tests ({BROWSER_TESTS}): {reason}; install it with: {command}", yellow=True, bold=True
    )


def _where(report) -> str:
    location = getattr(report, "location", None)
    path = location[0] if location else str(getattr(report, "fspath", ""))
    return path.replace("\\", "/") if path.startswith("tests/") else "tests/" + Path(path).name


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


# The test layers (README.md): `pytest -m "not slow"` is the fast layer. A test is marked by
# what it uses, so a new module is marked without naming it here: a browser test launches
# Chromium (in its body or a fixture's), a postgres test takes the server's fixtures or a
# "postgres" parameter, and both are slow. So is a test of SLOW_MODULES (servers, workers
# or builds in subprocesses, timed loads, the bench, reference corpora: most of their tests
# take seconds) or one of SLOW_TESTS (a test of an otherwise quick module that took 1.5 s or
# more in a full run on a loaded machine; docs/decisions.md, *Tests*).
SLOW_MODULES = {
    "test_adversarial_records.py",
    "test_bench.py",
    "test_broadcast_delay.py",
    "test_cost_endpoints.py",
    "test_engine.py",
    "test_import_jobs.py",
    "test_live_api.py",
    "test_live_fanout.py",
    "test_live_server.py",
    "test_players_bench.py",
    "test_readme.py",
    "test_reliability_bad_input.py",
    "test_reliability_crash.py",
    "test_reliability_fairness.py",
    "test_reliability_fuzz.py",
    "test_reliability_races.py",
    "test_reliability_streaming.py",
    "test_replication.py",
    "test_serve_hall.py",
    "test_skipped_browser_line.py",
    "test_tiebreaks_reference.py",
    "test_two_servers.py",
    "test_verify_jobs.py",
}
SLOW_TESTS = {
    "test_adversarial_http.py::test_an_import_over_the_byte_ceiling_is_refused",
    "test_adversarial_http.py::test_head_requests_take_no_listener_slot_under_gunicorn",
    "test_archive_export.py::test_exporting_10000_games_stays_under_a_fixed_memory_bound",
    "test_archive_frame.py::test_a_file_checked_a_line_at_a_time_is_refused_or_read_as_its_whole_text",
    "test_archive_frame.py::test_an_archive_cut_at_any_byte_is_refused",
    "test_archive_frame.py::test_an_archive_cut_at_any_line_boundary_is_refused",
    "test_chain_text.py::test_a_sowing_the_pattern_reads_has_the_encoders_record_and_line",
    "test_checks.py::test_static_check_passes",
    "test_cli.py::test_serve_answers_http_on_the_given_port_and_database",
    "test_cli.py::test_serve_open_says_so_at_start_and_takes_anonymous_games",
    "test_clock_views.py::test_a_spectators_game_stream_carries_no_more_messages_for_a_game_with_readings",
    "test_gen_42_rendered_positions.py::test_gen_42_a_rendered_state_starts_a_game_that_goes_on_the_same",
    "test_gunicorn_conf.py::test_a_bench_server_keeps_its_control_socket_to_itself",
    "test_layers.py::test_each_test_is_marked_with_the_layers_of_what_it_uses",
    "test_matches.py::test_gen_27_random_matches_end_conserve_seeds_keep_allocations_and_replay",
    "test_notation_roundtrip.py::test_notes_with_unicode_line_separators_round_trip_in_both_formats",
    "test_notation_roundtrip.py::test_random_playouts_round_trip_with_equal_states_at_every_event",
    "test_players_merge_property.py::test_a_merge_reads_as_if_the_duplicate_never_existed_and_its_withdrawal_as_before",
    "test_position_search_visibility.py::test_position_search_counts_only_what_the_reader_may_see",
    "test_rating_lists.py::test_each_list_is_the_run_as_known_at_its_months_end_and_later_events_never_change_it",
    "test_store.py::test_servers_opening_one_new_file_together_all_open_it",
    "test_store_copy.py::test_backup_copies_the_file_with_what_is_only_in_the_wal",
    "test_team_tiebreaks_reference.py::test_c07_team_tiebreaks_of_the_twelve_team_swiss_in_its_team_standings_equal_the_calculators",
    "test_tiebreaks_absences.py::test_a_hundred_random_tournaments_with_absences_equal_fides_calculator_in_their_own_standings",
    "test_tiebreaks_absences.py::test_the_service_standings_of_the_hundred_imported_through_the_api_equal_fides_calculator",
    "test_tiebreaks_service_standings.py::test_the_service_standings_of_every_swiss_file_equal_fides_calculator_for_c07s_swiss_list",
    "test_tiebreaks_standings.py::test_standings_show_the_reference_values_of_a_chosen_fide_list_and_rank_by_them",
    "test_tournament_pairing.py::test_c04_3_2026_pairs_every_round_of_the_reference_corpus_as_the_reference_engine",
    "test_tournament_team_swiss.py::test_a_team_swiss_trf_says_its_format_and_imports_back_into_a_team_swiss_whose_export_is_the_same_file",
    "test_tournament_team_swiss.py::test_c04_6_twelve_teams_of_four_boards_play_a_team_swiss_of_five_rounds_through_the_api_to_standings_by_hand",
    "test_tournament_pairing.py::test_dutch_pairing_is_the_best_by_the_ordered_criteria_in_a_seeded_corpus",
    "test_trf_absences_and_tiebreaks.py::test_a_hundred_tournaments_cut_before_a_round_export_import_export_the_same_file_and_pair_it_alike",
    "test_trf_keeps_what_it_knew.py::test_any_extension_or_bye_lines_are_read_or_refused_with_a_line_never_a_crash",
}
LAUNCHES_CHROMIUM = ("launch_chromium(", "sync_playwright(", "served_with_chromium(")


def pytest_collection_modifyitems(items):
    for item in items:
        layers = _layers(item)
        for layer in layers:
            item.add_marker(layer)
        if layers or _is_slow(item):
            item.add_marker("slow")


def _layers(item) -> list[str]:
    layers = []
    if any(_launches_chromium(function) for function in _functions_run(item)):
        layers.append("browser")
    if _uses_postgres(item):
        layers.append("postgres")
    return layers


def _functions_run(item) -> list:
    """The test function and every fixture it needs, however indirectly."""
    fixturedefs = getattr(item, "_fixtureinfo", None)
    definitions = fixturedefs.name2fixturedefs.values() if fixturedefs else []
    return [getattr(item, "function", None), *(d.func for defs in definitions for d in defs)]


@functools.cache
def _launches_chromium(function) -> bool:
    try:
        source = inspect.getsource(function)
    except (OSError, TypeError):
        return False
    return any(call in source for call in LAUNCHES_CHROMIUM)


def _uses_postgres(item) -> bool:
    callspec = getattr(item, "callspec", None)
    parameters = callspec.id.split("-") if callspec else []
    return "postgres_server" in getattr(item, "fixturenames", ()) or "postgres" in parameters


def _is_slow(item) -> bool:
    module = item.path.name
    return module in SLOW_MODULES or f"{module}::{getattr(item, 'originalname', item.name)}" in SLOW_TESTS


def load_examples() -> list[dict]:
    return json.loads((RULES / "examples.json").read_text())


def spec_view(state: dict, after: dict) -> dict:
    """Our state reduced to the fields a vector's ``after`` can hold."""
    view = {k: v for k, v in state.items() if k not in EXTRA_STATE_FIELDS}
    if "first_turn_pending" not in after:
        view.pop("first_turn_pending", None)
    return view


def expected_view(after: dict) -> dict:
    return {k: v for k, v in after.items() if k != "legal_moves"}


ADMIN_TOKEN = "rt_test-admin-token"
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


class AdminClient(FlaskClient):
    """A test client that writes as the admin unless a request names its own
    Authorization (an empty one makes it anonymous)."""

    def open(self, *args, **kwargs):
        headers = Headers(kwargs.pop("headers", None) or {})
        if "Authorization" not in headers:
            headers["Authorization"] = ADMIN["Authorization"]
        elif not headers["Authorization"]:
            del headers["Authorization"]
        return super().open(*args, headers=headers, **kwargs)


MADE_APPS: list = []


def make_app(database, **config):
    """The app as tests use it: an admin token configured, its client sending it."""
    app = create_app({"TESTING": True, "DATABASE": str(database), "ADMIN_TOKEN": ADMIN_TOKEN, **config})
    app.test_client_class = AdminClient
    MADE_APPS.append(app)
    return app


@pytest.fixture(autouse=True)
def close_the_apps_a_test_made():
    """Every app a test (or its function-scoped fixtures) made has its store closed when the
    test ends. A store left to the garbage collector closes whenever it runs: a PostgreSQL
    pool then closes in one of its own threads, which cannot join itself (an error that
    lands on whichever test is running). Apps of wider-scoped fixtures are made before
    this fixture starts, and stay open for the tests that share them."""
    first = len(MADE_APPS)
    yield
    made, MADE_APPS[first:] = MADE_APPS[first:], []
    for app in made:
        app.extensions["recorder"].store.close()


@pytest.fixture(scope="session")
def postgres_server():
    """A real PostgreSQL server for the session (tests/pg_server.py); skipped, with the reason, without one."""
    from pg_server import PostgresServer, binaries

    bin_dir = binaries()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (no initdb/pg_ctl/postgres; apt-get install postgresql)")
    server = PostgresServer(bin_dir).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def postgres_template(postgres_server):
    """A database with the schema migrated, copied by each test's fresh database."""
    from recorder.store.postgres import PostgresEventStore

    url = postgres_server.create_database()
    PostgresEventStore(url).close()
    return url.rsplit("/", 1)[1]


@pytest.fixture
def postgres_url(postgres_server, postgres_template):
    """A fresh PostgreSQL database, its schema created, for one test."""
    return postgres_server.create_database(template=postgres_template)


def _database(request, folder) -> str:
    """A fresh database of the backend the test is parametrised with: a SQLite path or a PostgreSQL URL."""
    if request.param == "postgres":
        return request.getfixturevalue("postgres_server").create_database(
            template=request.getfixturevalue("postgres_template")
        )
    return str(folder / "records.sqlite3")


@pytest.fixture(params=["sqlite", "postgres"])
def database(request, tmp_path):
    """The reliability tests' database, on each backend in turn."""
    return _database(request, tmp_path)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def module_database(request, tmp_path_factory):
    """One database per module and backend, for a server the module's tests share."""
    return _database(request, tmp_path_factory.mktemp("db"))


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path / "test.sqlite3")
    yield app
    app.extensions["recorder"].store.close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def anon(app):
    """A client that sends no token."""
    return FlaskClient(app, app.response_class, use_cookies=True)


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


def play_command(item) -> dict:
    """A vector's ``play`` item as an API command."""
    if isinstance(item, str):
        return {"type": "sow", "hole": item}
    command = {k: v for k, v in item.items() if k != "decision"}
    return {"type": item["decision"], **command}


class Api:
    """Small helpers over the test client that fail loudly."""

    def __init__(self, client):
        self.client = client

    def create(self, expect=201, **body):
        response = self.client.post("/api/games", json=body)
        assert response.status_code == expect, response.get_json()
        return response.get_json()

    def command(self, game_id, expect=201, headers=None, **command):
        """A command at the game's current version (If-Match), unless the test names one."""
        headers = dict(headers or {})
        if "If-Match" not in headers and "expected_version" not in command:
            headers["If-Match"] = self.client.get(f"/api/games/{game_id}").headers.get("ETag", '"0"')
        response = self.client.post(f"/api/games/{game_id}/commands", json=command, headers=headers)
        assert response.status_code == expect, (command, response.get_json())
        return response.get_json()

    def state(self, game_id, at=None):
        url = f"/api/games/{game_id}/state" + (f"?at={at}" if at is not None else "")
        response = self.client.get(url)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def events(self, game_id):
        return self.client.get(f"/api/games/{game_id}/events").get_json()["events"]


@pytest.fixture
def api(client):
    return Api(client)
