"""Take the README's screenshots of the web pages (issue 9), at tablet size.

    .venv/bin/python docs/screenshots/take.py

Plays fixture games into a temporary database through the API, serves the app on a
loopback port and photographs the pages with Debian's /usr/bin/chromium (Playwright).
"""

from __future__ import annotations

import sys
import secrets
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from playwright.sync_api import sync_playwright  # noqa: E402

from browser import TABLET, LiveServer, fixture_game, launch_chromium, record  # noqa: E402
from recorder.app import create_app  # noqa: E402

# (file, fixture, how many of its commands are played before the picture)
GAMES = [
    ("game-selus-3x6.png", "selus-rounds-1372.json", 30),
    ("game-tuz-2x6.png", "tuz-end-turn-seed1.json", 20),
]


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        token = secrets.token_urlsafe(32)
        app = create_app({"DATABASE": str(Path(folder) / "shots.sqlite3"), "ADMIN_TOKEN": token})
        client = app.test_client()
        client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"  # every write needs a token
        games = [(name, record(client, fixture_game(f)["setup"], fixture_game(f)["commands"][:n])) for name, f, n in GAMES]
        with LiveServer(app) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_page(viewport=TABLET, device_scale_factor=1)
            for name, game_id in games:
                page.goto(f"{server.url}/games/{game_id}")
                page.wait_for_selector("#game-page[data-ready=true]")
                page.screenshot(path=str(HERE / name))
                print("wrote", HERE / name)
            browser.close()
        app.extensions["recorder"].store.close()


if __name__ == "__main__":
    main()
