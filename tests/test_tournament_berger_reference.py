"""Round robins per FIDE C.05 Annex 1, compared with FIDE's own tie-break calculator.

fixtures/berger/reference.json holds the calculator's Berger tables for 3 to 24 players
(fixtures/berger/README.md says how). The calculator plays a double round robin's
second cycle as the first with colours reversed; the Annex further recommends
reversing the order of the last two rounds of the first cycle, which these tests add
on top of the reference. White is south.
"""

import json
from dataclasses import replace
from pathlib import Path

import pytest

from recorder.tournaments.check import DIFFERS, SAME, check_tournament
from recorder.tournaments.decide import decide_create, decide_pair, decide_register
from recorder.tournaments.events import BERGER_ANNEX_1, BERGER_CYCLES, TournamentCreated
from recorder.tournaments.fold import Tournament, apply, start
from recorder.tournaments.pairing import berger_cycle_length, berger_round, round_robin_round
from recorder.tournaments.results import PairingResult

REFERENCE = json.loads((Path(__file__).parent.parent / "fixtures" / "berger" / "reference.json").read_text())
SIZES = range(3, 25)


def as_played(n: int, pairs: list) -> tuple[list[tuple[int, int]], int | None]:
    """A reference round for n players: its boards, and the player who meets the dummy
    (n + 1, odd n only) as the one with the round off."""
    boards, off = [], None
    for white, black in pairs:
        if n % 2 and n + 1 in (white, black):
            off = black if white == n + 1 else white
            continue
        boards.append((white, black))
    return boards, off


def annex_double(n: int) -> list:
    """The reference's double round robin with the first cycle's last two rounds reversed."""
    rounds = list(REFERENCE["tables"][str(n)]["double"])
    cycle = berger_cycle_length(n)
    rounds[cycle - 2], rounds[cycle - 1] = rounds[cycle - 1], rounds[cycle - 2]
    return rounds


def test_c05_annex_1_reference_holds_every_size_from_3_to_24():
    assert sorted(int(n) for n in REFERENCE["tables"]) == list(SIZES)
    assert REFERENCE["commit"] == "7bff9431a0e29ef9819c78cea420bb64a750db27"


@pytest.mark.parametrize("n", SIZES)
def test_c05_annex_1_berger_table_equals_fides_calculator(n):
    single = REFERENCE["tables"][str(n)]["single"]
    assert len(single) == berger_cycle_length(n)
    assert [berger_round(n, r) for r in range(1, len(single) + 1)] == [[tuple(p) for p in pairs] for pairs in single]
    played = [round_robin_round(n, r, double=False) for r in range(1, len(single) + 1)]
    assert played == [as_played(n, pairs) for pairs in single]


@pytest.mark.parametrize("n", SIZES)
def test_c05_annex_1_double_round_robin_reverses_the_first_cycles_last_two_rounds(n):
    expected = [as_played(n, pairs) for pairs in annex_double(n)]
    assert [round_robin_round(n, r, double=True) for r in range(1, len(expected) + 1)] == expected


@pytest.mark.parametrize("n", range(4, 25, 2))
def test_c05_annex_1_double_round_robin_never_seats_a_player_alike_three_rounds_running(n):
    """The Annex's reason for the reversal: no three games in a row in the same seat."""
    seats: dict[int, list[str]] = {p: [] for p in range(1, n + 1)}
    for r in range(1, 2 * berger_cycle_length(n) + 1):
        for south, north in round_robin_round(n, r, double=True)[0]:
            seats[south].append("S")
            seats[north].append("N")
    runs = {p: "".join(s) for p, s in seats.items() if "SSS" in "".join(s) or "NNN" in "".join(s)}
    assert runs == {}


def played_through(n: int, created: TournamentCreated) -> tuple[Tournament, dict]:
    """Every round of a round robin of n players through the pure pipeline (decide ->
    fold), each board a south win: the tournament and its results."""
    t, seq = start("t-berger", created), 1
    for i in range(n):
        for event in decide_register(t, {"name": f"P{i + 1}"}):
            seq += 1
            t = apply(t, event, seq)
    outcomes: dict = {}
    while t.planned_rounds is not None and t.next_round <= t.planned_rounds:
        for event in decide_pair(t, outcomes, {}):
            seq += 1
            t = apply(t, event, seq)
        for board in t.rounds[-1].boards:
            outcomes[(t.rounds[-1].number, board.board)] = PairingResult("south_wins", True)
    return t, outcomes


def paired_double_round_robin(n: int, created: TournamentCreated) -> list[tuple[list, int | None]]:
    t, _ = played_through(n, created)
    return [([b.players() for b in r.boards], next((b.player for b in r.byes), None)) for r in t.rounds]


def double_round_robin(berger_order: str | None) -> TournamentCreated:
    created = decide_create({"name": "T", "variant": "qelat", "format": "double_round_robin"})
    return replace(created, berger_order=berger_order)


def test_c05_annex_1_a_new_double_round_robin_records_and_plays_the_annex_order():
    created = decide_create({"name": "T", "variant": "qelat", "format": "double_round_robin"})
    assert created.berger_order == BERGER_ANNEX_1 and created.payload()["berger_order"] == BERGER_ANNEX_1
    assert paired_double_round_robin(6, created) == [as_played(6, pairs) for pairs in annex_double(6)]


def test_c05_annex_1_a_double_round_robin_stored_before_keeps_the_order_it_began_with():
    """Its creation event has no berger_order: the cycle twice as it stands (the
    calculator's own double), so its next round never repeats one already played."""
    created = replace(
        decide_create({"name": "T", "variant": "qelat", "format": "double_round_robin"}), berger_order=None
    )
    assert "berger_order" not in created.payload()
    assert start("t-old", created).berger_order == BERGER_CYCLES
    reference = REFERENCE["tables"]["5"]["double"]
    assert paired_double_round_robin(5, created) == [as_played(5, pairs) for pairs in reference]


def test_c05_annex_1_a_single_round_robin_records_no_order():
    created = decide_create({"name": "T", "variant": "qelat", "format": "round_robin"})
    assert created.berger_order is None and "berger_order" not in created.payload()


@pytest.mark.parametrize("berger_order", [None, BERGER_ANNEX_1])
def test_c05_annex_1_the_check_finds_each_double_round_robin_paired_by_its_own_order(berger_order):
    t, outcomes = played_through(5, double_round_robin(berger_order))
    checks = check_tournament(t, outcomes)
    assert [c.status for c in checks] == [SAME] * 10
    assert all(c.stored == c.expected and c.stored_bye == c.expected_bye for c in checks)


def test_c05_annex_1_the_check_names_the_rounds_a_table_in_the_other_order_would_pair():
    """Rounds stored by the cycle as it stands, read as if the tournament named the Annex's
    order: the first cycle's last two rounds differ, every pair and the round off named."""
    t, outcomes = played_through(6, double_round_robin(None))
    checks = check_tournament(replace(t, berger_order=BERGER_ANNEX_1), outcomes)
    assert [c.round for c in checks if c.status == DIFFERS] == [4, 5]
    assert all(c.status == SAME for c in checks if c.round not in (4, 5))
    assert "pairs not in the rules' pairing: 1-4, 2-3, 5-6" in checks[3].detail


def test_c05_annex_1_the_check_reads_a_round_robins_round_off_as_its_bye():
    t, outcomes = played_through(5, double_round_robin(BERGER_ANNEX_1))
    first = check_tournament(t, outcomes)[0]
    assert (first.stored_bye, first.expected_bye, first.status) == (1, 1, SAME)
