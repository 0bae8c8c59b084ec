"""The team tie-breaks of C.07 equal FIDE's calculator's (TEC-FIDE/TieBreakServer) on the
TRF this service writes: ten seeded random team round robins (4 to 10 teams, 2 to 6 boards,
games won, drawn and lost) built with the tournament model, and the six-team event played
through the API; every value of every team (fixtures/tiebreaks/teams/, README there)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import team_tournaments
from test_tournament_team_swiss import run, team_swiss
from test_tournament_team_trf import exported, played_team_event
from tournament_support import ADMIN_TOKEN, Organiser, make_app

from recorder.tournaments import teams
from recorder.tournaments.team_tiebreaks import TEAM_TIEBREAKS, team_tiebreaks

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "tiebreaks" / "teams"
IDS = ("TEAM", "PLAYER")  # the XMR records holding registry ids
ON_GAME_POINTS = {"BH", "SB"}  # counted on game points when the calculator's point type says so


def raw(name: str) -> str:
    """A fixture's text as written, CR LF line ends kept."""
    with open(FIXTURES / name, encoding="utf-8", newline="") as kept:
        return kept.read()


def reference(name: str) -> tuple[list[str], dict[int, list[float]]]:
    """The calculator's codes, in its order, and each team's values."""
    kept = json.loads((FIXTURES / f"{name}.json").read_text())
    codes = [
        tb["name"] + (":GP" if tb["name"] in ON_GAME_POINTS and tb["pointtype"] == "gpoints" else "")
        for tb in kept["tiebreaks"]
    ]
    return codes, {int(team): values for team, values in kept["teams"].items()}


def test_the_reference_lists_the_team_tiebreaks_this_service_computes():
    codes, _ = reference("league")
    assert [*codes, "DE"] == list(TEAM_TIEBREAKS)
    assert reference("league.de")[0] == ["MPTS", "DE"]  # direct encounter within the ties on match points


def assert_equal_to_the_calculators(name: str, computed: dict) -> None:
    for listed in (name, f"{name}.de"):
        codes, expected = reference(listed)
        assert sorted(expected) == sorted(computed)
        for team, values in expected.items():
            assert [float(computed[team][code]) for code in codes] == values, (listed, team)


@pytest.mark.parametrize("seed", team_tournaments.SEEDS)
def test_c07_team_tiebreaks_mpts_gpts_bh_sb_emgsb_win_ps_and_de_art_6_equal_the_calculators_on_random_team_round_robins(
    seed,
):
    name = f"s{seed:03d}"
    text = team_tournaments.text(seed)
    assert text == raw(f"{name}.trf")  # the file the calculator read
    t = team_tournaments.tournament(seed)
    rounds = [teams.stored_round(t, rnd.number) for rnd in t.rounds]
    points = {key: teams.POINTS[outcome.result] for key, outcome in team_tournaments.outcomes(t).items()}
    assert_equal_to_the_calculators(name, team_tiebreaks(len(t.teams), rounds, points))


def without_registry_ids(text: str) -> list[str]:
    """The file but its XMR TEAM and PLAYER records, whose registry ids are new each run."""
    return [
        line
        for line in text.split("\r\n")
        if not line.startswith(("XMR 0000 TEAM", "XMR")) or "PLAYER" not in line and "TEAM" not in line
    ]


def test_c07_team_tiebreaks_of_the_six_team_event_in_its_team_standings_equal_the_calculators(tmp_path):
    client = make_app(tmp_path).test_client()
    admin = Organiser(client, ADMIN_TOKEN)
    t = played_team_event(admin, seed=7)
    assert without_registry_ids(exported(client, t)) == without_registry_ids(raw("league.trf"))
    rows = admin.get(f"/api/tournaments/{t}/team-standings")["standings"]
    assert_equal_to_the_calculators("league", {row["team"]["number"]: row["tiebreaks"] for row in rows})
    assert all(row["tiebreaks"]["MPTS"] == row["match_points"] for row in rows)


def test_c07_team_tiebreaks_of_the_twelve_team_swiss_in_its_team_standings_equal_the_calculators(tmp_path):
    """The acceptance run of tests/test_tournament_team_swiss.py (seed 20261207): its TRF is
    the one the calculator read (``-s``: a Swiss's rules, direct encounter only between teams
    that met), and every team's values in ``GET …/team-standings`` are the calculator's."""
    client = make_app(tmp_path).test_client()
    admin = Organiser(client, ADMIN_TOKEN)
    t = team_swiss(admin, 12, 5)
    run(admin, t, 12, 5, seed=20261207)
    assert without_registry_ids(exported(client, t)) == without_registry_ids(raw("swiss12.trf"))
    rows = admin.get(f"/api/tournaments/{t}/team-standings")["standings"]
    assert_equal_to_the_calculators("swiss12", {row["team"]["number"]: row["tiebreaks"] for row in rows})
    assert all(row["tiebreaks"]["MPTS"] == row["match_points"] for row in rows)
