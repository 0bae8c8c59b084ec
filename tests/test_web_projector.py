"""The projector in a hall (Debian's Chromium via Playwright, at 1280×800 and 1920×1080):
every board of a round on one screen without scrolling for 1 to 12 boards, pages that
turn by themselves beyond 12, hole counts at least the size docs/web.md states, results
and forfeits in words.

The boards and results are made through the API; the page is only looked at.
"""

from __future__ import annotations

import os

import pytest
from browser import CHROMIUM, served_with_chromium
from conftest import ADMIN, ADMIN_TOKEN, make_app

playwright_api = pytest.importorskip("playwright.sync_api")

if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)

pytestmark = pytest.mark.timeout(180)

SCREENS = {"1280x800": {"width": 1280, "height": 800}, "1920x1080": {"width": 1920, "height": 1080}}
# docs/web.md, "The projector": a hole's count is at least this share of the screen's height.
COUNT_SHARE_AT_TWELVE = 0.025
COUNT_SHARE_AT_ONE = 0.08


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    database = str(tmp_path_factory.mktemp("projector") / "hall.sqlite3")
    app = make_app(database, LIVE_LISTENERS=64)  # its test client writes as the admin
    with served_with_chromium(app) as server:
        yield server


@pytest.fixture
def screen(web):
    contexts = []

    def open_projector(size: str, path: str):
        context = web.browser.new_context(viewport=SCREENS[size], base_url=web.url)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"/?token={ADMIN_TOKEN}")
        page.goto(path)
        page.wait_for_selector("#projector-page[data-ready=true]")
        page.errors = errors
        return page

    yield open_projector
    for context in contexts:
        context.close()


def round_of(web, boards: int, started: int, name: str, variant: str = "qelat") -> tuple[str, list[str]]:
    """A round robin of 2 × boards players, round 1 paired, its first boards started."""
    setup = {"name": name, "variant": variant, "format": "round_robin"}
    made = web.client.post("/api/tournaments", headers=ADMIN, json=setup)
    tournament_id = made.get_json()["id"]
    for number in range(2 * boards):
        player = {"name": f"Player {number + 1}"}
        web.client.post(f"/api/tournaments/{tournament_id}/players", headers=ADMIN, json=player)
    assert web.client.post(f"/api/tournaments/{tournament_id}/rounds", headers=ADMIN, json={}).status_code == 201
    games = []
    for board in range(1, started + 1):
        url = f"/api/tournaments/{tournament_id}/rounds/1/boards/{board}/game"
        games.append(web.client.post(url, headers=ADMIN, json={"first_player": "south"}).get_json()["id"])
    return tournament_id, games


def sow(web, game_id: str, times: int) -> None:
    for _ in range(times):
        hole = web.client.get(f"/api/games/{game_id}/state").get_json()["legal_moves"][0]
        etag = web.client.get(f"/api/games/{game_id}").headers["ETag"]
        answer = web.client.post(
            f"/api/games/{game_id}/commands", headers={**ADMIN, "If-Match": etag}, json={"type": "sow", "hole": hole}
        )
        assert answer.status_code == 201, answer.get_json()


def measured(page) -> dict:
    """The document's size, each shown card's box and the smallest hole count's font size."""
    return page.evaluate("""() => {
      const cards = [...document.querySelectorAll('.projector-card')].filter((c) => !c.hidden);
      const counts = [...document.querySelectorAll('.projector-card:not([hidden]) .hole .count')];
      return {
        width: innerWidth, height: innerHeight,
        scrollWidth: document.scrollingElement.scrollWidth, scrollHeight: document.scrollingElement.scrollHeight,
        cards: cards.map((c) => { const b = c.getBoundingClientRect();
          return { board: c.dataset.board, left: b.left, top: b.top, right: b.right, bottom: b.bottom,
                   width: b.width }; }),
        counts: counts.map((c) => { const b = c.getBoundingClientRect();
          return { size: parseFloat(getComputedStyle(c).fontSize), bottom: b.bottom, right: b.right }; }),
      };
    }""")


def assert_every_board_on_the_screen(shown: dict) -> None:
    assert shown["scrollHeight"] <= shown["height"], shown["scrollHeight"]
    assert shown["scrollWidth"] <= shown["width"], shown["scrollWidth"]
    for card in shown["cards"]:
        assert card["left"] >= 0 and card["top"] >= 0, card
        assert card["right"] <= shown["width"] and card["bottom"] <= shown["height"], card
    for count in shown["counts"]:
        assert count["bottom"] <= shown["height"] and count["right"] <= shown["width"], count


@pytest.mark.parametrize("size", SCREENS)
@pytest.mark.parametrize(("variant", "holes"), [("qelat", 12), ("selus", 18)])
def test_twelve_boards_fit_one_screen_without_scrolling(web, screen, size, variant, holes):
    tournament_id, games = round_of(web, 12, 12, f"Twelve boards {size} {variant}", variant)
    sow(web, games[0], 3)
    page = screen(size, f"/tournaments/{tournament_id}/projector")
    shown = measured(page)
    assert len(shown["cards"]) == 12
    assert len(shown["counts"]) == 12 * holes  # every hole of every board
    assert_every_board_on_the_screen(shown)
    smallest = min(count["size"] for count in shown["counts"])
    assert smallest >= COUNT_SHARE_AT_TWELVE * shown["height"], smallest
    assert page.is_hidden("#projector-page-number")
    assert page.errors == []


@pytest.mark.parametrize("size", SCREENS)
def test_one_board_fills_the_screen(web, screen, size):
    tournament_id, games = round_of(web, 1, 1, f"One board {size}")
    page = screen(size, f"/tournaments/{tournament_id}/projector")
    shown = measured(page)
    assert_every_board_on_the_screen(shown)
    (card,) = shown["cards"]
    assert card["width"] >= 0.6 * shown["width"] or card["bottom"] - card["top"] >= 0.75 * shown["height"], card
    smallest = min(count["size"] for count in shown["counts"])
    assert smallest >= COUNT_SHARE_AT_ONE * shown["height"], smallest


def test_results_and_forfeits_are_shown_in_words(web, screen):
    tournament_id, games = round_of(web, 3, 1, "Forfeits")
    for board, result in ((2, "south_wins"), (3, "double_forfeit")):
        url = f"/api/tournaments/{tournament_id}/rounds/1/boards/{board}/result"
        assert web.client.post(url, headers=ADMIN, json={"result": result}).status_code in (200, 201)
    page = screen("1280x800", f"/tournaments/{tournament_id}/projector")
    assert page.text_content("[data-board='2'] .projector-result") == "South wins by forfeit"
    assert page.text_content("[data-board='3'] .projector-result") == "Double forfeit: neither player scores"
    etag = web.client.get(f"/api/games/{games[0]}").headers["ETag"]
    web.client.post(
        f"/api/games/{games[0]}/commands",
        headers={**ADMIN, "If-Match": etag},
        json={"type": "result", "kind": "resignation", "winner": "north"},
    )
    page.wait_for_selector("[data-board='1'] .projector-status:has-text('Game over: North wins (resignation)')")
    assert "1–0" not in page.text_content("#boards") and "0–1" not in page.text_content("#boards")
    assert_every_board_on_the_screen(measured(page))
    assert page.errors == []


def test_more_than_twelve_boards_make_pages_that_turn_by_themselves(web, screen):
    tournament_id, _ = round_of(web, 13, 13, "Thirteen boards")
    page = screen("1920x1080", f"/tournaments/{tournament_id}/projector?turn=3")
    first = measured(page)
    assert [card["board"] for card in first["cards"]] == [str(board) for board in range(1, 13)]
    assert page.text_content("#projector-page-number") == "Page 1 of 2 · boards 1–12"
    assert_every_board_on_the_screen(first)
    page.wait_for_selector("#projector-page[data-page='2']", timeout=6_000)
    second = measured(page)
    assert [card["board"] for card in second["cards"]] == ["13"]
    assert page.text_content("#projector-page-number") == "Page 2 of 2 · boards 13–13"
    assert_every_board_on_the_screen(second)
    page.wait_for_selector("#projector-page[data-page='1']", timeout=6_000)
    assert page.errors == []


def test_fewer_boards_per_page_make_larger_counts(web, screen):
    tournament_id, _ = round_of(web, 5, 5, "Four a page")
    page = screen("1920x1080", f"/tournaments/{tournament_id}/projector?per_page=4&turn=3")
    shown = measured(page)
    assert [card["board"] for card in shown["cards"]] == ["1", "2", "3", "4"]
    assert page.text_content("#projector-page-number") == "Page 1 of 2 · boards 1–4"
    assert_every_board_on_the_screen(shown)
    assert min(count["size"] for count in shown["counts"]) >= 0.05 * shown["height"]
    page.wait_for_selector("#projector-page[data-page='2']", timeout=6_000)
    assert [card["board"] for card in measured(page)["cards"]] == ["5"]


def test_names_are_not_cut_where_the_screen_has_room(web, screen):
    # Five boards at 1920x1080: the cards are as tall as the screen allows and their names
    # were cut ("Selam Tes…") beside some 280 px of margin on each side.
    setup = {"name": "Asmara names", "variant": "qelat", "format": "round_robin"}
    tournament_id = web.client.post("/api/tournaments", headers=ADMIN, json=setup).get_json()["id"]
    names = ["Selam Tesfay", "Berhane Kidane", "Abeba Tesfaye", "Dawit Alemu", "Chaltu Bekele"]
    for name in [*names, *(f"{name} Haile" for name in names)]:
        assert (
            web.client.post(f"/api/tournaments/{tournament_id}/players", headers=ADMIN, json={"name": name}).status_code
            == 201
        )
    assert web.client.post(f"/api/tournaments/{tournament_id}/rounds", headers=ADMIN, json={}).status_code == 201
    for board in range(1, 6):
        url = f"/api/tournaments/{tournament_id}/rounds/1/boards/{board}/game"
        assert web.client.post(url, headers=ADMIN, json={"first_player": "south"}).status_code == 201
    page = screen("1920x1080", f"/tournaments/{tournament_id}/projector")
    assert_every_board_on_the_screen(measured(page))
    cut = page.evaluate("""() => [...document.querySelectorAll('.projector-card h2')]
      .filter((h) => h.scrollWidth > h.clientWidth).map((h) => h.textContent)""")
    assert cut == []


def test_a_cards_board_number_is_as_large_as_the_pairing_beside_it(web, screen):
    # The console's boards (app.css, .board-item) once set every .board-number to 1.1rem,
    # shrinking the projector's "Board 1" to a fifth of the players' names beside it.
    tournament_id, _ = round_of(web, 1, 1, "Board number")
    page = screen("1920x1080", f"/tournaments/{tournament_id}/projector")
    sizes = page.evaluate("""() => {
      const heading = document.querySelector('.projector-card h2');
      const size = (e) => parseFloat(getComputedStyle(e).fontSize);
      return [size(heading.querySelector('.board-number')), size(heading)];
    }""")
    number, heading = sizes
    assert number == heading, sizes
    assert page.errors == []
