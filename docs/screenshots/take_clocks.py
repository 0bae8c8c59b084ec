"""Take the screenshots of the clocks on the projector and in the embeds, at a laptop's
size and a hall's screen.

    .venv/bin/python docs/screenshots/take_clocks.py

Plays a twelve-board Qelat round with a time control (10 minutes + 5 s) through the API
into a temporary database, each sowing with its reading (board 3's clocks paused, board
5's North out of time, board 7 not started), serves the app on a loopback port and
photographs the projector and the embeddable round and game with Debian's
/usr/bin/chromium (Playwright) at 1280×800 and 1920×1080. The page's clock is
Playwright's, set 40 s after the last reading, so the running clocks have visibly run.
"""

from __future__ import annotations

import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from playwright.sync_api import sync_playwright  # noqa: E402

from browser import LiveServer, launch_chromium  # noqa: E402
from recorder.app import create_app  # noqa: E402

SIZES = {"1280": {"width": 1280, "height": 800}, "1920": {"width": 1920, "height": 1080}}
ADMIN_TOKEN = "screenshots-admin-token"
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
CONTROL = {"stages": [{"base_ms": 600_000, "increment_ms": 5_000}]}
NAMES = ["Abeba", "Berhane", "Chaltu", "Dawit", "Eden", "Filmon", "Genet", "Hagos", "Iyasu", "Kidane", "Lemlem",
         "Meron", "Nardos", "Omer", "Petros", "Rahel", "Selam", "Tesfay", "Yonas", "Zewdi", "Aster", "Bereket",
         "Daniel", "Elsa"]


def command(client, game_id: str, body: dict) -> dict:
    seen = {**ADMIN, "If-Match": client.get(f"/api/games/{game_id}").headers["ETag"]}
    return client.post(f"/api/games/{game_id}/commands", headers=seen, json=body).get_json()


def played(client, game_id: str, plies: int) -> dict:
    """``plies`` sowings, each with the clocks as they stood after it: the last event."""
    left = {"south": 600_000, "north": 600_000}
    event = {}
    for ply in range(plies):
        legal = client.get(f"/api/games/{game_id}/state").get_json()["legal_moves"]
        side = "south" if ply % 2 == 0 else "north"
        left[side] = left[side] - 9_000 - 1_750 * ply + 5_000
        event = command(client, game_id, {"type": "sow", "hole": legal[ply % len(legal)], "clock": dict(left)})["event"]
    return event


def hall(client) -> tuple[str, str, datetime]:
    """The round's tournament, board 1's game, and when the last reading was recorded."""
    made = client.post("/api/tournaments", headers=ADMIN, json={
        "name": "Addis Ababa Championship", "variant": "qelat", "format": "round_robin", "time_control": CONTROL})
    tournament_id = made.get_json()["id"]
    for name in NAMES:
        client.post(f"/api/tournaments/{tournament_id}/players", headers=ADMIN, json={"name": name})
    client.post(f"/api/tournaments/{tournament_id}/rounds", headers=ADMIN, json={})
    games, last = [], None
    for board in (1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
        url = f"/api/tournaments/{tournament_id}/rounds/1/boards/{board}/game"
        game_id = client.post(url, headers=ADMIN, json={"first_player": "south"}).get_json()["id"]
        games.append(game_id)
        last = played(client, game_id, board + 3)
        if board == 3:
            last = command(client, game_id, {"type": "pause_clocks", "clock": last["payload"]["clock"]})["event"]
        if board == 5:
            fallen = {**last["payload"]["clock"], "north": 0}
            last = command(client, game_id, {"type": "result", "kind": "time", "winner": "south", "clock": fallen})
            last = last["event"]
    return tournament_id, games[0], datetime.fromisoformat(last["recorded_at"].replace("Z", "+00:00"))


def shot(browser, server, path: str, name: str, size: str, at: datetime) -> None:
    context = browser.new_context(viewport=SIZES[size], device_scale_factor=1)
    page = context.new_page()
    page.clock.install(time=at)
    page.goto(f"{server.url}{path}")
    page.wait_for_selector("[data-ready=true]")
    page.clock.pause_at(at + timedelta(seconds=40))
    page.clock.run_for(250)  # one tick drawn at the paused time
    target = HERE / f"{name}-{size}.png"
    page.screenshot(path=str(target))
    print("wrote", target)
    context.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "clocks.sqlite3"), "ADMIN_TOKEN": ADMIN_TOKEN})
        client = app.test_client()
        tournament_id, game_id, last = hall(client)
        with LiveServer(app) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for size in SIZES:
                shot(browser, server, f"/tournaments/{tournament_id}/projector", "projector-clocks", size, last)
                shot(browser, server, f"/embed/tournaments/{tournament_id}/rounds/1", "embed-round-clocks", size, last)
                shot(browser, server, f"/embed/games/{game_id}", "embed-game-clocks", size, last)
            browser.close()
        app.extensions["recorder"].store.close()


if __name__ == "__main__":
    main()
