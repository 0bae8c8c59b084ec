"""Take the screenshots of a team event's page, its embed and its printout.

    .venv/bin/python docs/screenshots/take_teams.py

Runs a team round robin of four registry teams of two boards, named in both scripts
(tests/test_web_team_browser.py's event: round 1 played, round 2 paired, one of its boards
resigned), through the API into a temporary database, serves the app on a loopback port
and photographs with Debian's /usr/bin/chromium (Playwright) at 390×844 (a phone, touch)
and 1280×800: the team page in Tigrinya (``team-ti``), the embedded team standings in
Amharic (``team-embed-am``), and the printout's first A4 page as print media lays it out
(``team-print``, 794 px wide) with the whole printout as ``team-print.pdf``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browser import LiveServer, launch_chromium  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from test_web_team_browser import resign, team_event  # noqa: E402

from recorder.app import create_app  # noqa: E402

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
A4 = {"width": 794, "height": 1123}
ADMIN_TOKEN = "screenshots-admin-token"


class AdminClient:
    """The app's test client, every request as the admin."""

    def __init__(self, app):
        self.client = app.test_client()

    def get(self, url, **kw):
        return self.client.get(url, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, **kw)

    def post(self, url, **kw):
        return self.client.post(url, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, **kw)


def shoot(page, name: str, size: dict) -> None:
    target = HERE / f"{name}-{size['width']}.png"
    page.screenshot(path=str(target), full_page=True)
    print("wrote", target)


def photograph(browser, url: str, tid: str, size: dict) -> None:
    context = browser.new_context(viewport=size, device_scale_factor=1, has_touch=size["width"] < 600, base_url=url)
    page = context.new_page()
    page.goto(f"/tournaments/{tid}/teams?lang=ti")
    page.wait_for_selector("#team-page[data-ready=true]")
    shoot(page, "team-ti", size)
    page.goto(f"/embed/tournaments/{tid}/team-standings?lang=am")
    page.wait_for_selector("#team-page[data-ready=true]")
    shoot(page, "team-embed-am", size)
    context.close()


def printout(browser, url: str, tid: str) -> None:
    context = browser.new_context(viewport=A4, device_scale_factor=1, base_url=url)
    page = context.new_page()
    page.goto(f"/tournaments/{tid}/teams?lang=ti")
    page.wait_for_selector("#team-page[data-ready=true]")
    page.emulate_media(media="print")
    page.screenshot(path=str(HERE / "team-print-794.png"), clip={"x": 0, "y": 0, **A4})
    page.pdf(path=str(HERE / "team-print.pdf"), format="A4")
    print("wrote", HERE / "team-print-794.png", HERE / "team-print.pdf")
    context.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "teams.sqlite3"), "ADMIN_TOKEN": ADMIN_TOKEN})
        client = AdminClient(app)
        tid = team_event(client)
        board = client.get(f"/api/tournaments/{tid}/team-matches").get_json()["rounds"][1]["matches"][0]["boards"][0]
        resign(client, tid, 2, board["board"], "north")
        with LiveServer(app) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for size in SIZES.values():
                photograph(browser, server.url, tid, size)
            printout(browser, server.url, tid)
            browser.close()
        app.extensions["recorder"].store.close()


if __name__ == "__main__":
    main()
