"""The OpenAPI document is derived from the app's routes and the views' own words
(recorder/api/openapi.py): every route served under /api is in it, with every method it
serves, and what a route implies (path parameters, a write's security and refusals) is
added from the route itself."""

from __future__ import annotations

import re

import pytest
from apispec.exceptions import APISpecError
from conftest import make_app
from flask import Blueprint

from recorder.api.openapi import HEADERS, PROBLEM, REFUSALS, build_spec, derive_spec


def served(app) -> set[tuple[str, str]]:
    """(method, OpenAPI path) of every route the app serves under /api."""
    routes = set()
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        if path.startswith("/api/"):
            routes |= {(method.lower(), path) for method in rule.methods - {"HEAD", "OPTIONS"}}
    return routes


def documented(document: dict) -> set[tuple[str, str]]:
    return {(method, path) for path, operations in document["paths"].items() for method in operations}


def test_every_route_the_app_serves_under_api_is_documented_and_nothing_else(app, client):
    document = client.get("/api/openapi.json").get_json()
    assert documented(document) == served(app)
    assert len(served(app)) >= 96


def test_the_document_is_derived_once_per_app_and_served_as_derived(app, client):
    assert build_spec(app) is build_spec(app)
    assert client.get("/api/openapi.json").get_json() == build_spec(app)


def test_a_route_under_api_whose_view_states_no_operation_is_refused_by_name(tmp_path):
    app = make_app(tmp_path / "undocumented.sqlite3")
    extra = Blueprint("extra", __name__, url_prefix="/api")

    @extra.get("/undocumented")
    def undocumented():
        return {}

    app.register_blueprint(extra)
    with pytest.raises(APISpecError, match="extra.undocumented"):
        derive_spec(app)


def test_a_view_stating_another_method_than_it_serves_is_refused(tmp_path):
    app = make_app(tmp_path / "wrong-method.sqlite3")
    extra = Blueprint("extra", __name__, url_prefix="/api")

    @extra.post("/wrong-method")
    def wrong_method():
        """A read that is served as a write.

        ---
        get:
          responses:
            200: {description: Nothing}
        """
        return {}

    app.register_blueprint(extra)
    with pytest.raises(APISpecError, match="extra.wrong_method"):
        derive_spec(app)


def test_path_parameters_come_from_the_rule_in_its_order_typed_by_its_converters(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    operation = paths["/api/tournaments/{tournament_id}/rounds/{round_number}/boards/{board}/game"]["post"]
    path_parameters = [p for p in operation["parameters"] if p["in"] == "path"]
    assert [p["name"] for p in path_parameters] == ["tournament_id", "round_number", "board"]
    assert [p["schema"] for p in path_parameters] == [
        {"type": "string"},
        {"type": "integer", "minimum": 1},
        {"type": "integer", "minimum": 1},
    ]
    assert operation["responses"]["404"]["description"] == "Unknown tournament, round or board"
    for path, operations in paths.items():
        for operation in operations.values():
            named = {p["name"] for p in operation.get("parameters", []) if p["in"] == "path"}
            assert named == set(re.findall(r"{(\w+)}", path)), path
            assert not named or operation["responses"]["404"]["content"] == PROBLEM, path


def test_every_write_has_the_bearer_security_and_the_refusals_with_problem_bodies(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if status >= "400":
                    assert response["content"] == PROBLEM, (method, path, status)
            if method == "get" or path.endswith(("/claims", "/what-if")):
                continue
            assert operation["security"] == [{"bearerAuth": []}], (method, path)
            assert set(REFUSALS) <= set(operation["responses"]), (method, path)


def test_the_headers_a_view_names_are_given_their_one_definition(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    command = paths["/api/games/{game_id}/commands"]["post"]["parameters"]
    assert HEADERS["If-Match"] in command and HEADERS["Idempotency-Key"] in command
    headers = [
        p
        for operations in paths.values()
        for operation in operations.values()
        for p in operation.get("parameters", [])
        if p["name"] in HEADERS
    ]
    assert len(headers) > 60
    assert all(p == HEADERS[p["name"]] for p in headers)
