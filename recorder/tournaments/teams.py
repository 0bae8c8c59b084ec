"""Team round robins, pure: the Berger table over teams, each team match's boards laid
out by board order with alternating seats, and the team standings by match and game points.

- The teams meet by FIDE's Berger tables (C.05 Annex 1, ``pairing/berger.py``), a team
  taking a player's place: the team the table names first is the first-named team of the
  match. An odd number of teams adds a dummy, and the team that meets it has the round off.
- A match is played on ``boards`` boards, each team fielding its roster in board order
  (board 1 its first player, as the Olympiad Pairing Rules fix the order of the players
  before the event, D.II.02 art. 4-5). The first-named team sits South, the seat that moves
  first and plays the role of White, on the odd boards and North on the even ones, so each
  team has as many first moves as the other within one; the team's colour in the match is
  its board 1 player's, as FIDE's Team Pairing System defines it (C.04.6, art. 1.6).
- A match is won by the team with more game points than the other (2 match points), drawn
  when level (1 each), lost otherwise (0): the Olympiad's scoring. The standings rank by
  match points, then game points (or the other way round when the event says game points
  come first, as C.04.6 allows), then the team's number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from recorder.errors import AlreadyExists, InvalidRecord, NotFound

from . import TEAM_FORMATS, TEAM_ROUND_ROBIN, TEAM_SWISS
from .events import EntrantRegistered, LineupSubmitted, RoundPaired, TeamEntered
from .fold import EmptyBoard, Tournament
from .pairing.berger import berger_cycle_length, berger_round

MATCH_WIN, MATCH_DRAW, MATCH_LOSS = 2, 1, 0
PRIMARY_SCORES = ("match_points", "game_points")


@dataclass(frozen=True)
class TeamBoard:
    """One board of a team match: ``board`` numbers it in the round (match by match, board 1
    of the first match first); ``south`` and ``north`` are the players' entrant numbers."""

    board: int
    match: int  # the match's place in the round, 1 the first
    board_in_match: int  # its place in the match's board order, 1 the first
    south: int
    north: int


@dataclass(frozen=True)
class TeamMatch:
    match: int
    first: int  # the first-named team: South on the odd boards
    second: int


@dataclass(frozen=True)
class TeamRound:
    number: int
    matches: tuple[TeamMatch, ...]
    boards: tuple[TeamBoard, ...]
    off: int | None  # the team with the round off (an odd number of teams)


@dataclass(frozen=True)
class TeamStanding:
    rank: int
    team: int
    match_points: int
    game_points: Fraction
    played: int
    tiebreaks: Mapping[str, Fraction] = field(default_factory=dict)  # C.07's team tie-breaks (team_tiebreaks.py)


def rounds_planned(teams: int) -> int:
    """One Berger cycle: n - 1 rounds for n teams (n when n is odd)."""
    return berger_cycle_length(teams)


def team_round(rosters: Sequence[Sequence[int]], round_number: int, boards: int) -> TeamRound:
    """Round ``round_number`` of the team round robin: ``rosters[i]`` is team i + 1's
    players (entrant numbers) in board order, at least ``boards`` of them, each team
    fielding its first boards."""
    short = [i + 1 for i, roster in enumerate(rosters) if len(roster) < boards]
    if short:
        raise ValueError(f"team {short[0]} has fewer than {boards} players")
    rnd, _ = lineup_round([tuple(roster[:boards]) for roster in rosters], round_number, boards)
    return rnd


def match_score(
    rnd: TeamRound, match: TeamMatch, points: Mapping[int, tuple[Fraction, Fraction]]
) -> tuple[Fraction, Fraction] | None:
    """(first's game points, second's), or None while a board of it has no result.
    ``points``: board -> (South's points, North's)."""
    first_points, second_points = Fraction(0), Fraction(0)
    for board in (b for b in rnd.boards if b.match == match.match):
        if board.board not in points:
            return None
        south, north = points[board.board]
        first_south = board.board_in_match % 2 == 1
        first_points += south if first_south else north
        second_points += north if first_south else south
    return first_points, second_points


def match_points(mine: Fraction, theirs: Fraction) -> int:
    if mine > theirs:
        return MATCH_WIN
    return MATCH_DRAW if mine == theirs else MATCH_LOSS


def team_standings(
    teams: int,
    rounds: Sequence[TeamRound],
    points: Mapping[tuple[int, int], tuple[Fraction, Fraction]],
    primary: str = "match_points",
    bye: tuple[int, Fraction] = (0, Fraction(0)),
) -> list[TeamStanding]:
    """Every team's match points and game points over the matches whose boards all have a
    result. ``points``: (round, board) -> (South's points, North's); ``bye``: the match and
    game points of the round off (a team Swiss's pairing-allocated bye; nothing in a round robin)."""
    if primary not in PRIMARY_SCORES:
        raise ValueError(f"the primary score is one of {', '.join(PRIMARY_SCORES)}")
    mp = dict.fromkeys(range(1, teams + 1), 0)
    gp = {team: Fraction(0) for team in mp}
    played = dict.fromkeys(mp, 0)
    for rnd in rounds:
        board_points = {board: pair for (number, board), pair in points.items() if number == rnd.number}
        if rnd.off is not None:
            mp[rnd.off] += bye[0]
            gp[rnd.off] += bye[1]
        for match in rnd.matches:
            score = match_score(rnd, match, board_points)
            if score is None:
                continue
            for team, mine, theirs in ((match.first, *score), (match.second, score[1], score[0])):
                mp[team] += match_points(mine, theirs)
                gp[team] += mine
                played[team] += 1

    def order(team: int) -> tuple:
        scores = (mp[team], gp[team]) if primary == "match_points" else (gp[team], mp[team])
        return (-scores[0], -scores[1], team)

    ranked = sorted(mp, key=order)
    standings, rank = [], 0
    for place, team in enumerate(ranked, start=1):
        shares = place > 1 and order(team)[:2] == order(ranked[place - 2])[:2]
        rank = rank if shares else place
        standings.append(TeamStanding(rank, team, mp[team], gp[team], played[team]))
    return standings


# --------------------------------------------------------------------------- a team event's record

MAX_BOARDS = 20
NOBODY = 0  # an empty board's empty seat in a TeamBoard: no entrant has the number, as TRF's 0000
POINTS = {
    "south_wins": (Fraction(1), Fraction(0)),
    "north_wins": (Fraction(0), Fraction(1)),
    "draw": (Fraction(1, 2), Fraction(1, 2)),
    "double_forfeit": (Fraction(0), Fraction(0)),
}


def checked_boards(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_BOARDS:
        raise InvalidRecord(f"a team event's boards a match are 1 to {MAX_BOARDS}", field="team_boards")
    return value


def decide_enter_team(t: Tournament, team: dict) -> list:
    """A registry team entered: its players and reserves registered as entrants (board
    order first), then ``team_entered`` naming them. ``team``: the team as the registry
    reads now, its members ``{player_id, name, federation}``."""
    if t.format not in TEAM_FORMATS:
        raise InvalidRecord("only a team event enters teams", field="team_id")
    if t.rounds:
        raise InvalidRecord("a team event's teams are fixed once round 1 is paired", field="team_id")
    if any(entered.team_id == team["team_id"] for entered in t.teams):
        raise AlreadyExists(f"team {team['team_id']} is already entered", field="team_id")
    boards = t.team_boards or 0
    if len(team["players"]) < boards:
        raise InvalidRecord(f"{team['name']} has {len(team['players'])} players for {boards} boards", field="team_id")
    members = [*team["players"], *team["reserves"]]
    taken = {e.player_id for e in t.entrants if e.player_id} & {m["player_id"] for m in members}
    if taken:
        raise AlreadyExists(f"registry player {sorted(taken)[0]} is entered with another team", field="team_id")
    first = len(t.entrants) + 1
    events: list = [
        EntrantRegistered(first + i, m["name"], m["federation"], None, m["player_id"]) for i, m in enumerate(members)
    ]
    numbers = list(range(first, first + len(members)))
    split = len(team["players"])
    entered = TeamEntered(
        len(t.teams) + 1, team["team_id"], team["name"], team["name_geez"], numbers[:split], numbers[split:]
    )
    return events + [entered]


def decide_team_pair(t: Tournament) -> list[RoundPaired]:
    """The next round of the Berger table over the teams, each match's boards laid out from
    the teams' line-ups (a team without one fields its first boards), a board left empty
    stored apart: no game is played on it."""
    if len(t.teams) < 2:
        raise InvalidRecord("a team round robin needs two teams or more", field="round")
    rnd, empty = lineup_round(round_lineups(t, t.next_round), t.next_round, t.team_boards or 0)
    boards = [{"board": b.board, "south": b.south, "north": b.north} for b in rnd.boards]
    return [RoundPaired(round=rnd.number, method="team_berger", boards=boards, empty=empty_json(empty) or None)]


def team_of(t: Tournament) -> dict[int, int]:
    """Entrant number -> his team's number."""
    return {number: entered.number for entered in t.teams for number in (*entered.players, *entered.reserves)}


def stored_round(t: Tournament, number: int) -> TeamRound:
    """A paired round as stored, read back as team matches: board k of match m is board
    (m - 1) * boards + k, the first-named team South on its board 1. A board left empty is
    among them, its empty seat NOBODY, so that its forfeit counts in the match."""
    boards, teams = t.team_boards or 1, team_of(t)
    stored = t.rounds[number - 1]
    seats = {b.board: (b.south, b.north, teams[b.south], teams[b.north]) for b in stored.boards}
    seats.update({e.board: (e.south or NOBODY, e.north or NOBODY, *e.teams) for e in stored.empty})
    laid = tuple(
        TeamBoard(board, (board - 1) // boards + 1, (board - 1) % boards + 1, south, north)
        for board, (south, north, _, _) in sorted(seats.items())
    )
    matches = tuple(TeamMatch(b.match, *seats[b.board][2:]) for b in laid if b.board_in_match == 1)
    playing = {team for match in matches for team in (match.first, match.second)}
    off = next((entered.number for entered in t.teams if entered.number not in playing), None)
    return TeamRound(number, matches, laid, off)


def board_points(t: Tournament, outcomes: Mapping) -> dict[tuple[int, int], tuple[Fraction, Fraction]]:
    """(round, board) -> (South's game points, North's): the boards' results known now
    (``outcomes``, as every standing reads them) and every empty board's forfeit."""
    points = {key: POINTS[outcome.result] for key, outcome in outcomes.items()}
    points.update({(rnd.number, e.board): POINTS[e.result] for rnd in t.rounds for e in rnd.empty})
    return points


def standings_of(t: Tournament, outcomes: Mapping) -> list[TeamStanding]:
    """The team standings from the boards' results known now (``outcomes``: (round, board)
    -> a result with ``.result``, as every standing reads them)."""
    rounds = [stored_round(t, rnd.number) for rnd in t.rounds]
    points = board_points(t, outcomes)
    if t.format == TEAM_SWISS:  # C.04.6 art. 1.2 and 1.4: the primary score, the bye a drawn match
        bye = (MATCH_DRAW, Fraction(t.team_boards or 0, 2))
        return team_standings(len(t.teams), rounds, points, t.team_primary_score or PRIMARY_SCORES[0], bye)
    return team_standings(len(t.teams), rounds, points)


def standings_json(t: Tournament, standings: Sequence[TeamStanding]) -> list[dict]:
    """The team standings as the API and the command line give them."""
    named = {entered.number: entered for entered in t.teams}
    return [
        {
            "rank": s.rank,
            "team": {
                "number": s.team,
                "id": named[s.team].team_id,
                "name": named[s.team].name,
                "name_geez": named[s.team].name_geez,
            },
            "match_points": s.match_points,
            "game_points": float(s.game_points),
            "played": s.played,
            "tiebreaks": {code: float(value) for code, value in s.tiebreaks.items()},
        }
        for s in standings
    ]


# --------------------------------------------------------------------------- line-ups
#
# The Olympiad's rules (FIDE D.II.02 art. 5; the ECU's Tournament Rules B.12.3, which
# spell them out): the board order is fixed before the event, and before each round the
# captain hands in the players who take part in it. They play in the fixed order, the
# reserves after the board players, so a reserve fills a board by the others moving up, and
# a board left empty is a last one ("teams missing a player play boards 1, 2 and 3"). A
# team that hands in no line-up fields its first boards; its players are then its board
# players alone (B.12.3.3: no line-up, no reserves).

Lineup = tuple[int | None, ...]


def default_lineup(entered: TeamEntered, boards: int) -> Lineup:
    return tuple(entered.players[:boards])


def round_lineups(t: Tournament, round_number: int) -> list[Lineup]:
    """Each team's line-up for the round, team 1 first: the last handed in, else its first boards."""
    boards = t.team_boards or 0
    return [t.lineups.get((round_number, e.number), default_lineup(e, boards)) for e in t.teams]


def lineup_problem(order: Sequence[int], players: Sequence[int | None], boards: int) -> str | None:
    """What in a line-up breaks the rules above, or None. ``order``: the team's members in
    its fixed order, the board players then the reserves."""
    if len(players) != boards:
        return f"a line-up names a player, or null for an empty board, for each of the {boards} boards"
    seated = [p for p in players if p is not None]
    if None in players[: len(seated)]:
        return "an empty board is a last board: the players below it move up"
    strangers = [p for p in seated if p not in order]
    if strangers:
        return f"player {strangers[0]} is not one of the team's players or reserves"
    if len(set(seated)) != len(seated):
        return "a player plays one board"
    places = [order.index(p) for p in seated]
    if places != sorted(places):
        return "a line-up keeps the team's fixed board order, its reserves after its board players"
    return None


def decide_lineup(t: Tournament, round_number: int, team: int, players: list) -> list[LineupSubmitted]:
    """A team's line-up for the next round, accepted until that round is paired (the
    deadline: the pairing lays the boards out from the line-ups it finds)."""
    if t.format not in TEAM_FORMATS:
        raise InvalidRecord("only a team event takes line-ups", field="team")
    if t.finished_explicitly:
        raise InvalidRecord("the event is finished: it pairs no more rounds", field="round")
    if round_number <= len(t.rounds):
        raise InvalidRecord(f"round {round_number} is paired: its line-ups were due before", field="round")
    planned = t.planned_rounds
    if planned is not None and round_number > planned:
        cycle = ", one Berger cycle over its teams" if t.format == TEAM_ROUND_ROBIN else ""
        raise InvalidRecord(f"the event has {planned} rounds{cycle}", field="round")
    if round_number != t.next_round:
        raise InvalidRecord(f"a line-up is handed in for the next round, {t.next_round}", field="round")
    entered = next((e for e in t.teams if e.number == team), None)
    if entered is None:
        raise InvalidRecord(f"no team {team} in this event", field="team")
    problem = lineup_problem([*entered.players, *entered.reserves], players, t.team_boards or 0)
    if problem is not None:
        raise InvalidRecord(problem, field="players")
    return [LineupSubmitted(round_number, team, list(players))]


def check_team_of(t: Tournament, number: int) -> TeamEntered:
    """Team ``number`` of a team event (InvalidRecord: not a team event; NotFound: no such team)."""
    if t.format not in TEAM_FORMATS:
        raise InvalidRecord("only a team event has teams and their captains", field="team")
    entered = next((e for e in t.teams if e.number == number), None)
    if entered is None:
        raise NotFound(f"no team {number} in this event", team=number)
    return entered


def lineups_json(t: Tournament, round_number: int) -> list[dict]:
    """Each team's line-up for a round paired or the next (NotFound past it): as handed in
    (``handed_in``), else its first boards."""
    if not 1 <= round_number <= t.next_round:
        raise NotFound(f"round {round_number} is neither paired nor the next", round=round_number)
    return [
        {"team": e.number, "name": e.name, "players": list(players), "handed_in": (round_number, e.number) in t.lineups}
        for e, players in zip(t.teams, round_lineups(t, round_number), strict=True)
    ]


def sealed_lineup(event_type: str, payload: Mapping, paired: int) -> bool:
    """A line-up event of a round not yet paired (``paired`` rounds are): kept from the
    public, so that no team learns another's before the pairing shows them all."""
    return event_type == "lineup_submitted" and payload["round"] > paired


def lineup_round(lineups: Sequence[Lineup], round_number: int, boards: int) -> tuple[TeamRound, list[EmptyBoard]]:
    """Round ``round_number`` of the Berger table over the teams, each match's boards laid
    out from the line-ups (``lineups[i]``: team i + 1's); an odd number of teams adds a
    dummy, and the team that meets it has the round off."""
    teams = len(lineups)
    pairs = list(berger_round(teams, round_number))
    dummy = [pair for pair in pairs if teams % 2 and teams + 1 in pair]
    off = next((first if second == teams + 1 else second for first, second in dummy), None)
    return matches_laid_out(round_number, [p for p in pairs if p not in dummy], lineups, boards, off)


def matches_laid_out(
    round_number: int, pairs: Sequence[tuple[int, int]], lineups: Sequence[Lineup], boards: int, off: int | None
) -> tuple[TeamRound, list[EmptyBoard]]:
    """The round's matches (``pairs``: first-named team, second) numbered in order, each
    one's boards laid out from the line-ups: the first-named team South on the odd boards;
    a board with an empty seat goes to the second list (no game is played on it)."""
    matches = tuple(TeamMatch(m, first, second) for m, (first, second) in enumerate(pairs, start=1))
    laid: list[TeamBoard] = []
    empty: list[EmptyBoard] = []
    for match in matches:
        for k in range(1, boards + 1):
            home, away = lineups[match.first - 1][k - 1], lineups[match.second - 1][k - 1]
            first_south = k % 2 == 1
            south, north = (home, away) if first_south else (away, home)
            sides = (match.first, match.second) if first_south else (match.second, match.first)
            number = (match.match - 1) * boards + k
            if south is None or north is None:
                empty.append(EmptyBoard(number, south, north, sides))
            else:
                laid.append(TeamBoard(number, match.match, k, south, north))
    return TeamRound(round_number, matches, tuple(laid), off), empty


def empty_json(empty: Sequence[EmptyBoard]) -> list[dict]:
    return [{"board": e.board, "south": e.south, "north": e.north, "teams": list(e.teams)} for e in empty]
