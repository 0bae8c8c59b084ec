"""The embeddable boards as HTTP resources (docs/web.md "Embedding a board"): a board
page that the admin's origins may frame (``frame-ancestors``), while every other page
still refuses any frame, and a list that names anything but origins refused at start.
The browser side (framed or blocked, live, delayed) is test_web_embed_browser.py.
"""

from __future__ import annotations

import re

import pytest
from browser import record
from conftest import make_app

from recorder.app import create_app
from recorder.web.embed import EmbedAncestorsError

SETUP = {"variant": "qelat", "south": "Abeba", "north": "Berhane", "first_player": "south"}
FEDERATIONS = "https://chess.example.org http://127.0.0.1:8123"


def frame_ancestors(response) -> str:
    found = re.search(r"frame-ancestors ([^;]*)", response.headers["Content-Security-Policy"])
    assert found, response.headers["Content-Security-Policy"]
    return found.group(1).strip()


@pytest.fixture
def configured(tmp_path):
    return make_app(tmp_path / "embed.sqlite3", EMBED_ANCESTORS=FEDERATIONS).test_client()


def test_embedded_game_may_be_framed_by_the_configured_origins_only(configured):
    game_id = record(configured, SETUP, [])
    response = configured.get(f"/embed/games/{game_id}")
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert frame_ancestors(response) == FEDERATIONS
    assert "X-Frame-Options" not in response.headers  # it cannot name a list; frame-ancestors does
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "connect-src 'self'" in policy  # same origin otherwise


def test_embedded_round_may_be_framed_by_the_configured_origins_only(configured):
    response = configured.get("/embed/tournaments/t-1/rounds/2")
    assert response.status_code == 200
    assert frame_ancestors(response) == FEDERATIONS
    html = response.get_data(as_text=True)
    assert 'data-tournament-id="t-1"' in html and 'data-round="2"' in html


def test_embed_pages_default_to_this_origin_only(client):
    game_id = record(client, SETUP, [])
    assert frame_ancestors(client.get(f"/embed/games/{game_id}")) == "'self'"
    assert frame_ancestors(client.get("/embed/tournaments/t-1/rounds/1")) == "'self'"


def test_embedded_game_has_no_site_navigation_and_opens_links_in_a_new_tab(client):
    game_id = record(client, SETUP, [])
    html = client.get(f"/embed/games/{game_id}").get_data(as_text=True)
    assert f'data-game-id="{game_id}"' in html and "js/embed.js" in html
    assert 'class="site"' not in html and "token-form" not in html and "js/site.js" not in html
    links = re.findall(r"<a\b[^>]*>", html)
    assert links and all('target="_blank"' in a and 'rel="noopener"' in a for a in links)


def test_embedded_unknown_game_is_404(client):
    assert client.get("/embed/games/no-such-game").status_code == 404


@pytest.mark.parametrize("path", ["/", "/games/{game}", "/games/{game}/watch", "/tournaments/t-1/projector"])
def test_every_other_page_still_refuses_to_be_framed(configured, path):
    game_id = record(configured, SETUP, [])
    response = configured.get(path.format(game=game_id))
    assert response.status_code == 200
    assert frame_ancestors(response) == "'none'"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_embed_ancestors_are_read_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("RECORDER_EMBED_ANCESTORS", "https://federation.example.et")
    client = make_app(tmp_path / "env.sqlite3").test_client()
    assert frame_ancestors(client.get("/embed/tournaments/t-1/rounds/1")) == "https://federation.example.et"


@pytest.mark.parametrize(
    "setting",
    [
        "",  # names nobody: 'self' is the default, an empty list is a mistake
        "*",
        "https:",
        "example.org",  # no scheme
        "https://*.example.org",
        "https://example.org/",
        "https://example.org/boards",
        "https://example.org?x=1",
        "https://user@example.org",
        "https://example.org:99999",
        "https://example.org; script-src *",  # a second directive smuggled in
        "https://example.org,https://other.org",
        "javascript://example.org",
        "'none'",
        "'unsafe-inline'",
    ],
)
def test_embed_ancestors_that_are_not_origins_are_refused_at_start(tmp_path, setting):
    with pytest.raises(EmbedAncestorsError):
        create_app({"TESTING": True, "DATABASE": str(tmp_path / "bad.sqlite3"), "EMBED_ANCESTORS": setting})


@pytest.mark.parametrize(
    ("setting", "policy"),
    [
        ("'self' https://Federation.example.ORG", "'self' https://federation.example.org"),
        ("http://127.0.0.1:8080  https://[::1]:8443", "http://127.0.0.1:8080 https://[::1]:8443"),
        ("https://a.example https://a.example", "https://a.example"),
    ],
)
def test_embed_ancestors_that_are_origins_are_accepted(tmp_path, setting, policy):
    client = make_app(tmp_path / "ok.sqlite3", EMBED_ANCESTORS=setting).test_client()
    assert frame_ancestors(client.get("/embed/tournaments/t-1/rounds/1")) == policy
