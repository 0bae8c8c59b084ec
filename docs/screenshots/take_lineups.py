"""Take the screenshots of a team event's line-ups, captains' cards and board prizes.

    .venv/bin/python docs/screenshots/take_lineups.py

Runs tests/test_web_console_lineups.py's team round robin (four registry teams of four
boards and two reserves, named in both scripts) through the API into a temporary database,
serves the app on a loopback port and photographs in Tigrinya with Debian's
/usr/bin/chromium (Playwright) at 390×844 (a phone, touch) and 1280×800: the console's
line-ups for round 1, team 1's handed in with a reserve and an empty board and team 2's
refused out of board order (``console-lineups``), a captain's card (``captain-card``), the
captain's page on a phone (``captain``), round 1's results with its empty board lost by
forfeit (``console-empty-board``), and, in a second event played through, the printed
board prizes (``board-prizes``).
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browser import LiveServer, launch_chromium  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from test_web_console_lineups import TEAMS, team_event  # noqa: E402

from recorder.app import create_app  # noqa: E402

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
ADMIN_TOKEN = "screenshots-admin-token"


class AdminClient:
    """The app's test client, every request as the admin."""

    def __init__(self, app):
        self.client = app.test_client()

    def get(self, url, **kw):
        return self.client.get(url, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, **kw)

    def post(self, url, **kw):
        return self.client.post(url, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, **kw)


def device(browser, url: str, size: dict, token: str | None = ADMIN_TOKEN):
    context = browser.new_context(viewport=size, device_scale_factor=1, has_touch=size["width"] < 600, base_url=url)
    page = context.new_page()
    page.goto(f"/?lang=ti{f'&token={token}' if token else ''}")
    page.wait_for_function("() => !window.location.search.includes('token')")
    return context, page


def shoot(target, name: str, size: dict) -> None:
    path = HERE / f"{name}-{size['width']}.png"
    target.screenshot(path=str(path))
    print("wrote", path)


def lineups(browser, url: str, tid: str, size: dict) -> None:
    context, page = device(browser, url, size)
    page.goto(f"/tournaments/{tid}/console")
    page.wait_for_selector("#console-page[data-ready=true]")
    team = page.locator(".lineup-team[data-team='2']")
    team.locator("select[data-board='2']").select_option("9")
    team.locator("select[data-board='3']").select_option("8")
    team.locator("[data-action=lineup]").click()
    team.locator("[data-problem]:not([hidden])").wait_for()
    shoot(page.locator("#lineups-part"), "console-lineups", size)
    context.close()


def captain(browser, url: str, tid: str) -> None:
    context, page = device(browser, url, DESKTOP)
    page.goto(f"/tournaments/{tid}/teams/2/captain-card")
    page.wait_for_selector("#captain-card-page[data-ready=true]")
    with page.expect_response(lambda r: r.url.endswith("/teams/2/captain-signin")) as issued:
        page.click("[data-action=issue-captain-card]")
    address = issued.value.json()["address"]
    page.wait_for_selector(".captain-card img.card-qr")
    shoot(page, "captain-card", DESKTOP)
    context.close()
    phone, page = device(browser, url, PHONE, token=None)
    page.goto(address.replace(url, ""))
    page.wait_for_selector("#captain-page[data-ready=true]")
    page.locator("select[data-board='3']").select_option("11")
    page.locator("select[data-board='4']").select_option("12")
    page.click("[data-action=lineup]")
    page.wait_for_function("() => document.getElementById('captain-page').dataset.handedIn")
    page.screenshot(path=str(HERE / "captain-390.png"), full_page=True)
    print("wrote", HERE / "captain-390.png")
    phone.close()


def empty_board(browser, url: str, tid: str) -> None:
    context, page = device(browser, url, PHONE)
    page.goto(f"/tournaments/{tid}/console")
    page.wait_for_selector("#console-page[data-ready=true]")
    shoot(page.locator("#results-section"), "console-empty-board", PHONE)
    context.close()


def board_prizes(browser, url: str, tid: str) -> None:
    context, page = device(browser, url, DESKTOP)
    page.goto(f"/tournaments/{tid}/print?list=board-prizes")
    page.wait_for_selector("#print-page[data-ready=true]")
    page.screenshot(path=str(HERE / "board-prizes-1280.png"), full_page=True)
    print("wrote", HERE / "board-prizes-1280.png")
    context.close()


def played_through(client) -> str:
    rng, tid = random.Random(7), team_event(client)
    for round_number in range(1, TEAMS):
        for board in client.post(f"/api/tournaments/{tid}/rounds", json={}).get_json()["boards"]:
            body = {"result": rng.choice(["south_wins", "draw", "north_wins"]), "kind": "played"}
            client.post(f"/api/tournaments/{tid}/rounds/{round_number}/boards/{board['board']}/result", json=body)
    return tid


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        # Two events of the same registry players: the second in a database of its own.
        app, other = (
            create_app({"DATABASE": str(Path(folder) / name), "ADMIN_TOKEN": ADMIN_TOKEN}) for name in ("a", "b")
        )
        client = AdminClient(app)
        tid = team_event(client)
        client.post(f"/api/tournaments/{tid}/rounds/1/lineups", json={"team": 1, "players": [1, 5, 6, None]})
        finished = played_through(AdminClient(other))
        with LiveServer(app) as server, LiveServer(other) as second, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for size in (PHONE, DESKTOP):
                lineups(browser, server.url, tid, size)
            captain(browser, server.url, tid)
            client.post(f"/api/tournaments/{tid}/rounds", json={})
            empty_board(browser, server.url, tid)
            board_prizes(browser, second.url, finished)
            browser.close()
        for made in (app, other):
            made.extensions["recorder"].store.close()


if __name__ == "__main__":
    main()
