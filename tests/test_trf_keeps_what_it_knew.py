"""A TRF export and re-import keeps what the tournament knew (recorder/tournaments/trf.py):
withdrawals, registry links and the rated flag travel in this service's extension records
(``XMR``, ignored by other programs) and a withdrawal also as TRF-2026's ``240 Z``
pre-declared zero-point byes for the rounds not yet paired; importing the same file again
answers with the tournament it made (its id comes from its content), not a copy.

An arbiter once exported a rated ten-player Swiss, imported it and found the withdrawn
player back and paired in round 3, the registry links gone, the tournament unrated, and
after a second import three identical tournaments on the home page."""

from __future__ import annotations

import time

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_support import ADMIN_TOKEN, Organiser, bearer, make_app

from recorder.cli.main import main
from recorder.tournaments import MAX_DECLARED_BYES, trf
from recorder.tournaments.events import TournamentCreated
from recorder.tournaments.fold import replay
from recorder.tournaments.results import result_of_forfeit


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


def post_trf(client, text: str, format_: str = "swiss"):
    headers = {"Content-Type": "text/plain", **bearer(ADMIN_TOKEN)}
    return client.post(f"/api/tournaments/trf?variant=qelat&format={format_}", data=text.encode(), headers=headers)


def export(client, tournament_id: str, layout: str = "2026") -> str:
    return client.get(f"/api/tournaments/{tournament_id}/trf?layout={layout}").get_data(as_text=True)


def entry(client, tournament_id: str, body: dict) -> dict:
    response = client.post(f"/api/tournaments/{tournament_id}/players", json=body, headers=bearer(ADMIN_TOKEN))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def complete_round(admin: Organiser, tournament_id: str, round_json: dict) -> None:
    """Every board of the round decided for south (forfeits: no game is needed here)."""
    for board in round_json["boards"]:
        admin.forfeit(tournament_id, round_json["round"], board["board"], "south_wins")


def rated_swiss_with_a_withdrawal(client) -> str:
    """A rated ten-round Swiss of eight, Baku accelerated: two linked to the registry,
    player 4 withdrawn after round 1 (left out of round 2, which is paired and decided),
    player 9 a late entry for round 2."""
    admin = Organiser(client)
    t = admin.create(name="Adwa Qelat", variant="qelat", format="swiss", rounds=10, rated=True, acceleration="baku")
    entry(client, t["id"], {"name": "Abeba Tesfaye", "federation": "ERI", "rating": 1900, "register": True})
    entry(client, t["id"], {"name": "Berhane Kidane", "federation": "ERI", "rating": 1850, "register": True})
    admin.add_players(t["id"], ("Chaltu", 1800), ("Dawit", 1750), ("Eleni", 1700), ("Fikre", 1650))
    admin.add_players(t["id"], ("Gebre", 1500), ("Hagos", 1450))
    complete_round(admin, t["id"], admin.pair(t["id"]))
    response = client.post(
        f"/api/tournaments/{t['id']}/players/4/withdrawal", json={"reason": "ill"}, headers=bearer(ADMIN_TOKEN)
    )
    assert response.status_code == 201, response.get_json()
    admin.add_players(t["id"], ("Idris", 1600))
    complete_round(admin, t["id"], admin.pair(t["id"]))
    return t["id"]


def entrants(tournament_json: dict) -> list[tuple]:
    return [
        (e["number"], e["name"], e["player_id"], e["entered_round"], e["withdrawn_after"])
        for e in tournament_json["players"]
    ]


def test_a_trf_export_and_import_keeps_withdrawals_registry_links_and_the_rated_flag(client):
    original_id = rated_swiss_with_a_withdrawal(client)
    original = client.get(f"/api/tournaments/{original_id}").get_json()
    exported = export(client, original_id)
    response = post_trf(client, exported)
    assert response.status_code == 201, response.get_json()
    copy = response.get_json()
    assert copy["rated"] is True
    assert entrants(copy) == entrants(original)
    assert [e["player_id"] is not None for e in copy["players"]] == [True, True] + [False] * 7
    assert [e["withdrawn_after"] for e in copy["players"]] == [None, None, None, 1] + [None] * 5
    assert [e["entered_round"] for e in copy["players"]] == [1] * 8 + [2]
    assert export(client, copy["id"]) == exported  # export, import, export: the same file


def pairing(round_json: dict) -> tuple[list, list]:
    boards = [(b["south"]["number"], b["north"]["number"]) for b in round_json["boards"]]
    return boards, [(bye["number"], bye["points"]) for bye in round_json["byes"]]


def test_the_imported_copy_pairs_the_next_round_as_the_original_does(client):
    original_id = rated_swiss_with_a_withdrawal(client)
    copy = post_trf(client, export(client, original_id)).get_json()
    admin = Organiser(client)
    boards, byes = pairing(admin.pair(copy["id"]))
    assert sorted([*(p for board in boards for p in board), *(p for p, _ in byes)]) == [1, 2, 3, 5, 6, 7, 8, 9]
    assert (boards, byes) == pairing(admin.pair(original_id))


def test_the_trf16_layout_keeps_them_too(client):
    original_id = rated_swiss_with_a_withdrawal(client)
    exported = export(client, original_id, layout="16")
    copy = post_trf(client, exported).get_json()
    assert copy["rated"] is True
    assert entrants(copy) == entrants(client.get(f"/api/tournaments/{original_id}").get_json())
    assert export(client, copy["id"], layout="16") == exported


def test_a_player_absent_from_one_round_comes_back_absent_from_it_and_paired_after(client):
    """The tournament has no absence declared ahead; one from a round paired is his
    ``0000 - Z`` in that round, and he is neither withdrawn nor left out later."""
    admin = Organiser(client)
    t = admin.create(name="Mekelle Manual", variant="qelat", format="manual", rounds=3)
    admin.add_players(t["id"], "Abeba", "Berhane", "Chaltu", "Dawit", "Eleni")
    first = admin.pair(t["id"], boards=[{"south": 1, "north": 2}, {"south": 3, "north": 4}])  # 5 is absent
    complete_round(admin, t["id"], first)
    exported = export(client, t["id"])
    copy = post_trf(client, exported, "manual").get_json()
    assert [p["withdrawn"] for p in copy["players"]] == [False] * 5
    assert copy["rounds"][0]["byes"] == [] and export(client, copy["id"]) == exported
    second = admin.pair(copy["id"], boards=[{"south": 5, "north": 1}, {"south": 2, "north": 3}])
    assert second["boards"][0]["south"]["number"] == 5


def test_a_second_import_of_the_same_file_answers_with_the_tournament_it_made(client):
    exported = export(client, rated_swiss_with_a_withdrawal(client))
    first = post_trf(client, exported)
    again = post_trf(client, exported)
    assert (first.status_code, again.status_code) == (201, 200), again.get_json()
    assert again.get_json()["id"] == first.get_json()["id"]
    assert again.headers["Location"].endswith(f"/api/tournaments/{first.get_json()['id']}")
    assert len(client.get("/api/tournaments").get_json()["tournaments"]) == 2  # the original and one copy
    Organiser(client).pair(first.get_json()["id"])  # the copy goes on: round 3
    later = post_trf(client, exported)
    assert (later.status_code, later.get_json()["id"]) == (200, first.get_json()["id"])
    assert len(later.get_json()["rounds"]) == 3
    changed = post_trf(client, exported.replace("012 Adwa Qelat", "012 Adwa Qelat B", 1))
    assert changed.status_code == 201 and changed.get_json()["id"] != first.get_json()["id"]
    assert len(client.get("/api/tournaments").get_json()["tournaments"]) == 3


def test_a_registry_link_to_a_player_this_registry_does_not_hold_is_a_422_naming_the_line(client):
    exported = export(client, rated_swiss_with_a_withdrawal(client))
    lines = exported.split("\r\n")
    number = next(i for i, line in enumerate(lines, start=1) if line.startswith("XMR    2 PLAYER"))
    lines[number - 1] = "XMR    2 PLAYER    p-0123456789ab"
    response = post_trf(client, "\r\n".join(lines))
    problem = response.get_json()
    assert response.status_code == 422 and (problem["line"], problem["column"]) == (number, 20), problem
    assert "p-0123456789ab" in problem["detail"]
    assert len(client.get("/api/tournaments").get_json()["tournaments"]) == 1  # nothing stored


# --------------------------------------------------------------------------- the records, read


def record(number: int, name: str, points: str, *rounds: str) -> str:
    head = f"001 {number:>4}      {name:<33} {'':>4} {'':3} {'':11} {'':10} {points:>4} {'':>4}"
    return (head + "".join(f"  {r}" for r in rounds)).rstrip()


FOUR = [
    "012 Axum Open",
    "142 3",
    record(1, "Abeba", "1.0", "   2 w 1"),
    record(2, "Berhane", "0.0", "   1 b 0"),
    record(3, "Chaltu", "1.0", "   4 w 1"),
    record(4, "Dawit", "0.0", "   3 b 0"),
]


def created_from(text: str) -> TournamentCreated:
    fields = trf.creation_fields(trf.parse(text))
    return TournamentCreated(variant="qelat", options={}, format="swiss", tiebreaks=[], **fields)


def imported(lines: list[str]):
    text = "\n".join(lines) + "\n"
    return replay("t-trf", enumerate(trf.import_events(trf.parse(text), created_from(text)), start=1))


def refused_at(lines: list[str]) -> tuple[int, int, str]:
    with pytest.raises(trf.TrfError) as refused:
        imported(lines)
    return refused.value.extra["line"], refused.value.extra["column"], refused.value.detail


def test_a_withdrawal_record_withdraws_the_player_after_the_round_it_names():
    t = imported([*FOUR, "XMR    4 WITHDRAWN 001"])
    assert [e.withdrawn_after for e in t.entrants] == [None, None, None, 1]
    assert [e.number for e in t.active_in(2)] == [1, 2, 3]


def test_an_entry_record_registers_the_player_for_the_round_it_names():
    lines = [
        "012 Axum Open",
        "142 3",
        record(1, "Abeba", "1.0", "   2 w 1", "0000 - Z"),
        record(2, "Berhane", "0.0", "   1 b 0", "   3 w 0"),
        record(3, "Chaltu", "1.0", "0000 - Z", "   2 b 1"),
        "XMR    3 ENTERED   002",
    ]
    t = imported(lines)
    assert [e.entered_round for e in t.entrants] == [1, 1, 2]
    assert [e.number for e in t.active_in(1)] == [1, 2]


def test_zero_point_byes_declared_for_every_round_to_come_are_a_withdrawal():
    t = imported([*FOUR, "240 Z 002    4", "240 Z 003    4"])
    assert [e.withdrawn_after for e in t.entrants] == [None, None, None, 1]


@pytest.mark.parametrize(
    "extra, column, words",
    [
        ("XMR    5 WITHDRAWN 001", 5, "no player 5"),
        ("XMR    4 WITHDRAWN 002", 20, "round 2 is not paired"),
        ("XMR    4 WITHDRAWN 0x1", 20, "whole number"),
        ("XMR    4 RETIRED   001", 10, "unknown"),
        ("XMR    4 ENTERED   002", 20, "paired in round 1"),
        ("XMR    4 ENTERED   001", 20, "from 2"),
        ("XMR    4 ENTERED   003", 20, "at most 2"),
        ("XMR    4 PLAYER    P-1", 20, "registry player"),
        ("XMR    1 RATED", 5, "0000"),
        ("XMR", 5, "starting number"),
        ("240 X 002    4", 5, "type of bye"),
        ("240 H 002    4    4", 16, "declared twice"),
        ("240 Z 001    4", 7, "paired already"),
        ("240 Z 004    4", 7, "3 rounds"),
        ("240 Z 002    9", 11, "no player 9"),
    ],
)
def test_a_bad_extension_or_bye_record_is_refused_naming_line_and_column(extra, column, words):
    line, found_column, detail = refused_at([*FOUR, extra])
    assert (line, found_column) == (len(FOUR) + 1, column) and words in detail, detail


def test_a_withdrawn_player_who_plays_a_later_round_is_refused():
    lines = [
        "012 Axum Open",
        "142 3",
        record(1, "Abeba", "2.0", "   2 w 1", "   3 w 1"),
        record(2, "Berhane", "0.0", "   1 b 0", "0000 - Z"),
        record(3, "Chaltu", "0.0", "0000 - Z", "   1 b 0"),
        "XMR    3 WITHDRAWN 000",
    ]
    line, column, detail = refused_at(lines)
    assert (line, column) == (6, 20) and "round 2" in detail


def test_late_entries_out_of_starting_order_are_refused():
    """Starting numbers follow registration, so a later entry has a higher number."""
    lines = [
        "012 Axum Open",
        "142 3",
        record(1, "Abeba", "0.0", "   2 w 0"),
        record(2, "Berhane", "1.0", "   1 b 1"),
        record(3, "Chaltu", "0.0", "0000 - Z"),
        record(4, "Dawit", "0.0", "0000 - Z"),
    ]
    assert [
        e.entered_round for e in imported([*lines, "XMR    3 ENTERED   002", "XMR    4 ENTERED   002"]).entrants
    ] == [
        1,
        1,
        2,
        2,
    ]
    line, column, detail = refused_at([*lines, "XMR    3 ENTERED   002"])
    assert (line, column) == (7, 20) and "player 4" in detail


def test_a_player_withdrawn_twice_or_linked_twice_is_refused_at_the_second_line():
    assert refused_at([*FOUR, "XMR    4 WITHDRAWN 001", "XMR    4 WITHDRAWN 001"])[:2] == (8, 5)
    twice = [*FOUR, "XMR    1 PLAYER    p-1a", "XMR    2 PLAYER    p-1a"]
    line, column, detail = refused_at(twice)
    assert (line, column) == (8, 20) and "p-1a" in detail


def withdrawn_field(players: int, planned: int) -> list[str]:
    """``players`` who played round 1 (odd numbers win) and all withdrew after it: a 240 Z
    line per player for each of the ``planned - 1`` rounds to come."""
    records = [
        record(
            n, f"Player {n}", "1.0" if n % 2 else "0.0", f"{n + 1 if n % 2 else n - 1:4d} {'w 1' if n % 2 else 'b 0'}"
        )
        for n in range(1, players + 1)
    ]
    byes = [f"240 Z {r:03d} {n:4d}" for n in range(1, players + 1) for r in range(2, planned + 1)]
    return ["012 Big Open", f"142 {planned}", *records, *byes]


def test_the_most_declared_byes_a_file_may_hold_are_read_quickly_and_one_more_is_refused(client):
    lines = withdrawn_field(100, 99)  # 100 players x 98 rounds: 9,800 byes
    started = time.perf_counter()
    response = post_trf(client, "\n".join(lines))
    took = time.perf_counter() - started
    assert response.status_code == 201, response.get_json()
    assert all(p["withdrawn_after"] == 1 for p in response.get_json()["players"])
    assert took < 3, took
    past = [*lines, *(f"240 Z 002 {n:4d}" for n in range(101, 101 + MAX_DECLARED_BYES - 9_800 + 1))]
    line, column, detail = refused_at(past)
    assert (line, column) == (len(past), 11) and f"{MAX_DECLARED_BYES:,}" in detail


@settings(derandomize=True, max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                ["XMR", "240", "XMR    4 ", "240 Z 00", "XMR    1 PLAYER    p-", "XMR 0000 ", "XMR    3 ENTERED   00"]
            ).flatmap(
                lambda head: st.text(
                    alphabet=st.sampled_from("0123456789 ZHFpab-WITHDRAWNPLAYERTEDx"), max_size=24
                ).map(lambda tail: head + tail)
            ),
        ),
        max_size=6,
    )
)
def test_any_extension_or_bye_lines_are_read_or_refused_with_a_line_never_a_crash(extra):
    try:
        imported([*FOUR, *extra])
    except trf.TrfError as refused:
        assert refused.extra["line"] >= 1 and refused.extra["column"] >= 1


def test_withdrawals_past_the_byes_limit_are_written_by_their_own_records_alone_and_read_back():
    lines = withdrawn_field(110, 99)  # 110 x 98 = 10,780 byes: more than a file may declare
    lines = [line for line in lines if not line.startswith("240")]
    lines += [f"XMR {n:4d} WITHDRAWN 001" for n in range(1, 111)]
    t = imported(lines)
    text = trf.write(t, {key: result_of_forfeit(f) for key, f in t.forfeits.items()})
    assert "\r\n240 " not in text
    again = replay("t-trf", enumerate(trf.import_events(trf.parse(text), created_from(text)), start=1))
    assert [e.withdrawn_after for e in again.entrants] == [1] * 110


def test_the_command_line_imports_the_same_file_once(tmp_path):
    db, source = tmp_path / "cli.sqlite3", tmp_path / "in.trf"
    source.write_text("\n".join([*FOUR, "XMR 0000 RATED", "XMR    4 WITHDRAWN 001"]) + "\n")
    runner = CliRunner()
    args = ["tournament", "import-trf", str(source), "--variant", "qelat", "--db", str(db)]
    first, again = runner.invoke(main, args), runner.invoke(main, args)
    assert first.exit_code == again.exit_code == 0, again.output
    assert first.stdout.strip() == again.stdout.strip()
    assert "made that tournament before" in again.stderr and not first.stderr


def test_a_link_to_a_merged_registry_player_imports_as_the_survivor_with_the_registry_entries(app, client):
    original_id = rated_swiss_with_a_withdrawal(client)
    exported = export(client, original_id)
    linked = client.get(f"/api/tournaments/{original_id}").get_json()["players"][0]["player_id"]
    admin = bearer(ADMIN_TOKEN)
    survivor = client.post(
        "/api/players", json={"name": "Abeba Tesfay", "federation": "ERI", "force": True}, headers=admin
    )
    assert survivor.status_code == 201, survivor.get_json()
    merged = client.post(f"/api/players/{linked}/merge", json={"into": survivor.get_json()["id"]}, headers=admin)
    assert merged.status_code == 201, merged.get_json()
    copy = post_trf(client, exported).get_json()
    assert copy["players"][0]["player_id"] == survivor.get_json()["id"]
    assert app.extensions["tournaments"].check_entries() == []


def test_a_registry_link_for_each_of_9999_players_is_read_in_time_linear_in_their_number():
    """A file of 584 KiB, under the API's body limit: comparing each link with every one
    before it took 2.5 s."""
    lines = ["012 Big Open", "142 5", *(record(n, f"Player {n}", "") for n in range(1, 10_000))]
    lines += [f"XMR {n:4d} PLAYER    p-{n:012x}" for n in range(1, 10_000)]
    text = "\n".join(lines)
    started = time.perf_counter()
    events = trf.import_events(trf.parse(text), created_from(text))
    took = time.perf_counter() - started
    assert events[-1].player_id == f"p-{9999:012x}"
    assert took < 1.5, took
