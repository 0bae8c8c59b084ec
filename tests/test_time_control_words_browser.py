"""A time control in the reader's words (static/js/clock.js ``timeControlText``), run in
Debian's Chromium, and shown wherever the game is: the game page beside its options, the
tournament page, the projector, the embeds, the printed scoresheets and lists, in English
and Tigrinya. Every expected string is written here by hand from the control's stages."""

from __future__ import annotations

import os
import random

import pytest
from browser import CHROMIUM, record, served_with_chromium, watched_page
from conftest import ADMIN, make_app

from recorder.core.clocks import checked_time_control, time_control_words

playwright_api = pytest.importorskip("playwright.sync_api")

if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)

pytestmark = pytest.mark.timeout(180)

# Forty sowings each in 90 minutes, 30 seconds added a sowing, then 30 minutes more.
CLASSICAL = {
    "stages": [
        {"moves": 40, "base_ms": 5_400_000, "increment_ms": 30_000},
        {"base_ms": 1_800_000, "increment_ms": 30_000},
    ]
}
RAPID = {"stages": [{"base_ms": 900_000, "increment_ms": 5_000}]}
WORDS = {
    "en": ("40 moves in 90 min + 30 s, then 30 min + 30 s", "15 min + 5 s"),
    "ti": ("40 ምንቅስቓሳት ኣብ 90 ደቒቕ + 30 ካልኢት፣ ድሕሪኡ 30 ደቒቕ + 30 ካልኢት", "15 ደቒቕ + 5 ካልኢት"),
}
LABEL = {"en": "Time control: %s", "ti": "ደረት ግዜ፦ %s"}

WRITE = """async (controls) => {
  const { timeControlText } = await import("/web-static/js/clock.js");
  return controls.map(timeControlText);
}"""


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    app = make_app(str(tmp_path_factory.mktemp("control-words") / "hall.sqlite3"))
    with served_with_chromium(app) as server:
        made = server.client.post(
            "/api/tournaments",
            headers=ADMIN,
            json={"name": "Asmara Cup", "variant": "qelat", "format": "round_robin", "time_control": CLASSICAL},
        )
        server.tournament_id = made.get_json()["id"]
        for player in ("Abeba", "Berhane"):
            server.client.post(f"/api/tournaments/{server.tournament_id}/players", headers=ADMIN, json={"name": player})
        server.client.post(f"/api/tournaments/{server.tournament_id}/rounds", headers=ADMIN, json={})
        setup = {
            "variant": "qelat",
            "south": "Abeba",
            "north": "Berhane",
            "first_player": "south",
            "time_control": RAPID,
        }
        server.game_id = record(server.client, setup, [])
        yield server


def written(web, language: str, controls: list[dict]) -> list[str]:
    with watched_page(web.browser, base_url=web.url) as page:
        page.goto(f"/?lang={language}")
        return page.evaluate(WRITE, controls)


def test_a_time_control_is_written_stage_by_stage_with_its_increment_or_delay(web):
    controls = [
        {"stages": [{"base_ms": 900_000, "increment_ms": 5_000}]},
        {"stages": [{"base_ms": 1_200_000}]},
        {"stages": [{"base_ms": 5_400_000, "delay_ms": 30_000}]},
        {"stages": [{"moves": 40, "base_ms": 5_400_000}, {"base_ms": 1_800_000, "increment_ms": 30_000}]},
        {"stages": [{"moves": 1, "base_ms": 60_000}, {"moves": 20, "base_ms": 1_800_000}, {"base_ms": 900_000}]},
        {"stages": [{"base_ms": 0, "increment_ms": 10_000}]},
        {"stages": [{"base_ms": 90_000, "delay_ms": 2_500}]},
        {"stages": [{"base_ms": 61_001}]},
        {"stages": [{"base_ms": 3_600_500}]},
    ]
    assert written(web, "en", controls) == [
        "15 min + 5 s",
        "20 min",
        "90 min + 30 s delay",
        "40 moves in 90 min, then 30 min + 30 s",
        "1 move in 1 min, then 20 moves in 30 min, then 15 min",
        "0 min + 10 s",
        "90 s + 2.5 s delay",
        "61.001 s",
        "3,600.5 s",
    ]


def test_a_time_control_takes_each_languages_plural_forms(web):
    # Tigrinya and Amharic take the singular for 0 and 1 (n > 1), English for 1 alone.
    controls = [{"stages": [{"moves": 1, "base_ms": 60_000}, {"base_ms": 1_000, "delay_ms": 500}]}]
    controls.append({"stages": [{"moves": 2, "base_ms": 120_000}, {"base_ms": 2_000}]})
    assert written(web, "ti", controls) == [
        "1 ምንቅስቓስ ኣብ 1 ደቒቕ፣ ድሕሪኡ 1 ካልኢት + 0.5 ካልኢት ምድንጓይ",
        "2 ምንቅስቓሳት ኣብ 2 ደቒቕ፣ ድሕሪኡ 2 ካልኢት",
    ]
    assert written(web, "am", controls) == [
        "1 እንቅስቃሴ በ1 ደቂቃ፣ ከዚያ 1 ሰከንድ + 0.5 ሰከንድ መዘግየት",
        "2 እንቅስቃሴዎች በ2 ደቂቃ፣ ከዚያ 2 ሰከንድ",
    ]


def random_control(rng: random.Random) -> dict:
    """A time control that can exist: 1 to 4 stages, times in whole minutes, whole seconds
    or any milliseconds, each stage with an increment, a delay or neither."""
    times = (
        lambda: rng.randrange(0, 180) * 60_000,
        lambda: rng.randrange(1, 600) * 1_000,
        lambda: rng.randrange(1, 10**7),
    )
    stages = []
    for index in range(rng.randrange(1, 5)):
        stage = {"moves": rng.randrange(1, 61)} if index else {}
        stage["base_ms"] = rng.choice(times)()
        extra = rng.choice((None, "increment_ms", "delay_ms"))
        if extra or stage["base_ms"] == 0:
            stage[extra or "increment_ms"] = rng.choice(times)() or 1_000
        stages.append(stage)
    stages.reverse()  # only the last runs to the end of the game: it has no moves
    return checked_time_control({"stages": stages})


def test_the_pages_and_the_command_line_write_every_time_control_alike_in_english(web):
    controls = [random_control(random.Random(seed)) for seed in range(300)]
    assert written(web, "en", controls) == [time_control_words(control) for control in controls]


def shown(web, language: str, path: str, selector: str) -> str:
    with watched_page(web.browser, base_url=web.url, viewport={"width": 1280, "height": 800}) as page:
        page.goto(f"{path}?lang={language}" if "?" not in path else f"{path}&lang={language}")
        page.wait_for_selector("[data-ready=true]")
        return page.locator(selector).inner_text()


@pytest.mark.parametrize("language", WORDS)
def test_the_game_page_shows_its_time_control_beside_its_options(web, language):
    rapid = WORDS[language][1]
    assert shown(web, language, f"/games/{web.game_id}", "#game-time-control") == LABEL[language] % rapid


@pytest.mark.parametrize("language", WORDS)
def test_the_tournament_page_shows_the_tournaments_time_control(web, language):
    classical = WORDS[language][0]
    assert (
        shown(web, language, f"/tournaments/{web.tournament_id}", "#tournament-time-control")
        == LABEL[language] % classical
    )


@pytest.mark.parametrize("language", WORDS)
def test_the_projector_embeds_and_printed_pages_show_the_time_control(web, language):
    classical, rapid = WORDS[language]
    tournament = f"/tournaments/{web.tournament_id}"
    assert shown(web, language, f"{tournament}/projector", "#projector-time-control") == classical
    assert shown(web, language, f"/embed/tournaments/{web.tournament_id}/rounds/1", "#embed-time-control") == classical
    assert shown(web, language, f"/embed/games/{web.game_id}", "#embed-time-control") == rapid
    assert shown(web, language, f"/games/{web.game_id}/scoresheet", ".sheet-time-control .sheet-value") == rapid
    scoresheets = f"{tournament}/rounds/1/scoresheets"
    assert shown(web, language, scoresheets, ".sheet-time-control .sheet-value") == classical
    for listed in ("pairings", "standings", "crosstable"):
        assert classical in shown(web, language, f"{tournament}/print?list={listed}", ".print-meta")
