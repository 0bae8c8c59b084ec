"""A registry player's name in both scripts wherever a page names him, in Chromium, in
English and in Tigrinya: the game page's header, the tournament page (pairings, standings,
crosstable, prizes, a category's standings), the printed lists, the scoresheets, the
projector, the embeds and the home page's games (and its search by the Ge'ez name).

Selam Tesfay has a Ge'ez name in the registry; Berhane Kidane is in the registry without
one and Dawit is entered by his name alone: both read as they always did (a cell holds
their name and nothing else)."""

from __future__ import annotations

import os

import pytest
from browser import CHROMIUM, served_with_chromium, watched_page

playwright_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"Chromium is not installed at {CHROMIUM}", allow_module_level=True)

from conftest import make_app  # noqa: E402

SELAM = {"name": "Selam Tesfay", "name_geez": "ሰላም ተስፋይ", "federation": "ERI"}
BERHANE = {"name": "Berhane Kidane", "federation": "ERI"}
BOTH = "Selam Tesfay (ሰላም ተስፋይ)"


def ok(response):
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    """A rated round robin of Selam, Berhane, Abeba (registered with her Ge'ez name) and
    Dawit (a name only), with a region category and prizes; round 1 paired, its games
    begun, Abeba's against Berhane resigned (a rated game between registry players)."""
    app = make_app(str(tmp_path_factory.mktemp("geez") / "geez.sqlite3"))
    client = app.test_client()
    body = {"name": "Asmara Open", "variant": "qelat", "format": "round_robin", "rated": True}
    tid = ok(client.post("/api/tournaments", json=body))["id"]
    abeba = {"name": "Abeba Tesfaye", "name_geez": "ኣበባ ተስፋይ", "federation": "ERI"}
    ids = [ok(client.post("/api/players", json=player))["id"] for player in (SELAM, BERHANE, abeba)]
    for player_id in ids:
        ok(client.post(f"/api/tournaments/{tid}/players", json={"player_id": player_id}))
    ok(client.post(f"/api/tournaments/{tid}/players", json={"name": "Dawit"}))
    categories = {"categories": [{"code": "R1", "kind": "region", "federations": ["ERI"]}]}
    ok(client.put(f"/api/tournaments/{tid}/categories", json=categories))
    ok(
        client.put(
            f"/api/tournaments/{tid}/prizes", json={"prizes": [{"place": n, "amount": 10} for n in (1, 2, 3, 4)]}
        )
    )
    boards = ok(client.post(f"/api/tournaments/{tid}/rounds", json={}))["boards"]
    games = {}
    for board in boards:
        game = ok(client.post(f"/api/tournaments/{tid}/rounds/1/boards/{board['board']}/game", json={}))
        for side in ("south", "north"):
            games[board[side]["name"]] = game["id"]
    resigned = {"type": "result", "kind": "resignation", "winner": "south", "expected_version": 1}
    ok(client.post(f"/api/games/{games['Abeba Tesfaye']}/commands", json=resigned))  # Abeba on the rating list
    with served_with_chromium(app) as server:
        server.tournament, server.games, server.selam, server.abeba = tid, games, ids[0], ids[2]
        yield server


def opened(page, path: str) -> None:
    page.goto(path)
    page.wait_for_selector("[data-ready=true]")


def texts(page, selector: str) -> list[str]:
    return page.locator(selector).evaluate_all("nodes => nodes.map((n) => n.textContent.trim())")


def inner_texts(page, selector: str) -> list[str]:
    """As drawn: a name on a line of its own is a line of the text."""
    return page.locator(selector).evaluate_all("nodes => nodes.map((n) => n.innerText.trim())")


def geez_marks(page) -> set:
    """The language each Ge'ez name is marked with: None (the page's) or "" (unknown)."""
    found = page.locator(".name-geez").evaluate_all("nodes => nodes.map((n) => n.getAttribute('lang'))")
    assert found, page.url
    return set(found)


def names_of(page, selector: str) -> set:
    """What each cell of a column shows, the Latin name and its Ge'ez where given."""
    return set(texts(page, selector)) - {""}


@pytest.mark.parametrize("language", ["en", "ti"])
def test_a_registry_players_geez_name_shows_beside_his_latin_one_on_every_page(web, language):
    tid, game = web.tournament, web.games["Selam Tesfay"]
    unmarked = None if language == "ti" else ""  # on a Tigrinya page his name is taken as the page's
    with watched_page(web.browser, base_url=web.url, viewport={"width": 1280, "height": 800}) as page:
        page.goto(f"/?lang={language}")

        opened(page, f"/games/{game}")
        assert BOTH in page.text_content("#game-title") and BOTH in page.title()
        assert geez_marks(page) == {unmarked}

        opened(page, f"/tournaments/{tid}")
        page.wait_for_selector("#category-standings tbody tr")
        for table in ("#standings", "#crosstable", "#prize-list", "#category-standings"):
            shown = names_of(page, f"{table} tbody td")
            assert BOTH in shown and "Berhane Kidane" in shown, table
        assert "Dawit" in names_of(page, "#standings tbody td")
        pairings = names_of(page, ".pairings tbody td")
        assert BOTH in pairings and "Berhane Kidane" in pairings and "Dawit" in pairings
        assert geez_marks(page) == {unmarked}

        for listed in ("pairings", "standings", "crosstable", "prizes", "standings&category=R1"):
            opened(page, f"/tournaments/{tid}/print?list={listed}")
            shown = names_of(page, "#print-page tbody td")
            assert BOTH in shown and "Berhane Kidane" in shown, listed

        # A scoresheet's player stands alone in his field: the Ge'ez on a line of its own.
        opened(page, f"/games/{game}/scoresheet")
        assert set(inner_texts(page, ".sheet-field.player .sheet-value")) == {"Selam Tesfay\nሰላም ተስፋይ", "Dawit"}
        opened(page, f"/tournaments/{tid}/rounds/1/scoresheets")
        fields = set(inner_texts(page, ".sheet-field.player .sheet-value"))
        assert {"Selam Tesfay\nሰላም ተስፋይ", "Dawit", "Berhane Kidane"} <= fields

        opened(page, f"/tournaments/{tid}/projector")
        page.wait_for_selector(f".projector-card[data-game='{game}'] .projector-board .board")
        assert any(BOTH in text for text in texts(page, ".projector-card .pairing"))

        opened(page, f"/embed/tournaments/{tid}/rounds/1")
        assert any(BOTH in text for text in texts(page, ".embed-card h2"))
        opened(page, f"/embed/games/{game}")
        page.wait_for_selector(".embed-board .board")
        assert BOTH in page.text_content(".embed-card h2")

        # The pages that showed the Ge'ez name before mark it the same way.
        opened(page, f"/players/{web.selam}")
        assert page.get_attribute("#player-geez", "lang") == unmarked
        opened(page, "/ratings/qelat")
        assert page.locator(f"[data-player='{web.abeba}'] .geez").get_attribute("lang") == unmarked

        opened(page, "/")
        page.wait_for_selector(f"#games [data-game='{game}']")
        assert BOTH in page.text_content(f"#games [data-game='{game}'] strong")
        page.fill("#search-text", "ሰላም")
        shown = page.locator("#games [data-game]").evaluate_all("cards => cards.map((c) => c.dataset.game)")
        assert shown == [game]


def test_both_names_keep_the_standings_within_a_phones_width(web):
    phone = {"width": 390, "height": 844}
    with watched_page(web.browser, base_url=web.url, viewport=phone, has_touch=True) as page:
        opened(page, f"/tournaments/{web.tournament}")
        assert BOTH in names_of(page, "#standings tbody td")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= phone["width"]
        scroller = page.locator("#standings").evaluate("t => [t.scrollWidth, t.parentElement.clientWidth]")
        assert scroller[0] <= scroller[1], scroller  # the name wraps: the table needs no sideways scroll
