"""The clock's arithmetic (static/js/clockwork.js), run in Debian's Chromium: the stages of
a time control, the Fischer increment, the Bronstein delay, switching sides, the flag, the
readings in force after each move, a think time as the move list writes it, a typed reading.

Every expectation is worked out here by hand (or, for the random games, by a few lines of
Python that model a chess clock the plain way), never read back from the module.
"""

from __future__ import annotations

import os
import random

import pytest
from browser import CHROMIUM, LiveServer, launch_chromium, watched_page
from conftest import make_app

playwright_api = pytest.importorskip("playwright.sync_api")

if not os.path.exists(CHROMIUM):  # .ci/run installs it with apt-get; never a browser download
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)

ONE_MINUTE_ONE_SECOND = {"stages": [{"base_ms": 60_000, "increment_ms": 1_000}]}
TWO_STAGES = {"stages": [{"moves": 2, "base_ms": 10_000}, {"base_ms": 5_000, "increment_ms": 500}]}
BRONSTEIN = {"stages": [{"base_ms": 30_000, "delay_ms": 3_000}]}

# Plays `sowings` ([[player, at_ms], ...]) on a clock started at 0 with `first` running;
# each sowing passes the turn. Answers each sowing's reading and the flag at `end`.
PLAY = """async ({ control, first, sowings, end }) => {
  const c = await import('/web-static/js/clockwork.js');
  let clock = c.running(control, c.startClock(control), first, 0);
  const readings = [];
  for (const [player, at] of sowings) {
    clock = c.running(control, c.sowed(control, clock, player, at), c.other(player), at);
    readings.push(c.readingAt(control, clock, at));
  }
  return { readings, fallen: c.fallen(control, clock, end), at_end: c.readingAt(control, clock, end) };
}"""


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    app = make_app(str(tmp_path_factory.mktemp("clockwork") / "clockwork.sqlite3"))
    with playwright_api.sync_playwright() as playwright, LiveServer(app) as server:
        browser = launch_chromium(playwright)
        with watched_page(browser, base_url=server.url) as page:
            page.goto("/")
            yield page
        browser.close()
    app.extensions["recorder"].store.close()


def play(page, control, sowings, *, first="south", end=None):
    end = sowings[-1][1] if end is None else end
    return page.evaluate(PLAY, {"control": control, "first": first, "sowings": sowings, "end": end})


def test_fischer_each_sowing_charges_the_time_taken_and_adds_the_increment(page):
    played = play(page, ONE_MINUTE_ONE_SECOND, [["south", 5_000], ["north", 12_000], ["south", 12_250]])
    assert played["readings"] == [
        {"south": 56_000, "north": 60_000},  # 60 - 5 + 1
        {"south": 56_000, "north": 54_000},  # 60 - 7 + 1
        {"south": 56_750, "north": 54_000},  # 56 - 0.25 + 1
    ]


def test_the_flag_falls_when_the_running_time_is_gone_and_not_a_millisecond_before(page):
    sowings = [["south", 5_000]]  # north runs from 5 s with 60 s
    assert play(page, ONE_MINUTE_ONE_SECOND, sowings, end=64_999)["fallen"] is None
    gone = play(page, ONE_MINUTE_ONE_SECOND, sowings, end=65_000)
    assert gone["fallen"] == "north" and gone["at_end"] == {"south": 56_000, "north": 0}
    assert play(page, ONE_MINUTE_ONE_SECOND, sowings, end=90_000)["at_end"]["north"] == 0  # never below 0


def test_a_stage_ends_after_its_moves_and_the_next_stages_base_is_added(page):
    # Two sowings each in 10 s, then 5 s more and 0.5 s a sowing; each player counts his own.
    sowings = [["south", 1_000], ["north", 3_000], ["south", 4_000], ["north", 4_500], ["south", 5_000]]
    assert play(page, TWO_STAGES, sowings)["readings"] == [
        {"south": 9_000, "north": 10_000},
        {"south": 9_000, "north": 8_000},
        {"south": 13_000, "north": 8_000},  # south's 2nd sowing: 9 - 1 + 5
        {"south": 13_000, "north": 12_500},  # north's 2nd: 8 - 0.5 + 5
        {"south": 13_000, "north": 12_500},  # south's 3rd, stage 2: 13 - 0.5 + 0.5
    ]


def test_bronstein_the_delay_runs_first_and_a_move_within_it_costs_nothing(page):
    played = play(page, BRONSTEIN, [["south", 2_000], ["north", 7_000], ["south", 7_000]])
    assert played["readings"] == [
        {"south": 30_000, "north": 30_000},  # 2 s, within the 3 s delay
        {"south": 30_000, "north": 28_000},  # 5 s: 2 s past the delay
        {"south": 30_000, "north": 28_000},  # at once
    ]
    assert play(page, BRONSTEIN, [["south", 0]], end=32_999)["fallen"] is None  # 30 s after the 3 s delay
    assert play(page, BRONSTEIN, [["south", 0]], end=33_000)["fallen"] == "north"


def chess_clock(control: dict, sowings: list[tuple[str, int]]) -> list[dict] | None:
    """A Fischer clock the plain way: each player's stage by his own count of sowings;
    None when a flag falls on the way (the model has no floor)."""
    stages = control["stages"]
    left = {"south": stages[0]["base_ms"], "north": stages[0]["base_ms"]}
    made = {"south": 0, "north": 0}
    readings, started = [], 0
    for player, at in sowings:
        stage, count = 0, made[player]
        while "moves" in stages[stage] and count >= stages[stage]["moves"]:
            count -= stages[stage]["moves"]
            stage += 1
        left[player] -= at - started
        if left[player] < 0:
            return None
        left[player] += stages[stage].get("increment_ms", 0)
        made[player] += 1
        if "moves" in stages[stage] and count + 1 == stages[stage]["moves"]:
            left[player] += stages[stage + 1]["base_ms"]
        readings.append(dict(left))
        started = at
    return readings


def test_random_games_on_a_staged_fischer_clock_keep_every_millisecond(page):
    rng = random.Random("clockwork")
    checked = 0
    for game in range(20):
        control = {
            "stages": [
                {
                    "moves": rng.randint(1, 5),
                    "base_ms": rng.randint(1, 9) * 1_000,
                    "increment_ms": rng.choice([0, 250]),
                },
                {"moves": rng.randint(1, 5), "base_ms": rng.randint(0, 9) * 1_000 + 1, "increment_ms": 100},
                {"base_ms": rng.randint(1, 9) * 1_000, "increment_ms": rng.choice([0, 1_000])},
            ]
        }
        at, sowings, player = 0, [], "south"
        for _ in range(rng.randint(1, 16)):
            at += rng.randint(0, 1_500)
            sowings.append((player, at))
            player = "north" if player == "south" else "south"
        expected = chess_clock(control, sowings)
        if expected is None:
            continue
        assert play(page, control, [list(s) for s in sowings])["readings"] == expected, (game, control, sowings)
        checked += 1
    assert checked >= 10  # most games keep their flags up


def test_the_readings_in_force_after_each_move_are_its_own_or_the_latest_before_it(page):
    plies = [
        {"seq": 1, "type": "game_created", "payload": {}},
        {"seq": 2, "type": "sowed", "payload": {"player": "south", "clock": {"south": 56_000, "north": 60_000}}},
        {"seq": 3, "type": "sowed", "payload": {"player": "north"}},
        {"seq": 5, "type": "lot_drawn", "payload": {"winner": "north", "clock": {"south": 50_000, "north": 38_000}}},
    ]
    readings = page.evaluate(
        """async ({ control, plies }) => {
          const c = await import('/web-static/js/clockwork.js');
          const inForce = (timeControl) => Object.fromEntries(c.readingsInForce(timeControl, plies));
          return [inForce(control), inForce(null)];
        }""",
        {"control": ONE_MINUTE_ONE_SECOND, "plies": plies},
    )
    assert readings[0] == {
        "1": {"south": 60_000, "north": 60_000},  # the base time before any reading
        "2": {"south": 56_000, "north": 60_000},
        "3": {"south": 56_000, "north": 60_000},
        "5": {"south": 50_000, "north": 38_000},
    }
    assert readings[1]["1"] is None and readings[1]["3"] == {"south": 56_000, "north": 60_000}  # no control: no base


def test_a_think_time_and_a_typed_reading_are_written_and_read(page):
    written = page.evaluate(
        """async () => {
          const c = await import('/web-static/js/clockwork.js');
          return {
            think: [0, 999, 5_500, 13_000, 61_250, 3_725_000].map(c.thinkText),
            typed: ['1:30:00', '0:59', '7', '0:00:01.5', ' 2:03:04 ', '', '1:60', 'a:00', '-1', '1:2:3:4']
              .map(c.typedMs),
          };
        }"""
    )
    assert written["think"] == ["0:00", "0:00.9", "0:05.5", "0:13", "1:01.2", "1:02:05"]
    assert written["typed"] == [5_400_000, 59_000, 7_000, 1_500, 7_384_000, None, None, None, None, None]
