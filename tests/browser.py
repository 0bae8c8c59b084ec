"""Helpers for the browser tests and the screenshot script: a live server and Chromium.

The app runs on a free loopback port in a thread (werkzeug's ``make_server``); the
browser is Debian's ``/usr/bin/chromium`` driven by Playwright — never a downloaded one.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from pathlib import Path

from werkzeug.serving import WSGIRequestHandler, make_server

# Debian's Chromium; RECORDER_TEST_CHROMIUM points elsewhere (the test of the skip line uses it).
CHROMIUM = os.environ.get("RECORDER_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "games"
TABLET = {"width": 1024, "height": 1366}  # a 12.9" tablet held upright, in CSS pixels


class QuietHandler(WSGIRequestHandler):
    """No access log on the test output."""

    def log_request(self, *args, **kwargs) -> None:
        pass


class InFlight:
    """How many finite requests the app is answering now."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()

    def add(self, change: int) -> None:
        with self.lock:
            self.count += change


def closing(app, in_flight: InFlight | None = None):
    """The app with every finite response read whole and its iterable closed here.

    werkzeug's development server closes a response's iterable only after draining the
    socket; a browser context closed mid-response (a service worker still precaching)
    resets the socket, the drain raises, and a static file stays open until the garbage
    collector finds it, a ResourceWarning (an error here) in whichever test runs then.
    The live streams (``…/live``) are passed through as they are: they never end.
    ``in_flight`` counts the finite requests being answered."""
    in_flight = in_flight or InFlight()

    def app_closing(environ, start_response):
        if environ.get("PATH_INFO", "").endswith("/live"):
            return app(environ, start_response)
        in_flight.add(1)
        try:
            body = app(environ, start_response)
            try:
                return [b"".join(body)]
            finally:
                if hasattr(body, "close"):
                    body.close()
        finally:
            in_flight.add(-1)

    return app_closing


class LiveServer:
    """The Flask app served on 127.0.0.1 on a free port, in a daemon thread."""

    def __init__(self, app):
        self.app = app
        # A closed page's live stream is noticed at its next heartbeat: keep that short so
        # every stream has ended before the tests close the store.
        app.config["LIVE_HEARTBEAT_SECONDS"] = 0.5
        self.in_flight = InFlight()
        self.server = make_server(
            "127.0.0.1", 0, closing(app, self.in_flight), threaded=True, request_handler=QuietHandler
        )
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        # A closed page's requests still being answered (a console's last reread, a
        # tournament's checks on a busy machine) end before the store closes under them.
        listeners = self.app.extensions["live"]
        deadline = time.monotonic() + 10
        while (listeners.open or self.in_flight.count) and time.monotonic() < deadline:
            time.sleep(0.1)
        self.server.shutdown()
        self.thread.join(timeout=10)
        self.server.server_close()


@contextlib.contextmanager
def served_with_chromium(app):
    """The app on a live server with Chromium beside it (``server.browser``) and its test
    client (``server.client``); the store is closed once both are gone."""
    from playwright.sync_api import sync_playwright

    with LiveServer(app) as server, sync_playwright() as playwright:
        server.client = app.test_client()
        server.browser = launch_chromium(playwright)
        yield server
        server.browser.close()
    app.extensions["recorder"].store.close()


@contextlib.contextmanager
def watched_page(browser, *, timeout: int = 10_000, **context_options):
    """A page on a new device (browser context); when done, no uncaught JavaScript error
    happened on any page it opened."""
    context = browser.new_context(**context_options)
    page = context.new_page()
    page.set_default_timeout(timeout)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == [], errors


def launch_chromium(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def fixture_game(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


def record(client, setup: dict, commands: list[dict]) -> str:
    """Create a game through the API and record ``commands``; return its id."""
    response = client.post("/api/games", json=setup)
    assert response.status_code == 201, response.get_json()
    game_id, version = response.get_json()["id"], 1
    for command in commands:
        response = client.post(f"/api/games/{game_id}/commands", json={**command, "expected_version": version})
        assert response.status_code == 201, (command, response.get_json())
        version = response.get_json()["version"]
    return game_id
