"""A TRF's declared byes (240 F/H/Z) and its tie-break list (202) come in, pair and go out
unchanged: the absences are the tournament's, the list is its list, and an export of it
imports to the same tournament. The drawing of lots' seed travels with the file
(``XMR 0000 LOTS``), so the copy ranks its ties as the original did."""

from __future__ import annotations

import pytest
from test_trf_keeps_what_it_knew import FOUR, export, imported, post_trf, refused_at
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app

from recorder.tournaments import C07_ROUND_ROBIN, C07_SWISS


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


@pytest.fixture
def client(app):
    return app.test_client()


DECLARED = ["240 F 002    1", "240 H 002    3", "240 Z 003    2    4", "202 BH/C1,BH,DE,WIN"]


def test_declared_byes_of_every_type_for_some_rounds_to_come_are_absences_not_withdrawals():
    t = imported([*FOUR, *DECLARED])
    assert [e.withdrawn for e in t.entrants] == [False] * 4
    assert [(a.player, a.round, a.points) for a in t.absences] == [(1, 2, 1), (3, 2, 0.5), (2, 3, 0), (4, 3, 0)]


def test_a_trf_with_240_and_202_imports_pairs_and_exports_back_unchanged(client):
    text = "\r\n".join([*FOUR[:2], "202 BH/C1,BH,DE,WIN", *FOUR[2:], *DECLARED[:3]]) + "\r\n"
    response = post_trf(client, text)
    assert response.status_code == 201, response.get_json()
    tid = response.get_json()["id"]
    assert response.get_json()["tiebreaks"] == ["BH/C1", "BH", "DE", "WIN"]
    first = export(client, tid)
    assert [line for line in first.split("\r\n") if line[:3] in ("202", "240")] == [
        "202 BH/C1,BH,DE,WIN",
        "240 F 002    1",
        "240 H 002    3",
        "240 Z 003    2    4",
    ]
    again = post_trf(client, first.replace(first.split("\r\n")[0], "012 The copy"))
    assert export(client, again.get_json()["id"]) == first.replace(first.split("\r\n")[0], "012 The copy")
    admin = Organiser(client)
    paired = admin.pair(tid)  # round 2: 1 and 3 declared their absence
    placed = {b[seat]["number"] for b in paired["boards"] for seat in ("south", "north")}
    assert placed == {2, 4} and sorted((b["number"], b["points"]) for b in paired["byes"]) == [(1, 1), (3, 0.5)]
    after = export(client, tid).split("\r\n")
    assert [line for line in after if line.startswith("240")] == ["240 Z 003    2    4"]
    records = {line[4:8].strip(): line for line in after if line.startswith("001")}
    assert records["1"][101:109] == "0000 - F" and records["3"][101:109] == "0000 - H"


def test_a_withdrawn_players_declared_byes_are_his_withdrawals_zero_point_ones():
    line, column, detail = refused_at([*FOUR, "XMR    4 WITHDRAWN 001", "240 H 002    4"])
    assert (line, column) == (8, 5) and "withdrew" in detail


@pytest.mark.parametrize(
    "extra, column, words",
    [
        ("202 BH/C1,XX", 11, "not a C.07 tie-break"),
        ("202 BH,BH", 8, "named twice"),
        ("202 BH/C3", 5, "not a C.07 tie-break"),
        ("XMR 0000 TIEBREAKS buchholz,coin_toss", 20, "coin_toss"),
        ("XMR 0000 LOTS      a b", 20, "seed"),
        ("XMR    1 LOTS      abc", 5, "0000"),
        ("XMR 0000 ABSENCE   1.0", 20, "absence scores"),
        ("XMR    2 ABSENCE   0.0", 5, "0000"),
    ],
)
def test_a_bad_tiebreak_list_or_seed_is_refused_naming_line_and_column(extra, column, words):
    line, found_column, detail = refused_at([*FOUR, extra])
    assert (line, found_column) == (len(FOUR) + 1, column) and words in detail, detail


def test_points_first_in_a_202_are_read_as_the_points_they_are():
    admin_text = "\n".join([*FOUR, "202 PTS BH/C1 BH-C1-V DE"]) + "\n"
    from recorder.tournaments import trf

    assert trf.listed_tiebreaks(trf.parse(admin_text)) == ["BH/C1", "BH/C1/V", "DE"]


def test_a_new_tournament_takes_c07s_recommended_list_for_its_system(client):
    admin = Organiser(client)
    assert admin.create(name="S", variant="qelat", format="swiss", rounds=3)["tiebreaks"] == list(C07_SWISS)
    assert admin.create(name="M", variant="qelat", format="manual", rounds=3)["tiebreaks"] == list(C07_SWISS)
    for format_ in ("round_robin", "double_round_robin"):
        assert admin.create(name=format_, variant="qelat", format=format_)["tiebreaks"] == list(C07_ROUND_ROBIN)
    older = ["buchholz", "sonneborn_berger", "direct_encounter", "wins"]
    assert admin.create(name="O", variant="qelat", format="swiss", rounds=3, tiebreaks=older)["tiebreaks"] == older


def test_a_list_with_names_c07_has_no_code_for_travels_in_its_own_record(client):
    admin = Organiser(client)
    older = ["buchholz", "SB", "wins"]
    t = admin.create(name="Harar Open", variant="qelat", format="swiss", rounds=3, tiebreaks=older)
    admin.add_players(t["id"], "Abeba", "Berhane")
    text = export(client, t["id"])
    assert "XMR 0000 TIEBREAKS buchholz,SB,wins" in text.split("\r\n") and "\r\n202 " not in text
    copy = post_trf(client, text)
    assert copy.get_json()["tiebreaks"] == older and export(client, copy.get_json()["id"]) == text


def all_drawn(client, chosen: list[str]) -> str:
    """Four players of a round robin whose every game is a draw: tied on everything."""
    admin = Organiser(client)
    t = admin.create(name="Lalibela", variant="qelat", format="round_robin", tiebreaks=chosen)
    admin.add_players(t["id"], "Abeba", "Berhane", "Chaltu", "Dawit")
    for _ in range(3):
        paired = admin.pair(t["id"])
        for board in paired["boards"]:
            url = f"/api/tournaments/{t['id']}/rounds/{paired['round']}/boards/{board['board']}/result"
            response = client.post(url, json={"result": "draw", "kind": "played"}, headers=bearer(ADMIN_TOKEN))
            assert response.status_code == 201, response.get_json()
    return t["id"]


def test_the_drawing_of_lots_seed_is_shown_and_travels_so_a_copy_ranks_ties_the_same(client):
    tid = all_drawn(client, ["DE", "SB", "LOTS"])
    standings = client.get(f"/api/tournaments/{tid}/standings").get_json()
    assert standings["lots_seed"] == tid and [s["rank"] for s in standings["standings"]] == [1, 2, 3, 4]
    text = export(client, tid)
    assert f"XMR 0000 LOTS      {tid}" in text.split("\r\n")
    copy = post_trf(client, text.replace("012 Lalibela", "012 Lalibela copy", 1), "manual").get_json()["id"]
    ranked = client.get(f"/api/tournaments/{copy}/standings").get_json()
    assert ranked["lots_seed"] == tid
    assert [s["number"] for s in ranked["standings"]] == [s["number"] for s in standings["standings"]]


def test_without_the_drawing_of_lots_a_tie_on_the_whole_list_shares_a_place(client):
    tid = all_drawn(client, list(C07_ROUND_ROBIN))
    standings = client.get(f"/api/tournaments/{tid}/standings").get_json()
    assert standings["lots_seed"] is None and [s["rank"] for s in standings["standings"]] == [1, 1, 1, 1]


def test_a_hundred_tournaments_cut_before_a_round_export_import_export_the_same_file_and_pair_it_alike():
    """Each random tournament with absences (tests/support/absence_tournaments.py), as it
    stood before each of its rounds after the first was paired, absences declared for that
    round and later ones (240 F/H/Z), withdrawals (240 Z, XMR), late entries, its rule for
    absences and its list: written, read back and written again, the same file; and the
    copy pairs the round as the tournament itself pairs it."""
    from support.absence_tournaments import SEEDS, events_of, folded, outcomes

    from recorder.tournaments import decide, trf
    from recorder.tournaments.events import RoundPaired, TournamentCreated

    checked = declared = 0
    for seed in SEEDS:
        events = events_of(seed)
        cuts = [i for i, e in enumerate(events) if isinstance(e, RoundPaired) and e.round > 1]
        cut = cuts[seed % len(cuts)]  # one round a tournament, a different one from seed to seed
        t = folded(list(events[:cut]))
        text = trf.write(t, outcomes(t))
        parsed = trf.parse(text)
        created = decide.decide_create(
            {"name": "copy", "variant": "qelat", "format": "swiss", "rounds": 1, "tiebreaks": []}
        )
        fields = trf.creation_fields(parsed)
        created = TournamentCreated(
            variant="qelat", options=created.options, format="swiss", tiebreaks=trf.listed_tiebreaks(parsed), **fields
        )
        copy = folded(trf.import_events(parsed, created))
        assert trf.write(copy, outcomes(copy)) == text, seed
        assert copy.absent_from(t.next_round) == t.absent_from(t.next_round), seed
        mine, theirs = (decide.decide_pair(x, outcomes(x), {})[0] for x in (t, copy))
        assert (mine.boards, mine.byes) == (theirs.boards, theirs.byes), seed
        declared += len(t.absent_from(t.next_round))
        checked += 1
    assert checked == 100 and declared > 20
