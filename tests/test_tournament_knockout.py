"""Knock-outs: the bracket of 2^n with byes to the top seeds, matches of several games with
the first player alternating, play-offs at their own clocks, a lot as the last resort, and a
stage handed over from a finished Swiss; every step an event, refused ones storing nothing."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app

from recorder.tournaments.knockout import bracket_size, seeding_order

PLAYOFF_CLOCKS = {"stages": [{"base_ms": 600_000, "increment_ms": 10_000}]}
CLOCKS = {"stages": [{"base_ms": 5_400_000, "increment_ms": 30_000}]}
NAMES = [f"Player {chr(ord('A') + i)}" for i in range(16)]


@pytest.fixture
def client(tmp_path):
    return make_app(tmp_path).test_client()


@pytest.fixture
def admin(client):
    return Organiser(client, ADMIN_TOKEN)


def knockout(admin, players, match_games=2, playoff_games=2, **body):
    t = admin.create(
        name="Cup",
        variant="qelat",
        format="knockout",
        time_control=CLOCKS,
        knockout={"match_games": match_games, "playoff_games": playoff_games, "playoff_time_control": PLAYOFF_CLOCKS},
        **body,
    )
    admin.add_players(t["id"], *players)
    return t["id"]


def finish(admin, game_id: str, winner: str | None):
    """The game's result: the winner's seat (south, north) resigning the other, or a draw."""
    if winner is None:
        admin.command(game_id, type="result", kind="agreement", winner=None)
    else:
        admin.command(game_id, type="result", kind="resignation", winner=winner)


def play_round(admin, tournament_id: str, round_json: dict, winner_of) -> None:
    """Every board of a paired round: ``winner_of(south, north)`` names the winning entrant
    number, or None for a draw."""
    for board in round_json["boards"]:
        game = admin.start(tournament_id, round_json["round"], board["board"])
        south, north = board["south"]["number"], board["north"]["number"]
        won = winner_of(south, north)
        finish(admin, game["id"], None if won is None else ("south" if won == south else "north"))


def bracket(admin, tournament_id: str) -> dict:
    return admin.get(f"/api/tournaments/{tournament_id}/bracket")


def lower_number_wins(south: int, north: int) -> int:
    return min(south, north)


# --------------------------------------------------------------------------- the bracket


def test_seeding_order_is_fides_so_one_and_two_meet_only_in_the_final():
    assert seeding_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@settings(max_examples=30, derandomize=True)
@given(st.integers(min_value=1, max_value=8))
def test_the_top_two_to_the_k_seeds_are_in_different_sections_of_every_bracket(power):
    """Seeds 1..2^k sit one in each of the 2^k sections, so none of them meets another before
    the round of 2^k (1 and 2 only in the final, 1-4 only in the semi-finals...)."""
    size = 2**power
    order = seeding_order(size)
    assert sorted(order) == list(range(1, size + 1))
    for k in range(power + 1):
        section = size // 2**k
        tops = [min(order[i : i + section]) for i in range(0, size, section)]
        assert sorted(tops) == list(range(1, 2**k + 1))


def test_a_field_smaller_than_its_bracket_gives_the_byes_to_the_top_seeds(client, admin):
    t = knockout(admin, [(f"P{i}", 2000 - i) for i in range(1, 6)])  # five players: a bracket of 8
    paired = admin.pair(t)
    assert [(b["south"]["number"], b["north"]["number"]) for b in paired["boards"]] == [(4, 5)]
    first = bracket(admin, t)["stages"][0]
    assert bracket_size(5) == 8 and bracket(admin, t)["size"] == 8
    byes = [m for m in first["matches"] if m["state"] == "won"]
    assert sorted(m["winner"] for m in byes) == [1, 2, 3]
    assert all(None in m["players"] for m in byes)


# --------------------------------------------------------------------------- the matches


def test_a_matchs_games_alternate_the_first_player_and_its_play_offs_take_the_faster_clocks(client, admin):
    t = knockout(admin, [("A", 2100), ("B", 2000)], match_games=2, playoff_games=2)
    seats = []
    for _ in range(3):
        paired = admin.pair(t)
        board = paired["boards"][0]
        seats.append((board["south"]["number"], board["north"]["number"]))
        game = admin.start(t, paired["round"], 1)
        expected = PLAYOFF_CLOCKS if paired["round"] == 3 else CLOCKS
        assert game["metadata"]["time_control"] == expected
        assert game["first_player"] == "south" and game["state"]["to_move"] == "south"
        finish(admin, game["id"], None if paired["round"] < 3 else "south")
    assert seats == [(1, 2), (2, 1), (1, 2)]  # the seed moves first in games 1 and 3
    final = bracket(admin, t)["stages"][0]["matches"][0]
    assert final["score"] == [1, 1] and final["playoff_score"] == [1, 0]
    assert [g["playoff"] for g in final["games"]] == [False, False, True]
    assert final["state"] == "playoff"  # 1-0 with a play-off game left: it could level the play-off
    last = admin.pair(t)
    assert [(b["south"]["number"], b["north"]["number"]) for b in last["boards"]] == [(2, 1)]
    finish(admin, admin.start(t, last["round"], 1)["id"], None)
    final = bracket(admin, t)["stages"][0]["matches"][0]
    assert final["state"] == "won" and final["winner"] == 1 and final["playoff_score"] == [1.5, 0.5]


def test_a_decided_match_gets_no_play_off_and_the_next_round_pairs_the_winners(client, admin):
    t = knockout(admin, [("A", 2400), ("B", 2300), ("C", 2200), ("D", 2100)], match_games=2)
    for _ in range(2):
        play_round(admin, t, admin.pair(t), lower_number_wins)  # 1 beats 4, 2 beats 3, twice
    final = admin.pair(t)
    assert [(b["south"]["number"], b["north"]["number"]) for b in final["boards"]] == [(1, 2)]
    semis = bracket(admin, t)["stages"][0]["matches"]
    assert [m["winner"] for m in semis] == [1, 2] and all(len(m["games"]) == 2 for m in semis)


def test_a_lot_before_the_match_is_level_after_its_play_offs_is_refused_and_stores_nothing(client, admin):
    t = knockout(admin, [("A", 2100), ("B", 2000)], match_games=2, playoff_games=1)
    lot = {"stage": 1, "match": 1, "winner": 2}
    url = f"/api/tournaments/{t}/knockout/lots"
    admin._call("POST", url, 422, lot)  # before the bracket is seeded
    play_round(admin, t, admin.pair(t), lambda s, n: None)
    before = admin.get(f"/api/tournaments/{t}")["version"]
    problem = admin._call("POST", url, 422, lot)  # one game drawn, one to play
    assert "not level" in problem["detail"]
    play_round(admin, t, admin.pair(t), lambda s, n: None)
    admin._call("POST", url, 422, lot)  # level, but the play-off game is still to come
    assert admin.get(f"/api/tournaments/{t}")["version"] == before + 1  # one more round paired, nothing else
    play_round(admin, t, admin.pair(t), lambda s, n: None)
    admin._call("POST", url, 422, {**lot, "winner": 7})  # not one of its players
    problem = admin.pair(t, expect=422)
    assert "record the lot" in problem["detail"]
    won = admin._call("POST", url, 201, lot)
    assert won["champion"]["number"] == 2 and won["status"] == "finished"
    admin._call("POST", url, 409, lot)  # decided by lot already
    assert "is over" in admin.pair(t, expect=422)["detail"]


@pytest.mark.parametrize(
    "settings_body",
    [{"match_games": 0}, {"match_games": 11}, {"playoff_games": -1}, {"match_games": "2"}, {"match_games": True}],
)
def test_bad_knockout_settings_are_a_422(client, admin, settings_body):
    admin.create(expect=422, name="Cup", variant="qelat", format="knockout", knockout=settings_body)


def test_a_knockout_of_one_player_or_paired_by_hand_is_a_422_and_stores_nothing(client, admin):
    t = knockout(admin, ["A"])
    assert "at least two" in admin.pair(t, expect=422)["detail"]
    admin.add_players(t, "B")
    admin.pair(t, expect=422, boards=[{"south": 1, "north": 2}])
    assert admin.get(f"/api/tournaments/{t}/events")["events"][-1]["type"] == "player_registered"
    assert bracket(admin, t)["stages"] == []


def test_knockout_settings_outside_a_knockout_are_a_422(client, admin):
    admin.create(expect=422, name="X", variant="qelat", format="swiss", rounds=3, knockout={"match_games": 2})


def test_a_game_for_a_match_not_yet_paired_is_a_404(client, admin):
    t = knockout(admin, [("A", 2400), ("B", 2300), ("C", 2200), ("D", 2100)])
    admin.pair(t)
    assert bracket(admin, t)["stages"][0]["matches"][0]["games"][0]["game_id"] is None  # paired, not started
    admin.start(t, 2, 1, expect=404)  # game 2 of the semi-finals is paired once game 1 is over
    admin.start(t, 1, 3, expect=404)


def test_a_players_entry_after_the_bracket_is_seeded_is_a_422(client, admin):
    t = knockout(admin, ["A", "B"])
    admin.pair(t)
    admin._call("POST", f"/api/tournaments/{t}/players", 422, {"name": "Late"})


def test_another_tournaments_arbiter_may_not_draw_a_lot_or_hand_over(client, admin):
    t = knockout(admin, ["A", "B"])
    other = admin.create(name="Other", variant="qelat", format="knockout")["id"]
    stranger = Organiser(client, admin.issue_token(other, "Arbiter of Other")["token"])
    stranger._call("POST", f"/api/tournaments/{t}/knockout/lots", 403, {"stage": 1, "match": 1, "winner": 1})
    stranger._call("POST", f"/api/tournaments/{t}/knockout/seeding", 403, {"source": other, "qualifiers": 2})
    response = client.post(f"/api/tournaments/{t}/knockout/lots", json={"stage": 1, "match": 1, "winner": 1})
    assert response.status_code == 401
    assert client.get(f"/api/tournaments/{t}/bracket", headers=bearer("nobody")).status_code in (200, 401)


# --------------------------------------------------------------------------- stages


def swiss_stage(admin, rounds: int = 3) -> str:
    swiss = admin.create(name="Cup, Swiss stage", variant="qelat", format="swiss", rounds=rounds)["id"]
    admin.add_players(swiss, *[(name, 2400 - 10 * i) for i, name in enumerate(NAMES)])
    for _ in range(rounds):
        play_round(admin, swiss, admin.pair(swiss), lower_number_wins)
    return swiss


def test_a_hand_over_from_an_unfinished_stage_or_too_many_qualifiers_is_refused(client, admin):
    swiss = admin.create(name="S", variant="qelat", format="swiss", rounds=1)["id"]
    admin.add_players(swiss, "A", "B", "C", "D")
    ko = admin.create(name="KO", variant="qelat", format="knockout")["id"]
    url = f"/api/tournaments/{ko}/knockout/seeding"
    assert "not finished" in admin._call("POST", url, 422, {"source": swiss, "qualifiers": 2})["detail"]
    play_round(admin, swiss, admin.pair(swiss), lower_number_wins)
    admin._call("POST", url, 422, {"source": swiss, "qualifiers": 5})
    admin._call("POST", url, 422, {"source": ko, "qualifiers": 2})  # not a stage before it
    admin._call("POST", url, 404, {"source": "t-00ff", "qualifiers": 2})
    assert admin.get(f"/api/tournaments/{ko}/events")["events"][-1]["type"] == "tournament_created"
    admin._call("POST", url, 201, {"source": swiss, "qualifiers": 2})
    admin._call("POST", url, 409, {"source": swiss, "qualifiers": 2})  # handed over once
    assert admin.get(f"/api/tournaments/{swiss}")["next_stages"] == [{"id": ko, "name": "KO"}]
    assert [e["type"] for e in admin.get(f"/api/tournaments/{swiss}/events")["events"]].count("stage_followed") == 1
    assert admin.get(f"/api/tournaments/{ko}")["next_stages"] == []


def test_sixteen_players_from_a_swiss_stage_play_two_game_matches_play_offs_and_a_lot_to_the_champion(client, admin):
    swiss = swiss_stage(admin)
    standings = admin.standings(swiss)["standings"]
    ko = admin.create(
        name="Cup, knock-out stage",
        variant="qelat",
        format="knockout",
        time_control=CLOCKS,
        knockout={"match_games": 2, "playoff_games": 2, "playoff_time_control": PLAYOFF_CLOCKS},
    )["id"]
    handed = admin._call("POST", f"/api/tournaments/{ko}/knockout/seeding", 201, {"source": swiss, "qualifiers": 16})
    places = [s["rank"] for s in standings]  # a place shared after every tie-break is kept as ranked
    assert handed["seeding"] == {"by": "standings", "source": swiss, "source_places": places}
    entrants = admin.get(f"/api/tournaments/{ko}")["players"]
    assert [e["name"] for e in entrants] == [swiss_name(admin, swiss, s["number"]) for s in standings]

    # Round of 16: every match level 1-1 (each player wins his game as South), so all go to
    # play-offs; in the play-offs the higher seed wins both, except match 2 (8 v 9), level again
    # and decided by lot for seed 9.
    seed_of = {p["number"]: p["number"] for p in entrants}  # handed over in order: number = seed
    for _ in range(2):
        play_round(admin, ko, admin.pair(ko), lambda s, n: s)
    for _ in range(2):
        play_round(admin, ko, admin.pair(ko), lambda s, n: None if {s, n} == {8, 9} else min(s, n))
    assert "record the lot of round 1 match 2" in admin.pair(ko, expect=422)["detail"]
    admin._call("POST", f"/api/tournaments/{ko}/knockout/lots", 201, {"stage": 1, "match": 2, "winner": 9})
    # Later rounds: the higher seed wins both games.
    while bracket(admin, ko)["status"] != "finished":
        play_round(admin, ko, admin.pair(ko), lambda s, n: min(s, n, key=lambda p: seed_of[p]))
    final = bracket(admin, ko)
    first_place = swiss_name(admin, swiss, standings[0]["number"])  # seed 1, who wins every match
    assert final["champion"] == {"number": 1, "name": first_place, "name_geez": None, "seed": 1}
    assert [s["name"] for s in final["stages"]] == ["round_of_16", "quarter_final", "semi_final", "final"]
    first = final["stages"][0]["matches"]
    assert [tuple(p["number"] for p in m["players"]) for m in first] == [
        (1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11),
    ]  # fmt: skip
    assert first[1]["lot"] == 9 and first[1]["winner"] == 9 and first[1]["playoff_score"] == [1, 1]
    assert [m["players"][1]["number"] for m in final["stages"][1]["matches"]] == [9, 5, 7, 6]
    assert final["stages"][3]["matches"][0]["score"] == [2, 0]
    types = [e["type"] for e in admin.get(f"/api/tournaments/{ko}/events")["events"]]
    assert types.count("lot_drawn") == 1 and types.count("bracket_seeded") == 1
    assert types.count("round_paired") == 4 + 2 + 2 + 2  # two games and two play-off games, then 2 a round
    assert admin.get(f"/api/tournaments/{ko}")["status"] == "finished"


def swiss_name(admin, swiss: str, number: int) -> str:
    return admin.get(f"/api/tournaments/{swiss}")["players"][number - 1]["name"]


# --------------------------------------------------------------------------- the command line


def cli(db, *args, ok=True):
    from click.testing import CliRunner

    from recorder.cli.main import main

    result = CliRunner().invoke(main, ["tournament", *args, "--db", str(db)])
    assert (result.exit_code == 0) is ok, result.output
    return result.output.strip()


def test_the_command_line_hands_a_stage_over_draws_the_lot_and_prints_the_bracket(tmp_path):
    db = tmp_path / "cli.sqlite3"
    swiss = cli(db, "create", "--name", "Swiss", "--variant", "qelat", "--format", "swiss", "--rounds", "1")
    for name in ("Abeba", "Berhane", "Chaltu", "Dawit"):
        cli(db, "add-player", swiss, name)
    cli(db, "pair", swiss)
    cli(db, "forfeit", swiss, "1", "1", "south_wins")
    cli(db, "forfeit", swiss, "1", "2", "south_wins")
    ko = cli(db, "create", "--name", "KO", "--variant", "qelat", "--format", "knockout", "--match-games", "1")
    cli(db, "create", "--name", "X", "--variant", "qelat", "--format", "knockout", "--match-games", "0", ok=False)
    seeded = [line.strip() for line in cli(db, "seed-from", ko, swiss, "--qualifiers", "2").splitlines()]
    assert seeded == ["seed 1: Abeba", "seed 2: Dawit"]  # the two South players won round 1 (1 v 3, 4 v 2)
    cli(db, "lot", ko, "1", "1", "2", ok=False)  # nothing played yet: no lot
    assert cli(db, "pair", ko).splitlines()[1] == "  board 1: Abeba (south) - Dawit (north)"
    cli(db, "forfeit", ko, "1", "1", "double_forfeit")  # level: two play-off games follow
    for round_number in ("2", "3"):
        cli(db, "pair", ko)
        cli(db, "forfeit", ko, round_number, "1", "double_forfeit")
    assert cli(db, "lot", ko, "1", "1", "2") == "round 1 match 1: Dawit by lot"
    assert cli(db, "bracket", ko).splitlines() == [
        "final",
        "  match 1: Abeba (1) 0-0 Dawit (2), play-off 0-0, by lot [won]",
        "champion: Dawit",
    ]


def test_every_read_of_a_knockout_answers_and_its_finish_ends_the_arbiters_rights(client, admin):
    t = knockout(admin, [("A", 2100), ("B", 2000)], match_games=1)
    arbiter = Organiser(client, admin.issue_token(t, "Arbiter of the Cup")["token"])
    paired = arbiter.pair(t)
    for path in ("", "/standings", "/crosstable", "/check", "/trf", "/prizes", "/bracket", "/rounds/1"):
        response = client.get(f"/api/tournaments/{t}{path}")
        assert response.status_code == 200, (path, response.get_data(as_text=True))
    game = arbiter.start(t, paired["round"], 1)
    arbiter.command(game["id"], type="result", kind="resignation", winner="north")
    assert bracket(admin, t)["champion"]["name"] == "B"
    assert admin.get(f"/api/tournaments/{t}")["status"] == "finished"
    arbiter._call("POST", f"/api/tournaments/{t}/rounds", 403, {})  # over: the admin corrects from now on
    assert client.get(f"/api/tournaments/{t}/check").status_code == 200


def test_a_knockout_with_planned_rounds_is_a_422_that_says_why(client, admin):
    problem = admin.create(expect=422, name="Cup", variant="qelat", format="knockout", rounds=4)
    assert "knock-out's rounds follow from its bracket" in problem["detail"]


# --------------------------------------------------------------------------- a match's properties


RESULTS = st.sampled_from(["south_wins", "north_wins", "draw", "double_forfeit"])


@settings(max_examples=60, derandomize=True, deadline=None)
@given(
    match_games=st.integers(min_value=1, max_value=4),
    playoff_games=st.integers(min_value=0, max_value=3),
    results=st.lists(RESULTS, min_size=8, max_size=8),
)
def test_a_match_is_won_by_its_games_then_its_play_offs_then_the_lot_and_never_longer(
    match_games, playoff_games, results
):
    """Played out through the pure decisions: the seats alternate, no game is paired once
    the match is won, and the winner is the one ahead in the games, else in the play-off,
    else the lot's."""
    from recorder.tournaments import decide, fold, knockout
    from recorder.tournaments.events import EntrantRegistered
    from recorder.tournaments.results import PairingResult

    created = decide.decide_create(
        {
            "name": "Cup",
            "variant": "qelat",
            "format": "knockout",
            "knockout": {"match_games": match_games, "playoff_games": playoff_games},
        }
    )
    t = fold.replay("t-0", [(1, created), (2, EntrantRegistered(1, "A", rating=2000)), (3, EntrantRegistered(2, "B"))])
    outcomes: dict = {}
    seats = []
    for result in results:
        match = knockout.bracket(t, outcomes).stages[0][0] if knockout.seeded(t) else None
        if match is not None and match.state in (knockout.WON, knockout.LOT):
            break
        for event in decide.decide_pair(t, outcomes, {}):
            t = fold.apply(t, event, t.version + 1)
        board = t.rounds[-1].boards[0]
        seats.append((board.south, board.north))
        outcomes[(len(t.rounds), 1)] = PairingResult(result, played=True)
    match = knockout.bracket(t, outcomes).stages[0][0]
    assert len(match.games) <= match_games + playoff_games
    assert seats == [(1, 2) if n % 2 == 0 else (2, 1) for n in range(len(seats))]
    regular, playoff = match.score(playoff=False), match.score(playoff=True)
    if match.state == knockout.LOT:
        assert regular[0] == regular[1] and playoff[0] == playoff[1] and len(match.games) == match_games + playoff_games
    else:
        assert match.state == knockout.WON
        leader = 1 if regular[0] > regular[1] else 2 if regular[1] > regular[0] else None
        if leader is None:
            leader = 1 if playoff[0] > playoff[1] else 2
        assert match.winner == leader


def test_a_knockout_its_arbiter_finished_between_stages_is_finished_and_pairs_no_more(client, admin):
    t = knockout(admin, [("A", 2300), ("B", 2200), ("C", 2100), ("D", 2000)], match_games=1)
    play_round(admin, t, admin.pair(t), lower_number_wins)  # the semi-finals, no final yet
    assert bracket(admin, t)["champion"] is None
    admin._call("POST", f"/api/tournaments/{t}/finish", 201, {"note": "the hall closed"})
    assert admin.get(f"/api/tournaments/{t}")["status"] == "finished"
    assert "finished" in admin.pair(t, expect=422)["detail"]


def test_a_knockout_whose_final_is_won_is_finished_already(client, admin):
    t = knockout(admin, [("A", 2100), ("B", 2000)], match_games=1)
    play_round(admin, t, admin.pair(t), lower_number_wins)
    assert bracket(admin, t)["champion"]["name"] == "A"
    admin._call("POST", f"/api/tournaments/{t}/finish", 409, {})
    assert [e["type"] for e in admin.get(f"/api/tournaments/{t}/events")["events"]].count("tournament_finished") == 0


def test_a_final_decided_by_lot_finishes_the_knockout_at_the_lot():
    from recorder.tournaments.finish import finished_at

    events = [("tournament_created", "10:00"), ("round_paired", "10:05"), ("lot_drawn", "12:00")]
    assert finished_at(events, latest_game_result="11:00") == "12:00"  # the play-offs ended level at 11


def test_a_knockout_handed_over_from_a_stage_of_registry_players_verifies_its_projections_and_events(
    tmp_path, client, admin
):
    from click.testing import CliRunner

    from recorder.cli.main import main

    ids = [admin._call("POST", "/api/players", 201, {"name": name, "federation": "ERI"})["id"] for name in NAMES[:4]]
    swiss = admin.create(name="S", variant="qelat", format="swiss", rounds=1)["id"]
    for player_id in ids:
        admin._call("POST", f"/api/tournaments/{swiss}/players", 201, {"player_id": player_id})
    play_round(admin, swiss, admin.pair(swiss), lower_number_wins)
    ko = knockout(admin, [], match_games=1, playoff_games=1)
    admin._call("POST", f"/api/tournaments/{ko}/knockout/seeding", 201, {"source": swiss, "qualifiers": 4})
    for _ in range(2):  # the semi-finals, both drawn, then their play-off games, drawn again
        play_round(admin, ko, admin.pair(ko), lambda s, n: None)
    for match in (1, 2):
        admin._call("POST", f"/api/tournaments/{ko}/knockout/lots", 201, {"stage": 1, "match": match, "winner": match})
    play_round(admin, ko, admin.pair(ko), lower_number_wins)
    assert bracket(admin, ko)["champion"]["number"] == 1
    assert {p["player_id"] for p in admin.get(f"/api/tournaments/{ko}")["players"]} == set(ids)  # registry entries
    db = str(tmp_path / "tournament.sqlite3")
    for check in (["verify", "--projections"], ["verify", "--jobs", "1"]):
        result = CliRunner().invoke(main, [*check, "--db", db])
        assert result.exit_code == 0, result.output
    assert "projections: 0 mismatches" in CliRunner().invoke(main, ["verify", "--projections", "--db", db]).output


def test_the_bracket_names_each_registry_player_in_both_scripts(client, admin):
    body = {"name": "Abeba", "name_geez": "ኣበባ", "federation": "ERI"}
    abeba = admin._call("POST", "/api/players", 201, body)["id"]
    t = knockout(admin, [("Berhane", 2000)], match_games=1)
    admin._call("POST", f"/api/tournaments/{t}/players", 201, {"player_id": abeba})
    play_round(admin, t, admin.pair(t), lambda s, n: 2)  # Abeba, entrant 2, wins the final
    final = bracket(admin, t)
    names = [(p["name"], p["name_geez"]) for p in final["stages"][0]["matches"][0]["players"]]
    assert names == [("Berhane", None), ("Abeba", "ኣበባ")]
    assert final["champion"]["name_geez"] == "ኣበባ"


def test_a_hand_over_seeds_from_the_standings_its_arbiter_may_see_so_a_broadcast_delay_holds(client, admin):
    delayed = {"broadcast_delay": 900, "finished_public": False}  # every game public 15 minutes late
    swiss = admin.create(name="S", variant="qelat", format="swiss", rounds=1, **delayed)["id"]
    admin.add_players(swiss, "A", "B", "C", "D")
    play_round(admin, swiss, admin.pair(swiss), lower_number_wins)
    ko = admin.create(name="KO", variant="qelat", format="knockout")["id"]
    arbiter = Organiser(client, admin.issue_token(ko, "Arbiter of the KO")["token"])
    url = f"/api/tournaments/{ko}/knockout/seeding"
    problem = arbiter._call("POST", url, 422, {"source": swiss, "qualifiers": 2})  # its places not public yet
    assert "not finished" in problem["detail"]
    assert admin.get(f"/api/tournaments/{ko}")["players"] == []
    admin._call("POST", url, 201, {"source": swiss, "qualifiers": 2})  # the admin sees every move at once
