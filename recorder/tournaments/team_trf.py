"""A team event from its TRF (pure): the team records (013) and this service's own (XMR
0000 TEAM, XMR 0000 BOARDS, XMR 0000 FORMAT) read back into the events of a team round
robin or, when XMR 0000 FORMAT says so, of a team Swiss.

A team event's file holds its players' records (001) as every file does, then one 013 a
team: the name (columns 5-36) and its players' starting numbers in board order, the
reserves after them (TRF-16's team section, which TRF-2026 keeps). What 013 cannot say
travels in XMR records: each team's registry team, its whole names and how many of its
players are reserves, and the boards a match. The rounds must be the Berger table over
the teams (``teams.team_round``), board by board, as this service pairs them: a file whose
pairings are another's is refused, naming the player's round. A team Swiss's rounds are the
file's own matches (each named by the team whose board 1 player has White, its players
seated by board order with alternating seats, as ``teams.match_boards`` lays them out),
listed as C.04.6 lists them (``pairing/team_swiss.py``: by their first team's score), a team
with no match having the round's bye; ``GET …/check`` then holds them against C.04.6.
Export, import, export gives the same file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from fractions import Fraction

from recorder.core.names import name_problem

from . import MAX_ROUNDS, TEAM_ROUND_ROBIN, TEAM_SWISS
from .events import BoardResultRecorded, PlayerRegistered, RoundPaired, TeamEntered, TournamentCreated
from .teams import (
    MATCH_DRAW,
    POINTS,
    PRIMARY_SCORES,
    TeamBoard,
    TeamMatch,
    TeamRound,
    match_boards,
    match_points,
    match_score,
    rounds_planned,
    team_round,
)
from .trf import TrfError, TrfFile, TrfTeam, board_result, cell_of, registry_links

TEAM_KEYS = {"team_id", "name", "name_geez", "reserves"}
FORMAT_KEYS = {"format", "rounds", "team_primary_score"}
# The registry's team id (recorder.teams.TEAM_ID), which the tournaments package sits below.
TEAM_ID = re.compile(r"tm-[0-9a-f]{1,64}")


def team_import_events(
    trf: TrfFile, created: TournamentCreated, survivor: Callable[[str], str | None] = lambda player_id: player_id
) -> list:
    """The events of a team round robin holding the file's players, teams and rounds."""
    links = registry_links(trf, survivor)
    entered = entered_teams(trf, created.team_boards or 0)
    events: list = [created]
    events += [
        PlayerRegistered(p.number, p.name, p.federation or None, p.rating, links.get(p.number)) for p in trf.players
    ]
    events += entered
    if created.format == TEAM_SWISS:
        return events + swiss_rounds(trf, entered, created)
    rosters = [team.players for team in entered]
    check_cycle(trf, len(entered))
    for r in range(1, trf.played_rounds + 1):
        events += round_events(trf, r, rosters, created.team_boards or 0)
    return events


def told_format(trf: TrfFile) -> dict:
    """XMR 0000 FORMAT, checked: a team Swiss's format, rounds and primary score. A file
    without it is a team round robin's."""
    if trf.team_format is None:
        return {"format": TEAM_ROUND_ROBIN, "rounds": None, "team_primary_score": None}
    line, told = trf.team_format
    if not isinstance(told, dict) or set(told) != FORMAT_KEYS or told["format"] != TEAM_SWISS:
        raise TrfError(line, 20, f"a team Swiss's format record holds {', '.join(sorted(FORMAT_KEYS))}")
    rounds = told["rounds"]
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise TrfError(line, 20, f"a team Swiss plays 1 to {MAX_ROUNDS} rounds")
    if told["team_primary_score"] not in PRIMARY_SCORES:
        raise TrfError(line, 20, f"the primary score is one of {', '.join(PRIMARY_SCORES)}")
    if rounds < trf.played_rounds:
        raise TrfError(line, 20, f"the file has {trf.played_rounds} rounds played, past the {rounds} it plans")
    return told


def swiss_rounds(trf: TrfFile, entered: list[TeamEntered], created: TournamentCreated) -> list:
    """Every round of a team Swiss as the file pairs it, and its results."""
    boards = created.team_boards or 0
    primary = created.team_primary_score or PRIMARY_SCORES[0]
    totals = {team.number: (Fraction(0), Fraction(0)) for team in entered}  # (primary, secondary)
    events: list = []
    for r in range(1, trf.played_rounds + 1):
        matches = file_matches(trf, r, entered)
        matches.sort(key=lambda m: min((-totals[t][0], -totals[t][1], t) for t in m))
        laid = swiss_round_events(trf, r, entered, matches, boards)
        events += laid
        add_scores(totals, r, matches, laid, boards, primary)
    return events


def check_cycle(trf: TrfFile, teams: int) -> None:
    """No round past the Berger cycle over the teams: the first player with one is named."""
    cycle = rounds_planned(teams)
    for p in trf.players:
        if len(p.rounds) > cycle and any(c.opponent is not None or c.code not in ("Z", "") for c in p.rounds[cycle:]):
            late = next(c for c in p.rounds[cycle:] if c.opponent is not None or c.code not in ("Z", ""))
            raise TrfError(p.line, late.column, f"{teams} teams play {cycle} rounds, one Berger cycle")


def boards_of(trf: TrfFile) -> int:
    """The boards a match (XMR 0000 BOARDS), which a team event's file must say."""
    if trf.team_boards is None:
        raise TrfError(trf.teams[0].line, 1, f"a team event's file says its boards a match (XMR 0000 {'BOARDS'})")
    return trf.team_boards[1]


def entered_teams(trf: TrfFile, boards: int) -> list[TeamEntered]:
    """Each 013 with its XMR 0000 TEAM record (the same order), checked: every player in one
    team at most, enough players for the boards."""
    if len(trf.team_records) != len(trf.teams):
        line = trf.teams[min(len(trf.teams), len(trf.team_records))].line if trf.teams else trf.team_records[-1][0]
        raise TrfError(line, 1, "each team record (013) has its XMR 0000 TEAM record, in the same order")
    seen: set[int] = set()
    entered = []
    for number, (team, (line, told)) in enumerate(zip(trf.teams, trf.team_records, strict=True), start=1):
        check_members(trf, team, seen)
        reserves = told_reserves(line, told, team)
        players, spare = (
            list(team.members[: len(team.members) - reserves]),
            list(team.members[len(team.members) - reserves :]),
        )
        if len(players) < boards:
            raise TrfError(team.line, 5, f"{team.name} has {len(players)} players for {boards} boards")
        entered.append(TeamEntered(number, told["team_id"], told["name"], told["name_geez"], players, spare))
    return entered


def check_members(trf: TrfFile, team: TrfTeam, seen: set[int]) -> None:
    for place, member in enumerate(team.members):
        column = 37 + 5 * place
        if member > len(trf.players):
            raise TrfError(team.line, column, f"no player {member} in the file")
        if member in seen:
            raise TrfError(team.line, column, f"player {member} plays for one team")
        seen.add(member)


def told_reserves(line: int, told: object, team: TrfTeam) -> int:
    """The reserves a team's XMR 0000 TEAM record counts, its fields as this service writes them."""
    if not isinstance(told, dict) or set(told) != TEAM_KEYS:
        raise TrfError(line, 20, f"a team's record holds {', '.join(sorted(TEAM_KEYS))}")
    if not isinstance(told["team_id"], str) or not TEAM_ID.fullmatch(told["team_id"]):
        raise TrfError(line, 20, "a registry team's id is tm- and hex digits")
    for key in ("name", "name_geez"):  # names as every name is taken, at every way in
        problem = name_problem(told[key])
        if problem is not None:
            raise TrfError(line, 20, f"the team's {key}: {problem}")
    reserves = told["reserves"]
    if isinstance(reserves, bool) or not isinstance(reserves, int) or not 0 <= reserves < len(team.members):
        raise TrfError(line, 20, f"a team of {len(team.members)} has 0 to {len(team.members) - 1} reserves")
    return reserves


def round_events(trf: TrfFile, r: int, rosters: list, boards: int) -> list:
    """Round r as the Berger table over the teams lays it out, each board as the file has it
    (White South), and the results the file gives; anyone else has no game in the round."""
    rnd = team_round(rosters, r, boards)
    return seated_round(trf, r, rnd.boards, "team_berger", "the Berger table over the teams")


def seated_round(trf: TrfFile, r: int, boards: Sequence[TeamBoard], method: str, pairing: str) -> list:
    """The round's boards as ``pairing`` lays them out, each as the file has it (White
    South), and the results the file gives; anyone else has no game in the round."""
    by_number = {p.number: p for p in trf.players}
    seated: set[int] = set()
    results: list = []
    laid = []
    for b in boards:
        south, north = by_number[b.south], by_number[b.north]
        mine = cell_of(south, r)
        if mine.opponent != b.north or mine.colour != "w":
            raise TrfError(south.line, mine.column, f"round {r}: {pairing} seats {b.north} against him, he White")
        seated |= {b.south, b.north}
        laid.append({"board": b.board, "south": b.south, "north": b.north})
        result = board_result(mine.code, cell_of(north, r).code)
        if result is not None:
            results.append(BoardResultRecorded(r, b.board, result[0], result[1]))
    for p in trf.players:
        cell = cell_of(p, r)
        if p.number not in seated and (cell.opponent is not None or cell.code not in ("Z", "")):
            raise TrfError(p.line, cell.column, f"round {r}: {pairing} gives him no game")
    return [RoundPaired(round=r, method=method, boards=laid), *results]


def file_matches(trf: TrfFile, r: int, entered: list[TeamEntered]) -> list[tuple[int, int]]:
    """(the team with White, the other) of each match of round r, named by the board 1
    players: the one with White names his team's match (C.04.6 art. 1.6)."""
    by_number = {p.number: p for p in trf.players}
    leads = {team.players[0]: team.number for team in entered}
    matches = []
    for team in entered:
        lead = by_number[team.players[0]]
        cell = cell_of(lead, r)
        if cell.opponent is None or cell.colour != "w":
            continue
        if cell.opponent not in leads:
            raise TrfError(lead.line, cell.column, f"round {r}: a team's board 1 player meets another team's board 1")
        matches.append((team.number, leads[cell.opponent]))
    return matches


def swiss_round_events(trf: TrfFile, r: int, entered: list[TeamEntered], matches: list, boards: int) -> list:
    rosters = {team.number: team.players for team in entered}
    laid = [
        b
        for m, (white, black) in enumerate(matches, 1)
        for b in match_boards(m, rosters[white], rosters[black], boards)
    ]
    return seated_round(trf, r, laid, TEAM_SWISS, "the file's team matches")


def add_scores(totals: dict, r: int, matches: list, events: list, boards: int, primary: str) -> None:
    """Each team's (primary, secondary) score after round r: its matches' match and game
    points, the bye's a drawn match (C.04.6 art. 1.4)."""
    laid = tuple(
        b for m, (white, black) in enumerate(matches, 1) for b in match_boards(m, [0] * boards, [0] * boards, boards)
    )
    rnd = TeamRound(r, tuple(TeamMatch(m, *pair) for m, pair in enumerate(matches, 1)), laid, None)
    points = {e.board: POINTS[e.result] for e in events if isinstance(e, BoardResultRecorded)}
    scored: dict[int, tuple[Fraction, Fraction]] = {}
    for match in rnd.matches:
        score = match_score(rnd, match, points)
        if score is not None:
            scored[match.first] = (Fraction(match_points(*score)), score[0])
            scored[match.second] = (Fraction(match_points(score[1], score[0])), score[1])
    playing = {team for pair in matches for team in pair}
    for team in totals:
        if team not in playing:
            scored[team] = (Fraction(MATCH_DRAW), Fraction(boards, 2))
    for team, (mp, gp) in scored.items():
        gained = (mp, gp) if primary == PRIMARY_SCORES[0] else (gp, mp)
        totals[team] = (totals[team][0] + gained[0], totals[team][1] + gained[1])
