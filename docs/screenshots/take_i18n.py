"""Take the screenshots of the game page and the tournament page in Tigrinya and Amharic.

    .venv/bin/python docs/screenshots/take_i18n.py

Plays a Selus fixture game between players named in Ge'ez script and a four-player
Qelat round robin through the API into a temporary database, serves the app on a
loopback port and photographs both pages in each language (chosen with ``?lang=``, as
the chooser in the header does) with Debian's /usr/bin/chromium (Playwright) at 390×844
(a phone, touch) and 1280×800: game-ti-390.png, tournament-am-1280.png, ...
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from playwright.sync_api import sync_playwright  # noqa: E402

from browser import LiveServer, fixture_game, launch_chromium, record  # noqa: E402
from recorder.app import create_app  # noqa: E402

SIZES = ({"width": 390, "height": 844}, {"width": 1280, "height": 800})
LANGUAGES = ("ti", "am")
ADMIN_TOKEN = "screenshots-admin-token"
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def game(client) -> str:
    """Thirty plies of the Selus fixture, at an event on a date (the Ethiopian one beside it)."""
    selus = fixture_game("selus-rounds-1372.json")
    setup = {**selus["setup"], "south": "ሃብቶም ተኽለ", "north": "ሰናይት ብርሃነ", "event": "ዋንጫ ኣስመራ", "site": "ኣስመራ"}
    return record(client, {**setup, "date": "2026-11-21", "round": "3"}, selus["commands"][:30])


def tournament(client) -> str:
    """A four-player Qelat round robin: round 1 decided, round 2's boards under way."""
    made = client.post(
        "/api/tournaments", json={"name": "ዋንጫ ኣስመራ", "variant": "qelat", "format": "round_robin", "site": "ኣስመራ"}
    )
    tournament_id = made.get_json()["id"]
    for name in ("ኣበባ ተስፋይ", "ብርሃነ ኪዳነ", "ሰላም ተስፋይ", "ዳዊት ኣለሙ"):
        client.post(f"/api/tournaments/{tournament_id}/players", json={"name": name})
    for round_number in (1, 2):
        boards = client.post(f"/api/tournaments/{tournament_id}/rounds", json={}).get_json()["boards"]
        for board in boards:
            url = f"/api/tournaments/{tournament_id}/rounds/{round_number}/boards/{board['board']}/game"
            game_id = client.post(url, json={"first_player": "south"}).get_json()["id"]
            for version in range(1, 5):
                hole = client.get(f"/api/games/{game_id}/state").get_json()["legal_moves"][0]
                sow = {"type": "sow", "hole": hole, "expected_version": version}
                client.post(f"/api/games/{game_id}/commands", json=sow)
            if round_number == 1:
                winner = ("south", "north")[board["board"] % 2]
                result = {"type": "result", "kind": "resignation", "winner": winner, "expected_version": 5}
                client.post(f"/api/games/{game_id}/commands", json=result)
    return tournament_id


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "shots.sqlite3"), "ADMIN_TOKEN": ADMIN_TOKEN})
        client = app.test_client()
        client.environ_base["HTTP_AUTHORIZATION"] = ADMIN["Authorization"]  # every write needs a token
        pages = {"game": f"/games/{game(client)}", "tournament": f"/tournaments/{tournament(client)}"}
        with LiveServer(app) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for language in LANGUAGES:
                for size in SIZES:
                    context = browser.new_context(viewport=size, device_scale_factor=1, has_touch=size["width"] < 600)
                    page = context.new_page()
                    page.goto(f"{server.url}/?token={ADMIN_TOKEN}&lang={language}")  # signed in, the language chosen
                    page.wait_for_selector("[data-ready=true]")
                    for name, path in pages.items():
                        page.goto(f"{server.url}{path}")
                        page.wait_for_selector("[data-ready=true]")
                        page.wait_for_timeout(300)  # the move list's notation arrives after the board
                        shot = HERE / f"{name}-{language}-{size['width']}.png"
                        page.screenshot(path=str(shot), full_page=size["width"] < 600 or name == "tournament")
                        print("wrote", shot)
                    context.close()
            browser.close()
        app.extensions["recorder"].store.close()


if __name__ == "__main__":
    main()
