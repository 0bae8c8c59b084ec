"""A team event's rounds as team matches, as the API gives them (pure): each match's teams,
its score so far, and its boards in board order, each with its players, seats, result and
game, read from the stored rounds as ``teams.stored_round`` lays them out (a board a
line-up left empty among them, ``empty``, its empty seat None and its forfeit scored)."""

from __future__ import annotations

from fractions import Fraction

from recorder.errors import NotFound

from . import TEAM_FORMATS
from .fold import Round, Tournament
from .teams import POINTS, TeamMatch, TeamRound, match_points, stored_round
from .views import round_json


def of_teams(t: Tournament) -> Tournament:
    """The tournament, when it is a team event: another has no team standings or matches."""
    if t.format not in TEAM_FORMATS:
        raise NotFound(f"{t.tournament_id} is not a team event", tournament_id=t.tournament_id)
    return t


def team_ref(t, number: int) -> dict:
    entered = t.teams[number - 1]
    return {"number": number, "id": entered.team_id, "name": entered.name, "name_geez": entered.name_geez}


def board_points(board: dict, first_south: bool) -> list[float] | None:
    """(the first-named team's points, the second's) on a board with a result."""
    if board["result"] is None:
        return None
    south, north = POINTS[board["result"]]
    return [float(south), float(north)] if first_south else [float(north), float(south)]


def match_json(t, laid: TeamRound, match: TeamMatch, boards: dict[int, dict]) -> dict:
    """One match: its boards (the first-named team South on the odd ones), the game points
    of the boards with a result so far, and its match points once every board has one."""
    rows, score = [], [Fraction(0), Fraction(0)]
    for board in (b for b in laid.boards if b.match == match.match):
        first_south = board.board_in_match % 2 == 1
        shown = boards[board.board]
        points = board_points(shown, first_south)
        if points is not None:
            score = [score[0] + Fraction(points[0]), score[1] + Fraction(points[1])]
        first_seat = "south" if first_south else "north"
        rows.append({**shown, "board_in_match": board.board_in_match, "first_seat": first_seat, "points": points})
    complete = all(row["points"] is not None for row in rows)
    return {
        "match": match.match,
        "first": team_ref(t, match.first),
        "second": team_ref(t, match.second),
        "score": [float(score[0]), float(score[1])],
        "complete": complete,
        "match_points": [match_points(score[0], score[1]), match_points(score[1], score[0])] if complete else None,
        "boards": rows,
    }


def empty_board(board: dict) -> dict:
    """A board a line-up left empty, shown as a board: no game, its seat without a player
    None, its result the forfeit it is."""
    return {**board, "game_id": None, "decided_by": "forfeit", "entered_as": None, "unconfirmed": False, "empty": True}


def team_round_json(view, rnd: Round) -> dict:
    t = view.tournament
    laid = stored_round(t, rnd.number)
    shown = round_json(view, rnd)
    boards = {board["board"]: board for board in shown["boards"]}
    boards.update({board["board"]: empty_board(board) for board in shown.get("empty_boards", [])})
    return {
        "round": rnd.number,
        "complete": shown["complete"],
        "off": team_ref(t, laid.off) if laid.off is not None else None,
        "matches": [match_json(t, laid, match, boards) for match in laid.matches],
    }


def team_matches_json(view) -> list[dict]:
    """Every paired round's team matches, round 1 first."""
    return [team_round_json(view, rnd) for rnd in view.tournament.rounds]
