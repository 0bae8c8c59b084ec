"""A team event from its TRF (pure): the team records (013) and this service's own (XMR
0000 TEAM, XMR 0000 BOARDS) read back into the events of a team round robin.

A team event's file holds its players' records (001) as every file does, then one 013 a
team: the name (columns 5-36) and its players' starting numbers in board order, the
reserves after them (TRF-16's team section, which TRF-2026 keeps). What 013 cannot say
travels in XMR records: each team's registry team, its whole names and how many of its
players are reserves, the boards a match, and each paired round's line-ups (XMR 0000
LINEUP, the boards left empty among them: a board left empty has no game in the file, its
player's round is "0000 - Z"). The rounds must be the Berger table over the teams laid out
from the line-ups (``teams.lineup_round``), board by board, as this service pairs them: a
file whose pairings are another's is refused, naming the player's round. Export, import,
export gives the same file.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from recorder.core.names import name_problem

from .events import BoardResultRecorded, LineupSubmitted, PlayerRegistered, RoundPaired, TeamEntered, TournamentCreated
from .teams import Lineup, default_lineup, empty_json, lineup_problem, lineup_round, rounds_planned
from .trf import TrfError, TrfFile, TrfTeam, board_result, cell_of, registry_links

TEAM_KEYS = {"team_id", "name", "name_geez", "reserves"}
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
    boards = created.team_boards or 0
    check_cycle(trf, len(entered))
    told = told_lineups(trf, entered, boards)
    for r in range(1, trf.played_rounds + 1):
        events += [LineupSubmitted(r, team, list(players)) for (number, team), players in told.items() if number == r]
        lineups = [told.get((r, team.number), default_lineup(team, boards)) for team in entered]
        events += round_events(trf, r, lineups, boards)
    return events


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
    by_number = {p.number: p for p in trf.players}
    seated: set[int] = set()
    events: list = []
    laid = []
    for b in rnd.boards:
        south, north = by_number[b.south], by_number[b.north]
        mine = cell_of(south, r)
        if mine.opponent != b.north or mine.colour != "w":
            raise TrfError(
                south.line,
                mine.column,
                f"round {r}: the Berger table over the teams seats {b.north} against him, he White",
            )
        seated |= {b.south, b.north}
        laid.append({"board": b.board, "south": b.south, "north": b.north})
        result = board_result(mine.code, cell_of(north, r).code)
        if result is not None:
            events.append(BoardResultRecorded(r, b.board, result[0], result[1]))
    for p in trf.players:
        cell = cell_of(p, r)
        if p.number not in seated and (cell.opponent is not None or cell.code not in ("Z", "")):
            raise TrfError(p.line, cell.column, f"round {r}: the Berger table over the teams gives him no game")
    paired = RoundPaired(round=r, method="team_berger", boards=laid, empty=empty_json(empty) or None)
    return [paired, *events]
