"""Fuzzing: schemathesis drives every operation of /api/openapi.json through the WSGI app.

Requests are generated from the document itself, valid ones and (where an operation
takes a body or a query) invalid ones, with a fixed budget and a fixed seed
(``derandomize``). Every response must be no 5xx, have a status the document lists for
the operation, the content type it declares, and a body matching its schema. Game
operations are also fuzzed on a real game, so the deep paths (deciding, folding) run,
not only the 404s of random ids. The whole run is made on each backend (SQLite, PostgreSQL).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import schemathesis
from conftest import ADMIN, make_app
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from recorder.api.openapi import build_spec

pytestmark = pytest.mark.timeout(120)

EXAMPLES = 12  # per operation and mode: the default run's fixed budget
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: a failure is reported as found
    suppress_health_check=list(HealthCheck),
)


def the_document() -> dict:
    """The document of an app made for the purpose: it is derived from the app's routes."""
    with tempfile.TemporaryDirectory() as folder:
        app = make_app(Path(folder) / "routes.sqlite3")
        try:
            return build_spec(app)
        finally:
            app.extensions["recorder"].store.close()


def documented_operations() -> list[tuple[str, str, bool]]:
    """(method, path, takes input) for every operation the document lists."""
    operations = []
    for path, item in the_document()["paths"].items():
        for method, operation in item.items():
            parameters = [p for p in operation.get("parameters", []) if p.get("in") in ("query", "header")]
            operations.append((method, path, bool(parameters) or "requestBody" in operation))
    return operations


def cases() -> list:
    params = []
    for method, path, takes_input in documented_operations():
        label = f"{method.upper()} {path}"
        params.append(pytest.param(method, path, GenerationMode.POSITIVE, None, id=f"{label} valid"))
        if takes_input:  # a request without inputs has no invalid form to generate
            params.append(pytest.param(method, path, GenerationMode.NEGATIVE, None, id=f"{label} invalid"))
        if "{game_id}" in path:
            params.append(pytest.param(method, path, GenerationMode.POSITIVE, "game", id=f"{label} on a game"))
    return params


@pytest.fixture(scope="module")
def fuzz_app(module_database, tmp_path_factory):
    """One app and database per backend for the whole run: what one case stores, the next may meet.
    The signing key is configured, as a PostgreSQL deployment must (docs/deployment.md)."""
    key = str(tmp_path_factory.mktemp("key") / "fuzz.ed25519")
    # The admin's token, so the fuzzed writes reach the views; live streams (…/live) end after
    # half a second here, so each case reads a whole response.
    app = make_app(module_database, RECORDER_KEY=key, LIVE_MAX_SECONDS=0.5, LIVE_POLL_SECONDS=0.1)
    yield app
    app.extensions["recorder"].store.close()


@pytest.fixture(scope="module")
def fuzz_schema(fuzz_app):
    return schemathesis.openapi.from_wsgi("/api/openapi.json", fuzz_app)


@pytest.fixture(scope="module")
def game_id(fuzz_app):
    return a_game(fuzz_app)


def a_game(app) -> str:
    """A Qelat game two sowings in: commands, states and traces have something to work on."""
    client = app.test_client()
    game = client.post("/api/games", json={"variant": "qelat", "south": "S", "north": "N", "first_player": "south"})
    game_id = game.get_json()["id"]
    for version, hole in enumerate(("d1", "c2"), start=1):
        sow = {"type": "sow", "hole": hole, "expected_version": version}
        assert client.post(f"/api/games/{game_id}/commands", json=sow).status_code == 201
    return game_id


@pytest.mark.parametrize("method, path, mode, target", cases())
def test_fuzzed_requests_get_no_5xx_and_conform_to_the_openapi_document(
    fuzz_schema, game_id, method, path, mode, target
):
    operation = fuzz_schema[path][method.upper()]
    fixed = {"game_id": game_id} if target == "game" else None
    strategy = operation.as_strategy(generation_mode=mode, path_parameters=fixed)

    @FUZZ_SETTINGS
    @given(strategy)
    def fuzz(case):
        case.call_and_validate(checks=CHECKS, headers=ADMIN)

    fuzz()
