"""A tournament's list of C.07 tie-breaks in its standings: the values FIDE's calculator
gives (fixtures/tiebreaks), and the order they make, beside the six of this service."""

import json
from fractions import Fraction

from test_tiebreaks_reference import RANDOM, ROUND_ROBIN, SOURCES, SWISS, reference_code
from tournament_support import Organiser, make_app

from recorder.tournaments import FIDE_TIEBREAKS, tiebreaks, trf
from recorder.tournaments.events import TournamentCreated
from recorder.tournaments.fold import replay
from recorder.tournaments.results import outcome_of_forfeit
from recorder.tournaments.standings import standings

LIST = ["DE", "BH/C1", "BH", "SB", "WIN", "KS", "ARO"]  # DE first: right after the points, as in the fixtures


def imported_with(text: str, system: str, chosen: list[str]):
    parsed = trf.parse(text)
    fields = trf.creation_fields(parsed)
    created = TournamentCreated(variant="qelat", options={}, format=system, tiebreaks=chosen, **fields)
    t = replay("t-trf", enumerate(trf.import_events(parsed, created), start=1))
    return t, {key: outcome_of_forfeit(forfeit) for key, forfeit in t.forfeits.items()}


def reference_values(path) -> dict[int, dict[str, Fraction]]:
    expected = json.loads(path.read_text())
    codes = [reference_code(spec) for spec in expected["tiebreaks"]]
    return {
        int(n): dict(zip(codes, (Fraction(str(v)) for v in row), strict=True)) for n, row in expected["players"].items()
    }


def test_every_fide_code_a_tournament_may_choose_is_computed():
    assert [tiebreaks.parse(code).code for code in FIDE_TIEBREAKS] == list(FIDE_TIEBREAKS)


def test_standings_show_the_reference_values_of_a_chosen_fide_list_and_rank_by_them():
    checked = 0
    sets = [(SWISS, "swiss", "swiss"), (RANDOM, "random", "swiss"), (ROUND_ROBIN, "round_robin", "round_robin")]
    for paths, source, system in sets:
        for path in paths:
            t, outcomes = imported_with((SOURCES[source] / f"{path.stem}.trf").read_text(), system, LIST)
            want = reference_values(path)
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
