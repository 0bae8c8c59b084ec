"""FIDE C.07's tie-breaks (recorder/tournaments/tiebreaks.py) against FIDE's own calculator.

The expected values are the output of the FIDE Technical Commission's tie-break
calculator on the tournaments' TRF files (fixtures/tiebreaks/README.md says how they
were made). Every value of every player of every file is compared: none is chosen."""

import json
from fractions import Fraction

import pytest
from conftest import FIXTURES

from recorder.tournaments import tiebreaks, trf
from recorder.tournaments.events import TournamentCreated
from recorder.tournaments.fold import replay
from recorder.tournaments.results import result_of_forfeit
from recorder.tournaments.standings import cells

REFERENCE = FIXTURES / "tiebreaks"
SWISS = sorted((REFERENCE / "swiss").glob("*.json"))
ROUND_ROBIN = sorted((REFERENCE / "round_robin").glob("*.json"))
RANDOM = sorted((REFERENCE / "random").glob("*.json"))
FORFEITS_PLAYED = sorted((REFERENCE / "forfeits-played").glob("*.json"))  # of the random TRFs
SOURCES = {"swiss": FIXTURES / "pairings", "round_robin": REFERENCE / "round_robin", "random": REFERENCE / "random"}


def imported(text: str, system: str = "swiss"):
    parsed = trf.parse(text)
    fields = trf.creation_fields(parsed)
    created = TournamentCreated(variant="qelat", options={}, format=system, tiebreaks=[], **fields)
    t = replay("t-trf", enumerate(trf.import_events(parsed, created), start=1))
    return t, {key: result_of_forfeit(forfeit) for key, forfeit in t.forfeits.items()}


def reference_code(spec: dict, round_robin: bool = False) -> str:
    """The reference's tie-break as our code: BH/C1, BH/M1, BH/C1/P, ... (a round robin
    counts forfeits as played whether asked or not: the reference marks them so)."""
    forfeits_played = spec["p4f"] and not round_robin and spec["name"] in tiebreaks.FORFEITS_AS_PLAYED
    return tiebreaks.Tiebreak(spec["name"], spec["low"], spec["high"], forfeits_played, spec["vun"]).code


def mismatches(path, source_dir, round_robin: bool) -> tuple[int, list[str]]:
    expected = json.loads(path.read_text())
    t, outcomes = imported((source_dir / f"{path.stem}.trf").read_text())
    codes = [reference_code(spec, round_robin) for spec in expected["tiebreaks"]]
    ratings = {e.number: e.rating for e in t.entrants}
    ours = tiebreaks.values(cells(t, outcomes), ratings, codes, round_robin)
    wrong = []
    compared = 0
    for number, row in expected["players"].items():
        for code, value, mine in zip(codes, row, ours[int(number)], strict=True):
            compared += 1
            if mine != Fraction(str(value)):
                wrong.append(f"{path.stem} player {number} {code}: ours {mine}, reference {value}")
    return compared, wrong


def test_the_swiss_reference_covers_the_whole_pairing_corpus():
    assert [p.stem for p in SWISS] == sorted(p.stem for p in SOURCES["swiss"].glob("*.trf"))


def test_every_swiss_tiebreak_value_equals_fides_calculator_on_the_whole_corpus():
    compared, wrong = 0, []
    for path in SWISS:
        count, found = mismatches(path, SOURCES["swiss"], round_robin=False)
        compared += count
        wrong += found
    assert compared > 0
    assert wrong == [], f"{len(wrong)} of {compared} values differ:\n" + "\n".join(wrong[:40])


def test_the_random_reference_covers_a_hundred_tournaments_each_of_its_files():
    assert len(RANDOM) == 100
    assert [p.stem for p in RANDOM] == sorted(p.stem for p in SOURCES["random"].glob("*.trf"))


def test_every_tiebreak_value_of_a_hundred_random_swiss_tournaments_equals_fides_calculator():
    """8 to 200 players, late entries, withdrawals, byes of every kind, forfeits."""
    compared, wrong = 0, []
    for path in RANDOM:
        count, found = mismatches(path, SOURCES["random"], round_robin=False)
        compared += count
        wrong += found
    assert compared > 0
    assert wrong == [], f"{len(wrong)} of {compared} values differ:\n" + "\n".join(wrong[:40])


def test_direct_encounter_counting_forfeits_as_games_equals_fides_calculator_on_the_random_set():
    assert [p.stem for p in FORFEITS_PLAYED] == [p.stem for p in RANDOM]
    compared, wrong = 0, []
    for path in FORFEITS_PLAYED:
        count, found = mismatches(path, SOURCES["random"], round_robin=False)
        compared += count
        wrong += found
    assert compared > 0
    assert wrong == [], f"{len(wrong)} of {compared} values differ:\n" + "\n".join(wrong[:40])


def test_a_forfeit_between_tied_players_decides_direct_encounter_only_when_forfeits_count():
    path = REFERENCE / "hand" / "forfeit-between-tied.json"
    compared, wrong = mismatches(path, REFERENCE / "hand", round_robin=False)
    assert compared == 12 and wrong == []
    assert json.loads(path.read_text())["players"]["1"] == [1.0, 0, 1]  # DE: not met; DE/P: met, won


def test_the_round_robin_reference_covers_every_round_robin_file():
    assert ROUND_ROBIN and [p.stem for p in ROUND_ROBIN] == sorted(p.stem for p in SOURCES["round_robin"].glob("*.trf"))


def test_every_round_robin_tiebreak_value_equals_fides_calculator_on_every_file():
    compared, wrong = 0, []
    for path in ROUND_ROBIN:
        count, found = mismatches(path, SOURCES["round_robin"], round_robin=True)
        compared += count
        wrong += found
    assert compared > 0
    assert wrong == [], f"{len(wrong)} of {compared} values differ:\n" + "\n".join(wrong[:40])


@pytest.mark.parametrize("code", ["BH/C3", "BH/M3", "XX", "WIN/C1", "SB/M1", "bh", "BH/C0"])
def test_a_code_that_names_no_computed_tiebreak_is_refused(code):
    with pytest.raises(tiebreaks.UnknownTiebreak):
        tiebreaks.parse(code)
