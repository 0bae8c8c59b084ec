"""What the service worker keeps of a signed-in reader's private answers (docs/security.md,
"What the service worker keeps"), in Chromium (Playwright).

A tournament's arbiter reads its delayed games whole; everyone else reads them as they
stood the delay ago. The service worker keeps reads for offline use: an answer meant for
one token (``Cache-Control: private``, ``Vary: Authorization``, or asked with a token) is
kept only for that token, and every kept one goes when the device signs out. So after an
arbiter signs out, a device offline (or on a network slower than the worker waits) shows
no move the delay still holds back; what is public is still served offline.
"""

from __future__ import annotations

import os

import pytest
from browser import CHROMIUM, LiveServer, fixture_game, launch_chromium, record
from conftest import make_app

playwright_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)

pytestmark = pytest.mark.timeout(180)

DELAY = 3600  # an hour: every move the test records is held back from the public
MOVES = 6
INSTALL_MS = 30_000


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    """A delayed tournament's board game with ``MOVES`` moves, a public game, an arbiter's token."""
    app = make_app(tmp_path_factory.mktemp("private") / "hall.sqlite3")
    admin = app.test_client()
    body = {"name": "Axum Open", "variant": "qelat", "format": "round_robin", "broadcast_delay": DELAY}
    tournament = admin.post("/api/tournaments", json=body).get_json()["id"]
    for name in ("Abeba", "Berhane"):
        assert admin.post(f"/api/tournaments/{tournament}/players", json={"name": name}).status_code == 201
    assert admin.post(f"/api/tournaments/{tournament}/rounds", json={}).status_code == 201
    game = admin.post(f"/api/tournaments/{tournament}/rounds/1/boards/1/game", json={"first_player": "north"})
    game_id, version = game.get_json()["id"], 1
    commands = fixture_game("qelat-default.json")["commands"]
    for command in commands[:MOVES]:
        reply = admin.post(f"/api/games/{game_id}/commands", json={**command, "expected_version": version})
        assert reply.status_code == 201, reply.get_json()
        version = reply.get_json()["version"]
    issued = admin.post(f"/api/tournaments/{tournament}/tokens", json={"holder": "Arbiter Selam"}).get_json()
    public_game = record(admin, fixture_game("qelat-default.json")["setup"], commands[:2])
    with playwright_api.sync_playwright() as playwright, LiveServer(app) as server:
        server.browser = launch_chromium(playwright)
        server.game, server.version, server.public_game = game_id, version, public_game
        server.arbiter = issued["token"]
        server.public_events = len(
            admin.get(f"/api/games/{game_id}/events", headers={"Authorization": ""}).get_json()["events"]
        )
        yield server
        server.browser.close()
    app.extensions["recorder"].store.close()


def events_read_by(page, game_id: str) -> int | None:
    """The number of events the page's own read of the game's log gets (through the service
    worker, with the token the page holds), or None when it gets no log (offline, not kept)."""
    return page.evaluate(
        """async (gameId) => {
          const { getJSON } = await import('/web-static/js/api.js');
          try { return (await getJSON(`/api/games/${gameId}/events`)).data.events.length; } catch { return null; }
        }""",
        game_id,
    )


def kept_logs(page, game_id: str) -> list[int]:
    """The length of every copy of the game's log any cache of the device holds."""
    return page.evaluate(
        """async (gameId) => {
          const lengths = [];
          for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            for (const request of await cache.keys()) {
              if (new URL(request.url).pathname !== `/api/games/${gameId}/events`) continue;
              lengths.push((await (await cache.match(request)).json()).events.length);
            }
          }
          return lengths;
        }""",
        game_id,
    )


def test_an_arbiters_private_reads_are_not_served_after_sign_out_offline(hall):
    assert 1 <= hall.public_events < hall.version  # the premise: the delay holds the moves back
    context = hall.browser.new_context(base_url=hall.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/?token={hall.arbiter}")
    page.wait_for_function("() => localStorage.getItem('recorder.token') !== null")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=INSTALL_MS)
    # The arbiter opens the delayed game (the page keeps its reads), and a public one.
    for game_id in (hall.game, hall.public_game):
        page.goto(f"/games/{game_id}")
        page.wait_for_selector("[data-ready=true]")
        page.wait_for_function(
            "async (url) => Boolean(await caches.match(url))", arg=f"/api/games/{game_id}/events", timeout=INSTALL_MS
        )
    assert events_read_by(page, hall.game) == hall.version  # the arbiter reads the game whole
    # The worker and the page name the arbiter's cache alike (a digest, not the token).
    private = page.evaluate(
        """async (token) => {
          const { readerCache } = await import('/web-static/js/api.js');
          const names = (await caches.keys()).filter((name) => name.startsWith('recorder-private-'));
          return { names, expected: await readerCache(`Bearer ${token}`) };
        }""",
        hall.arbiter,
    )
    assert private["names"] == [private["expected"]] and hall.arbiter not in private["expected"]
    context.set_offline(True)
    assert events_read_by(page, hall.game) == hall.version  # and offline too, signed in: kept for the arbiter
    context.set_offline(False)
    # Signed out, from the home page: the game's page is not opened again online.
    page.goto("/")
    page.wait_for_selector("#signed-in[data-state=signed-in]")
    page.click("#sign-in-summary")
    page.click("#sign-out")
    page.wait_for_selector("#signed-in[data-state=viewing]")
    # A read asked with the arbiter's token that comes back after sign-out is not kept.
    late = page.evaluate(
        """async ([gameId, token]) => {
          const { readerCache } = await import('/web-static/js/api.js');
          const headers = { Authorization: `Bearer ${token}` };
          const response = await fetch(`/api/games/${gameId}/events`, { headers });
          await new Promise((resolve) => setTimeout(resolve, 500));  // the worker's put, were there one
          return { status: response.status, kept: await caches.has(await readerCache(`Bearer ${token}`)) };
        }""",
        [hall.game, hall.arbiter],
    )
    assert late == {"status": 200, "kept": False}
    context.set_offline(True)
    assert events_read_by(page, hall.game) in (None, hall.public_events)  # never the arbiter's
    assert hall.version not in kept_logs(page, hall.game)  # no copy of it is left on the device
    page.goto(f"/games/{hall.game}")  # the page itself is public: the worker serves it offline
    page.wait_for_selector("#game-page")
    page.wait_for_selector("#game-page[data-ready=true], #notice[data-kind=error]:not([hidden])")
    shown = page.evaluate("() => document.querySelector('.board[data-version]')?.dataset.version ?? null")
    assert shown != str(hall.version)
    context.close()
    assert errors == [], errors


def test_a_readers_public_reads_are_still_served_offline(hall):
    context = hall.browser.new_context(base_url=hall.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto("/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=INSTALL_MS)
    page.goto(f"/games/{hall.public_game}")
    page.wait_for_selector("[data-ready=true]")
    url = f"/api/games/{hall.public_game}/events"
    page.wait_for_function("async (url) => Boolean(await caches.match(url))", arg=url, timeout=INSTALL_MS)
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("[data-ready=true]")
    assert page.get_attribute(".board", "data-version") == "3"
    assert events_read_by(page, hall.public_game) == 3
    context.close()
