"""The arbiter's page in a hall (Debian's Chromium via Playwright, at 390×844 with touch
and at 1280×800): moves recorded with the network down survive a reload and reach the
server in order; two tablets in conflict; live boards for a spectator, the tournament
page and the projector; the phone layout; a tap on a board that moves under the finger;
names in Ge'ez script.

Every expectation is read from the service's own API (its log, its notation, its move
list), never from the page's JavaScript.
"""

from __future__ import annotations

import time

import pytest
from browser import CHROMIUM, LiveServer, fixture_game, launch_chromium, record
from conftest import ADMIN, ADMIN_TOKEN, make_app

playwright_api = pytest.importorskip("playwright.sync_api")
import os  # noqa: E402

if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)

pytestmark = pytest.mark.timeout(180)

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
LIVE_WITHIN_MS = 1000


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    database = str(tmp_path_factory.mktemp("hall") / "hall.sqlite3")
    app = make_app(database, LIVE_LISTENERS=64)  # its test client writes as the admin
    with playwright_api.sync_playwright() as playwright, LiveServer(app) as server:
        server.client = app.test_client()
        server.browser = launch_chromium(playwright)
        yield server
        server.browser.close()
    app.extensions["recorder"].store.close()


class Tablet:
    """One browser context (one device) with its page; no uncaught JavaScript error allowed."""

    def __init__(self, web, size: str):
        viewport = SIZES[size]
        self.context = web.browser.new_context(viewport=viewport, base_url=web.url, has_touch=size == "phone")
        self.touch = size == "phone"
        self.page = self.context.new_page()
        self.page.set_default_timeout(10_000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        # Sign in as `recorder serve` prints it: the page keeps the token and sends it.
        self.page.goto(f"/?token={ADMIN_TOKEN}")
        self.page.wait_for_function("() => localStorage.getItem('recorder.token') !== null")

    def open(self, path: str) -> None:
        self.page.goto(path)
        self.page.wait_for_selector("[data-ready=true]")

    def press(self, selector: str) -> None:
        (self.page.tap if self.touch else self.page.click)(selector)

    def go_offline(self) -> None:
        """The network drops; wait until the page has finished saying so. Going offline
        starts the rules on this device, and their status line, above the board, changes
        when they are ready or cannot start (their files not kept yet) and moves the board:
        a tap while it moves is dropped (see the test of a board moving under the finger), so
        the tests tap after."""
        self.context.set_offline(True)
        self.rules_settled()

    def rules_settled(self) -> None:
        self.page.wait_for_selector(
            "#game-page:not([data-rules-state=standby]):not([data-rules-state=loading])", timeout=INSTALL_MS
        )

    def version(self) -> int:
        return int(self.page.get_attribute(".board", "data-version"))

    def close(self) -> None:
        self.context.close()
        assert self.errors == [], self.errors


@pytest.fixture
def tablets(web):
    made: list[Tablet] = []
    yield lambda size: made.append(Tablet(web, size)) or made[-1]
    for tablet in made:
        tablet.close()


def events(web, game_id: str) -> list[dict]:
    return web.client.get(f"/api/games/{game_id}/events").get_json()["events"]


def qelat(web, moves: int) -> tuple[str, list[dict]]:
    game = fixture_game("qelat-default.json")
    return record(web.client, game["setup"], game["commands"][:moves]), game["commands"]


INSTALL_MS = 30_000


def cached_for_offline(page) -> None:
    """The service worker controls the page and the game's reads are in its cache. Installing
    it fetches every page asset, slow on a loaded machine: a longer wait than Playwright's 10 s."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=INSTALL_MS)
    page.wait_for_function(
        """async () => {
      const urls = [location.pathname, '/api' + location.pathname,
                    '/api' + location.pathname + '/events', '/api/variants'];
      return (await Promise.all(urls.map((url) => caches.match(url)))).every(Boolean);
    }""",
        timeout=INSTALL_MS,
    )


# -- Offline recording ---------------------------------------------------------------------


def test_a_page_loaded_past_the_service_worker_asks_to_be_taken_and_then_works_offline(web, tablets):
    # A forced reload goes past the worker, as a navigation still under way when the worker
    # activated does: its claim() does not reach such a page, so the page asks for it.
    game_id, _ = qelat(web, 2)
    tablet = tablets("desktop")
    page = tablet.page
    tablet.open(f"/games/{game_id}")
    cached_for_offline(page)
    tablet.context.new_cdp_session(page).send("Page.reload", {"ignoreCache": True})
    page.wait_for_selector("#game-page[data-ready=true]")
    cached_for_offline(page)

    tablet.context.set_offline(True)
    page.reload()
    page.wait_for_selector("#game-page[data-ready=true]")
    assert tablet.version() == 3
    tablet.context.set_offline(False)


@pytest.mark.parametrize("size", SIZES)
def test_moves_recorded_offline_survive_a_reload_and_reach_the_server_in_order(web, tablets, size):
    game_id, commands = qelat(web, 4)
    tablet = tablets(size)
    page = tablet.page
    tablet.open(f"/games/{game_id}")
    cached_for_offline(page)

    tablet.go_offline()
    played = [command["hole"] for command in commands[4:7]]
    for count, hole in enumerate(played, start=1):
        tablet.press(f".board [data-hole='{hole}']")
        page.wait_for_selector(f"#pending-list li:nth-child({count})")
    assert page.get_attribute("#connection", "data-state") == "offline"
    assert len(events(web, game_id)) == 5  # nothing reached the server
    assert tablet.version() == 5  # the board is the last recorded position

    page.reload()  # still offline: the service worker serves the page, IndexedDB the queue
    page.wait_for_selector("#game-page[data-ready=true]")
    assert [t.split()[-2:] for t in page.locator("#pending-list li").all_inner_texts()] == [["sow", h] for h in played]
    assert page.get_attribute(f".board [data-hole='{played[0]}']", "data-queued") == "1"

    tablet.context.set_offline(False)
    page.wait_for_selector(".board[data-version='8']")
    page.wait_for_selector("#connection[data-state=online]")
    assert page.is_hidden("#pending")
    log = events(web, game_id)
    assert len(log) == 8
    assert [(e["seq"], e["type"], e["payload"]["hole"]) for e in log[5:]] == [
        (6 + i, "sowed", h) for i, h in enumerate(played)
    ]


def test_offline_the_page_records_with_the_token_it_holds_and_says_it_was_not_checked(web, tablets):
    """Who a token is cannot be asked offline (nor is an answer kept): the page records with
    the token this device holds, as before, and says the scope was not checked."""
    game_id, commands = qelat(web, 4)
    tablet = tablets("phone")
    page = tablet.page
    tablet.open(f"/games/{game_id}")
    cached_for_offline(page)
    page.wait_for_selector("#signed-in[data-state=signed-in]")
    assert page.inner_text("#signed-in") == "Signed in as the admin: may record everything"

    tablet.context.set_offline(True)
    page.reload()
    page.wait_for_selector("#game-page[data-ready=true][data-can-record=true]")
    page.wait_for_selector("#signed-in[data-state=signed-in]")
    tablet.rules_settled()
    assert page.inner_text("#signed-in") == "Signed in as the admin: may record everything (offline: not checked)"
    tablet.press(f".board [data-hole='{commands[4]['hole']}']")
    page.wait_for_selector("#pending-list li")

    tablet.context.set_offline(False)
    page.wait_for_selector(".board[data-version='6']")
    assert events(web, game_id)[-1]["recorded_by"] == "admin"


def test_two_tablets_one_offline_then_the_conflict_is_shown_and_resolved(web, tablets):
    game_id, commands = qelat(web, 4)
    offline, online = tablets("phone"), tablets("desktop")
    offline.open(f"/games/{game_id}")
    online.open(f"/games/{game_id}")

    # The first tablet loses the network and records two sowings; the second records one.
    offline.go_offline()
    mine = [command["hole"] for command in commands[4:6]]
    for count, hole in enumerate(mine, start=1):
        offline.press(f".board [data-hole='{hole}']")
        offline.page.wait_for_selector(f"#pending-list li:nth-child({count})")
    theirs = next(h for h in web.client.get(f"/api/games/{game_id}/state").get_json()["legal_moves"] if h != mine[0])
    online.press(f".board [data-hole='{theirs}']")
    online.page.wait_for_selector(".board[data-version='6']")

    # Back online: the queue is refused (409) and shown beside the server's record.
    offline.context.set_offline(False)
    offline.page.wait_for_selector("#conflict:not([hidden])")
    shown = offline.page.locator("#conflict-theirs li").all_inner_texts()
    assert [t.split(" (")[0].split()[-1] for t in shown] == [theirs]  # "… a2 (admin)": the move, who recorded it
    assert [t.split()[-1] for t in offline.page.locator("#conflict-mine li").all_inner_texts()] == mine
    assert len(events(web, game_id)) == 6  # nothing of the queue was stored

    # The arbiter keeps the tablet's moves: the other sowing is withdrawn, the queue recorded.
    offline.press("#replace-theirs")
    offline.page.wait_for_selector(".board[data-version='9']")
    offline.page.wait_for_selector("#conflict[hidden]", state="attached")
    log = events(web, game_id)
    assert [(e["type"], e["payload"].get("hole"), e["payload"].get("count")) for e in log[5:]] == [
        ("sowed", theirs, None),
        ("moves_retracted", None, 1),
        ("sowed", mine[0], None),
        ("sowed", mine[1], None),
    ]
    online.page.wait_for_selector(".board[data-version='9']")  # the other tablet heard it live

    # Again, and this time the queued move is discarded: the server's record stands.
    offline.go_offline()
    state = web.client.get(f"/api/games/{game_id}/state").get_json()
    offline.press(f".board [data-hole='{state['legal_moves'][0]}']")
    offline.page.wait_for_selector("#pending-list li")
    online.press(f".board [data-hole='{state['legal_moves'][-1]}']")
    online.page.wait_for_selector(".board[data-version='10']")
    offline.context.set_offline(False)
    offline.page.wait_for_selector("#conflict:not([hidden])")
    offline.press("#discard-queued")
    offline.page.wait_for_selector("#pending", state="hidden")
    offline.page.wait_for_selector(".board[data-version='10']")
    assert len(events(web, game_id)) == 10
    assert (
        offline.page.evaluate("""() => new Promise((resolve) => {
      const open = indexedDB.open('recorder-offline');
      open.onsuccess = () => { const all = open.result.transaction('pending').objectStore('pending').getAll();
                               all.onsuccess = () => resolve(all.result.length); };
    })""")
        == 0
    )


# -- Live boards ----------------------------------------------------------------------------


def within_a_second(record_move, page, selector: str) -> float:
    """Record with another client; the page shows ``selector`` within a second. Returns ms."""
    start = time.monotonic()
    record_move()
    page.wait_for_selector(selector, timeout=LIVE_WITHIN_MS)
    return (time.monotonic() - start) * 1000


@pytest.mark.parametrize("size", SIZES)
def test_a_spectator_sees_a_move_recorded_elsewhere_within_a_second(web, tablets, size):
    game_id, commands = qelat(web, 3)
    spectator = tablets(size)
    spectator.open(f"/games/{game_id}/watch")
    assert spectator.page.locator(".hole:not([disabled])").count() == 0  # nothing to record here
    assert spectator.page.is_hidden("#actions") and spectator.page.is_hidden("#tools")
    spectator.page.wait_for_timeout(300)  # the stream is open
    post = lambda: web.client.post(f"/api/games/{game_id}/commands", json={**commands[3], "expected_version": 4})  # noqa: E731
    within_a_second(post, spectator.page, ".board[data-version='5']")
    assert spectator.page.get_attribute(f".board [data-hole='{commands[3]['hole']}']", "class").count("last") == 1


def tournament_with_two_boards(web) -> tuple[str, list[str]]:
    created = web.client.post(
        "/api/tournaments", headers=ADMIN, json={"name": "Mekele Cup", "variant": "qelat", "format": "round_robin"}
    )
    tournament_id = created.get_json()["id"]
    for name in ("Abeba", "Berhane", "Dawit", "Selam"):
        web.client.post(f"/api/tournaments/{tournament_id}/players", headers=ADMIN, json={"name": name})
    web.client.post(f"/api/tournaments/{tournament_id}/rounds", headers=ADMIN, json={})
    games = [
        web.client.post(
            f"/api/tournaments/{tournament_id}/rounds/1/boards/{board}/game",
            headers=ADMIN,
            json={"first_player": "south"},
        ).get_json()["id"]
        for board in (1, 2)
    ]
    return tournament_id, games


def sow_first_legal(web, game_id: str):
    hole = web.client.get(f"/api/games/{game_id}/state").get_json()["legal_moves"][0]
    seen = {**ADMIN, "If-Match": web.client.get(f"/api/games/{game_id}").headers["ETag"]}
    return lambda: web.client.post(f"/api/games/{game_id}/commands", headers=seen, json={"type": "sow", "hole": hole})


@pytest.mark.parametrize("size", SIZES)
def test_the_projector_and_the_tournament_page_follow_the_boards_live(web, tablets, size):
    tournament_id, games = tournament_with_two_boards(web)
    projector = tablets(size)
    projector.open(f"/tournaments/{tournament_id}/projector")
    assert projector.page.locator(".projector-card").count() == 2
    assert projector.page.text_content(".projector-round") == "Round 1"
    projector.page.wait_for_timeout(300)
    within_a_second(sow_first_legal(web, games[1]), projector.page, f"[data-game='{games[1]}'][data-version='2']")

    page = tablets(size)
    page.open(f"/tournaments/{tournament_id}")
    page.page.wait_for_timeout(300)

    def resign():
        return web.client.post(
            f"/api/games/{games[0]}/commands",
            headers={**ADMIN, "If-Match": web.client.get(f"/api/games/{games[0]}").headers["ETag"]},
            json={"type": "result", "kind": "resignation", "winner": "north"},
        )

    within_a_second(resign, page.page, "[data-round='1'] tbody tr:first-child td:nth-child(4):text('0–1')")
    projector.page.wait_for_selector(
        f"[data-game='{games[0]}'] .projector-status:has-text('Game over')", timeout=LIVE_WITHIN_MS
    )


# -- The phone layout: the six problems of the first trial -----------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_stores_are_drawn_within_their_frame(web, tablets, size):
    game = fixture_game("selus-rounds-1372.json")
    game_id = record(web.client, game["setup"], game["commands"][:30])
    tablet = tablets(size)
    tablet.open(f"/games/{game_id}")
    outside = tablet.page.evaluate("""() => {
      const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
        && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
      const wood = document.querySelector('.wood').getBoundingClientRect();
      const wrong = [];
      for (const store of document.querySelectorAll('.store')) {
        const cup = store.querySelector('.cup').getBoundingClientRect();
        if (!inside(cup, wood)) wrong.push(['cup', store.dataset.store]);
        for (const pebble of store.querySelectorAll('.pebble')) {
          const box = pebble.getBoundingClientRect();
          if (box.width > 20 || !inside(box, cup)) wrong.push(['pebble', store.dataset.store, box.width]);
        }
      }
      return wrong;
    }""")
    assert outside == []
    assert tablet.page.evaluate("() => document.documentElement.scrollWidth") <= SIZES[size]["width"]


@pytest.mark.parametrize("size", SIZES)
def test_the_move_list_has_one_cell_per_turn(web, tablets, size):
    game = fixture_game("lahemay_walida-default.json")
    game_id = record(web.client, game["setup"], game["commands"][:40])
    moves = web.client.get(f"/api/games/{game_id}/moves").get_json()["moves"]
    turns = [m for m in moves if m["notation"][0].isdigit() or m["notation"].startswith("{")]
    assert len(turns) < len(moves)  # the game has turns of more than one sowing
    tablet = tablets(size)
    tablet.open(f"/games/{game_id}")
    tablet.page.wait_for_selector(f".ply[data-seq='{moves[-1]['seq']}'][data-notation]")
    cells = tablet.page.locator("#moves li.move-turn").evaluate_all(
        "cells => cells.map((c) => [...c.querySelectorAll('.ply')].map((p) => Number(p.dataset.seq)))"
    )
    assert len(cells) == 1 + len(turns)  # the start position, then one cell per turn
    starts = [m["seq"] for m in turns]
    assert [cell[0] for cell in cells[1:]] == starts
    assert sorted(seq for cell in cells[1:] for seq in cell) == [m["seq"] for m in moves]


@pytest.mark.parametrize("size", SIZES)
def test_rule_options_are_shown_in_words(web, tablets, size):
    setup = {
        "variant": "qelat",
        "south": "Abeba",
        "north": "Dawit",
        "first_player": "south",
        "options": {"mazagebh_no_return": False},
    }
    game_id = record(web.client, setup, [])
    tablet = tablets(size)
    tablet.open(f"/games/{game_id}")
    option = next(v for v in web.client.get("/api/variants").get_json()["variants"] if v["name"] == "qelat")["options"][
        "mazagebh_no_return"
    ]
    line = tablet.page.text_content("#game-rules")
    assert line == f"Rules: {option['label']}: {option['choice_labels'][option['choices'].index(False)]}"
    assert "mazagebh" not in line and "false" not in line.lower().split()


@pytest.mark.parametrize("size", SIZES)
def test_the_next_required_action_comes_first(web, tablets, size):
    """The Tuz opening (TUZ-4) and Gabata's race (GAB-2) are above the board and in view."""
    height = SIZES[size]["height"]
    for fixture, form in (("tuz-end-turn-seed1.json", "#opening-form"), ("gabata-default.json", "#race-form")):
        game = fixture_game(fixture)
        game_id = record(web.client, game["setup"], [])
        tablet = tablets(size)
        tablet.open(f"/games/{game_id}")
        first = tablet.page.locator(f"{form} button[type=submit]").first.bounding_box()
        board = tablet.page.locator(".board").bounding_box()
        assert first["y"] < board["y"]
        if form == "#opening-form":
            assert first["y"] + first["height"] <= height  # no scrolling to find it


@pytest.mark.parametrize("size", SIZES)
def test_home_page_shows_the_players_and_start_first(web, tablets, size):
    tablet = tablets(size)
    tablet.page.goto("/")
    tablet.page.wait_for_selector("body[data-ready=true]")
    start = tablet.page.locator("#new-game button[type=submit]").bounding_box()
    assert start["y"] + start["height"] <= SIZES[size]["height"]
    assert tablet.page.is_visible("input[name=south]") and tablet.page.is_visible("input[name=north]")
    assert tablet.page.is_hidden("#options")  # folded under "Rules options"
    tablet.page.click("#rules-options summary")
    assert tablet.page.is_visible("#options [data-option]")


# -- A tap on a board that moves under the finger -------------------------------------------


def touch_tap(tablet, hole: str, while_pressed: str = "") -> None:
    """A finger on ``hole``, lifted after ``while_pressed`` (a script) ran: the browser's own
    touch events, so it picks the click's target itself, as on a tablet."""
    box = tablet.page.locator(f".board [data-hole='{hole}']").bounding_box()
    finger = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    touch = tablet.context.new_cdp_session(tablet.page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [finger]})
    if while_pressed:
        tablet.page.evaluate(while_pressed)
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    touch.detach()


def test_a_tap_sows_only_the_hole_it_pressed_when_the_board_moves_under_the_finger(web, tablets):
    """A status line above the board can change on its own (the network drops, the rules
    finish loading, the queue is sent) and move the board while a finger is down. The
    browser then clicks whatever is under the finger when it lifts: that hole must not be
    sown. The mover's row, as drawn:

        a2 b2 c2 d2 e2 f2      the finger on the first legal hole; the board moves to
        ^finger  <- board      the left, so the next legal hole is under it at the lift
    """
    game_id, commands = qelat(web, 4)
    tablet = tablets("phone")
    tablet.open(f"/games/{game_id}")
    legal = web.client.get(f"/api/games/{game_id}/state").get_json()["legal_moves"]
    pressed, other = sorted(legal)[:2]
    step = tablet.page.evaluate(
        """([a, b]) => document.querySelector(`.board [data-hole='${b}']`).getBoundingClientRect().left
                     - document.querySelector(`.board [data-hole='${a}']`).getBoundingClientRect().left""",
        [pressed, other],
    )
    touch_tap(tablet, pressed, f"document.querySelector('#board').style.transform = 'translateX({-step}px)'")
    tablet.page.wait_for_timeout(500)
    assert len(events(web, game_id)) == 5  # neither hole was sown
    assert tablet.page.locator("#pending-list li").count() == 0

    tablet.page.evaluate("document.querySelector('#board').style.transform = ''")
    touch_tap(tablet, pressed)  # the same tap on a board that stays still sows the hole pressed
    tablet.page.wait_for_selector(".board[data-version='6']")
    assert events(web, game_id)[-1]["payload"]["hole"] == pressed


# -- Names in Ge'ez script ------------------------------------------------------------------


def fonts_used(page, selector: str) -> set[str]:
    """The fonts Chromium actually drew the element's text with (DevTools protocol)."""
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument")["root"]["nodeId"]
    node = session.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    session.detach()
    return {font["familyName"] for font in fonts}


def test_names_in_geez_script_in_the_page_the_svg_and_the_notation(web, tablets):
    south, north = "ሰላም ተስፋይ", "ዳዊት ገብረ"
    game_id = record(web.client, {"variant": "qelat", "south": south, "north": north, "first_player": "south"}, [])
    tablet = tablets("phone")
    tablet.open(f"/games/{game_id}")
    assert tablet.page.text_content("#game-title") == f"Qelat: {south} – {north}"
    assert tablet.page.text_content(".side-south .player-name") == south
    assert "Abyssinica SIL" in fonts_used(tablet.page, ".side-south .player-name")

    svg = web.client.get(f"/api/games/{game_id}/board.svg")
    text = svg.get_data(as_text=True)
    assert south in text and north in text and "Abyssinica SIL" in text
    tablet.page.goto(f"/api/games/{game_id}/board.svg")
    assert "Abyssinica SIL" in fonts_used(tablet.page, "text")  # the side label names South's player

    notation = web.client.get(f"/api/games/{game_id}/notation").get_data(as_text=True)
    assert f'[South "{south}"]' in notation and f'[North "{north}"]' in notation
