"""A time control in words for the command line (``core.clocks.time_control_words``, the
same wording as the pages' ``clock.js``): ``recorder replay`` and ``recorder tournament
show`` say it beside the notation's form. Every expected string is written by hand from
the control's stages."""

import pytest
from click.testing import CliRunner
from conftest import make_app

from recorder.cli.main import main
from recorder.core.clocks import time_control_words

CLASSICAL = {"stages": [{"moves": 40, "base_ms": 5_400_000, "increment_ms": 30_000}, {"base_ms": 1_800_000}]}


@pytest.mark.parametrize(
    ("control", "words"),
    [
        ({"stages": [{"base_ms": 900_000, "increment_ms": 5_000}]}, "15 min + 5 s"),
        ({"stages": [{"base_ms": 1_200_000}]}, "20 min"),
        ({"stages": [{"base_ms": 5_400_000, "delay_ms": 30_000}]}, "90 min + 30 s delay"),
        (CLASSICAL, "40 moves in 90 min + 30 s, then 30 min"),
        (
            {"stages": [{"moves": 1, "base_ms": 60_000}, {"moves": 20, "base_ms": 1_800_000}, {"base_ms": 900_000}]},
            "1 move in 1 min, then 20 moves in 30 min, then 15 min",
        ),
        ({"stages": [{"base_ms": 0, "increment_ms": 10_000}]}, "0 min + 10 s"),
        ({"stages": [{"base_ms": 90_000, "delay_ms": 2_500}]}, "90 s + 2.5 s delay"),
        ({"stages": [{"base_ms": 61_001}]}, "61.001 s"),
        ({"stages": [{"base_ms": 3_600_500}]}, "3,600.5 s"),
    ],
)
def test_a_time_control_is_written_stage_by_stage_with_its_increment_or_delay(control, words):
    assert time_control_words(control) == words


@pytest.fixture
def hall(tmp_path):
    db = str(tmp_path / "hall.sqlite3")
    return db, make_app(db).test_client()


def cli(db: str, *args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--db", db])
    assert result.exit_code == 0, result.output
    return result.output


def test_replay_says_the_games_time_control_in_words_beside_its_notation(hall):
    db, client = hall
    body = {
        "variant": "qelat",
        "south": "Abeba",
        "north": "Berhane",
        "first_player": "south",
        "time_control": CLASSICAL,
    }
    game_id = client.post("/api/games", json=body).get_json()["id"]
    lines = cli(db, "replay", game_id).splitlines()
    assert "time control: 40/5400+30:1800 (40 moves in 90 min + 30 s, then 30 min)" in lines


def test_tournament_show_says_the_tournaments_time_control(hall):
    db, client = hall
    body = {"name": "Asmara Cup", "variant": "qelat", "format": "round_robin", "time_control": CLASSICAL}
    timed = client.post("/api/tournaments", json=body).get_json()["id"]
    untimed = client.post("/api/tournaments", json={**body, "time_control": None}).get_json()["id"]
    assert cli(db, "tournament", "show", timed).splitlines()[1] == (
        "time control: 40/5400+30:1800 (40 moves in 90 min + 30 s, then 30 min)"
    )
    assert "time control" not in cli(db, "tournament", "show", untimed)
