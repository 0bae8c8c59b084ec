"""A team event from its TRF (pure): the team records (013) and this service's own (XMR
0000 TEAM, XMR 0000 BOARDS, XMR 0000 LINEUP, XMR 0000 FORMAT) read back into the events of
a team round robin or, when XMR 0000 FORMAT says so, of a team Swiss.

A team event's file holds its players' records (001) as every file does, then one 013 a
team: the name (columns 5-36) and its players' starting numbers in board order, the
reserves after them (TRF-16's team section, which TRF-2026 keeps). What 013 cannot say
travels in XMR records: each team's registry team, its whole names and how many of its
players are reserves, the boards a match, and each paired round's line-ups (XMR 0000
LINEUP, the boards left empty among them: a board left empty has no game in the file, its
player's round is "0000 - Z"). The rounds must be the Berger table over the teams laid out
from the line-ups (``teams.lineup_round``), board by board, as this service pairs them: a
file whose pairings are another's is refused, naming the player's round. A team Swiss's
rounds are the file's own matches (each named by the team whose first player of its
line-up has White, its boards laid out from the line-ups as ``teams.matches_laid_out`` lays
them), listed as C.04.6 lists them (``pairing/team_swiss.py``: by their first team's score),
a team with no match having the round's bye; ``GET …/check`` then holds them against
C.04.6. Export, import, export gives the same file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from fractions import Fraction

from recorder.core.names import name_problem

from . import MAX_ROUNDS, TEAM_ROUND_ROBIN, TEAM_SWISS
from .events import BoardResultRecorded, EntrantRegistered, LineupSubmitted, RoundPaired, TeamEntered, TournamentCreated
from .fold import EmptyBoard
from .pairing.team_swiss import NO_PREFERENCES, TYPE_B
from .teams import (
    MATCH_DRAW,
    POINTS,
    PRIMARY_SCORES,
    Lineup,
    TeamBoard,
    TeamRound,
    default_lineup,
    empty_json,
    lineup_problem,
    lineup_round,
    match_points,
    match_score,
    matches_laid_out,
    rounds_planned,
)
from .trf import TrfError, TrfFile, TrfTeam, board_result, cell_of, registry_links

TEAM_KEYS = {"team_id", "name", "name_geez", "reserves"}
FORMAT_KEYS = {"format", "rounds", "team_primary_score"}
OPTIONAL_FORMAT_KEYS = {"team_colour_preferences"}  # type_b or none; absent, type A
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
        EntrantRegistered(p.number, p.name, p.federation or None, p.rating, links.get(p.number)) for p in trf.players
    ]
    events += entered
    boards = created.team_boards or 0
    swiss = created.format == TEAM_SWISS
    if not swiss:
        check_cycle(trf, len(entered))
    told = told_lineups(trf, entered, boards)
    primary = created.team_primary_score or PRIMARY_SCORES[0]
    totals = {team.number: (Fraction(0), Fraction(0)) for team in entered}  # a team Swiss's (primary, secondary)
    for r in range(1, trf.played_rounds + 1):
        events += [LineupSubmitted(r, team, list(players)) for (number, team), players in told.items() if number == r]
        lineups = [told.get((r, team.number), default_lineup(team, boards)) for team in entered]
        events += (
            swiss_round_events(trf, r, lineups, boards, totals, primary)
            if swiss
            else round_events(trf, r, lineups, boards)
        )
    return events


def told_format(trf: TrfFile) -> dict:
    """XMR 0000 FORMAT, checked: a team Swiss's format, rounds and primary score. A file
    without it is a team round robin's."""
    if trf.team_format is None:
        return {"format": TEAM_ROUND_ROBIN, "rounds": None, "team_primary_score": None}
    line, told = trf.team_format
    if not isinstance(told, dict) or not FORMAT_KEYS <= set(told) <= FORMAT_KEYS | OPTIONAL_FORMAT_KEYS:
        raise TrfError(line, 20, f"a team Swiss's format record holds {', '.join(sorted(FORMAT_KEYS))}")
    if told["format"] != TEAM_SWISS:
        raise TrfError(line, 20, f"a team Swiss's format record holds {', '.join(sorted(FORMAT_KEYS))}")
    rounds = told["rounds"]
    if not whole_number(rounds) or not 1 <= rounds <= MAX_ROUNDS:
        raise TrfError(line, 20, f"a team Swiss plays 1 to {MAX_ROUNDS} rounds")
    if told["team_primary_score"] not in PRIMARY_SCORES:
        raise TrfError(line, 20, f"the primary score is one of {', '.join(PRIMARY_SCORES)}")
    if told.get("team_colour_preferences", NO_PREFERENCES) not in (TYPE_B, NO_PREFERENCES):
        raise TrfError(line, 20, "a team Swiss's colour preferences are type_b or none (absent: type_a)")
    if rounds < trf.played_rounds:
        raise TrfError(line, 20, f"the file has {trf.played_rounds} rounds played, past the {rounds} it plans")
    return told


LINEUP_KEYS = {"round", "team", "players"}


def told_lineups(trf: TrfFile, entered: list[TeamEntered], boards: int) -> dict[tuple[int, int], Lineup]:
    """(round, team) -> the line-up each XMR 0000 LINEUP record gives, checked as the API
    checks a line-up handed in: a paired round's, once, in the team's fixed order."""
    found: dict[tuple[int, int], Lineup] = {}
    for line, told in trf.team_lineups:
        if not isinstance(told, dict) or set(told) != LINEUP_KEYS:
            raise TrfError(line, 20, f"a line-up's record holds {', '.join(sorted(LINEUP_KEYS))}")
        r, team, players = told["round"], told["team"], told["players"]
        if not whole_number(r) or not 1 <= r <= trf.played_rounds:
            raise TrfError(line, 20, f"a line-up's round is a paired one, 1 to {trf.played_rounds}")
        if not whole_number(team) or not 1 <= team <= len(entered) or (r, team) in found:
            raise TrfError(line, 20, f"a line-up's team is 1 to {len(entered)}, once a round")
        if not isinstance(players, list) or not all(p is None or whole_number(p) for p in players):
            raise TrfError(line, 20, "a line-up's players are starting numbers or null")
        members = entered[team - 1]
        problem = lineup_problem([*members.players, *members.reserves], players, boards)
        if problem is not None:
            raise TrfError(line, 20, f"team {team}'s line-up for round {r}: {problem}")
        found[(r, team)] = tuple(players)
    return found


def whole_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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


def round_events(trf: TrfFile, r: int, lineups: list[Lineup], boards: int) -> list:
    """Round r as the Berger table over the teams lays it out from the line-ups (a team
    without one fielding its first boards), each board as the file has it (White South), and
    the results the file gives; anyone else, a board left empty's player too, has no game."""
    rnd, empty = lineup_round(lineups, r, boards)
    return seated_round(trf, rnd, empty, "team_berger", "the Berger table over the teams")


def seated_round(trf: TrfFile, rnd: TeamRound, empty: list[EmptyBoard], method: str, pairing: str) -> list:
    """The round's boards as ``pairing`` lays them out, each as the file has it (White
    South), and the results the file gives; anyone else, a board left empty's player too,
    has no game."""
    r = rnd.number
    by_number = {p.number: p for p in trf.players}
    seated: set[int] = set()
    events: list = []
    laid = []
    for b in rnd.boards:
        south, north = by_number[b.south], by_number[b.north]
        mine = cell_of(south, r)
        if mine.opponent != b.north or mine.colour != "w":
            raise TrfError(south.line, mine.column, f"round {r}: {pairing} seats {b.north} against him, he White")
        seated |= {b.south, b.north}
        laid.append({"board": b.board, "south": b.south, "north": b.north})
        result = board_result(mine.code, cell_of(north, r).code)
        if result is not None:
            events.append(BoardResultRecorded(r, b.board, result[0], result[1]))
    for p in trf.players:
        cell = cell_of(p, r)
        if p.number not in seated and (cell.opponent is not None or cell.code not in ("Z", "")):
            raise TrfError(p.line, cell.column, f"round {r}: {pairing} gives him no game")
    paired = RoundPaired(round=r, method=method, boards=laid, empty=empty_json(empty) or None)
    return [paired, *events]


def file_matches(trf: TrfFile, r: int, lineups: Sequence[Lineup]) -> list[tuple[int, int]]:
    """(the team with White, the other) of each match of round r, named by the teams' first
    players of their line-ups: the one with White names his team's match (C.04.6 art. 1.6)."""
    by_number = {p.number: p for p in trf.players}
    leads = {lineup[0]: team for team, lineup in enumerate(lineups, start=1) if lineup and lineup[0] is not None}
    matches = []
    for lead, team in leads.items():
        cell = cell_of(by_number[lead], r)
        if cell.opponent is None or cell.colour != "w":
            continue
        if cell.opponent not in leads:
            raise TrfError(
                by_number[lead].line, cell.column, f"round {r}: a team's board 1 meets another team's board 1"
            )
        matches.append((team, leads[cell.opponent]))
    return matches


def swiss_round_events(
    trf: TrfFile, r: int, lineups: list[Lineup], boards: int, totals: dict[int, tuple[Fraction, Fraction]], primary: str
) -> list:
    """Round r of a team Swiss as the file pairs it, its matches listed by their first team's
    score before the round (``totals``, then brought up to date)."""
    matches = file_matches(trf, r, lineups)
    matches.sort(key=lambda pair: min((-totals[t][0], -totals[t][1], t) for t in pair))
    playing = {team for pair in matches for team in pair}
    off = next((team for team in totals if team not in playing), None)
    rnd, empty = matches_laid_out(r, matches, lineups, boards, off)
    events = seated_round(trf, rnd, empty, TEAM_SWISS, "the file's team matches")
    add_scores(totals, rnd, empty, events, boards, primary)
    return events


def add_scores(
    totals: dict[int, tuple[Fraction, Fraction]],
    rnd: TeamRound,
    empty: list[EmptyBoard],
    events: list,
    boards: int,
    primary: str,
) -> None:
    """Each team's (primary, secondary) score after the round: its match's match and game
    points (an empty board's forfeit among them), the bye's a drawn match (C.04.6 art. 1.4)."""
    points = {e.board: POINTS[e.result] for e in events if isinstance(e, BoardResultRecorded)}
    points.update({e.board: POINTS[e.result] for e in empty})
    every = rnd.boards + tuple(
        TeamBoard(e.board, (e.board - 1) // boards + 1, (e.board - 1) % boards + 1, 0, 0) for e in empty
    )
    scored: dict[int, tuple[Fraction, Fraction]] = {}
    for match in rnd.matches:
        score = match_score(TeamRound(rnd.number, rnd.matches, every, rnd.off), match, points)
        if score is not None:
            scored[match.first] = (Fraction(match_points(*score)), score[0])
            scored[match.second] = (Fraction(match_points(score[1], score[0])), score[1])
    if rnd.off is not None:
        scored[rnd.off] = (Fraction(MATCH_DRAW), Fraction(boards, 2))
    for team, (mp, gp) in scored.items():
        gained = (mp, gp) if primary == PRIMARY_SCORES[0] else (gp, mp)
        totals[team] = (totals[team][0] + gained[0], totals[team][1] + gained[1])
