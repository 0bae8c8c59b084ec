"""Every write operation in the OpenAPI document x every kind of principal.

The operations come from /api/openapi.json (every non-GET operation but the two
documented open POSTs, claims and what-if), so a new endpoint cannot be forgotten: it is
checked here the day it is documented, and the guard refuses an endpoint it does not know
to anyone but the admin. The expected answers are written out below from the table in
docs/security.md, not computed by the policy under test. A refusal is 401 or 403 and
leaves the database exactly as it was.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3

import pytest
from conftest import ADMIN, bearer, make_app

OPEN_POSTS = {("post", "/api/games/{game_id}/claims"), ("post", "/api/games/{game_id}/what-if")}
PRINCIPALS = (
    "none",
    "invalid",
    "revoked",
    "arbiter_other",
    "arbiter",
    "recorder_other",
    "recorder",
    "signin",
    "player",
    "captain",
    "admin",
)
QELAT = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}
TRF = "012 New\n001    1      A\n001    2      B\n"
NOTATION = '[Variant "qelat"]\n[South "A"]\n[North "B"]\n[FirstPlayer "south"]\n[Result "*"]\n\n1. S f1 *\n'

# Who may (docs/security.md): by operation, the principals that are let through.
EVERY_TOKEN = {"arbiter_other", "arbiter", "recorder_other", "recorder", "admin"}
MAY = {
    ("post", "/api/games"): {"recorder_other", "recorder", "admin"},
    ("post", "/api/games/{game_id}/commands"): {"recorder", "admin"},  # the game's own recorder
    ("post", "/api/games/{game_id}/verify"): EVERY_TOKEN,
    ("post", "/api/import"): EVERY_TOKEN,  # then each game is a creation (see below)
    ("post", "/api/tournaments"): {"admin"},
    ("post", "/api/tournaments/trf"): {"admin"},
    ("post", "/api/tokens"): {"admin"},
    ("delete", "/api/tokens/{token_id}"): {"admin"},
    ("post", "/api/tournaments/{tournament_id}/tokens"): {"admin"},
    ("delete", "/api/tournaments/{tournament_id}/tokens/{token_id}"): {"admin"},
    ("post", "/api/players"): {"arbiter_other", "arbiter", "admin"},  # any arbiter registers
    # P was registered by T's arbiter and entered in T only: entering alone grants nothing
    ("post", "/api/players/{player_id}/name"): {"arbiter", "admin"},
    ("post", "/api/players/{player_id}/affiliation"): {"arbiter", "admin"},
    ("post", "/api/players/{player_id}/particulars"): {"arbiter", "admin"},
    ("post", "/api/players/{player_id}/merge"): {"admin"},
    ("post", "/api/players/{player_id}/merge/withdrawal"): {"admin"},
    ("post", "/api/teams"): {"arbiter_other", "arbiter", "admin"},  # any arbiter registers a team
    ("put", "/api/teams/{team_id}/roster"): {"admin"},  # a roster may be entered in many tournaments
    ("post", "/api/tournaments/{tournament_id}/rounds/{round_number}/boards/{board}/correction"): {"admin"},
    # a board sign-in (of T's round 1 board 2) starts that board's game: nothing else
    ("post", "/api/tournaments/{tournament_id}/rounds/{round_number}/boards/{board}/game"): {
        "arbiter",
        "admin",
        "signin",
    },
    # a check-in is a player's own (T's player 1); the admin passes the guard, to be told so (422)
    ("post", "/api/tournaments/{tournament_id}/rounds/{round_number}/check-in"): {"player", "admin"},
    # G is outside tournaments: no player signs its record, the admin passes the guard (422)
    ("post", "/api/games/{game_id}/confirmations"): {"admin"},
    ("post", "/api/games/{game_id}/disputes"): {"admin"},
    ("post", "/api/games/{game_id}/decisions"): {"admin"},
}
TOURNAMENT_WRITE = {"arbiter", "admin"}  # every other write under /api/tournaments/{tournament_id}


def may(method: str, path: str) -> set[str]:
    if (method, path) in MAY:
        return MAY[(method, path)]
    assert path.startswith("/api/tournaments/{tournament_id}/"), f"no expectation for {method} {path}"
    return TOURNAMENT_WRITE


class World:
    """Tournament T (paired, its board 1 game started), tournament U, a game G recorded by
    "recorder", registry player P (registered by T's arbiter, entered in T) and Q, and a
    token of each kind."""

    def __init__(self, client):
        self.client = client
        create = {"name": "T", "variant": "qelat", "format": "round_robin"}
        self.t = self.ok(client.post("/api/tournaments", json=create))["id"]
        self.u = self.ok(client.post("/api/tournaments", json={**create, "name": "U"}))["id"]
        arbiter = self.ok(client.post(f"/api/tournaments/{self.t}/tokens", json={"holder": "Arb T"}))["token"]
        registered = client.post(
            "/api/players", json={"name": "Registry P", "federation": "ETH"}, headers=bearer(arbiter)
        )
        self.player = self.ok(registered)["id"]
        self.other_player = self.ok(client.post("/api/players", json={"name": "Registry Q", "federation": "ETH"}))["id"]
        self.ok(client.post(f"/api/tournaments/{self.t}/players", json={"player_id": self.player}))
        team = {"name": "Team R", "name_geez": "ጋንታ", "federation": "ETH", "players": [self.other_player]}
        self.team = self.ok(client.post("/api/teams", json=team))["id"]
        for name in ("P2", "P3", "P4"):
            self.ok(client.post(f"/api/tournaments/{self.t}/players", json={"name": name}))
        self.ok(client.post(f"/api/tournaments/{self.t}/rounds", json={}))
        self.ok(client.post(f"/api/tournaments/{self.t}/rounds/1/boards/1/game", json={}))
        revoked = self.ok(client.post("/api/tokens", json={"holder": "Gone"}))
        self.ok(client.delete(f"/api/tokens/{revoked['id']}"))
        self.tokens = {
            "none": None,
            "invalid": "rt_not-a-token",
            "revoked": revoked["token"],
            "arbiter_other": self.ok(client.post(f"/api/tournaments/{self.u}/tokens", json={"holder": "Arb U"}))[
                "token"
            ],
            "arbiter": arbiter,
            "recorder_other": self.ok(client.post("/api/tokens", json={"holder": "Other"}))["token"],
            "recorder": self.ok(client.post("/api/tokens", json={"holder": "Owner"}))["token"],
            "signin": self.board_signin(client, 2),
            "player": self.player_signin(client, 1),
            "captain": self.captain_signin(client),
            "admin": ADMIN["Authorization"].removeprefix("Bearer "),
        }
        self.game = self.ok(client.post("/api/games", json=QELAT, headers=bearer(self.tokens["recorder"])))["id"]
        self.victims = {
            "tournament": self.ok(client.post(f"/api/tournaments/{self.t}/tokens", json={"holder": "V"}))["id"],
            "recorder": self.ok(client.post("/api/tokens", json={"holder": "Victim"}))["id"],
        }

    def board_signin(self, client, board: int) -> str:
        signins = self.ok(client.post(f"/api/tournaments/{self.t}/rounds/1/signins", json={}))["signins"]
        return next(s["token"] for s in signins if s["board"] == board)

    def captain_signin(self, client) -> str:
        """The captain's sign-in of team 1 of team event V: it hands in that team's line-ups
        alone, so it reaches nothing of T's."""
        event = {"name": "V", "variant": "qelat", "format": "team_round_robin", "team_boards": 1}
        v = self.ok(client.post("/api/tournaments", json=event))["id"]
        self.ok(client.post(f"/api/tournaments/{v}/teams", json={"team_id": self.team}))
        return self.ok(client.post(f"/api/tournaments/{v}/teams/1/captain-signin", json={}))["token"]

    def player_signin(self, client, number: int) -> str:
        signins = self.ok(client.post(f"/api/tournaments/{self.t}/players/signins", json={"players": [number]}))
        return signins["signins"][0]["token"]

    @staticmethod
    def ok(response) -> dict:
        assert response.status_code in (200, 201), response.get_json()
        return response.get_json()

    def url(self, path: str) -> str:
        values = {
            "game_id": self.game,
            "tournament_id": self.t,
            "round_number": "1",
            "board": "2",
            "number": "1",
            "player_id": self.player,
            "team_id": self.team,
            "token_id": self.victims["tournament" if "tournaments" in path else "recorder"],
        }
        return re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], path)

    def send(self, method: str, path: str, principal: str):
        token = self.tokens[principal]
        headers = {"Authorization": f"Bearer {token}" if token else "", "If-Match": '"1"'}
        kwargs: dict[str, object]
        if path == "/api/import":
            kwargs = {"data": NOTATION, "content_type": "text/x-mancala-notation"}
        elif path == "/api/players/{player_id}/merge":
            kwargs = {"json": {"into": self.other_player}}
        elif path == "/api/tournaments/trf":
            kwargs = {"data": TRF, "content_type": "text/plain", "query_string": {"variant": "qelat"}}
        else:
            kwargs = {"json": BODIES.get(path, {})}
        return self.client.open(self.url(path), method=method.upper(), headers=headers, **kwargs)


BODIES = {
    "/api/games": QELAT,
    "/api/games/{game_id}/commands": {"type": "sow", "hole": "f1"},
    "/api/games/{game_id}/disputes": {"result": True, "reason": "Not so"},
    "/api/games/{game_id}/decisions": {"dispute": 2, "outcome": "upheld", "reason": "So"},
    "/api/tournaments/{tournament_id}/rounds/{round_number}/check-in": {"present": True},
    "/api/tournaments/{tournament_id}/players/signins": {"players": [2]},  # player 1's badge stays good
    "/api/tokens": {"holder": "New"},
    "/api/tournaments": {"name": "New", "variant": "qelat", "format": "swiss", "rounds": 3},
    "/api/players": {"name": "New Player", "federation": "ETH"},
    "/api/players/{player_id}/name": {"name": "Renamed P"},
    "/api/players/{player_id}/affiliation": {"federation": "ERI"},
}


def database(app) -> list[str]:
    with contextlib.closing(sqlite3.connect(app.config["DATABASE"])) as conn:
        return list(conn.iterdump())


def write_operations(client) -> list[tuple[str, str]]:
    document = client.get("/api/openapi.json").get_json()
    found = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method == "get" or (method, path) in OPEN_POSTS:
                continue
            assert operation.get("security") == [{"bearerAuth": []}], (method, path)
            found.append((method, path))
    return found


@pytest.fixture
def world(tmp_path):
    app = make_app(tmp_path / "matrix.sqlite3")
    yield app, World(app.test_client())
    app.extensions["recorder"].store.close()


def test_the_openapi_document_declares_the_bearer_scheme_and_the_open_posts(world):
    app, w = world
    document = w.client.get("/api/openapi.json").get_json()
    assert document["components"]["securitySchemes"]["bearerAuth"] == {"type": "http", "scheme": "bearer"}
    for method, path in OPEN_POSTS:
        assert "security" not in document["paths"][path][method]
    assert len(write_operations(w.client)) >= 15


def test_every_write_route_the_app_serves_is_in_the_openapi_document(world):
    app, w = world
    documented = set(write_operations(w.client)) | OPEN_POSTS
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"GET", "HEAD", "OPTIONS"}:
            if path.startswith("/api/"):
                assert (method.lower(), path) in documented, (method, path)


def test_every_write_refuses_every_principal_it_should_and_stores_nothing(world):
    app, w = world
    wrong = []
    for method, path in write_operations(w.client):
        for principal in PRINCIPALS:
            if principal in may(method, path):
                continue
            before = database(app)
            response = w.send(method, path, principal)
            expected = (401,) if principal in ("none", "invalid", "revoked") else (403,)
            if response.status_code not in expected or database(app) != before:
                wrong.append((method, path, principal, response.status_code))
    assert wrong == []


def test_every_write_lets_through_every_principal_it_should(world):
    app, w = world
    wrong = []
    operations = sorted(write_operations(w.client), key=lambda op: op[0] == "delete")  # revocations last
    for method, path in operations:
        for principal in sorted(may(method, path), key=lambda p: p == "admin"):
            response = w.send(method, path, principal)
            if response.status_code in (401, 403) or response.status_code >= 500:
                wrong.append((method, path, principal, response.status_code, response.get_json()))
    assert wrong == []


def test_an_arbiters_import_of_a_game_outside_its_tournament_is_refused_and_stores_nothing(world):
    app, w = world
    before = database(app)
    response = w.send("post", "/api/import", "arbiter")
    assert response.status_code == 422
    assert response.get_json()["games"][0]["error"]["title"] == "Not allowed"
    assert database(app) == before


def test_an_arbiter_writes_the_games_on_its_boards(world):
    app, w = world
    board_game = w.client.get(f"/api/tournaments/{w.t}/rounds/1").get_json()["boards"][0]["game_id"]
    sow = {"type": "sow", "hole": "f1", "expected_version": 1}
    url = f"/api/games/{board_game}/commands"
    assert w.client.post(url, json=sow, headers=bearer(w.tokens["arbiter_other"])).status_code == 403
    assert w.client.post(url, json=sow, headers=bearer(w.tokens["recorder"])).status_code == 403
    assert w.client.post(url, json=sow, headers=bearer(w.tokens["arbiter"])).status_code == 201
