"""Tournaments with absences declared for one round, against FIDE's calculator: a hundred
random Swiss tournaments of 8 to 200 players made with this service's model (absences,
forfeits, withdrawals, late entries; tests/support/absence_tournaments.py) and six run
through the HTTP API as an arbiter runs one (absences declared and taken back with
POST/DELETE /absences). For each, the tournament's own standings and, for the hundred,
the standings of its TRF imported through the API equal the calculator's values for C.07's
recommended Swiss list on the exported file. Every file, every player, every value."""

from fractions import Fraction

import pytest
from support.absence_tournaments import (
    API_SEEDS,
    ROUND_ROBIN_SEEDS,
    SEEDS,
    outcomes,
    round_robin,
    through_api,
    tournament,
)
from test_tiebreaks_reference import REFERENCE
from test_tiebreaks_service_standings import service_standings
from test_tiebreaks_standings import reference_values
from tournament_support import make_app

from recorder.tournaments import C07_ROUND_ROBIN, C07_SWISS, trf
from recorder.tournaments.standings import standings

ABSENCES = REFERENCE / "absences"
THROUGH_API = REFERENCE / "absences-api"
ROUND_ROBINS = REFERENCE / "absences-round-robin"
CODES = ("PTS", *C07_SWISS)


def file_text(path) -> str:
    return path.read_bytes().decode()  # CR LF kept, as the service writes it


def differences(path, table: list[dict], codes: tuple = CODES, round_robin: bool = False) -> list[str]:
    """Each value of each player the reference holds against the standings given."""
    want = reference_values(path, round_robin)
    assert sorted(s["number"] for s in table) == sorted(want)
    wrong = []
    for s in table:
        for code in codes:
            mine = s["points"] if code == "PTS" else s["tiebreaks"][code]
            if Fraction(str(mine)) != want[s["number"]][code]:
                wrong.append(
                    f"{path.stem} player {s['number']} {code}: ours {mine}, reference {want[s['number']][code]}"
                )
    return wrong


def as_json(ranked) -> list[dict]:
    return [{"number": s.number, "points": s.points, "tiebreaks": s.tiebreaks} for s in ranked]


def test_the_absences_reference_covers_a_hundred_tournaments_each_of_its_files():
    assert sorted(p.stem for p in ABSENCES.glob("*.json")) == [f"s{seed:03d}" for seed in SEEDS]
    assert sorted(p.stem for p in ABSENCES.glob("*.trf")) == [f"s{seed:03d}" for seed in SEEDS]
    assert sorted(p.stem for p in THROUGH_API.glob("*.json")) == [f"a{seed:03d}" for seed in API_SEEDS]
    assert sorted(p.stem for p in ROUND_ROBINS.glob("*.json")) == [f"r{seed:03d}" for seed in ROUND_ROBIN_SEEDS]


def test_thirty_round_robins_with_absences_equal_fides_calculator_for_the_round_robin_list():
    """4 to 16 players, single and double: an absent player's board is left out of the
    Berger table, his opponent has a full-point bye; withdrawals make forfeits."""
    wrong, declared = [], 0
    for seed in ROUND_ROBIN_SEEDS:
        t = round_robin(seed)
        path = ROUND_ROBINS / f"r{seed:03d}.json"
        assert trf.write(t, outcomes(t)) == file_text(path.with_suffix(".trf")), seed
        assert list(t.tiebreaks) == list(C07_ROUND_ROBIN)
        declared += len(t.absences)
        table = as_json(standings(t, outcomes(t)))
        wrong += differences(path, table, ("PTS", *C07_ROUND_ROBIN), round_robin=True)
    assert declared > 100
    assert wrong == [], f"{len(wrong)} values differ:\n" + "\n".join(wrong[:40])


def test_a_hundred_random_tournaments_with_absences_equal_fides_calculator_in_their_own_standings():
    """Each file is the tournament its seed makes (absences declared by decide_absence);
    its standings, then the service's of its TRF imported through the API, are compared."""
    wrong, declared, players = [], 0, 0
    for seed in SEEDS:
        t = tournament(seed)
        path = ABSENCES / f"s{seed:03d}.json"
        assert trf.write(t, outcomes(t)) == file_text(path.with_suffix(".trf")), seed
        assert list(t.tiebreaks) == list(C07_SWISS)
        declared += len(t.absences)
        players += len(t.entrants)
        wrong += differences(path, as_json(standings(t, outcomes(t))))
    assert declared > 300 and 8 * 100 <= players <= 200 * 100
    assert wrong == [], f"{len(wrong)} values differ:\n" + "\n".join(wrong[:40])


def test_the_service_standings_of_the_hundred_imported_through_the_api_equal_fides_calculator(tmp_path):
    app = make_app(tmp_path)
    try:
        client = app.test_client()
        wrong = []
        for path in sorted(ABSENCES.glob("*.json")):
            table = service_standings(client, file_text(path.with_suffix(".trf")), "swiss")
            assert table["tiebreaks"] == list(C07_SWISS)
            wrong += differences(path, table["standings"])
    finally:
        app.extensions["recorder"].store.close()
    assert wrong == [], f"{len(wrong)} values differ:\n" + "\n".join(wrong[:40])


@pytest.mark.parametrize("seed", list(API_SEEDS))
def test_a_tournament_run_through_the_api_with_absences_equals_fides_calculator(tmp_path, seed):
    app = make_app(tmp_path)
    try:
        client = app.test_client()
        tid = through_api(client, seed)
        path = THROUGH_API / f"a{seed:03d}.json"
        assert client.get(f"/api/tournaments/{tid}/trf").get_data(as_text=True) == file_text(path.with_suffix(".trf"))
        table = client.get(f"/api/tournaments/{tid}/standings").get_json()
        events = client.get(f"/api/tournaments/{tid}/events").get_json()["events"]
    finally:
        app.extensions["recorder"].store.close()
    assert any(e["type"] == "absence_declared" for e in events)
    assert table["tiebreaks"] == list(C07_SWISS)
    assert differences(path, table["standings"]) == []
