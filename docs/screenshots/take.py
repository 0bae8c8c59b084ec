"""Take the screenshots of the web pages, at a phone's size and a laptop's.

    .venv/bin/python docs/screenshots/take.py [NAME…]

(with names, only those shots are written, e.g. `projector`)

Plays fixture games into a temporary database through the API, serves the app on a
loopback port and photographs each page with Debian's /usr/bin/chromium (Playwright) at
390×844 (a phone, touch) and 1280×800: the home page, a Selus game in progress, a Tuz
game awaiting its opening, the spectator view, a game with moves pending offline (the
board after them, folded by the rules on the device), a queued move the server refused,
a tournament, the projector view of a round of twelve boards (a few under way, one
finished, one not started, one forfeit; also at 1920×1080), a game between players named in Ge'ez script, a finished
game's scoresheet and a round's empty ones, the embeddable round and game; and, on a
device nobody signed in on, a game viewed only and a sign-in link refused on arrival.
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

from browser import LiveServer, fixture_game, launch_chromium, record  # noqa: E402
from recorder.app import create_app  # noqa: E402

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
ADMIN_TOKEN = "screenshots-admin-token"
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
ONLY = set(sys.argv[1:])
ETHIOPIC = {"variant": "qelat", "south": "ሰላም ተስፋይ", "north": "ዳዊት ገብረ", "first_player": "south"}


def played(client, fixture: str, count: int) -> str:
    game = fixture_game(fixture)
    return record(client, game["setup"], game["commands"][:count])


def tournament(client) -> str:
    """A four-player Qelat round robin with round 1's two boards under way."""
    made = client.post("/api/tournaments", headers=ADMIN, json={"name": "Asmara Open", "variant": "qelat",
                                                                "format": "round_robin", "site": "Asmara"})
    tournament_id = made.get_json()["id"]
    for name in ("Abeba", "Berhane", "ሰላም ተስፋይ", "Dawit"):
        client.post(f"/api/tournaments/{tournament_id}/players", headers=ADMIN, json={"name": name})
    client.post(f"/api/tournaments/{tournament_id}/rounds", headers=ADMIN, json={})
    for board in (1, 2):
        url = f"/api/tournaments/{tournament_id}/rounds/1/boards/{board}/game"
        game_id = client.post(url, headers=ADMIN, json={"first_player": "south"}).get_json()["id"]
        for _ in range(3 * board):
            hole = client.get(f"/api/games/{game_id}/state").get_json()["legal_moves"][0]
            client.post(f"/api/games/{game_id}/commands", headers=ADMIN, json={"type": "sow", "hole": hole})
    return tournament_id


def hall(client) -> str:
    """A 24-player Qelat round robin: round 1's boards 1-10 under way (board 5's game
    resigned), board 11 not started, board 12 won by forfeit."""
    made = client.post("/api/tournaments", headers=ADMIN, json={"name": "Addis Ababa Championship",
                                                                "variant": "qelat", "format": "round_robin"})
    tournament_id = made.get_json()["id"]
    for number in range(1, 25):
        client.post(f"/api/tournaments/{tournament_id}/players", headers=ADMIN, json={"name": f"Player {number}"})
    client.post(f"/api/tournaments/{tournament_id}/rounds", headers=ADMIN, json={})
    for board in range(1, 11):
        url = f"/api/tournaments/{tournament_id}/rounds/1/boards/{board}/game"
        game_id = client.post(url, headers=ADMIN, json={"first_player": "south"}).get_json()["id"]
        for ply in range(board + 2):
            legal = client.get(f"/api/games/{game_id}/state").get_json()["legal_moves"]
            seen = {**ADMIN, "If-Match": client.get(f"/api/games/{game_id}").headers["ETag"]}
            client.post(f"/api/games/{game_id}/commands", headers=seen,
                        json={"type": "sow", "hole": legal[ply % len(legal)]})
        if board == 5:
            seen = {**ADMIN, "If-Match": client.get(f"/api/games/{game_id}").headers["ETag"]}
            client.post(f"/api/games/{game_id}/commands", headers=seen,
                        json={"type": "result", "kind": "resignation", "winner": "north"})
    client.post(f"/api/tournaments/{tournament_id}/rounds/1/boards/12/result", headers=ADMIN,
                json={"result": "south_wins"})
    return tournament_id


def finished(client) -> str:
    """Twelve sowings of the Qelat fixture at an event, then North resigns."""
    game = fixture_game("qelat-default.json")
    setup = {**game["setup"], "event": "Asmara Open", "site": "Asmara", "round": "3", "date": "2026-11-21"}
    commands = game["commands"][:12] + [{"type": "result", "kind": "resignation", "winner": "south"}]
    return record(client, setup, commands)


def pages(client) -> dict[str, str]:
    selus = played(client, "selus-rounds-1372.json", 30)
    tuz = played(client, "tuz-end-turn-seed1.json", 0)
    tournament_id = tournament(client)
    hall_id = hall(client)
    return {
        "home": "/",
        "game-selus": f"/games/{selus}",
        "game-lahemay-walida": f"/games/{played(client, 'lahemay_walida-default.json', 40)}",
        "game-tuz-opening": f"/games/{tuz}",
        "spectator": f"/games/{selus}/watch",
        "tournament": f"/tournaments/{tournament_id}",
        "projector": f"/tournaments/{hall_id}/projector",
        "embed-round": f"/embed/tournaments/{hall_id}/rounds/1",
        "embed-game": f"/embed/games/{selus}",
        "game-ethiopic-names": f"/games/{record(client, ETHIOPIC, [])}",
        "scoresheet": f"/games/{finished(client)}/scoresheet",
        "scoresheets-round": f"/tournaments/{tournament_id}/rounds/1/scoresheets",
    }


def ready(page) -> None:
    page.wait_for_selector("[data-ready=true]")
    page.wait_for_timeout(300)  # the move list's notation arrives after the board


def offline_pending(context, server, client) -> None:
    """Two moves tapped with the network down: the board after them, by the device's rules."""
    game = fixture_game("qelat-default.json")
    game_id = record(client, game["setup"], game["commands"][:4])
    page = context.new_page()
    page.goto(f"{server.url}/games/{game_id}")
    ready(page)
    page.wait_for_selector("#game-page[data-rules-kept=true]", timeout=120_000)
    context.set_offline(True)
    page.wait_for_selector("#game-page[data-rules-state=ready]", timeout=120_000)
    for count, command in enumerate(game["commands"][4:6], start=1):
        page.click(f".board [data-hole='{command['hole']}']")
        page.wait_for_selector(f"#game-status[data-queued='{count}']")
    yield_shot(page, "game-offline-pending")
    context.set_offline(False)
    page.close()


def offline_refused(browser, server, client, size: dict) -> None:
    """A device without the rules queued an illegal sowing: refused, named, with the choices.
    (No service worker on this device: it would answer the runtime's addresses itself.)"""
    game = fixture_game("qelat-default.json")
    game_id = record(client, game["setup"], game["commands"][:4])
    context = browser.new_context(viewport=size, device_scale_factor=1, has_touch=size["width"] < 600,
                                  service_workers="block")
    context.route("**/web-runtime/**", lambda route: route.abort())
    page = context.new_page()
    page.goto(f"{server.url}/?token={ADMIN_TOKEN}")
    ready(page)
    page.goto(f"{server.url}/games/{game_id}")
    ready(page)
    context.set_offline(True)
    page.wait_for_selector("#game-page[data-rules-state=failed]")
    holes = [game["commands"][4]["hole"], game["commands"][4]["hole"], game["commands"][5]["hole"]]
    for count, hole in enumerate(holes, start=1):
        page.click(f".board [data-hole='{hole}']")
        page.wait_for_selector(f"#pending-list li:nth-child({count})")
    context.set_offline(False)
    page.wait_for_selector("#connection[data-state=refused]")
    page.evaluate("window.scrollTo(0, 0)")  # the taps scrolled to the board; the panel is above it
    yield_shot(page, "game-offline-refused")
    context.close()


def conflict(context, server, client) -> None:
    """A move queued offline while another device recorded: the conflict shown."""
    game = fixture_game("qelat-default.json")
    game_id = record(client, game["setup"], game["commands"][:4])
    page = context.new_page()
    page.goto(f"{server.url}/games/{game_id}")
    ready(page)
    page.wait_for_selector("#game-page[data-rules-kept=true]", timeout=120_000)
    context.set_offline(True)
    page.wait_for_selector("#game-page[data-rules-state=ready]", timeout=120_000)
    page.click(f".board [data-hole='{game['commands'][4]['hole']}']")
    page.wait_for_selector("#pending-list li")
    legal = client.get(f"/api/games/{game_id}/state").get_json()["legal_moves"]
    version = client.get(f"/api/games/{game_id}").get_json()["version"]
    client.post(f"/api/games/{game_id}/commands", json={"type": "sow", "hole": legal[-1], "expected_version": version})
    context.set_offline(False)
    page.wait_for_selector("#conflict-check:not([hidden])")
    yield_shot(page, "game-conflict")
    page.close()


def not_signed_in(browser, server, size: dict, game_path: str) -> None:
    """A device nobody signed in on: the game viewed only; then a sign-in link refused."""
    context = browser.new_context(viewport=size, device_scale_factor=1, has_touch=size["width"] < 600)
    page = context.new_page()
    page.goto(f"{server.url}{game_path}")
    ready(page)
    yield_shot(page, "game-viewing-only")
    page.goto(f"{server.url}{game_path}?token=rt_revoked-or-never-issued")
    ready(page)
    page.wait_for_selector("#notice:not([hidden])")
    yield_shot(page, "game-refused-link")
    context.close()


def wall(browser, server, path: str) -> None:
    """The projector on a hall's 1920×1080 screen."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, device_scale_factor=1)
    page = context.new_page()
    page.goto(f"{server.url}{path}")
    ready(page)
    yield_shot(page, "projector")
    context.close()


def yield_shot(page, name: str) -> None:
    """The whole page on a phone (it scrolls); the screen on a laptop."""
    if ONLY and name not in ONLY:
        return
    width = page.viewport_size["width"]
    path = HERE / f"{name}-{width}.png"
    page.screenshot(path=str(path), full_page=width < 600 or name in {"home", "tournament", "scoresheets-round"})
    print("wrote", path)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "shots.sqlite3"), "ADMIN_TOKEN": ADMIN_TOKEN})
        client = app.test_client()
        client.environ_base["HTTP_AUTHORIZATION"] = ADMIN["Authorization"]  # every write needs a token
        shots = pages(client)
        with LiveServer(app) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for size in SIZES.values():
                context = browser.new_context(viewport=size, device_scale_factor=1, has_touch=size["width"] < 600)
                page = context.new_page()
                page.goto(f"{server.url}/?token={ADMIN_TOKEN}")  # signed in, as the arbiter's device is
                ready(page)
                for name, path in shots.items():
                    page.goto(f"{server.url}{path}")
                    ready(page)
                    yield_shot(page, name)
                page.close()
                offline_pending(context, server, client)
                offline_refused(browser, server, client, size)
                conflict(context, server, client)
                context.close()
                not_signed_in(browser, server, size, shots["game-selus"])
            wall(browser, server, shots["projector"])
            browser.close()
        app.extensions["recorder"].store.close()


if __name__ == "__main__":
    main()
