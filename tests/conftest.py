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
