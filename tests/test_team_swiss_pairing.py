"""FIDE's Swiss Team Pairing System (C.04.6, 2026), the pure engine: each test names the
article it pins. Hand-worked positions for the worked example of art. 3.5.4 and for the
bye and colour articles; property tests (hypothesis, derandomized) for the invariants over
random events, and a bracket's pairing held against art. 3.6 read literally: every pairing
enumerated, the fewest unmet colour preferences ([C8]), then the first identifier."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recorder.tournaments.pairing.team_swiss import (
    BLACK,
    NO_PREFERENCES,
    TYPE_A,
    TYPE_B,
    WHITE,
    Bracket,
    NoTeamPairing,
    PairingTeam,
    Team,
    TeamRoundRecord,
    TeamSwissRules,
    allocate,
    first_pairing,
    pair_team_round,
)

BOARDS = 4


def record(opponent: int | None, colour: str | None, mp: int, gp: float = 2.0) -> TeamRoundRecord:
    return TeamRoundRecord(opponent, colour, Fraction(mp), Fraction(gp))


def fresh(teams: int) -> list[PairingTeam]:
    return [PairingTeam(tpn, ()) for tpn in range(1, teams + 1)]


def test_c04_6_art_3_6_and_4_3_1_round_one_pairs_the_top_half_against_the_bottom_half_colours_by_tpn_parity():
    paired = pair_team_round(fresh(12), TeamSwissRules(rounds=5))
    assert paired.matches == ((1, 7), (8, 2), (3, 9), (10, 4), (5, 11), (12, 6)) and paired.bye is None
    flipped = pair_team_round(fresh(12), TeamSwissRules(rounds=5, initial_colour=BLACK))  # art. 4.1: drawn by lot
    assert flipped.matches == ((7, 1), (2, 8), (9, 3), (4, 10), (11, 5), (6, 12))


def test_c04_6_art_3_4_the_bye_goes_to_the_largest_tpn_of_the_lowest_score_and_never_twice():
    assert pair_team_round(fresh(7), TeamSwissRules(rounds=5)).bye == 7  # 3.4.4
    # After round 1 (7 had the bye, 1-4, 5-2, 3-6 won by the first): 2, 4 and 6 score 0.
    history = {
        1: [record(4, WHITE, 2)],
        2: [record(5, BLACK, 0)],
        3: [record(6, WHITE, 2)],
        4: [record(1, BLACK, 0)],
        5: [record(2, WHITE, 2)],
        6: [record(3, BLACK, 0)],
        7: [TeamRoundRecord(None, None, Fraction(1), Fraction(2), bye=True)],
    }
    teams = [PairingTeam(tpn, tuple(h)) for tpn, h in history.items()]
    assert pair_team_round(teams, TeamSwissRules(rounds=5)).bye == 6  # 3.4.2 then 3.4.4
    # A team that won a match by forfeit gets no bye ([C2], art. 2.1.2).
    history[6] = [TeamRoundRecord(3, None, Fraction(2), Fraction(BOARDS), forfeit_win=True)]
    history[3] = [TeamRoundRecord(6, None, Fraction(0), Fraction(0))]
    teams = [PairingTeam(tpn, tuple(h)) for tpn, h in history.items()]
    assert pair_team_round(teams, TeamSwissRules(rounds=5)).bye == 4


def example_3_5_4(eight_met_the_residents: bool) -> list[PairingTeam]:
    """Art. 3.5.4's position: residents 4, 7 and 9 (6 match points) have met one another,
    so each needs an upfloater; 2, 6 and 8 have 5 points, 1, 3 and 5 have 4, 10 none."""
    scores = {4: 6, 7: 6, 9: 6, 2: 5, 6: 5, 8: 5, 1: 4, 3: 4, 5: 4, 10: 0}
    met = {4: [7, 9], 7: [4, 9], 9: [4, 7]}
    if eight_met_the_residents:
        met = {4: [7, 9, 8], 7: [4, 9, 8], 9: [4, 7, 8], 8: [4, 7, 9]}
    teams = []
    for tpn, score in scores.items():
        opponents = (met.get(tpn, []) + [11, 12, 13])[:3]  # 11 to 13: teams gone since, in no bracket
        points = ([2] * (score // 2) + [score % 2] + [0, 0, 0])[:3]
        history = tuple(record(o, (WHITE, BLACK)[i % 2], points[i]) for i, o in enumerate(opponents))
        teams.append(PairingTeam(tpn, history))
    return teams


def upfloaters_of_the_residents(teams: list[PairingTeam]) -> set[int]:
    paired = pair_team_round(teams, TeamSwissRules(rounds=9))
    residents = {4, 7, 9}
    return {team for match in paired.matches if set(match) & residents for team in match} - residents


def test_c04_6_art_3_5_4_worked_example_upfloaters_2_6_1_when_2_6_8_cannot_be_paired():
    assert upfloaters_of_the_residents(example_3_5_4(eight_met_the_residents=True)) == {2, 6, 1}


def test_c04_6_art_2_3_2_c5_takes_the_highest_scoring_upfloaters_when_they_pair():
    assert upfloaters_of_the_residents(example_3_5_4(eight_met_the_residents=False)) == {2, 6, 8}


def test_c04_6_art_2_3_3_c6_chooses_the_upfloater_that_lets_the_next_scoregroup_pair_alone():
    """Team 1 (4 points) needs one upfloater from 2, 3 and 4 (2 points); 3 and 4 have met,
    so taking 2 would leave them a bracket that cannot pair alone: [C6] takes 3."""
    told = {1: ((11, 2), (12, 2)), 2: ((13, 2), (14, 0)), 3: ((4, 2), (15, 0)), 4: ((3, 0), (16, 2))}
    told |= {5: ((17, 0), (18, 0)), 6: ((19, 0), (20, 0))}
    teams = [
        PairingTeam(tpn, tuple(record(o, (WHITE, BLACK)[i], mp) for i, (o, mp) in enumerate(rounds)))
        for tpn, rounds in told.items()
    ]
    paired = pair_team_round(teams, TeamSwissRules(rounds=9))
    assert next(set(m) - {1} for m in paired.matches if 1 in m) == {3}
    assert {frozenset(m) for m in paired.matches} >= {frozenset((2, 4))}


def test_c04_6_art_2_3_4_c7_passes_over_an_upfloater_that_floated_last_round_but_in_the_last_two_rounds():
    """Team 1 (4 points) needs one upfloater from 2 to 5 (2 points); 2 and 5 met in round 2
    on different scores, so both floated: [C7] takes 3, except in the last two rounds."""
    told = {1: ((11, 2), (12, 2)), 2: ((13, 2), (5, 0)), 5: ((14, 0), (2, 2))}
    told |= {3: ((15, 2), (16, 0)), 4: ((17, 0), (18, 2))}
    told |= {6: ((19, 0), (20, 0)), 7: ((21, 0), (22, 0)), 8: ((23, 0), (24, 0))}
    teams = [
        PairingTeam(tpn, tuple(record(o, (WHITE, BLACK)[i], mp) for i, (o, mp) in enumerate(rounds)))
        for tpn, rounds in sorted(told.items())
    ]

    def upfloater(rounds: int) -> set[int]:
        paired = pair_team_round(teams, TeamSwissRules(rounds=rounds))
        return next(set(m) - {1} for m in paired.matches if 1 in m)

    assert upfloater(9) == {3}
    assert upfloater(3) == {2}  # round 3 of 3: [C7] does not apply


def test_c04_6_art_2_3_7_c10_gives_the_upfloater_an_opponent_that_did_not_float_but_in_the_last_two_rounds():
    """Residents 1, 2 and 3 (4 points) and upfloater 4 (2 points): the first identifier,
    1-3 2-4, meets 4 with team 2, which floated in round 2; [C10] takes 1-4 2-3 instead."""
    told = {1: ((11, 2), (12, 2)), 2: ((13, 2), (6, 2)), 3: ((14, 2), (15, 2)), 4: ((16, 2), (17, 0))}
    told |= {5: ((18, 0), (19, 0)), 6: ((20, 0), (2, 0))}
    teams = [
        PairingTeam(tpn, tuple(record(o, (WHITE, BLACK)[i], mp) for i, (o, mp) in enumerate(rounds)))
        for tpn, rounds in sorted(told.items())
    ]

    def opponent_of_4(rounds: int) -> set[int]:
        paired = pair_team_round(teams, TeamSwissRules(rounds=rounds))
        return next(set(m) - {4} for m in paired.matches if 4 in m)

    assert opponent_of_4(9) == {1}
    assert opponent_of_4(3) == {2}  # round 3 of 3: [C10] does not apply


def team(tpn: int, colours: str, primary: int = 0) -> Team:
    played = tuple(None if c == "-" else c for c in colours)
    return Team(tpn, Fraction(primary), Fraction(0), frozenset(), played, sum(c != "-" for c in colours), False, False)


def test_c04_6_art_1_7_2_and_4_3_4_type_b_mild_preferences_and_a_strong_one_over_a_mild_one():
    def b(tpn: int, colours: str, primary: int = 0, last_round: bool = False) -> Team:
        return replace(team(tpn, colours, primary), kind=TYPE_B, last_round=last_round)

    assert b(1, "W").preference == BLACK and b(1, "W").strong is None  # mild: a difference of +1
    assert b(2, "WB").preference == WHITE and b(2, "WB", last_round=True).preference is None  # 0 after a Black
    assert b(3, "BB").strong == WHITE  # as type A's
    assert allocate(b(1, "W", 2), b(2, "WW"), WHITE)[0].tpn == 1  # 4.3.4: 2's strong Black over 1's mild one
    assert replace(team(1, "BB"), kind=NO_PREFERENCES).preference is None  # art. 1.7: none at all


def test_c04_6_art_1_7_1_and_4_3_type_a_preferences_then_colour_difference_then_alternation():
    def white(a: Team, b: Team) -> int:
        return allocate(a, b, WHITE)[0].tpn

    assert team(1, "BB").preference == WHITE and team(2, "WBW").preference is None  # 1.7.1
    assert team(3, "WWB").preference is None and team(4, "BWW").preference == BLACK
    assert white(team(1, "WW", 2), team(2, "WB")) == 2  # 4.3.2: the one preference granted
    assert white(team(1, "WB", 2), team(2, "BW")) == 1  # 4.3.6: alternate from the last round they differed
    assert white(team(1, "WB-W", 2), team(2, "BW-B")) == 2  # 4.3.5: the lower colour difference White
    assert white(team(1, "W", 2), team(2, "-")) == 2 and white(team(1, "-", 2), team(2, "W")) == 1  # 4.3.5
    assert white(team(1, "-W", 2), team(2, "W-")) == 2  # 4.3.8: the first team's last colour alternated
    assert white(team(1, "--", 2), team(2, "WB")) == 2  # 4.3.9: the other team's last colour alternated


# --------------------------------------------------------------------------- properties


def preference(colours: list[str]) -> str | None:
    """Art. 1.7.1 (type A), written here again from the text."""
    difference = colours.count(WHITE) - colours.count(BLACK)
    if difference < -1 or (difference in (0, -1) and colours[-2:] == [BLACK, BLACK]):
        return WHITE
    if difference > 1 or (difference in (0, 1) and colours[-2:] == [WHITE, WHITE]):
        return BLACK
    return None


def mild_preference(colours: list[str], last_round: bool) -> str | None:
    """Art. 1.7.2's mild preferences (type B), written here again from the text."""
    difference = colours.count(WHITE) - colours.count(BLACK)
    if difference == -1 or (difference == 0 and not last_round and colours[-1:] == [BLACK]):
        return WHITE
    if difference == 1 or (difference == 0 and not last_round and colours[-1:] == [WHITE]):
        return BLACK
    return None


def play_event(teams: int, rounds: int, seed: int) -> list:
    """An event paired round by round by the engine, results drawn at random (a whole match
    forfeited now and then); each round's pairing with the colours each team had before it."""
    draw = random.Random(seed)
    history: dict[int, list[TeamRoundRecord]] = {tpn: [] for tpn in range(1, teams + 1)}
    log = []
    for _ in range(rounds):
        before = {tpn: [r.colour for r in h if r.colour is not None] for tpn, h in history.items()}
        scores = {tpn: (sum(r.match_points for r in h), sum(r.game_points for r in h)) for tpn, h in history.items()}
        try:
            paired = pair_team_round([PairingTeam(t, tuple(h)) for t, h in history.items()], TeamSwissRules(rounds))
        except NoTeamPairing:  # art. 3.3.3: a Swiss can run out of pairings; then none exists
            assert not perfectly_pairable(list(history), history) or teams % 2
            break
        log.append((paired, before, scores, {t: list(h) for t, h in history.items()}))
        for white, black in paired.matches:
            forfeited = draw.random() < 0.1
            mine = Fraction(draw.randint(0, 2 * BOARDS), 2)
            mp = 2 if mine > BOARDS - mine else 1 if mine == BOARDS - mine else 0
            history[white].append(
                TeamRoundRecord(
                    black, None if forfeited else WHITE, Fraction(mp), mine, forfeit_win=forfeited and mp == 2
                )
            )
            history[black].append(
                TeamRoundRecord(
                    white,
                    None if forfeited else BLACK,
                    Fraction(2 - mp),
                    BOARDS - mine,
                    forfeit_win=forfeited and mp == 0,
                )
            )
        if paired.bye is not None:
            history[paired.bye].append(TeamRoundRecord(None, None, Fraction(1), Fraction(BOARDS, 2), bye=True))
    return log


events = st.integers(min_value=4, max_value=13).flatmap(
    lambda teams: st.tuples(
        st.just(teams), st.integers(min_value=1, max_value=min(teams - 1, 6)), st.integers(0, 10_000)
    )
)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(events)
def test_c04_6_art_2_1_no_two_teams_meet_twice_and_no_team_has_the_bye_twice_or_after_a_forfeit_win(event):
    teams, rounds, seed = event
    met: set[frozenset[int]] = set()
    barred: set[int] = set()
    for paired, _, _, history in play_event(teams, rounds, seed):
        pairs = {frozenset(m) for m in paired.matches}
        assert len(pairs) == len(paired.matches) and not pairs & met  # [C1]
        met |= pairs
        seated = [t for m in paired.matches for t in m] + ([paired.bye] if paired.bye else [])
        assert sorted(seated) == list(range(1, teams + 1))  # [C3]: every team paired, the bye if odd
        assert (paired.bye is not None) == (teams % 2 == 1)
        assert paired.bye not in barred  # [C2]
        barred |= {t for t, h in history.items() if any(r.bye or r.forfeit_win for r in h)}
        if paired.bye is not None:
            barred.add(paired.bye)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(events)
def test_c04_6_art_3_4_2_the_bye_goes_to_a_lowest_scoring_team_that_may_have_it(event):
    teams, rounds, seed = event
    for paired, _, scores, history in play_event(teams, rounds, seed):
        if paired.bye is None:
            continue
        eligible = [t for t, h in history.items() if not any(r.bye or r.forfeit_win for r in h)]
        lower = [t for t in eligible if scores[t][0] < scores[paired.bye][0]]
        for candidate in lower:  # a lower-scoring team passed over only when the others could not then be paired
            others = [t for t in range(1, teams + 1) if t != candidate]
            assert not perfectly_pairable(others, history)


def perfectly_pairable(teams: list[int], history: dict) -> bool:
    if not teams:
        return True
    head, rest = teams[0], teams[1:]
    met = {r.opponent for r in history[head]}
    return any(o not in met and perfectly_pairable([t for t in rest if t != o], history) for o in rest)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(events)
def test_c04_6_art_4_3_1_to_4_3_3_colours_grant_the_first_round_parity_and_every_preference_that_can_be(event):
    teams, rounds, seed = event
    for paired, colours, scores, _ in play_event(teams, rounds, seed):
        for white, black in paired.matches:
            wants = {t: preference(colours[t]) for t in (white, black)}
            if not colours[white] and not colours[black]:  # 4.3.1: the first team's TPN parity
                first = min((white, black), key=lambda t: (-scores[t][0], -scores[t][1], t))  # art. 4.2
                assert (first == white) == (first % 2 == 1)
            elif None in wants.values() and set(wants.values()) != {None}:  # 4.3.2: the one preference
                assert wants[white] in (WHITE, None) and wants[black] in (BLACK, None)
            elif wants[white] is not None and wants[white] != wants[black]:  # 4.3.3: both granted
                assert wants[white] == WHITE and wants[black] == BLACK


def identifier(pairs: list[tuple[int, int]]) -> tuple[int, ...]:
    """Art. 3.6.2: the top members' TPNs ascending, then their opponents' in that order."""
    ordered = sorted((min(p), max(p)) for p in pairs)
    return tuple(top for top, _ in ordered) + tuple(bottom for _, bottom in ordered)


def every_pairing(tpns: list[int]) -> list[list[tuple[int, int]]]:
    if not tpns:
        return [[]]
    head, rest = tpns[0], tpns[1:]
    return [[(head, o), *more] for o in rest for more in every_pairing([t for t in rest if t != o])]


brackets = st.integers(min_value=1, max_value=4).flatmap(
    lambda half: st.tuples(
        st.lists(st.text(alphabet="WB-", max_size=5), min_size=2 * half, max_size=2 * half),
        st.sets(st.tuples(st.integers(1, 2 * half), st.integers(1, 2 * half)), max_size=2 * half),
    )
)


@pytest.mark.parametrize("kind", [TYPE_A, TYPE_B, NO_PREFERENCES])
@settings(derandomize=True, max_examples=150, deadline=None)
@given(bracket=brackets, last_round=st.booleans())
def test_c04_6_art_3_6_a_brackets_pairing_is_the_first_identifier_of_the_fewest_unmet_preferences(
    kind, bracket, last_round
):
    """Every pairing enumerated: the fewest unmet preferences ([C8]), then (type B) unmet
    strong ones ([C9]), then the first identifier."""
    histories, meetings = bracket
    size = len(histories)
    met = {frozenset(m) for m in meetings if m[0] != m[1]}
    teams = [
        Team(
            tpn,
            Fraction(0),
            Fraction(0),
            frozenset(o for m in met if tpn in m for o in m if o != tpn),
            tuple(None if c == "-" else c for c in histories[tpn - 1]),
            sum(c != "-" for c in histories[tpn - 1]),
            False,
            False,
            kind,
            last_round,
        )
        for tpn in range(1, size + 1)
    ]
    legal = [p for p in every_pairing(list(range(1, size + 1))) if not {frozenset(x) for x in p} & met]
    played = {t.tpn: [c for c in t.colours if c] for t in teams}
    strong = {t: preference(c) if kind != NO_PREFERENCES else None for t, c in played.items()}
    mild = {t: mild_preference(c, last_round) if kind == TYPE_B else None for t, c in played.items()}
    wants = {t: strong[t] or mild[t] for t in played}

    def unmet(pairing: list[tuple[int, int]]) -> tuple[int, int]:
        """[C8]: two teams wanting one colour leave one unmet; [C9]: a strong one, when both
        are strong (4.3.4 grants a strong one over a mild one)."""
        same = [(a, b) for a, b in pairing if wants[a] is not None and wants[a] == wants[b]]
        return len(same), sum(1 for a, b in same if strong[a] and strong[b])

    if not legal:
        return
    fewest = min(unmet(p) for p in legal)
    expected = min(identifier(p) for p in legal if unmet(p) == fewest)
    found = first_pairing(Bracket(teams, Fraction(0), WHITE, late=True))
    assert identifier([(a.tpn, b.tpn) for a, b in found]) == expected


def test_c04_6_art_3_3_3_a_round_no_pairing_can_complete_is_refused():
    history = {1: [record(2, WHITE, 2)], 2: [record(1, BLACK, 0)]}
    teams = [PairingTeam(tpn, tuple(h)) for tpn, h in history.items()]
    try:
        pair_team_round(teams, TeamSwissRules(rounds=2))
    except ValueError as error:
        assert "C.04.6" in str(error)
    else:
        raise AssertionError("two teams that have met were paired again")


def test_every_bracket_of_a_round_is_paired_inside_its_scoregroups_where_it_can():
    """Round 2 of eight teams, four winners and four losers: no upfloater is needed."""
    history = {won: [record(lost, WHITE, 2)] for won, lost in ((1, 5), (6, 2), (3, 7), (8, 4))}
    history |= {lost: [record(won, BLACK, 0)] for won, lost in ((1, 5), (6, 2), (3, 7), (8, 4))}
    teams = [PairingTeam(tpn, tuple(history[tpn])) for tpn in range(1, 9)]
    paired = pair_team_round(teams, TeamSwissRules(rounds=5))
    winners = {1, 6, 3, 8}
    assert all(set(m) <= winners or not set(m) & winners for m in paired.matches)
    assert {frozenset(m) for m in paired.matches if set(m) <= winners} == {frozenset((1, 6)), frozenset((3, 8))}
