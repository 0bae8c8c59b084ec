"""JSON-ready views of a tournament, its rounds, standings and crosstable (pure).

Points and tiebreak values are exact fractions inside; here they become JSON numbers
(an int when whole, else a float: halves and quarters are exact in binary).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from recorder.errors import NotFound

from . import TEAM_FORMATS, TEAM_SWISS, board_game_id, knockout, team_tiebreaks
from .fold import Entrant, Round, Tournament


def number(value):
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def entrant_json(e: Entrant, names_geez: Mapping[int, str]) -> dict:
    """An entrant, with his registry record's Ge'ez name (``View.names_geez``; None when
    he names no registry player, or one without a Ge'ez name)."""
    return {
        "number": e.number,
        "name": e.name,
        "name_geez": names_geez.get(e.number),
        "federation": e.federation,
        "rating": e.rating,
        "entered_round": e.entered_round,
        "withdrawn": e.withdrawn,
        "withdrawn_after": e.withdrawn_after,
        "player_id": e.player_id,
    }


def team_entry_json(entered) -> dict:
    """A team as entered: its players (entrant numbers) in board order, its reserves."""
    return {
        "number": entered.number,
        "id": entered.team_id,
        "name": entered.name,
        "name_geez": entered.name_geez,
        "players": list(entered.players),
        "reserves": list(entered.reserves),
    }


def tournament_json(view) -> dict:
    t = view.tournament
    return {
        "id": t.tournament_id,
        "name": t.name,
        "site": t.site,
        "start_date": t.start_date,
        "end_date": t.end_date,
        "variant": t.variant,
        "options": t.options,
        "format": t.format,
        "rounds_planned": t.planned_rounds,
        "tiebreaks": list(t.tiebreaks),
        "bye_points": t.bye_points,
        "rated": t.rated,
        "pairing_rules": t.pairing_rules if t.format == "swiss" else None,
        "berger_order": berger_order(t),
        "initial_colour": t.initial_colour,
        "acceleration": t.acceleration,
        "forbidden_pairs": [
            {"players": list(f.players), "first_round": f.first_round, "last_round": f.last_round} for f in t.forbidden
        ],
        "broadcast_delay": t.broadcast_delay,
        "finished_public": t.finished_public,
        "time_control": t.time_control,
        "team_boards": t.team_boards,
        "team_primary_score": t.team_primary_score or ("match_points" if t.format == TEAM_SWISS else None),
        "team_colour_preferences": t.team_colour_preferences or ("type_a" if t.format == TEAM_SWISS else None),
        "team_tiebreaks": team_tiebreaks.order_of(t) if t.format in TEAM_FORMATS else None,
        "teams": [team_entry_json(entered) for entered in t.teams],
        "next_stages": knockout.next_stages(t),  # the knock-outs its players were handed over to
        "absence_points": t.absence_points,
        "absences": absences_json(t),
        "lots_seed": t.draw_seed,
        "require_confirmation": t.require_confirmation,
        "check_ins": [{"round": r, "player": n} for r, n in t.check_ins],
        "status": view.status,
        "version": t.version,
        "players": [entrant_json(e, view.names_geez) for e in t.entrants],
        "rounds": [round_json(view, rnd) for rnd in t.rounds],
    }


def absences_json(t: Tournament) -> list[dict]:
    """The absences declared for rounds still to pair, of players still in the event (a
    paired round shows its absences as byes)."""
    return [
        {"player": a.player, "round": a.round, "points": a.points}
        for a in t.absences
        if a.round >= t.next_round and not t.seated(a.player).withdrawn
    ]


def find_round(view, round_number: int) -> Round:
    rnd = view.tournament.round(round_number)
    if rnd is None:
        raise NotFound(f"round {round_number} is not paired", round=round_number)
    return rnd


def player_ref(view, player_number: int) -> dict:
    name = view.tournament.entrant(player_number).name
    return {"number": player_number, "name": name, "name_geez": view.names_geez.get(player_number)}


def round_json(view, rnd: Round) -> dict:
    t, outcomes = view.tournament, view.outcomes
    boards = []
    for b in rnd.boards:
        outcome = outcomes.get((rnd.number, b.board))
        boards.append(
            {
                "board": b.board,
                "south": player_ref(view, b.south),
                "north": player_ref(view, b.north),
                "game_id": board_game_id(t.tournament_id, rnd.number, b.board),
                "result": outcome.result if outcome else None,
                "decided_by": None if outcome is None else ("game" if outcome.played else "forfeit"),
                # a result entered in the tournament, not the game's: its kind (played: on paper)
                "entered_as": entered.reason if (entered := t.forfeits.get((rnd.number, b.board))) else None,
                # over, but not counted until both players confirm it (require_confirmation)
                "unconfirmed": (rnd.number, b.board) in view.unconfirmed,
            }
        )
    byes = [{**player_ref(view, bye.player), "points": bye.points} for bye in rnd.byes]
    complete = all((rnd.number, b.board) in outcomes for b in rnd.boards)
    answer = {"round": rnd.number, "method": rnd.method, "boards": boards, "byes": byes, "complete": complete}
    if t.team_boards:  # a team event's boards left empty by a line-up: no game, a forfeit
        answer["empty_boards"] = [empty_board_json(view, e) for e in rnd.empty]
    return answer


def empty_board_json(view, e) -> dict:
    seat = lambda number: None if number is None else player_ref(view, number)  # noqa: E731
    return {"board": e.board, "south": seat(e.south), "north": seat(e.north), "result": e.result}


def standing_json(view, s) -> dict:
    e = view.tournament.entrant(s.number)
    return {
        "rank": s.rank,
        "number": s.number,
        "name": e.name,
        "name_geez": view.names_geez.get(s.number),
        "federation": e.federation,
        "rating": e.rating,
        "points": number(s.points),
        "tiebreaks": {k: number(v) for k, v in s.tiebreaks.items()},
    }


def standings_json(view) -> dict:
    t = view.tournament
    played = sum(1 for rnd in t.rounds if all((rnd.number, b.board) in view.outcomes for b in rnd.boards))
    return {
        "tournament_id": t.tournament_id,
        "status": view.status,
        "rounds_played": played,
        "tiebreaks": list(t.tiebreaks),
        "lots_seed": t.draw_seed if "LOTS" in t.tiebreaks else None,
        "standings": [standing_json(view, s) for s in view.standings()],
    }


def crosstable_json(view) -> dict:
    t = view.tournament
    rows = []
    for row in view.crosstable():
        cells = [{**cell, "points": number(cell["points"])} for cell in row["cells"]]
        rows.append({**standing_json(view, row["standing"]), "place": row["place"], "cells": cells})
    return {"tournament_id": t.tournament_id, "format": t.format, "rows": rows}


def token_json(row: dict) -> dict:
    return {
        "id": row["token_id"],
        "kind": row.get("kind", "arbiter"),
        "tournament_id": row["tournament_id"],
        "holder": row["holder"],
        "created_at": row["created_at"],
        "revoked_at": row["revoked_at"],
    }


def berger_order(t: Tournament) -> str | None:
    """A double round robin's order of rounds (events.py); the single table has one order."""
    return t.berger_order if t.format == "double_round_robin" else None


def check_json(view, checks: list) -> dict:
    """The pairing checker's report (check.py): each round, stored against the rules'."""
    t = view.tournament
    return {
        "tournament_id": t.tournament_id,
        "pairing_rules": t.pairing_rules if t.format == "swiss" else None,
        "berger_order": berger_order(t),
        "differing_rounds": [c.round for c in checks if c.status in ("differs", "no_pairing")],
        "rounds": [
            {
                "round": c.round,
                "method": c.method,
                "status": c.status,
                "manual": c.method == "manual",
                "board_order_differs": c.order_differs,
                "stored": [{"south": s, "north": n} for s, n in c.stored],
                "stored_bye": c.stored_bye,
                "expected": [{"south": s, "north": n} for s, n in c.expected],
                "expected_bye": c.expected_bye,
                "forfeits": [{"board": board, "result": result} for board, result in c.forfeits],
                "detail": c.detail,
            }
            for c in checks
        ],
    }
