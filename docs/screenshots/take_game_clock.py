"""Take the screenshots of the game page as the clock, on a phone and a tablet.

    .venv/bin/python docs/screenshots/take_game_clock.py

Creates a Qelat game with a time control (1 minute + 1 s) in a temporary database,
serves the app on a loopback port and, with Debian's /usr/bin/chromium (Playwright) and
Playwright's clock (no real waiting), starts the device clock, records six sowings a few
seconds apart and lets North's flag fall: game-clock-390.png and game-clock-1280.png show
the fallen flag with the time result offered, the running faces and the move list's
think times.
"""

from __future__ import annotations

import json
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from playwright.sync_api import sync_playwright  # noqa: E402

from browser import LiveServer, launch_chromium  # noqa: E402
from recorder.app import create_app  # noqa: E402

SIZES = {"390": {"width": 390, "height": 844}, "1280": {"width": 1280, "height": 800}}
ADMIN_TOKEN = "screenshots-admin-token"
CONTROL = {"stages": [{"base_ms": 60_000, "increment_ms": 1_000}]}
THINK_MS = [4_000, 6_500, 3_000, 9_000, 2_500, 7_000]  # each sowing's thought, North first


def take(browser, url: str, game_id: str, holes: list[str], size: str) -> None:
    context = browser.new_context(viewport=SIZES[size], base_url=url, device_scale_factor=1)
    page = context.new_page()
    start = datetime.now(UTC)
    page.clock.install(time=start)
    page.clock.pause_at(start + timedelta(seconds=1))
    page.goto(f"/?token={ADMIN_TOKEN}")
    page.wait_for_function("() => localStorage.getItem('recorder.token') !== null")
    page.goto(f"/games/{game_id}")
    page.wait_for_selector("#game-page[data-ready=true]")
    page.click("#clock-start")
    for version, (hole, think) in enumerate(zip(holes, THINK_MS, strict=True), start=2):
        page.clock.run_for(think)
        page.click(f".board [data-hole='{hole}']")
        page.wait_for_selector(f".board[data-version='{version}']")
    page.clock.run_for(70_000)  # North's time runs out
    page.wait_for_selector("#clock-flag:not([hidden])")
    page.wait_for_selector("#moves .ply-time")
    page.evaluate("() => document.getElementById('clock').scrollIntoView()")
    page.screenshot(path=str(HERE / f"game-clock-{size}.png"))
    context.close()


def main() -> None:
    holes = [
        command["hole"] for command in json.loads((ROOT / "fixtures/games/qelat-default.json").read_text())["commands"]
    ]
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": f"{folder}/clock.sqlite3", "ADMIN_TOKEN": ADMIN_TOKEN})
        client = app.test_client()
        setup = {
            "variant": "qelat",
            "south": "Abeba",
            "north": "Berhane",
            "first_player": "north",
            "time_control": CONTROL,
        }
        with LiveServer(app) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for size in SIZES:
                made = client.post("/api/games", json=setup, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
                take(browser, server.url, made.get_json()["id"], holes[: len(THINK_MS)], size)
            browser.close()
        app.extensions["recorder"].store.close()


if __name__ == "__main__":
    main()
