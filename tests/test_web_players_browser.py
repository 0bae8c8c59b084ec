"""The player page and the rating list in a real browser (Debian's Chromium, Playwright),
on a phone and on a desktop. What a page shows is compared with the JSON API's answer
for the same player or list."""

from __future__ import annotations

import os
from datetime import date

import pytest
from babel.dates import format_date
from browser import CHROMIUM, served_with_chromium, watched_page

playwright_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"Chromium is not installed at {CHROMIUM}", allow_module_level=True)

from conftest import make_app  # noqa: E402

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
PLAYERS = [
    {
        "name": "Abeba Tesfaye",
        "name_geez": "ኣበባ ተስፋይ",
        "federation": "ERI",
        "club": "Asmara MC",
        "birth_year": 1994,
        "sex": "w",
    },
    {"name": "Berhane Kidane", "federation": "ERI"},
    {"name": "Chaltu Bekele", "federation": "ETH", "club": "Adama"},
    {"name": "Dawit Alemu", "federation": "ETH"},
]


def ok(response):
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    app = make_app(str(tmp_path_factory.mktemp("web") / "players.sqlite3"))
    client = app.test_client()
    ids = [ok(client.post("/api/players", json=body))["id"] for body in PLAYERS]
    body = {"name": "Asmara Rated Open", "variant": "qelat", "format": "round_robin", "rated": True}
    tid = ok(client.post("/api/tournaments", json=body))["id"]
    for player_id in ids:
        ok(client.post(f"/api/tournaments/{tid}/players", json={"player_id": player_id}))
    for round_number in (1, 2):
        for board in ok(client.post(f"/api/tournaments/{tid}/rounds", json={}))["boards"]:
            url = f"/api/tournaments/{tid}/rounds/{round_number}/boards/{board['board']}/game"
            game = ok(client.post(url, json={}))
            result = {"type": "result", "kind": "resignation", "winner": "south", "expected_version": 1}
            ok(client.post(f"/api/games/{game['id']}/commands", json=result))
    with served_with_chromium(app) as server:
        server.client, server.ids, server.tournament = client, ids, tid
        yield server


@pytest.fixture(params=list(SIZES))
def page(web, request):
    size = SIZES[request.param]
    with watched_page(web.browser, viewport=size, base_url=web.url, has_touch=size["width"] < 600) as page:
        yield page


def fits_the_width(page) -> bool:
    """Nothing wider than the screen but inside a scrolling box."""
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_the_player_page_shows_names_affiliation_ratings_tournaments_and_games(web, page):
    player_id = web.ids[0]
    record = web.client.get(f"/api/players/{player_id}").get_json()
    page.goto(f"/players/{player_id}")
    page.wait_for_selector("#player-page[data-ready=true]")
    assert page.text_content("#player-name") == "Abeba Tesfaye"
    assert page.text_content("#player-geez") == "ኣበባ ተስፋይ"
    meta = page.text_content("#player-meta")
    assert "ERI" in meta and "Asmara MC" in meta and "1994" in meta and "woman" in meta
    (latest,) = record["ratings"]["qelat"]
    assert page.text_content("[data-variant=qelat] .rating-now").startswith(
        f"{latest['rating']:.0f} ± {latest['rd']:.0f}"
    )
    assert page.locator("[data-variant=qelat] svg.rating-chart circle").count() == len(record["ratings"]["qelat"])
    assert page.text_content("#player-tournaments").startswith("Asmara Rated Open")
    page.click("[data-variant=qelat] details.why summary")
    why = page.locator("[data-variant=qelat] details.why tbody tr")
    assert why.count() == len(latest["explanation"]["games"]) == 2
    for index, game in enumerate(latest["explanation"]["games"]):
        cells = why.nth(index).locator("td").all_text_contents()
        assert cells[1:] == [
            f"{game['opponent_rating']:.0f} ± {game['opponent_rd']:.0f}",
            f"{game['expected']:.2f}",
            f"{game['score']:g}",
        ]
    shown = page.locator("#player-games tbody tr").evaluate_all("rows => rows.map(r => r.dataset.game)")
    assert shown == [g["game_id"] for g in record["games"]] and len(shown) == 2
    assert fits_the_width(page)
    opponent = record["games"][0]["opponent_id"]
    page.click(f"#player-games a[href='/players/{opponent}']")
    page.wait_for_selector("#player-page[data-ready=true]")
    assert page.url.endswith(f"/players/{opponent}")


def test_a_merged_record_names_its_survivor_on_its_page(web, page):
    duplicate = ok(web.client.post("/api/players", json={"name": "Abeba Tesfay", "federation": "ERI", "force": True}))
    ok(web.client.post(f"/api/players/{duplicate['id']}/merge", json={"into": web.ids[0]}))
    page.goto(f"/players/{duplicate['id']}")
    page.wait_for_selector("#player-page[data-ready=true]")
    assert page.is_visible("#player-merged")
    assert page.get_attribute("#player-merged a", "href") == f"/players/{web.ids[0]}"
    ok(web.client.post(f"/api/players/{duplicate['id']}/merge/withdrawal", json={}))


def test_the_rating_list_shows_rank_rating_deviation_games_and_the_provisional_marker(web, page):
    listing = web.client.get("/api/ratings/qelat").get_json()
    page.goto("/ratings/qelat")
    page.wait_for_selector("#ratings-page[data-ready=true]")
    assert page.text_content("#ratings-title") == "Qelat rating list"
    rows = page.locator("#ratings-list tbody tr")
    assert rows.count() == len(listing["players"]) == 4
    for index, entry in enumerate(listing["players"]):
        cells = rows.nth(index).locator("td").all_text_contents()
        assert cells[0] == str(entry["rank"]) and cells[1].startswith(entry["name"])
        assert cells[2:6] == [entry["federation"], f"{entry['rating']:.0f}", f"{entry['rd']:.0f}", str(entry["games"])]
        assert cells[6] == ("P" if entry["provisional"] else "")
    assert page.get_attribute("#ratings-csv", "href") == "/api/ratings/qelat.csv"
    assert fits_the_width(page)


def test_the_rating_list_filters_by_federation(web, page):
    page.goto("/ratings/qelat")
    page.wait_for_selector("#ratings-page[data-ready=true]")
    page.select_option("#ratings-federation", "ETH")
    page.wait_for_url("**federation=ETH**")
    page.wait_for_selector("#ratings-page[data-ready=true]")
    federations = page.locator("#ratings-list tbody td:nth-child(3)").all_text_contents()
    assert federations == ["ETH", "ETH"]
    assert page.get_attribute("#ratings-csv", "href") == "/api/ratings/qelat.csv?federation=ETH"


def test_an_unknown_player_or_list_says_so(web, page):
    page.goto("/players/p-000000000000")
    page.wait_for_selector("#player-page[data-ready=error]")
    assert page.text_content("#player-name") == "There is no player p-000000000000"
    page.goto("/ratings/chess")
    page.wait_for_selector("#ratings-page[data-ready=error]")
    assert page.text_content("#ratings-title") == "There is no rating list for chess"


def test_the_tournament_page_links_its_registry_players_to_their_pages(web, page):
    page.goto(f"/tournaments/{web.tournament}")
    page.wait_for_selector("#tournament-page[data-ready=true]")
    linked = page.locator("#standings a[data-player-id]").evaluate_all("links => links.map(a => a.dataset.playerId)")
    assert sorted(linked) == sorted(web.ids)


def test_the_rating_list_states_the_corrections_it_applies(web, page, monkeypatch):
    """A result of last month corrected this month: the list says so, each game linked.
    (Last in the module: it records at a time a month ahead.)"""
    from recorder.ratings.lists import next_month
    from recorder.ratings.service import this_month

    later = next_month(this_month())
    monkeypatch.setattr("recorder.ratings.service.this_month", lambda: later)
    monkeypatch.setattr("recorder.store.sql.utc_now", lambda: f"{later}-02T10:00:00.000000Z")
    game_id = web.client.get(f"/api/players/{web.ids[0]}").get_json()["games"][0]["game_id"]
    version = web.client.get(f"/api/games/{game_id}/state").get_json()["version"]
    retract = {"type": "retract", "count": 1, "reason": "the wrong side resigned", "expected_version": version}
    ok(web.client.post(f"/api/games/{game_id}/commands", json=retract))
    result = {"type": "result", "kind": "resignation", "winner": "north", "expected_version": version + 1}
    ok(web.client.post(f"/api/games/{game_id}/commands", json=result))
    (correction,) = web.client.get("/api/ratings/qelat").get_json()["corrections"]
    page.goto("/ratings/qelat")
    page.wait_for_selector("#ratings-page[data-ready=true]")
    assert page.is_visible("#ratings-corrections")
    item = page.locator(f"#ratings-corrections-list li[data-game='{game_id}']")
    # The month and the results in words, in the page's language (docs/i18n.md).
    month = format_date(date.fromisoformat(f"{correction['period']}-01"), "MMMM y", locale="en")
    assert item.text_content() == f"{game_id} ({month}): South won → North won"
    assert item.locator("a").get_attribute("href") == f"/games/{game_id}"
    assert fits_the_width(page)


def test_on_a_phone_the_pairings_and_the_rating_list_fit_the_screen(web):
    # At 390 px the pairings' game column was off the screen with nothing to say the table
    # scrolls, and the rating list's games and provisional columns were cut.
    body = {"name": "Keren Open", "variant": "qelat", "format": "swiss", "rounds": 3}
    tid = ok(web.client.post("/api/tournaments", json=body))["id"]
    for name in ("Selam Tesfay Gebremedhin", "Berhane Kidane Woldemariam", "Eden Haile", "Filmon Tekle"):
        ok(web.client.post(f"/api/tournaments/{tid}/players", json={"name": name, "rating": 1500}))
    boards = ok(web.client.post(f"/api/tournaments/{tid}/rounds", json={}))["boards"]
    games = [
        ok(web.client.post(f"/api/tournaments/{tid}/rounds/1/boards/{b['board']}/game", json={}))["id"] for b in boards
    ]
    overflowing = (
        "() => [...document.querySelectorAll('.scroll, table')].filter((e) => e.scrollWidth > e.clientWidth + 1).length"
    )
    for language in ("en", "ti"):
        with watched_page(web.browser, viewport=SIZES["phone"], base_url=web.url, has_touch=True) as page:
            page.goto(f"/tournaments/{tid}?lang={language}")
            page.wait_for_selector("#tournament-page[data-ready=true]")
            assert page.evaluate(overflowing) == 0 and fits_the_width(page)
            for game_id in games:  # each game still a tap away, on the screen
                link = page.locator(f"[data-round='1'] a[data-game='{game_id}']").first
                box = link.bounding_box()
                assert link.is_visible() and box is not None and box["x"] + box["width"] <= SIZES["phone"]["width"]
            page.goto(f"/ratings/qelat?lang={language}")
            page.wait_for_selector("#ratings-page[data-ready=true]")
            assert page.evaluate(overflowing) == 0 and fits_the_width(page)
