"""The web pages in a real browser: Debian's Chromium driven by Playwright.

The app runs on a loopback port in a thread with a temp database; the browser clicks
what an arbiter taps. Every check of "what the page shows" reads the board from the DOM
(``data-count``, ``data-owner``, ... on each hole) and compares it with the JSON API's
state for the same event, so the page is held to the one fold, not to itself.
"""

from __future__ import annotations

import json
import os
from datetime import date

import pytest
from babel.dates import format_date
from browser import CHROMIUM, TABLET, LiveServer, fixture_game, launch_chromium, record, watched_page

playwright_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"Chromium is not installed at {CHROMIUM}", allow_module_level=True)

from conftest import ADMIN, ADMIN_TOKEN, make_app  # noqa: E402

PHONE = {"width": 390, "height": 844}
REFUSED_LINK = "This sign-in link is not valid any more; ask the chief arbiter for a new one."  # issue 39's words

# What the board shows, read from the DOM: the same fields as ``shown_by_api``.
READ_BOARD = """() => {
  const board = document.querySelector('.board');
  const holes = {}, owners = {}, specials = {};
  for (const hole of board.querySelectorAll('[data-hole]')) {
    holes[hole.dataset.hole] = Number(hole.dataset.count);
    owners[hole.dataset.hole] = hole.dataset.owner;
    if (hole.dataset.special)
      specials[hole.dataset.hole] = {kind: hole.dataset.special, owner: hole.dataset.specialOwner};
  }
  const stores = {};
  for (const store of board.querySelectorAll('[data-store]')) stores[store.dataset.store] = Number(store.dataset.count);
  const sowable = [...board.querySelectorAll('.hole:not([disabled])')].map((b) => b.dataset.hole).sort();
  return {at: Number(board.dataset.at), holes, owners, specials, stores,
          to_move: board.dataset.toMove || null, sowable};
}"""


# -- Fixtures ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    database = str(tmp_path_factory.mktemp("web") / "web.sqlite3")
    app = make_app(database)  # its test client writes as the admin
    with LiveServer(app) as server, playwright_api.sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        server.client = app.test_client()
        server.browser = browser
        server.defaults = {
            v["name"]: v["default_owners"] for v in server.client.get("/api/variants").get_json()["variants"]
        }
        yield server
        browser.close()
    app.extensions["recorder"].store.close()


@pytest.fixture
def page(web):
    with watched_page(web.browser, viewport=TABLET, base_url=web.url) as page:
        sign_in(page)
        yield page


# -- Helpers -------------------------------------------------------------------------


def sign_in(page) -> None:
    """What a new user does: open the address `recorder serve` printed."""
    page.goto(f"/?token={ADMIN_TOKEN}")
    page.wait_for_function("() => !window.location.search.includes('token')")


def open_game(page, game_id: str) -> None:
    page.goto(f"/games/{game_id}")
    page.wait_for_selector("#game-page[data-ready=true]")


def api_state(web, game_id: str, at: int | None = None) -> dict:
    url = f"/api/games/{game_id}/state" + (f"?at={at}" if at else "")
    response = web.client.get(url)
    assert response.status_code == 200
    return response.get_json()


def shown_by_api(web, state: dict, at: int, latest: bool) -> dict:
    """The API's state in the shape READ_BOARD returns."""
    defaults = web.defaults[state["variant"]]
    playable = latest and not state.get("awaiting") and not state.get("game_over")
    return {
        "at": at,
        "holes": state["holes"],
        "owners": {hole: state["owners"].get(hole, owner) for hole, owner in defaults.items()},
        "specials": state["specials"],
        "stores": state["stores"],
        "to_move": state["to_move"],
        "sowable": sorted(state["legal_moves"]) if playable else [],
    }


def board(page) -> dict:
    return page.evaluate(READ_BOARD)


def version(page) -> int:
    return int(page.get_attribute(".board", "data-version"))


def wait_for_version(page, expected: int) -> None:
    page.wait_for_selector(f".board[data-version='{expected}']")


def click_hole(page, hole: str) -> None:
    before = version(page)
    page.click(f".board [data-hole='{hole}']")
    wait_for_version(page, before + 1)


def submit(page, selector: str) -> None:
    before = version(page)
    page.click(selector)
    wait_for_version(page, before + 1)


def assert_board_is_latest(web, page, game_id: str) -> None:
    state = api_state(web, game_id)
    shown = board(page)
    assert shown == shown_by_api(web, state, shown["at"], latest=True)


def create_on_home_page(page, setup: dict) -> str:
    """Start a game with the home page's form; return the id the page navigated to."""
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#variant", setup["variant"])
    if setup.get("options"):
        page.click("#rules-options summary")  # folded under "Rules options" below the Start button
    for name, value in setup.get("options", {}).items():
        page.select_option(f"[data-option='{name}']", value=json.dumps(value))  # the page's JSON.stringify
    page.fill("input[name=south]", setup["south"])
    page.fill("input[name=north]", setup["north"])
    if setup.get("first_player"):
        page.check(f"#first-player input[value={setup['first_player']}]")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#game-page[data-ready=true]")
    return page.get_attribute("#game-page", "data-game-id")


def step_back_checking_every_ply(web, page, game_id: str, press, count: int | None = None) -> int:
    """From the latest position back (to the start, or ``count`` plies): the board equals
    the API's state at each ply."""
    plies = int(page.get_attribute("#step-slider", "max"))
    last = -1 if count is None else plies - count - 1
    for index in range(plies, last, -1):
        if index < plies:
            before = board(page)["at"]
            press()
            page.wait_for_selector(f".board:not([data-at='{before}'])")
        shown = board(page)
        assert shown == shown_by_api(web, api_state(web, game_id, shown["at"]), shown["at"], latest=index == plies)
    return plies


# -- Recording by clicking -------------------------------------------------------------


def test_qelat_game_recorded_by_clicking_holes_then_reviewed_ply_by_ply(web, page):
    """The whole of fixtures/games/qelat-default.json, every sowing a click (or a key)."""
    game = fixture_game("qelat-default.json")
    game_id = create_on_home_page(page, game["setup"])
    commands = [c["hole"] for c in game["commands"]]

    # Keyboard: the holes are buttons; Enter and Space sow the focused one.
    page.focus(f".board [data-hole='{commands[0]}']")
    page.keyboard.press("Enter")
    wait_for_version(page, 2)
    page.focus(f".board [data-hole='{commands[1]}']")
    page.keyboard.press(" ")
    wait_for_version(page, 3)

    for number, hole in enumerate(commands[2:], start=2):
        # Only the legal holes are tappable: the enabled buttons are the API's legal moves.
        assert_board_is_latest(web, page, game_id)
        if number == 10:
            retract_a_mistyped_sowing(web, page, game_id, hole)
        click_hole(page, hole)

    state = api_state(web, game_id)
    assert state["game_over"] and state["result"] == game["expect"]["result"]
    assert_board_is_latest(web, page, game_id)
    assert page.text_content("#game-status").startswith("Game over")
    assert board(page)["sowable"] == []

    # The move list is in the notation, exactly as the service writes each move.
    moves = web.client.get(f"/api/games/{game_id}/moves").get_json()["moves"]
    page.wait_for_selector(f".ply[data-seq='{moves[-1]['seq']}'][data-notation]")
    shown = page.locator(".ply[data-notation]").evaluate_all("plies => plies.map((p) => p.dataset.notation)")
    assert shown == [m["notation"] for m in moves]
    assert page.get_attribute("#download-notation a", "href") == f"/api/games/{game_id}/notation"
    page.click("#notation-panel summary")
    page.wait_for_selector("#notation:has-text('0-1'), #notation:has-text('1-0'), #notation:has-text('1/2-1/2')")

    # Step back through every ply with the button, then forward again with the arrow key.
    plies = step_back_checking_every_ply(web, page, game_id, lambda: page.click("#step-prev"))
    assert plies == len(commands)  # the retracted sowing is not in the effective line
    # The End and arrow keys, and the slider, step too.
    page.keyboard.press("End")
    page.wait_for_selector(f".board[data-at='{api_state(web, game_id)['version']}']")
    step_back_checking_every_ply(web, page, game_id, lambda: page.keyboard.press("ArrowLeft"), count=8)
    page.focus("#step-slider")
    page.keyboard.press("Home")
    page.wait_for_selector(".board[data-at='1']")
    assert board(page) == shown_by_api(web, api_state(web, game_id, 1), 1, latest=False)

    # The explanation of the sowing shown, from its trace: each step with its rule id.
    page.click("#step-slider")  # focus stays on the page, off the slider (shown where it was clicked)
    page.wait_for_selector("#trace li[data-step=lifted]")  # that sowing shown: the start has no steps
    clicked_at = board(page)["at"]
    page.click("#step-next")
    page.wait_for_function(f"() => document.querySelector('.board').dataset.at !== '{clicked_at}'")
    page.wait_for_selector("#trace li[data-step=lifted]")
    assert page.text_content("#trace li[data-step=lifted] .rule") == "GEN-11"
    svg = page.get_attribute("#download-svg a", "href")
    assert svg == f"/api/games/{game_id}/board.svg?at={board(page)['at']}"
    assert web.client.get(svg).mimetype == "image/svg+xml"


def retract_a_mistyped_sowing(web, page, game_id: str, intended: str) -> None:
    """Tap a wrong (legal) hole, then undo it with a reason: the board is as before."""
    before = board(page)
    wrong = next(hole for hole in before["sowable"] if hole != intended)
    click_hole(page, wrong)
    assert board(page)["holes"] != before["holes"]
    page.click("#retract-panel summary")
    page.fill("#retract-form input[name=reason]", "wrong hole entered")
    submit(page, "#retract-form button[type=submit]")
    assert {**board(page), "at": before["at"]} == before
    assert "wrong hole entered" in page.text_content("#corrections")
    last = web.client.get(f"/api/games/{game_id}/events").get_json()["events"][-1]
    assert last["type"] == "moves_retracted" and last["payload"] == {"count": 1, "reason": "wrong hole entered"}


def perform(page, command: dict) -> None:
    """One fixture command done the way an arbiter does it on the page."""
    kind = command["type"]
    if kind == "sow":
        click_hole(page, command["hole"])
        return
    assert board(page)["sowable"] == []  # while a decision is awaited no hole can be tapped
    assert page.get_attribute(".board", "data-awaiting") == kind
    if kind == "opening":
        submit(page, f"#opening-form button[value={command['choice']}]")
    elif kind == "lot":
        submit(page, f"#lot-form button[value={command['winner']}]")
    elif kind == "next_round":
        page.check(f"#next-round-form input[name=first_player][value={command['first_player']}]")
        submit(page, "#next-round-submit")
    else:
        raise AssertionError(f"no form for {kind}")


def test_tuz_match_recorded_by_clicking_through_two_rounds(web, page):
    """fixtures/games/tuz-end-turn-seed1.json, every command clicked (nothing through the
    API): the opening form (TUZ-4), all of round 1's sowings, the lot and next-round
    forms (GEN-26, GEN-27), all of round 2, its lot and next round, and round 3's first sowings."""
    game = fixture_game("tuz-end-turn-seed1.json")
    game_id = create_on_home_page(page, game["setup"])
    commands = game["commands"][:80]
    for command in commands:
        perform(page, command)
        if command["type"] != "sow":
            assert_board_is_latest(web, page, game_id)

    state = api_state(web, game_id)
    assert state["version"] == 1 + len(commands) and state["round"] == 3
    assert_board_is_latest(web, page, game_id)
    shown_rounds = page.locator("#rounds tbody tr").all_inner_texts()
    assert len(shown_rounds) == 3
    for row, round_row in zip(shown_rounds, state["rounds"]):
        takings = round_row["takings"]
        assert row.split("\t")[:4] == [
            str(round_row["round"]),
            round_row["first_player"].title(),
            f"{round_row['holes']['south']}–{round_row['holes']['north']}",
            f"{takings['south']}–{takings['north']}" if takings else "",
        ]


def test_gen_27_next_round_with_a_chosen_allocation(web, page):
    """The allocation form: the counts must match the round's hole counts before it can be sent."""
    game = fixture_game("tuz-end-turn-seed1.json")
    game_id = record(web.client, game["setup"], game["commands"][:44])  # up to the lot: next_round awaited
    open_game(page, game_id)
    counts = api_state(web, game_id)["hole_counts"]
    page.check("#next-round-form input[name=first_player][value=north]")
    page.check("#custom-allocation")
    grid = page.locator("#allocation-grid button")

    def owned(player):
        return [b.get_attribute("data-hole") for b in grid.all() if b.get_attribute("data-owner") == player]

    if len(owned("south")) == counts["south"]:
        page.locator("#allocation-grid [data-hole=a1]").click()  # one hole too many for North
    assert page.is_disabled("#next-round-submit")  # GEN-38: each player exactly his count
    while len(owned("south")) != counts["south"]:
        player = "south" if len(owned("south")) > counts["south"] else "north"
        page.locator(f"#allocation-grid [data-hole={owned(player)[-1]}]").click()
    assert page.is_enabled("#next-round-submit")
    chosen = {"south": owned("south"), "north": owned("north")}
    submit(page, "#next-round-submit")

    state = api_state(web, game_id)
    assert state["round"] == 2 and state["to_move"] == "north"
    event = web.client.get(f"/api/games/{game_id}/events").get_json()["events"][-1]
    assert event["payload"] == {"first_player": "north", "allocation": chosen}
    assert {h for h, owner in board(page)["owners"].items() if owner == "south"} == set(chosen["south"])
    assert_board_is_latest(web, page, game_id)


def test_gab_2_race_board_entry_needs_54_seeds_then_a_result_off_the_board(web, page):
    game = fixture_game("gabata-default.json")
    game_id = create_on_home_page(page, game["setup"])
    assert page.locator("#race-form").is_visible()
    race = game["commands"][0]
    for hole, seeds in race["holes"].items():
        page.fill(f"#race-grid input[name={hole}]", str(seeds))
    page.check(f"#race-form input[name=winner][value={race['winner']}]")
    assert page.text_content("#race-total") == "54" and page.is_enabled("#race-submit")
    page.fill("#race-grid input[name=a1]", str(race["holes"]["a1"] + 1))  # GEN-37: 55 seeds
    assert page.text_content("#race-total") == "55" and page.is_disabled("#race-submit")
    page.fill("#race-grid input[name=a1]", str(race["holes"]["a1"]))
    submit(page, "#race-submit")
    assert api_state(web, game_id)["to_move"] == race["winner"]
    for command in game["commands"][1:6]:
        perform(page, command)
    assert_board_is_latest(web, page, game_id)

    # GEN-28: a draw by agreement, recorded with the result form.
    page.click("#result-panel summary")
    page.select_option("#result-form select[name=kind]", "agreement")
    page.select_option("#result-form select[name=winner]", "")
    submit(page, "#result-form button[type=submit]")
    state = api_state(web, game_id)
    assert state["game_over"] and state["result"] == "draw" and state["result_reason"] == "agreement"
    assert page.text_content("#game-status").startswith("Game over: Draw")
    assert board(page)["sowable"] == []


# -- The version check -----------------------------------------------------------------


def test_a_change_from_another_device_is_reported_and_reloaded_not_overwritten(web, page):
    game = fixture_game("qelat-default.json")
    game_id = record(web.client, game["setup"], game["commands"][:2])
    # This tablet's live stream is down (a hall's network), so its board stays stale until it
    # writes: otherwise the other tablet's move may reach it first, and there is no stale tap.
    page.context.route("**/live", lambda route: route.abort())
    open_game(page, game_id)
    stale = board(page)
    other = {**game["commands"][2], "expected_version": 3}
    assert web.client.post(f"/api/games/{game_id}/commands", json=other).status_code == 201  # another tablet
    page.wait_for_timeout(1000)  # four of the live stream's polls: a stream that were up would have told it
    assert version(page) == 3

    page.click(f".board [data-hole='{stale['sowable'][0]}']")  # tapped on the stale board
    page.wait_for_selector("#notice:not([hidden])")
    assert "Another device changed this game" in page.text_content("#notice")
    wait_for_version(page, 4)
    assert api_state(web, game_id)["version"] == 4  # the stale tap stored nothing
    assert_board_is_latest(web, page, game_id)


# -- Home page, phone --------------------------------------------------------------------


def test_home_page_lists_games_and_searches_them(web, page):
    ids = {
        name: record(web.client, {"variant": variant, "south": name, "north": "Opponent", **extra}, [])
        for name, variant, extra in (
            ("Abrehet", "qelat", {"first_player": "south"}),
            ("Dawit", "selus", {"first_player": "north"}),
            ("Meron", "gabata", {}),
        )
    }
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    shown = lambda: set(page.locator("#games [data-game]").evaluate_all("cards => cards.map((c) => c.dataset.game)"))  # noqa: E731
    assert set(ids.values()) <= shown()
    page.fill("#search-text", "dawit")
    assert shown() == {ids["Dawit"]}
    page.evaluate("() => { window.notReloaded = true; }")
    page.press("#search-text", "Enter")  # it once reloaded the page and cleared the filter
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.notReloaded === true") and page.input_value("#search-text") == "dawit"
    assert shown() == {ids["Dawit"]}
    page.fill("#search-text", "")
    page.select_option("#search-variant", "gabata")
    assert ids["Meron"] in shown() and not {ids["Dawit"], ids["Abrehet"]} & shown()
    page.click(f"#games [data-game='{ids['Meron']}'] a")
    page.wait_for_selector("#game-page[data-ready=true]")
    assert page.get_attribute(".board", "data-awaiting") == "race"


def test_home_page_search_finds_a_registry_players_games_by_his_geez_name(web, page):
    client = web.client
    selam = {"name": "Selam Tesfay", "name_geez": "ሰላም ተስፋይ", "federation": "ERI", "force": True}
    meron = {"name": "Meron Gebru", "name_geez": "ሜሮን ገብሩ", "federation": "ERI", "force": True}
    ids = [client.post("/api/players", json=body).get_json()["id"] for body in (selam, meron)]
    tournament = client.post(
        "/api/tournaments", json={"name": "Asmara Open", "variant": "qelat", "format": "round_robin"}
    )
    tid = tournament.get_json()["id"]
    for player_id in ids:
        assert client.post(f"/api/tournaments/{tid}/players", json={"player_id": player_id}).status_code == 201
    client.post(f"/api/tournaments/{tid}/rounds", json={})
    board = client.post(f"/api/tournaments/{tid}/rounds/1/boards/1/game", json={}).get_json()["id"]
    other = record(client, {"variant": "qelat", "south": "Selam", "north": "Guest", "first_player": "south"}, [])
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    shown = lambda: set(page.locator("#games [data-game]").evaluate_all("cards => cards.map((c) => c.dataset.game)"))  # noqa: E731
    page.fill("#search-text", "ሰላም")
    assert shown() == {
        board
    }  # the board's game names "Selam Tesfay" in Latin letters only; "Selam" is no registry player
    page.fill("#search-text", "ሜሮን ገብሩ")
    assert shown() == {board}
    page.fill("#search-text", "selam")
    assert {board, other} <= shown()


def test_touch_targets_are_at_least_44px_and_the_board_fits_a_phone(web, page):
    game = fixture_game("selus-rounds-1372.json")
    game_id = record(web.client, game["setup"], game["commands"][:20])
    page.set_viewport_size(PHONE)
    open_game(page, game_id)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    targets = page.locator(".hole, .stepper button, #step-slider, .ply, summary").all()
    small = [
        (t.get_attribute("data-hole") or t.inner_text(), box)
        for t in targets
        if (box := t.bounding_box()) and (box["width"] < 44 or box["height"] < 44)
    ]
    assert small == []


def test_on_a_phone_undo_and_the_result_form_are_within_one_screen_of_the_board(web, page):
    """Issue 39: Undo was ~1,900 px below the board. The board, Undo and the result form fit
    one 390x844 screen together; opening Undo still shows its Retract button in it."""
    game = fixture_game("selus-rounds-1372.json")
    game_id = record(web.client, game["setup"], game["commands"][:20])
    page.set_viewport_size(PHONE)
    open_game(page, game_id)
    board_top = page.locator(".board").bounding_box()["y"]
    for summary in ("#retract-panel summary", "#result-panel summary"):
        box = page.locator(summary).bounding_box()
        assert box["y"] + box["height"] - board_top <= PHONE["height"], (summary, box, board_top)
    page.click("#retract-panel summary")
    retract = page.locator("#retract-form button[type=submit]").bounding_box()
    assert retract["y"] + retract["height"] - board_top <= 1.5 * PHONE["height"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


# -- Tournaments -------------------------------------------------------------------------


def make_tournament(client) -> tuple[str, dict]:
    """A 4-player round robin, round 1 paired, board 1 played to a resignation, board 2 started."""
    response = client.post(
        "/api/tournaments",
        headers=ADMIN,
        json={
            "name": "Keren Cup",
            "variant": "qelat",
            "format": "round_robin",
            "site": "Keren",
            "start_date": "2026-11-20",
        },
    )
    assert response.status_code == 201, response.get_json()
    tournament_id = response.get_json()["id"]
    for name in ("Abeba", "Berhane", "Dawit", "Selam"):
        assert (
            client.post(f"/api/tournaments/{tournament_id}/players", headers=ADMIN, json={"name": name}).status_code
            == 201
        )
    round_1 = client.post(f"/api/tournaments/{tournament_id}/rounds", headers=ADMIN, json={}).get_json()
    games = {}
    for board in (1, 2):
        url = f"/api/tournaments/{tournament_id}/rounds/1/boards/{board}/game"
        games[board] = client.post(url, headers=ADMIN, json={"first_player": "south"}).get_json()["id"]
    result = {"type": "result", "kind": "resignation", "winner": "north", "expected_version": 1}
    assert client.post(f"/api/games/{games[1]}/commands", headers=ADMIN, json=result).status_code == 201
    return tournament_id, {"round": round_1, "games": games}


def test_tournament_page_shows_standings_crosstable_and_pairings_linked_to_games(web, page):
    tournament_id, made = make_tournament(web.client)
    page.goto(f"/tournaments/{tournament_id}")
    page.wait_for_selector("#tournament-page[data-ready=true]")
    assert page.text_content("#tournament-title") == "Keren Cup"

    standings = web.client.get(f"/api/tournaments/{tournament_id}/standings").get_json()["standings"]
    rows = [row.split("\t") for row in page.locator("#standings tbody tr").all_inner_texts()]
    assert [(r[0], r[1], r[4]) for r in rows] == [(str(s["rank"]), s["name"], str(s["points"])) for s in standings]

    board_1 = made["round"]["boards"][0]
    winner = board_1["north"]["name"]  # resigned by South: 1 point to North
    crosstable = page.locator("#crosstable tbody tr").all_inner_texts()
    assert len(crosstable) == 4 and any(row.split("\t")[1] == winner and row.endswith("1") for row in crosstable)
    assert page.locator(f"#crosstable a[data-game='{made['games'][1]}']").count() == 2  # "1" and "0" both link

    round_rows = page.locator("[data-round='1'] tbody tr").all_inner_texts()
    assert [r.split("\t")[:4] for r in round_rows] == [
        ["1", board_1["south"]["name"], board_1["north"]["name"], "0–1"],
        ["2", made["round"]["boards"][1]["south"]["name"], made["round"]["boards"][1]["north"]["name"], ""],
    ]
    page.click(f"[data-round='1'] a[data-game='{made['games'][2]}']")
    page.wait_for_selector("#game-page[data-ready=true]")
    assert page.get_attribute("#game-page", "data-game-id") == made["games"][2]


def test_the_sign_in_address_keeps_the_token_and_takes_it_out_of_the_address_bar(web, page):
    assert "token" not in page.url
    assert page.evaluate("localStorage.getItem('recorder.token')") == ADMIN_TOKEN
    game_id = record(web.client, fixture_game("qelat-default.json")["setup"], [])
    open_game(page, game_id)
    click_hole(page, board(page)["sowable"][0])
    assert web.client.get(f"/api/games/{game_id}/events").get_json()["events"][-1]["recorded_by"] == "admin"


def test_a_tournament_game_is_written_with_the_arbiters_token(web, page):
    tournament_id, made = make_tournament(web.client)
    game_id = made["games"][2]
    page.evaluate("localStorage.removeItem('recorder.token')")  # a device nobody signed in on
    open_game(page, game_id)
    assert_read_only(page, "This device is not signed in")
    token = web.client.post(f"/api/tournaments/{tournament_id}/tokens", headers=ADMIN, json={"holder": "Arbiter Tekle"})
    page.click("#read-only-sign-in")  # the read-only panel's way to sign in opens the form
    page.fill("#token-input", token.get_json()["token"])
    page.click("#token-form button[type=submit]")
    page.wait_for_selector("#game-page[data-ready=true][data-can-record=true]")
    assert page.inner_text("#signed-in") == "Signed in: Arbiter Tekle, arbiter of Keren Cup"
    hole = board(page)["sowable"][0]
    click_hole(page, hole)
    assert web.client.get(f"/api/games/{game_id}/events").get_json()["events"][-1]["recorded_by"] == "Arbiter Tekle"


# -- A page that says what it can do ---------------------------------------------------


@pytest.fixture
def guest(web):
    """A device nobody signed in on."""
    with watched_page(web.browser, viewport=PHONE, base_url=web.url, has_touch=True) as page:
        yield page


def assert_read_only(page, why: str) -> None:
    """Before any tap: the page says it only views, and why; nothing can be tapped or filled."""
    page.wait_for_selector("#read-only:not([hidden])")
    assert page.get_attribute("#game-page", "data-can-record") == "false"
    assert page.inner_text("#read-only-title") == "Viewing only — sign in to record"
    assert why in page.inner_text("#read-only-why")
    assert page.inner_text("#signed-in").startswith("Viewing only — sign in to record")
    assert board(page)["sowable"] == []
    assert page.locator(".board .hole.sowable").count() == 0
    for hidden in ("#actions", "#tools", "#connection", "#pending"):
        assert not page.locator(hidden).is_visible(), hidden
    assert "?token=" in page.inner_text("#read-only")  # the way to sign in is said


def test_a_page_without_a_token_is_read_only_before_any_tap(web, guest):
    game_id = record(web.client, fixture_game("qelat-default.json")["setup"], [])
    open_game(guest, game_id)
    assert_read_only(guest, "This device is not signed in")
    assert guest.locator("#notice").is_hidden()


def test_a_revoked_sign_in_link_is_refused_on_arrival_and_not_stored(web, guest):
    game_id = record(web.client, fixture_game("qelat-default.json")["setup"], [])
    issued = web.client.post("/api/tokens", headers=ADMIN, json={"holder": "Recorder Gone"}).get_json()
    assert web.client.delete(f"/api/tokens/{issued['id']}", headers=ADMIN).status_code == 200
    for given in (issued["token"], "rt_never-issued"):
        guest.goto(f"/games/{game_id}?token={given}")
        guest.wait_for_selector("#game-page[data-ready=true]")
        assert "token" not in guest.url
        assert guest.inner_text("#notice") == REFUSED_LINK
        assert guest.evaluate("localStorage.getItem('recorder.token')") is None
        assert_read_only(guest, "This device is not signed in")


def test_a_token_revoked_after_sign_in_leaves_the_page_read_only(web, guest):
    game_id = record(web.client, fixture_game("qelat-default.json")["setup"], [])
    issued = web.client.post("/api/tokens", headers=ADMIN, json={"holder": "Recorder Tesfay"}).get_json()
    guest.goto(f"/?token={issued['token']}")
    guest.wait_for_function("() => localStorage.getItem('recorder.token') !== null")
    guest.wait_for_selector("#signed-in[data-state=signed-in]")  # the home page has asked about it, and is done
    assert web.client.delete(f"/api/tokens/{issued['id']}", headers=ADMIN).status_code == 200
    open_game(guest, game_id)
    assert_read_only(guest, "not valid any more; ask the chief arbiter for a new sign-in link")
    assert guest.evaluate("localStorage.getItem('recorder.token')") is None


def test_a_token_that_does_not_reach_the_game_says_so(web, guest):
    game_id = record(web.client, fixture_game("qelat-default.json")["setup"], [])  # the admin's game
    issued = web.client.post("/api/tokens", headers=ADMIN, json={"holder": "Recorder Hagos"}).get_json()
    guest.goto(f"/games/{game_id}?token={issued['token']}")
    guest.wait_for_selector("#game-page[data-ready=true]")
    guest.wait_for_selector("#read-only:not([hidden])")
    assert guest.inner_text("#signed-in") == "Signed in: Recorder Hagos, recorder of the games this token creates"
    assert "Recorder Hagos did not create this game" in guest.inner_text("#read-only-why")
    assert board(guest)["sowable"] == []


def test_a_recorder_token_shows_its_scope_and_records(web, guest):
    issued = web.client.post("/api/tokens", headers=ADMIN, json={"holder": "Recorder Selam"}).get_json()
    setup = fixture_game("qelat-default.json")["setup"]
    made = web.client.post("/api/games", json=setup, headers={"Authorization": f"Bearer {issued['token']}"})
    game_id = made.get_json()["id"]
    guest.goto(f"/games/{game_id}?token={issued['token']}")
    guest.wait_for_selector("#game-page[data-ready=true][data-can-record=true]")
    assert "token" not in guest.url
    assert guest.inner_text("#signed-in") == "Signed in: Recorder Selam, recorder of the games this token creates"
    assert guest.locator("#read-only").is_hidden() and guest.locator("#notice").is_hidden()
    shown = board(guest)
    assert shown == shown_by_api(web, api_state(web, game_id), shown["at"], latest=True)  # the legal holes, no more
    click_hole(guest, shown["sowable"][0])
    assert web.client.get(f"/api/games/{game_id}/events").get_json()["events"][-1]["recorded_by"] == "Recorder Selam"


def test_the_home_page_without_a_token_offers_no_game_to_start(web, guest):
    guest.goto("/")
    guest.wait_for_selector("body[data-ready=true]")
    assert guest.inner_text("#new-game-viewing") == "Viewing only — sign in to record: starting a game needs a token."
    assert guest.locator("#new-game button[type=submit]").is_disabled()


def make_swiss_with_every_tiebreak(client) -> str:
    """A Swiss event with four tiebreaks, long names (one in Ge'ez script) and round 1 paired."""
    body = {
        "name": "Adwa Swiss",
        "variant": "qelat",
        "format": "swiss",
        "rounds": 5,
        "tiebreaks": ["buchholz", "sonneborn_berger", "direct_encounter", "wins"],
    }
    tournament_id = client.post("/api/tournaments", headers=ADMIN, json=body).get_json()["id"]
    names = ("Abrehet Gebremedhin", "ሰላም ተስፋይ ገብረሚካኤል", "Berhane Woldemichael", "Dawit Haileselassie")
    for rating, name in enumerate(names):
        player = {"name": name, "federation": "ERI", "rating": 1900 - rating}
        assert client.post(f"/api/tournaments/{tournament_id}/players", headers=ADMIN, json=player).status_code == 201
    assert client.post(f"/api/tournaments/{tournament_id}/rounds", headers=ADMIN, json={}).status_code == 201
    return tournament_id


TIEBREAK_TITLES = ["Buchholz", "Sonneborn-Berger", "Direct encounter", "Wins"]


def test_tournament_tiebreak_headers_are_capitalised_like_points(web, page):
    tournament_id = make_swiss_with_every_tiebreak(web.client)
    page.goto(f"/tournaments/{tournament_id}")
    page.wait_for_selector("#tournament-page[data-ready=true]")
    assert page.locator("#standings thead th").all_inner_texts() == [
        "Rank", "Player", "Fed.", "Rating", "Points", *TIEBREAK_TITLES
    ]  # fmt: skip


def test_tournament_standings_fit_a_phone_without_scrolling_and_keep_their_tiebreaks(web, page):
    tournament_id = make_swiss_with_every_tiebreak(web.client)
    page.set_viewport_size(PHONE)
    page.goto(f"/tournaments/{tournament_id}")
    page.wait_for_selector("#tournament-page[data-ready=true]")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    scroller = page.locator("#standings").evaluate("t => [t.scrollWidth, t.parentElement.clientWidth]")
    assert scroller[0] <= scroller[1], scroller  # the table needs no sideways scroll
    headers = page.locator("#standings thead th").all()[-4:]
    for header, title in zip(headers, TIEBREAK_TITLES):
        box = header.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (title, box)
        assert header.is_visible() and title in (header.get_attribute("title") or header.inner_text())
    points = page.locator("#standings tbody tr:first-child td.points")
    assert points.is_visible() and points.bounding_box()["x"] + points.bounding_box()["width"] <= PHONE["width"]
    assert page.locator("#standings-legend").is_visible()  # the abbreviations in words
    assert "S-B Sonneborn-Berger" in page.locator("#standings-legend").inner_text()


def test_tournament_page_names_its_list_in_order_and_the_absences_declared(web, page):
    body = {"name": "Adwa Swiss", "variant": "qelat", "format": "swiss", "rounds": 3}
    tournament_id = web.client.post("/api/tournaments", headers=ADMIN, json=body).get_json()["id"]
    for name in ("Abeba", "Berhane", "Chaltu"):
        assert (
            web.client.post(f"/api/tournaments/{tournament_id}/players", headers=ADMIN, json={"name": name}).status_code
            == 201
        )
    absence = {"player": 2, "round": 2}
    assert web.client.post(f"/api/tournaments/{tournament_id}/absences", headers=ADMIN, json=absence).status_code == 201
    page.goto(f"/tournaments/{tournament_id}")
    page.wait_for_selector("#tournament-page[data-ready=true]")
    legend = page.locator("#standings-legend").inner_text()
    assert legend == (
        "Tie-breaks, in order: BH/C1 Buchholz cut 1 · BH Buchholz · SB Sonneborn-Berger · PS Progressive score"
        " · DE Direct encounter · WIN Wins · BWG Wins as North (Black)"
    )
    assert page.locator("#standings thead th").all_inner_texts()[-3:] == [
        "Direct encounter",
        "Wins",
        "Wins as North (Black)",
    ]
    assert page.locator("#tournament-absences li").all_inner_texts() == ["Berhane will miss round 2 (bye: 0.5)"]


def test_a_game_card_shows_the_day_the_game_was_played(web, page):
    played = record(web.client, {**QELAT_SETUP, "event": "Asmara Open", "date": "2019-03-08"}, [])
    undated = record(web.client, QELAT_SETUP, [])
    page.goto("/")
    page.wait_for_selector("body[data-ready=true]")
    created = date.fromisoformat(web.client.get(f"/api/games/{undated}").get_json()["created_at"][:10])
    # In the page's language (docs/i18n.md): English writes the month's name.
    assert page.inner_text(f"#games [data-game='{played}'] .hint") == "Asmara Open · March 8, 2019"
    assert page.inner_text(f"#games [data-game='{undated}'] .hint") == f"recorded {format_date(created, 'long', 'en')}"


QELAT_SETUP = {"variant": "qelat", "south": "Tsega", "north": "Yonas", "first_player": "south"}
