"""Take the screenshots of the player page and the rating list, at a phone's size and a laptop's.

    .venv/bin/python docs/screenshots/take_players.py

Registers six players (two with Ge'ez names), plays a rated Qelat round robin through the
API into a temporary database, serves the app on a loopback port and photographs
``/players/<id>`` and ``/ratings/qelat`` with Debian's /usr/bin/chromium (Playwright) at
390×844 (a phone, touch) and 1280×800, as docs/screenshots/take.py does for the other pages.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from playwright.sync_api import sync_playwright  # noqa: E402

from browser import LiveServer, launch_chromium  # noqa: E402
from recorder.app import create_app  # noqa: E402

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
ADMIN_TOKEN = "screenshots-admin-token"
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
PLAYERS = [
    {"name": "Abeba Tesfaye", "name_geez": "ኣበባ ተስፋይ", "federation": "ERI", "club": "Asmara MC", "birth_year": 1994},
    {"name": "Berhane Kidane", "federation": "ERI", "club": "Keren"},
    {"name": "Chaltu Bekele", "federation": "ETH", "club": "Adama"},
    {"name": "Dawit Alemu", "name_geez": "ዳዊት ኣለሙ", "federation": "ETH"},
    {"name": "Eleni Gebre", "federation": "ETH", "club": "Mekelle"},
    {"name": "Fikre Woldu", "federation": "DJI"},
]


def rated_event(client) -> str:
    """A six-player Qelat round robin, every round played: its first player's id."""
    rng = random.Random(7)
    ids = [client.post("/api/players", headers=ADMIN, json=body).get_json()["id"] for body in PLAYERS]
    made = client.post("/api/tournaments", headers=ADMIN, json={"name": "Asmara Rated Open", "variant": "qelat",
                                                                 "format": "round_robin", "rated": True})
    tournament_id = made.get_json()["id"]
    for player_id in ids:
        client.post(f"/api/tournaments/{tournament_id}/players", headers=ADMIN, json={"player_id": player_id})
    for round_number in range(1, 6):
        boards = client.post(f"/api/tournaments/{tournament_id}/rounds", headers=ADMIN, json={}).get_json()["boards"]
        for board in boards:
            url = f"/api/tournaments/{tournament_id}/rounds/{round_number}/boards/{board['board']}/game"
            game_id = client.post(url, headers=ADMIN, json={}).get_json()["id"]
            winner = rng.choice(["south", "north", "south", None])
            result = {"type": "result", "kind": "resignation" if winner else "agreement", "winner": winner}
            client.post(f"/api/games/{game_id}/commands", headers=ADMIN, json={**result, "expected_version": 1})
    return ids[0]


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "shots.sqlite3"), "ADMIN_TOKEN": ADMIN_TOKEN})
        client = app.test_client()
        shots = {"player": f"/players/{rated_event(client)}", "ratings": "/ratings/qelat"}
        with LiveServer(app) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for size in SIZES.values():
                context = browser.new_context(viewport=size, device_scale_factor=1, has_touch=size["width"] < 600)
                page = context.new_page()
                for name, path in shots.items():
                    page.goto(f"{server.url}{path}")
                    page.wait_for_selector("[data-ready=true]")
                    target = HERE / f"{name}-{size['width']}.png"
                    page.screenshot(path=str(target), full_page=True)
                    print("wrote", target)
                context.close()
            browser.close()
        app.extensions["recorder"].store.close()


if __name__ == "__main__":
    main()
