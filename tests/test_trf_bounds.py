"""A TRF is held to the limits the API holds a tournament to (recorder/tournaments/trf.py):
a forbidden-pairs group (260) of 2 to 50 different players and a bounded number of
forbidden pairs in all, at most 99 rounds, ratings to 4000, numbers in ASCII digits,
calendar dates, and names as every name is taken (recorder/core/names.py). Each refusal
is a 422 naming the line and column, and stores nothing. With the largest input allowed,
the pairing checker (GET /api/tournaments/{id}/check) stays quick.

One 260 line of 24,000 entries (a 120 KiB file) once made the anonymous check take 15 s,
four times the entries costing fifteen times the time, and stalled every other request."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tournament_trf import SMALL, record  # the TRF-2026 record layout and a small tournament, written once
from tournament_support import ADMIN_TOKEN, bearer, make_app

from recorder.tournaments import MAX_FORBIDDEN_GROUP, MAX_FORBIDDEN_PAIRS, MAX_ROUNDS, trf
from recorder.tournaments.check import check_tournament
from recorder.tournaments.events import TournamentCreated
from recorder.tournaments.fold import ForbiddenGroup, replay
from recorder.tournaments.results import result_of_forfeit


def forbidden(first: int, last: int, players) -> str:
    return f"260 {first:03d} {last:03d} " + " ".join(f"{p:4d}" for p in players)


def imported(text: str):
    """The tournament a TRF becomes, folded from its events."""
    parsed = trf.parse(text)
    fields = trf.creation_fields(parsed)
    created = TournamentCreated(variant="qelat", options={}, format="swiss", tiebreaks=[], **fields)
    t = replay("t-trf", enumerate(trf.import_events(parsed, created), start=1))
    return t, {key: result_of_forfeit(forfeit) for key, forfeit in t.forfeits.items()}


def refused_at(text: str) -> tuple[int, int, str]:
    with pytest.raises(trf.TrfError) as refused:
        imported(text)
    return refused.value.extra["line"], refused.value.extra["column"], refused.value.detail


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    app.extensions["recorder"].store.close()


@pytest.fixture
def client(app):
    return app.test_client()


def post_trf(client, text: str):
    headers = {"Content-Type": "text/plain", **bearer(ADMIN_TOKEN)}
    return client.post("/api/tournaments/trf?variant=qelat", data=text.encode(), headers=headers)


# -------------------------------------------------------------------- forbidden pairs (260)


def test_a_forbidden_pairs_line_of_24000_entries_is_a_422_naming_the_line_and_stores_nothing(client):
    attack = SMALL + forbidden(1, 3, [(i % 3) + 1 for i in range(24_000)]) + "\n"
    assert len(attack.encode()) > 120_000
    started = time.perf_counter()
    response = post_trf(client, attack)
    took = time.perf_counter() - started
    problem = response.get_json()
    assert response.status_code == 422 and response.mimetype == "application/problem+json", problem
    assert problem["line"] == 6 and "line 6" in problem["detail"], problem
    assert client.get("/api/tournaments").get_json()["tournaments"] == []
    assert took < 2, took


def test_a_forbidden_group_naming_a_player_twice_is_refused_at_the_second_mention():
    line, column, detail = refused_at(SMALL + forbidden(1, 3, [1, 3, 1]) + "\n")
    assert (line, column) == (6, 23) and "player 1 twice" in detail


def test_a_forbidden_group_of_more_than_fifty_players_is_refused():
    players = [record(n, f"Player {n}", "", "") for n in range(1, MAX_FORBIDDEN_GROUP + 2)]
    text = "\n".join(["012 Big Open", "142 5", *players, forbidden(1, 5, range(1, MAX_FORBIDDEN_GROUP + 2))])
    line, column, detail = refused_at(text)
    assert (line, column) == (MAX_FORBIDDEN_GROUP + 4, 13 + 5 * MAX_FORBIDDEN_GROUP)
    assert f"at most {MAX_FORBIDDEN_GROUP} players" in detail
    assert imported(text.rsplit(" ", 1)[0])[0].forbidden[0].players == tuple(range(1, MAX_FORBIDDEN_GROUP + 1))


def test_forbidden_pairs_past_the_limit_are_refused_at_the_line_that_passes_it():
    players = [record(n, f"Player {n}", "", "") for n in range(1, 101)]
    group = 1225  # pairs in a group of 50
    lines = [forbidden(1, 5, range(1 + g % 51, 51 + g % 51)) for g in range(MAX_FORBIDDEN_PAIRS // group + 1)]
    text = "\n".join(["012 Big Open", "142 5", *players, *lines])
    line, column, detail = refused_at(text)
    assert (line, column) == (102 + len(lines), 13) and f"{MAX_FORBIDDEN_PAIRS:,}" in detail
    t, _ = imported("\n".join(text.split("\n")[:-1]))
    assert len(t.forbidden) == len(lines) - 1


def test_the_api_holds_a_tournament_to_the_same_forbidden_pairs_limit(client):
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    body = {"name": "Big Open", "variant": "qelat", "format": "swiss", "rounds": 5}
    tid = client.post("/api/tournaments", json=body, headers=admin).get_json()["id"]
    for n in range(1, 52):
        assert client.post(f"/api/tournaments/{tid}/players", json={"name": f"P{n}"}, headers=admin).status_code == 201
    group = {"players": list(range(1, 51))}
    for _ in range(MAX_FORBIDDEN_PAIRS // 1225):
        assert client.post(f"/api/tournaments/{tid}/forbidden-pairs", json=group, headers=admin).status_code == 201
    response = client.post(f"/api/tournaments/{tid}/forbidden-pairs", json=group, headers=admin)
    problem = response.get_json()
    assert response.status_code == 422 and problem["field"] == "players", problem
    assert f"{MAX_FORBIDDEN_PAIRS:,}" in problem["detail"]


def round_robin_rounds(count: int, rounds: int) -> list[list[tuple[int, int]]]:
    """``rounds`` rounds of the circle method: every pair new, colours alternating."""
    circle = list(range(1, count + 1))
    played = []
    for r in range(rounds):
        pairs = [(circle[i], circle[count - 1 - i]) for i in range(count // 2)]
        played.append([(a, b) if (i + r) % 2 else (b, a) for i, (a, b) in enumerate(pairs)])
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return played


def fifty_player_groups(count: int, rounds: int) -> str:
    """A TRF of ``count`` players and ``rounds`` played (White wins each game), and as many
    groups of 50 as the limit allows, in force from round 1."""
    cells: dict[int, list[str]] = {n: [] for n in range(1, count + 1)}
    for pairs in round_robin_rounds(count, rounds):
        for white, black in pairs:
            cells[white].append(f"{black:4d} w 1")
            cells[black].append(f"{white:4d} b 0")
    points = {n: sum(c.endswith("1") for c in cells[n]) for n in cells}
    players = [record(n, f"Player {n}", str(2400 - n), f"{points[n]:.1f}", *cells[n]) for n in cells]
    groups = [
        forbidden(1, MAX_ROUNDS, [(g * 7 + k) % count + 1 for k in range(MAX_FORBIDDEN_GROUP)])
        for g in range(MAX_FORBIDDEN_PAIRS // 1225)
    ]
    return "\n".join(["012 Big Open", f"142 {MAX_ROUNDS}", *players, *groups]) + "\n"


def timed_check(t, outcomes) -> float:
    started = time.perf_counter()
    checks = check_tournament(t, outcomes)
    assert len(checks) == len(t.rounds)
    return time.perf_counter() - started


def test_the_check_of_a_trf_holding_as_many_forbidden_groups_as_allowed_is_quick(client):
    """The attack's shape at the limit: the small file's three players named again and again,
    now in groups of three different players, as many as the pairs limit allows."""
    groups = [forbidden(1, 3, [1, 2, 3])] * (MAX_FORBIDDEN_PAIRS // 3)
    response = post_trf(client, SMALL + "\n".join(groups) + "\n")
    assert response.status_code == 201, response.get_json()
    started = time.perf_counter()
    checked = client.get(f"/api/tournaments/{response.get_json()['id']}/check")
    took = time.perf_counter() - started
    assert checked.status_code == 200 and len(checked.get_json()["rounds"]) == 2
    assert took < 2, took


def test_the_check_of_fifty_player_groups_up_to_the_limit_is_quick():
    t, outcomes = imported(fifty_player_groups(100, 1))
    assert sum(len(f.players) * (len(f.players) - 1) // 2 for f in t.forbidden) > MAX_FORBIDDEN_PAIRS * 0.95
    took = timed_check(t, outcomes)
    assert took < 2, took


def test_a_group_stored_before_the_limits_costs_the_check_its_length_not_its_square():
    t, outcomes = imported(SMALL)
    stored = ForbiddenGroup(tuple((i % 3) + 1 for i in range(24_000)), 1, 3)  # the attack, imported before
    took = timed_check(replace(t, forbidden=(stored,)), outcomes)
    assert took < 2, took


# -------------------------------------------------------------------- rounds, ratings, numbers, dates


@pytest.mark.parametrize(
    "change, line, column, words",
    [
        (("142 3", f"142 {MAX_ROUNDS + 1}"), 2, 5, f"at most {MAX_ROUNDS}"),
        (("142 3", "142 99999999999999999999"), 2, 5, f"at most {MAX_ROUNDS}"),
        (("142 3", "142 " + "9" * 5000), 2, 5, f"at most {MAX_ROUNDS}"),  # past int()'s 4,300 digits
        (("142 3", "142 3\n260 001 100    1    3"), 3, 9, f"at most {MAX_ROUNDS}"),
        (("1900", "4001"), 3, 49, "4000"),
        (("1900", "19²0"), 3, 49, "whole number"),  # str.isdigit says yes, int() says no
        (("1900", "١٩٠٠"), 3, 49, "whole number"),  # Arabic-Indic digits
        (("142 3", "142 ３"), 2, 5, "whole number"),  # a full-width digit
        (("    1      Abeba", "    ¹      Abeba"), 3, 5, "whole number"),
        (("   2 w 1     3 b =", "   ² w 1     3 b ="), 3, 92, "starting number"),
        ((" 1.5", " １.5"), 3, 81, "11.5"),
        (("142 3", "142 3\n042 2026/02/30"), 3, 5, "a day of the calendar"),
        (("142 3", "142 3\n042 ٢٠٢٦/٠١/٠١"), 3, 5, "YYYY/MM/DD"),
    ],
)
def test_a_number_or_date_the_api_would_refuse_is_refused_naming_line_and_column(change, line, column, words):
    got_line, got_column, detail = refused_at(SMALL.replace(*change, 1))
    assert (got_line, got_column) == (line, column) and words in detail, detail


ODD = ["²", "١", "９", "¹", "\x1b", "\x00", "\u202e", "\u200b", "\u2028", "\ue000", "9" * 30, "0" * 5000]


@settings(derandomize=True, max_examples=400, deadline=None)
@given(at=st.integers(0, len(SMALL)), odd=st.sampled_from(ODD), length=st.integers(0, 3))
def test_odd_digits_or_hidden_characters_anywhere_are_read_or_refused_never_a_crash(at, odd, length):
    """Each column of the small file replaced by odd digits, hidden characters or very long
    numbers: the file is read, or refused with its line and column (never a 500)."""
    text = SMALL[:at] + odd + SMALL[at + length :]
    try:
        imported(text)
    except trf.TrfError as refused:
        assert refused.extra["line"] >= 1 and refused.extra["column"] >= 1


def test_a_player_line_of_more_rounds_than_a_tournament_may_have_is_refused():
    cells = ["0000 - Z"] * (MAX_ROUNDS + 1)
    text = "\n".join(["012 Long Open", record(1, "Abeba", "", "0.0", *cells), record(2, "Berhane", "", "")])
    line, column, detail = refused_at(text)
    assert (line, column) == (2, 92 + 10 * MAX_ROUNDS) and f"at most {MAX_ROUNDS}" in detail


# -------------------------------------------------------------------- names


HIDDEN = ["\x00", "\x07", "\x1b", "\u202e", "\u200b", "\u2028", "\ufeff", "\ue000"]


@pytest.mark.parametrize("char", HIDDEN, ids=[f"U+{ord(c):04X}" for c in HIDDEN])
def test_a_player_name_with_a_hidden_character_is_a_422_naming_the_line_and_stores_nothing(client, char):
    response = post_trf(client, SMALL.replace("Berhane  ", f"Ber{char}hane ", 1))
    problem = response.get_json()
    assert response.status_code == 422 and (problem["line"], problem["column"]) == (4, 15), problem
    assert f"U+{ord(char):04X}" in problem["detail"]
    assert client.get("/api/tournaments").get_json()["tournaments"] == []


@pytest.mark.parametrize(
    "change, line, column",
    [
        (("012 Dessie Open", "012 Dessie\u202e Open"), 1, 5),
        (("012 Dessie Open", "012 " + "D" * 201), 1, 5),
        (("142 3", "142 3\n022 Des\x1bsie"), 3, 5),
        (("1900     ", "1900 E\u200bT"), 3, 54),  # the federation
    ],
)
def test_a_tournament_name_site_or_federation_the_api_would_refuse_is_refused(change, line, column):
    got_line, got_column, detail = refused_at(SMALL.replace(*change, 1))
    assert (got_line, got_column) == (line, column), detail


def test_a_trf_of_ge_ez_and_accented_names_is_imported_as_written(client):
    names = {"Abeba": "ሰላም ተስፋዬ", "Chaltu": "Zoë Ñúñez", "Dessie Open": "ደሴ ዋንጫ"}
    text = SMALL
    for old, new in names.items():  # each name in its 33 columns
        text = text.replace(f"{old:<33}", f"{new:<33}") if old != "Dessie Open" else text.replace(old, new)
    response = post_trf(client, text)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["name"] == "ደሴ ዋንጫ" and [p["name"] for p in body["players"]][::2] == ["ሰላም ተስፋዬ", "Zoë Ñúñez"]
