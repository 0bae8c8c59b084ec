"""A finished event's category standings and prize list: on the tournament page and printed to
PDF by Chromium, in Tigrinya, every word of the PDF in the language (the scan of
tests/test_i18n_browser.py: no Latin word left but names, codes and identifiers)."""

from __future__ import annotations

import os
import re

import pytest
from browser import CHROMIUM, LiveServer, launch_chromium

playwright_api = pytest.importorskip("playwright.sync_api")
pypdfium2 = pytest.importorskip("pypdfium2")
if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"Chromium is not installed at {CHROMIUM}", allow_module_level=True)

from conftest import ADMIN, make_app  # noqa: E402

# Latin name, Ge'ez name, sex, birth year: registered at entry.
PLAYERS = [
    ("Abeba Tesfaye", "ኣበባ ተስፋይ", "w", 2011),
    ("Berhane Kidane", "ብርሃነ ኪዳነ", "m", 1970),
    ("Chaltu Bekele", "ጫልቱ በቀለ", "w", 1975),
    ("Dawit Alemu", "ዳዊት ኣለሙ", "m", 2012),
    ("Eden Haile", "ኤደን ሃይለ", "w", 1990),
    ("Fitsum Gebre", "ፍጹም ገብረ", "m", 1985),
]
WOMEN = "ደቂ ኣንስትዮ"  # the organiser's name of the women's category, in Tigrinya
CATEGORIES = [{"code": "W", "kind": "sex", "sex": "w", "name": WOMEN}, {"code": "U16", "kind": "age", "under": 16}]
PRIZES = [
    {"place": 1, "amount": 1000},
    {"place": 2, "amount": 500},
    {"place": 3, "amount": 300},
    {"place": 1, "amount": 250, "category": "W"},
    {"place": 1, "amount": 150, "category": "U16"},
]
WORD = re.compile(r"[A-Za-z]{2,}")


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    app = make_app(str(tmp_path_factory.mktemp("prizes") / "prizes.sqlite3"))
    with LiveServer(app) as server, playwright_api.sync_playwright() as playwright:
        server.browser = launch_chromium(playwright)
        server.client = app.test_client()
        server.tournament = finished_event(server.client)
        yield server
        server.browser.close()
    app.extensions["recorder"].store.close()


def finished_event(client) -> str:
    """A six-player round robin of registry players, categories and a Hort prize list set
    before round 1, every board decided (South wins, but a draw in each round)."""
    body = {"name": "ሻምፒዮና ኣስመራ", "variant": "qelat", "format": "round_robin", "start_date": "2026-11-20"}
    tid = client.post("/api/tournaments", headers=ADMIN, json=body).get_json()["id"]
    for name, geez, sex, born in PLAYERS:
        entry = {"name": name, "name_geez": geez, "federation": "ERI", "sex": sex, "birth_year": born}
        entry.update({"register": True, "force": True})
        assert client.post(f"/api/tournaments/{tid}/players", headers=ADMIN, json=entry).status_code == 201
    assert (
        client.put(f"/api/tournaments/{tid}/categories", headers=ADMIN, json={"categories": CATEGORIES}).status_code
        == 200
    )
    prizes = {"prizes": PRIZES, "sharing": "hort", "currency": "ERN"}
    assert client.put(f"/api/tournaments/{tid}/prizes", headers=ADMIN, json=prizes).status_code == 200
    for round_number in range(1, 6):
        boards = client.post(f"/api/tournaments/{tid}/rounds", headers=ADMIN, json={}).get_json()["boards"]
        for board in boards:
            result = "draw" if board["board"] == 1 else "south_wins"
            url = f"/api/tournaments/{tid}/rounds/{round_number}/boards/{board['board']}/result"
            assert client.post(url, headers=ADMIN, json={"result": result, "kind": "played"}).status_code == 201
    return tid


def english_left(text: str) -> list[str]:
    """Latin words but the players' registry names, a federation's and a currency's code."""
    for identifier in [name for name, *_ in PLAYERS] + ["ERI", "ERN"]:
        text = text.replace(identifier, "")
    return WORD.findall(text)


def printed(web, query: str) -> str:
    """The list printed to PDF in Tigrinya: its text, as pypdfium2 extracts it."""
    context = web.browser.new_context(base_url=web.url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/tournaments/{web.tournament}/print?{query}&lang=ti")
    page.wait_for_selector("#print-page[data-ready=true]", timeout=10_000)
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", print_background=True)
    context.close()
    assert errors == [] and pdf.startswith(b"%PDF")
    document = pypdfium2.PdfDocument(pdf)
    return " ".join(" ".join(document[i].get_textpage().get_text_range().split()) for i in range(len(document)))


def test_the_finished_events_category_standings_print_in_tigrinya(web):
    found = web.client.get(f"/api/tournaments/{web.tournament}/categories/W/standings").get_json()
    assert found["status"] == "finished" and [s["name"] for s in found["standings"]]
    text = printed(web, "list=standings&category=W")
    assert f"{WOMEN}፦ ደረጃታት ድሕሪ ዙርያ 5" in text  # "Women: standings after round 5", the organiser's name
    assert "ደቂ ኣንስትዮ" in text and "ኣንስቲ" in text  # the rule under the list: women
    places = [s["name"] for s in found["standings"]]
    assert [text.index(name) for name in places] == sorted(text.index(name) for name in places)
    assert english_left(text) == [], english_left(text)


def test_the_finished_events_prize_list_prints_in_tigrinya(web):
    prizes = web.client.get(f"/api/tournaments/{web.tournament}/prizes").get_json()
    assert prizes["final"] and prizes["paid"] == prizes["offered"] == 2200
    text = printed(web, "list=prizes")
    assert "ዝርዝር ሽልማት" in text  # "Prize list"
    assert "ብሆርት" in text  # the sharing rule says Hort's system
    for award in prizes["awards"]:
        assert f"{award['amount']} ERN" in text, award
    assert english_left(text) == [], english_left(text)


def test_the_tournament_page_shows_a_categorys_standings_and_the_prize_list_in_tigrinya(web):
    context = web.browser.new_context(base_url=web.url)
    page = context.new_page()
    page.goto(f"/tournaments/{web.tournament}?lang=ti&category=U16")
    page.wait_for_selector("#tournament-page[data-ready=true]", timeout=10_000)
    juniors = web.client.get(f"/api/tournaments/{web.tournament}/categories/U16/standings").get_json()["standings"]
    rows = page.locator("#category-standings tbody tr")
    assert rows.count() == len(juniors) == 2  # born 2011 and 2012
    assert page.locator("#category-choice").input_value() == "U16"
    awards = web.client.get(f"/api/tournaments/{web.tournament}/prizes").get_json()["awards"]
    assert page.locator("#prize-list tbody tr").count() == len(awards)
    panel = page.locator("#prizes-panel").inner_text()
    assert english_left(panel.replace("U16", "")) == [], english_left(panel)
    page.select_option("#category-choice", "W")
    page.wait_for_function("() => document.querySelectorAll('#category-standings tbody tr').length === 3")
    context.close()
