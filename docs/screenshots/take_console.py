"""Take the screenshots of the tournament console, at a phone's size and a laptop's.

    .venv/bin/python docs/screenshots/take_console.py

Runs a rated twelve-player Qelat Swiss of five rounds through the API into a temporary
database (two rounds played, the third with half its results in), serves the app on a
loopback port and photographs, signed in as the admin, with Debian's /usr/bin/chromium
(Playwright) at 390×844 (a phone, touch) and 1280×800: the console's list and its
creation form refusing a value (``console``, ``console-refusal``), the tournament's
console with the fourth round proposed and two players swapped by hand so that the
checker names what breaks (``console-tournament``), its results section
(``console-results``), and the round's sign-in cards (``signin-cards``).
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

from recorder.app import create_app  # noqa: E402

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
ADMIN_TOKEN = "screenshots-admin-token"
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
NAMES = [
    "Abeba Tesfaye",
    "Berhane Kidane",
    "Chaltu Bekele",
    "Dawit Alemu",
    "Eleni Gebre",
    "Fikre Woldu",
    "Genet Haile",
    "Habtom Tekle",
    "Iyasu Mengistu",
    "Kidane Asfaw",
    "Lemlem Berhe",
    "Mulu Gebremedhin",
]


def result(client, tid: str, round_number: int, board: int, rng: random.Random) -> None:
    entered = rng.choice(["south_wins", "north_wins", "draw", "south_wins"])
    url = f"/api/tournaments/{tid}/rounds/{round_number}/boards/{board}/result"
    client.post(url, headers=ADMIN, json={"result": entered, "kind": "played"})


def swiss(client) -> str:
    rng = random.Random(11)
    body = {"name": "Asmara Open", "variant": "qelat", "format": "swiss", "rounds": 5, "rated": True, "site": "Asmara"}
    tid = client.post("/api/tournaments", headers=ADMIN, json=body).get_json()["id"]
    for k, name in enumerate(NAMES):
        entry = {"name": name, "federation": "ERI" if k % 3 else "ETH", "rating": 1900 - 37 * k, "register": True}
        client.post(f"/api/tournaments/{tid}/players", headers=ADMIN, json=entry)
    for round_number in (1, 2, 3):
        boards = client.post(f"/api/tournaments/{tid}/rounds", headers=ADMIN, json={}).get_json()["boards"]
        played = boards if round_number < 3 else boards[: len(boards) // 2]
        for board in played:
            result(client, tid, round_number, board["board"], rng)
    return tid


def finish_round(client, tid: str) -> None:
    rng = random.Random(3)
    boards = client.get(f"/api/tournaments/{tid}/rounds/3").get_json()["boards"]
    for board in boards:
        if not board["result"]:
            result(client, tid, 3, board["board"], rng)


def shoot(page, name: str, size: dict, selector: str | None = None) -> None:
    target = HERE / f"{name}-{size['width']}.png"
    if selector:
        page.locator(selector).screenshot(path=str(target))
    else:
        page.screenshot(path=str(target), full_page=True)
    print("wrote", target)


def photograph(browser, url: str, tid: str, size: dict, client) -> None:
    context = browser.new_context(viewport=size, device_scale_factor=1, has_touch=size["width"] < 600, base_url=url)
    page = context.new_page()
    page.goto(f"/console?token={ADMIN_TOKEN}")
    page.wait_for_selector("#console-page[data-ready=true]")
    shoot(page, "console", size)
    page.fill("#create-form [name=name]", "Keren Cup")
    page.fill("#create-form [name=rounds]", "0")
    page.click("[data-action=create-tournament]")
    page.wait_for_selector("#create-form [data-problem]:not([hidden])")
    shoot(page, "console-refusal", size, "#create-form")
    page.goto(f"/tournaments/{tid}/console")
    page.wait_for_selector("#console-page[data-ready=true]")
    shoot(page, "console-results", size, "#results-section")
    page.goto(f"/tournaments/{tid}/rounds/3/signin-cards")
    page.click("[data-action=issue-board-signins]")
    page.wait_for_selector(".signin-card img.card-qr")
    shoot(page, "signin-cards", size)
    finish_round(client, tid)
    page.goto(f"/tournaments/{tid}/console")
    page.wait_for_selector("#console-page[data-ready=true]")
    page.click("[data-action=pair-round]")
    page.wait_for_selector("#proposal:not([hidden])")
    players = page.eval_on_selector_all("#proposal-boards [data-player]", "(ps) => ps.map((p) => p.dataset.player)")
    page.select_option("#swap-first", players[0])
    page.select_option("#swap-second", players[3])
    page.click("[data-action=swap-players]")
    page.wait_for_selector("#proposal[data-changed=true] #findings li")
    shoot(page, "console-tournament", size)
    context.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for size in SIZES.values():
            app = create_app(
                {"DATABASE": str(Path(folder) / f"shots-{size['width']}.sqlite3"), "ADMIN_TOKEN": ADMIN_TOKEN}
            )
            client = app.test_client()
            tid = swiss(client)
            with LiveServer(app) as server, sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                photograph(browser, server.url, tid, size, client)
                browser.close()
            app.extensions["recorder"].store.close()


if __name__ == "__main__":
    main()
