"""Every API answer says what it is and refuses to be anything else (docs/security.md,
*Framing*): ``X-Content-Type-Options: nosniff`` (a browser never reads a JSON or NDJSON
body, or a problem that quotes a client's text, as HTML or script), a Content-Security-Policy
that allows nothing (``default-src 'none'``: a JSON or SVG answer opened as a document
runs nothing and loads nothing) and no frame (``frame-ancestors 'none'``, and
``X-Frame-Options: DENY`` for browsers without it). The pages keep their own policy and
the embeddable boards their ``frame-ancestors`` list; the browser side of the SVG (the
scoresheet's checkpoint, drawn as an image under this policy) is in
tests/test_web_scoresheets.py.
"""

from __future__ import annotations

import pytest
from browser import record
from conftest import make_app

from recorder.web import CONTENT_SECURITY_POLICY, RULES_POLICY

SETUP = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}
FIRST_MOVE = {"type": "sow", "hole": "f1"}
EMBEDDERS = "https://chess.example.org"


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path / "headers.sqlite3", EMBED_ANCESTORS=EMBEDDERS, LIVE_MAX_SECONDS=1.0)


def assert_api_headers(response, what: str) -> None:
    headers = response.headers
    assert headers.get("X-Content-Type-Options") == "nosniff", what
    policy = [directive.strip() for directive in headers.get("Content-Security-Policy", "").split(";")]
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy, (what, policy)
    assert headers.get("X-Frame-Options") == "DENY", what


def every_api_read(app) -> list[str]:
    """Each GET route under /api, its parts filled with names of nothing stored."""
    adapter = app.url_map.bind("localhost")
    paths = []
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api") and "GET" in rule.methods:
            values = {name: 1 if rule._converters[name].regex == r"\d+" else "none-such" for name in rule.arguments}
            paths.append(adapter.build(rule.endpoint, values))
    return sorted(set(paths))


def test_every_api_read_forbids_sniffing_framing_and_active_content(app):
    client = app.test_client()
    paths = every_api_read(app)
    assert len(paths) > 30  # the walk found the API, not an empty map
    for path in paths:
        response = client.get(path)
        assert response.status_code < 500, path
        assert_api_headers(response, path)
        response.close()


def test_recorded_game_answers_svg_and_problems_carry_the_api_headers(app):
    client = app.test_client()
    game_id = record(client, SETUP, [FIRST_MOVE])
    answers = {
        "the game": client.get(f"/api/games/{game_id}"),
        "its board as SVG": client.get(f"/api/games/{game_id}/board.svg"),
        "its checkpoint as SVG": client.get(f"/api/games/{game_id}/checkpoint.svg"),
        "the export": client.get("/api/export"),
        "a recorded move": client.post(f"/api/games/{game_id}/commands", json={**FIRST_MOVE, "expected_version": 2}),
        "a refused body": client.post("/api/games", data=b"{not json", content_type="application/json"),
        "a refused method": client.delete("/api/variants"),
        "an unknown address": client.get("/api/no-such-thing"),
        "an anonymous write": app.test_client().post("/api/games", json=SETUP, headers={"Authorization": ""}),
    }
    assert answers["its board as SVG"].mimetype == "image/svg+xml"
    for what, response in answers.items():
        assert response.status_code < 500, what
        assert_api_headers(response, what)


def test_live_streams_carry_the_api_headers(app):
    client = app.test_client()
    game_id = record(client, SETUP, [])
    stream = client.get(f"/api/games/{game_id}/live", buffered=False)
    try:
        assert stream.status_code == 200 and stream.mimetype == "text/event-stream"
        assert_api_headers(stream, "a live stream")
    finally:
        stream.close()


def test_pages_and_embeds_keep_their_own_policies(app):
    client = app.test_client()
    game_id = record(client, SETUP, [])
    home = client.get("/")
    assert home.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert client.get(f"/games/{game_id}").headers["Content-Security-Policy"] == RULES_POLICY
    embed = client.get(f"/embed/games/{game_id}")
    assert embed.headers["Content-Security-Policy"].endswith(f"frame-ancestors {EMBEDDERS}")
    assert "X-Frame-Options" not in embed.headers
    for response in (home, embed):
        assert response.headers["X-Content-Type-Options"] == "nosniff"
