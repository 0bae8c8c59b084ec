"""Random team round robins, built with this service's tournament model.

Each is made by the decisions the API makes (``decide_create`` with ``team_boards``,
``decide_enter_team`` for each team as the registry would give it, ``decide_pair`` laying
out the Berger table over the teams), every board's result drawn from
``random.Random(seed)``: games won, drawn and lost, forfeits and double forfeits. ``text(seed)`` is
the event's TRF as the service writes it (fixtures/tiebreaks/teams/, README there).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from recorder.tournaments import decide, trf
from recorder.tournaments.events import BoardResultRecorded, TournamentEvent
from recorder.tournaments.fold import Tournament, replay
from recorder.tournaments.fold import apply as applied
from recorder.tournaments.results import result_of_forfeit
from recorder.tournaments.teams import decide_enter_team

SEEDS = range(1, 11)


def outcomes(t: Tournament) -> dict:
    return {key: result_of_forfeit(forfeit) for key, forfeit in t.forfeits.items()}


def result_of(draw: random.Random) -> tuple[str, str]:
    """A board's (result, reason): mostly games played, some forfeits and double forfeits."""
    roll = draw.random()
    if roll < 0.08:
        return draw.choice(["south_wins", "north_wins"]), "forfeit"
    if roll < 0.11:
        return "double_forfeit", "forfeit"
    return draw.choices(["south_wins", "north_wins", "draw"], weights=[4, 3, 3])[0], "played"


def registry_team(seed: int, number: int, players: int, reserves: int) -> dict:
    """A team as the registry reads it (ids of the registry's form, made from the seed)."""

    def member(k: int) -> dict:
        return {
            "player_id": f"p-{seed:04x}{number:02x}{k:02x}",
            "name": f"Team {number} player {k}",
            "federation": "ERI",
        }

    return {
        "team_id": f"tm-{seed:04x}{number:02x}",
        "name": f"Team {number}",
        "name_geez": f"ጋንታ {number}",
        "players": [member(k) for k in range(1, players + 1)],
        "reserves": [member(k) for k in range(players + 1, players + reserves + 1)],
    }


def tournament(seed: int) -> Tournament:
    """The event of a seed: 4 to 10 teams of 2 to 6 boards, some with a reserve."""
    draw = random.Random(seed)
    teams, boards = draw.randint(4, 10), draw.randint(2, 6)
    body = {"name": f"Teams s{seed:03d} (seed {seed})", "variant": "qelat", "format": "team_round_robin"}
    events: list[TournamentEvent] = [decide.decide_create({**body, "team_boards": boards})]
    box = [replay("t-teams", enumerate(events, start=1))]

    def apply(new: Sequence[TournamentEvent]) -> Tournament:
        for event in new:
            events.append(event)
            box[0] = applied(box[0], event, len(events))
        return box[0]

    t = box[0]
    for number in range(1, teams + 1):
        t = apply(decide_enter_team(t, registry_team(seed, number, boards, draw.choice([0, 0, 1]))))
    for r in range(1, (t.planned_rounds or 0) + 1):
        t = apply(decide.decide_pair(t, outcomes(t), {}))
        for board in t.rounds[-1].boards:
            t = apply([BoardResultRecorded(r, board.board, *result_of(draw))])
    return t


def text(seed: int) -> str:
    t = tournament(seed)
    return trf.write(t, outcomes(t))
