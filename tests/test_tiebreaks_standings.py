"""A tournament's list of C.07 tie-breaks in its standings: the values FIDE's calculator
gives (fixtures/tiebreaks), and the order they make, beside the six of this service."""

import json
from fractions import Fraction

from test_tiebreaks_reference import RANDOM, ROUND_ROBIN, SOURCES, SWISS, reference_code
from tournament_support import Organiser, make_app

from recorder.tournaments import FIDE_TIEBREAKS, tiebreaks, trf
from recorder.tournaments.events import (
    BoardResultRecorded,
    EntrantRegistered,
    RoundPaired,
    TournamentCreated,
    TournamentEvent,
)
from recorder.tournaments.fold import replay
from recorder.tournaments.pairing import round_robin_round
from recorder.tournaments.results import result_of_forfeit
from recorder.tournaments.standings import standings

LIST = ["DE", "BH/C1", "BH", "SB", "WIN", "KS", "ARO"]  # DE first: right after the points, as in the fixtures


def imported_with(text: str, system: str, chosen: list[str]):
    parsed = trf.parse(text)
    fields = trf.creation_fields(parsed)
    created = TournamentCreated(variant="qelat", options={}, format=system, tiebreaks=chosen, **fields)
    t = replay("t-trf", enumerate(trf.import_events(parsed, created), start=1))
    return t, {key: result_of_forfeit(forfeit) for key, forfeit in t.forfeits.items()}


def reference_values(path, round_robin: bool) -> dict[int, dict[str, Fraction]]:
    """Each player's reference value by code; of a code given twice, the first."""
    expected = json.loads(path.read_text())
    codes = [reference_code(spec, round_robin) for spec in expected["tiebreaks"]]
    return {
        int(n): {code: Fraction(str(v)) for code, v in reversed(list(zip(codes, row, strict=True)))}
        for n, row in expected["players"].items()
    }


def test_every_fide_code_a_tournament_may_choose_is_computed():
    assert [tiebreaks.parse(code).code for code in FIDE_TIEBREAKS] == list(FIDE_TIEBREAKS)


def test_standings_show_the_reference_values_of_a_chosen_fide_list_and_rank_by_them():
    checked = 0
    sets = [(SWISS, "swiss", "swiss"), (RANDOM, "random", "swiss"), (ROUND_ROBIN, "round_robin", "round_robin")]
    for paths, source, system in sets:
        for path in paths:
            t, outcomes = imported_with((SOURCES[source] / f"{path.stem}.trf").read_text(), system, LIST)
            want = reference_values(path, system == "round_robin")
            ranked = standings(t, outcomes)
            for s in ranked:
                assert s.points == want[s.number]["PTS"]
                assert {code: s.tiebreaks[code] for code in LIST} == {code: want[s.number][code] for code in LIST}
                checked += 1
            keys = [(s.points, *(-v if c == "DE" else v for c, v in s.tiebreaks.items())) for s in ranked]
            assert keys == sorted(keys, reverse=True), path.stem
            for (a, ka), (b, kb) in zip(zip(ranked, keys), zip(ranked[1:], keys[1:]), strict=False):
                assert (a.rank == b.rank) == (ka == kb), path.stem
    assert checked == 4646 + 10024 + 140


def test_a_tournament_names_fide_codes_beside_the_six_of_this_service(tmp_path):
    organiser = Organiser(make_app(tmp_path).test_client())
    chosen = ["BH/C1", "buchholz", "DE", "SB", "wins", "ARO/C1"]
    created = organiser.create(name="Axum Open", variant="qelat", format="swiss", rounds=3, tiebreaks=chosen)
    assert created["tiebreaks"] == chosen
    organiser.add_players(created["id"], ("Abeba", 1900), ("Berhane", 1800), ("Chaltu", 1700), ("Dawit", None))
    organiser.pair(created["id"])
    table = organiser.standings(created["id"])["standings"]
    assert [list(s["tiebreaks"]) for s in table] == [chosen] * 4


def all_drawn_round_robin(tournament_id: str, chosen: list[str]):
    """Four players, every game drawn: tied on every tie-break there is."""
    events: list[TournamentEvent] = [
        TournamentCreated(name="Lalibela", variant="qelat", options={}, format="round_robin", tiebreaks=chosen)
    ]
    events += [EntrantRegistered(n, f"Player {n}") for n in range(1, 5)]
    for r in range(1, 4):
        boards, _ = round_robin_round(4, r, double=False)
        events.append(
            RoundPaired(r, "berger", [{"board": b, "south": s, "north": n} for b, (s, n) in enumerate(boards, 1)])
        )
        events += [BoardResultRecorded(r, b, "draw", "played") for b in range(1, len(boards) + 1)]
    t = replay(tournament_id, enumerate(events, start=1))
    return t, {key: result_of_forfeit(forfeit) for key, forfeit in t.forfeits.items()}


def test_the_drawing_of_lots_ends_every_tie_the_same_way_on_every_reading():
    t, outcomes = all_drawn_round_robin("t-lalibela0001", ["DE", "SB", "LOTS"])
    first = [(s.rank, s.number) for s in standings(t, outcomes)]
    assert [rank for rank, _ in first] == [1, 2, 3, 4]
    assert [(s.rank, s.number) for s in standings(t, outcomes)] == first
    other, _ = all_drawn_round_robin("t-lalibela0002", ["DE", "SB", "LOTS"])
    assert [s.number for s in standings(other, outcomes)] != [n for _, n in first]  # seeded by the tournament


def test_without_the_drawing_of_lots_players_tied_on_the_whole_list_share_a_place():
    t, outcomes = all_drawn_round_robin("t-lalibela0001", ["DE", "SB", "WIN", "KS"])
    assert [(s.rank, s.number) for s in standings(t, outcomes)] == [(1, 1), (1, 2), (1, 3), (1, 4)]
