"""The embeddable boards in a real browser (Chromium, Playwright): a federation's page on
another loopback origin frames a game when the admin lists that origin, and the browser
blocks the frame when not; a recorded move shows up in the frame (live); a tournament's
broadcast delay holds moves back in the frame as in every public read.
"""

from __future__ import annotations

import os
import re
import threading
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from browser import CHROMIUM, LiveServer, fixture_game, launch_chromium, record, watched_page

playwright_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"Chromium is not installed at {CHROMIUM}", allow_module_level=True)

from conftest import make_app  # noqa: E402

pytestmark = pytest.mark.timeout(120)

DELAY = 15 * 60
READ_HOLES = """(board) => Object.fromEntries(
  [...board.querySelectorAll('[data-hole]')].map((hole) => [hole.dataset.hole, Number(hole.dataset.count)]))"""
SHOWN = 6  # the commands the public may see once the test's clock says so
ROOT = Path(__file__).resolve().parent.parent


class HostPage(BaseHTTPRequestHandler):
    """A federation's page: an iframe of the address in its query string."""

    def do_GET(self) -> None:
        embedded = self.path.partition("?")[2]
        body = f'<!doctype html><title>Federation</title><iframe id="board" src="{embedded}"></iframe>'.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


class Federation:
    def __init__(self):
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), HostPage)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    allowed, refused = Federation(), Federation()
    app = make_app(
        tmp_path_factory.mktemp("embed") / "embed.sqlite3",
        EMBED_ANCESTORS=allowed.origin,
        LIVE_POLL_SECONDS=0.05,
    )
    with LiveServer(app) as server, playwright_api.sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        server.client = app.test_client()
        server.browser = browser
        server.allowed, server.refused = allowed, refused
        yield server
        browser.close()
    allowed.close()
    refused.close()
    app.extensions["recorder"].store.close()


@pytest.fixture
def page(web):
    with watched_page(web.browser) as page:
        yield page


def framed(web, page, host: Federation, path: str):
    """Open ``host``'s page framing ``path`` of the service; the frame once it has loaded."""
    with page.expect_response(lambda r: r.url == f"{web.url}{path}") as served:
        page.goto(f"{host.origin}/?{web.url}{path}", wait_until="load")
    assert served.value.status == 200  # served: any blocking is the browser's, by the policy
    return page.frame_locator("#board")


def shown_version(frame, game_id: str) -> int:
    card = frame.locator(f'.embed-card[data-game="{game_id}"]')
    return int(card.get_attribute("data-version"))


def test_embedded_game_is_framed_by_an_allowed_origin_and_follows_each_move(web, page):
    game = fixture_game("qelat-default.json")
    game_id = record(web.client, game["setup"], game["commands"][:2])
    frame = framed(web, page, web.allowed, f"/embed/games/{game_id}")
    frame.locator("#embed-page[data-ready=true]").wait_for()
    assert frame.locator(".board [data-hole]").count() > 0
    assert shown_version(frame, game_id) == 3
    title = frame.locator(f'.embed-card h2 a[href="/games/{game_id}/watch"]')
    assert (title.get_attribute("target"), title.get_attribute("rel")) == ("_blank", "noopener")

    response = web.client.post(f"/api/games/{game_id}/commands", json={**game["commands"][2], "expected_version": 3})
    assert response.status_code == 201, response.get_json()
    frame.locator(f'.embed-card[data-game="{game_id}"][data-version="4"]').wait_for()
    holes = frame.locator(".board").evaluate(READ_HOLES)
    state = web.client.get(f"/api/games/{game_id}/state").get_json()
    assert holes == {str(hole): count for hole, count in state["holes"].items()}


def test_embedded_game_is_blocked_in_a_page_of_an_origin_not_listed(web, page):
    game_id = record(web.client, {"variant": "qelat", "south": "A", "north": "B", "first_player": "south"}, [])
    framed(web, page, web.refused, f"/embed/games/{game_id}")
    frame = page.frame(url=lambda url: not url.startswith(web.refused.origin))
    page.wait_for_timeout(500)  # a framed page would have run its script by now
    assert frame is not None and frame.url.startswith("chrome-error:"), frame and frame.url
    assert frame.query_selector("#embed-page") is None


def test_the_full_game_page_is_blocked_even_in_a_page_of_an_allowed_origin(web, page):
    game_id = record(web.client, {"variant": "qelat", "south": "A", "north": "B", "first_player": "south"}, [])
    framed(web, page, web.allowed, f"/games/{game_id}/watch")
    frame = page.frame(url=lambda url: not url.startswith(web.allowed.origin))
    assert frame is not None and frame.url.startswith("chrome-error:"), frame and frame.url


def test_embedded_round_shows_only_the_public_moves_of_a_delayed_tournament(web, page):
    admin = web.client
    body = {"name": "Axum Open", "variant": "qelat", "options": {"mazagebh_no_return": True}, "format": "round_robin"}
    tournament = admin.post("/api/tournaments", json={**body, "broadcast_delay": DELAY}).get_json()["id"]
    for name in ("Abeba", "Berhane"):
        assert admin.post(f"/api/tournaments/{tournament}/players", json={"name": name}).status_code == 201
    assert admin.post(f"/api/tournaments/{tournament}/rounds", json={}).status_code == 201
    created = admin.post(f"/api/tournaments/{tournament}/rounds/1/boards/1/game", json={"first_player": "north"})
    assert created.status_code == 201, created.get_json()
    game_id, version = created.get_json()["id"], 1
    for command in fixture_game("qelat-default.json")["commands"][: SHOWN + 4]:
        response = admin.post(f"/api/games/{game_id}/commands", json={**command, "expected_version": version})
        assert response.status_code == 201, response.get_json()
        version = response.get_json()["version"]
    events = admin.get(f"/api/games/{game_id}/events").get_json()["events"]
    public = SHOWN + 1  # the creation and SHOWN commands
    recorded = datetime.fromisoformat(events[public - 1]["recorded_at"].replace("Z", "+00:00"))
    system_clock = web.app.config["CLOCK"]
    web.app.config["CLOCK"] = lambda: recorded + timedelta(seconds=DELAY)
    try:
        outsider = web.app.test_client().get(f"/api/games/{game_id}", headers={"Authorization": ""})
        assert outsider.get_json()["version"] == public  # the delay's own tested read agrees
        frame = framed(web, page, web.allowed, f"/embed/tournaments/{tournament}/rounds/1")
        frame.locator("#embed-page[data-ready=true]").wait_for()
        assert shown_version(frame, game_id) == public < version
        page.wait_for_timeout(500)  # the live stream has had its chance to tell of held-back moves
        assert shown_version(frame, game_id) == public
    finally:
        web.app.config["CLOCK"] = system_clock


def test_embedded_round_of_an_unknown_tournament_says_so(web, page):
    frame = framed(web, page, web.allowed, "/embed/tournaments/no-such-tournament/rounds/1")
    frame.locator("#embed-page[data-ready=error]").wait_for()
    assert frame.locator(".embed-status").inner_text() == "There is no such tournament here."


OVERLAPS = """() => {
  // Pairs of holes, and of seed counts, of one board whose boxes intersect.
  const overlapping = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const found = [];
  for (const board of document.querySelectorAll('.board')) {
    for (const selector of ['[data-hole]', '.count']) {
      const boxes = [...board.querySelectorAll(selector)].map((el) => el.getBoundingClientRect());
      boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => { if (overlapping(a, b)) found.push(selector); }));
    }
  }
  return found;
}"""


def embedded_round(web) -> str:
    """Round 1 of a six-player round robin, three boards under way: the tournament's id."""
    admin = web.client
    body = {"name": "Massawa Cup", "variant": "qelat", "format": "round_robin"}
    tournament = admin.post("/api/tournaments", json=body).get_json()["id"]
    for name in ("Abeba", "Berhane", "Chaltu", "Dawit", "Eden", "Filmon"):
        assert admin.post(f"/api/tournaments/{tournament}/players", json={"name": name}).status_code == 201
    assert admin.post(f"/api/tournaments/{tournament}/rounds", json={}).status_code == 201
    for board in (1, 2, 3):
        url = f"/api/tournaments/{tournament}/rounds/1/boards/{board}/game"
        assert admin.post(url, json={"first_player": "south"}).status_code == 201
    return tournament


@pytest.mark.parametrize("width", [390, 800, 1280, 1920])
def test_the_round_embeds_holes_and_counts_never_overlap(web, width):
    # With two columns or more each hole was 44 px wide but spaced 23 px apart: only the last
    # count could be read.
    tournament = embedded_round(web)
    with watched_page(web.browser, viewport={"width": width, "height": 900}) as page:
        page.goto(f"{web.url}/embed/tournaments/{tournament}/rounds/1")
        page.wait_for_selector("#embed-page[data-ready=true]")
        assert page.locator(".embed-card").count() == 3
        assert page.evaluate(OVERLAPS) == []


def test_the_documented_iframe_size_shows_the_whole_board(web):
    # docs/web.md's snippet for one game: the frame at that size scrolls nowhere.
    snippet = (ROOT / "docs" / "web.md").read_text().split('src="https://records.example.org/embed/games/GAME-ID"')[1]
    width, height = (int(re.search(rf'{name}="(\d+)"', snippet).group(1)) for name in ("width", "height"))
    game = fixture_game("qelat-default.json")
    game_id = record(
        web.client, {**game["setup"], "south": "Selam Tesfay", "north": "Berhane Kidane"}, game["commands"][:2]
    )
    with watched_page(web.browser, viewport={"width": width, "height": height}) as page:
        page.goto(f"{web.url}/embed/games/{game_id}")
        page.wait_for_selector("#embed-page[data-ready=true]")
        scroll = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        assert scroll[0] <= width and scroll[1] <= height, (scroll, width, height)
        assert page.evaluate(OVERLAPS) == []
