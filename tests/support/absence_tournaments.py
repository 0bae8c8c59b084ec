"""Random Swiss tournaments with absences, built with this service's tournament model.

Each is made by the same decisions the API makes (``decide_register``, ``decide_absence``,
``decide_withdraw``, ``decide_pair``: the Dutch pairing leaves the absent players out and
gives them the tournament's absence bye), with results drawn from ``random.Random(seed)``:
games won, drawn and lost, forfeits, double forfeits and games of less than a move; late
entries, withdrawals, and players declaring absences for rounds to come (half- or
zero-point, by the tournament's rule). ``text(seed)`` is the tournament's TRF as the
service writes it (fixtures/tiebreaks/absences/, README there).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from recorder.tournaments import decide, trf
from recorder.tournaments.events import BoardResultRecorded, TournamentCreated, TournamentEvent
from recorder.tournaments.fold import Tournament, replay
from recorder.tournaments.fold import apply as applied
from recorder.tournaments.results import result_of_forfeit

SEEDS = range(1, 101)
ROUND_ROBIN_SEEDS = range(1, 31)


def folded(events: list[TournamentEvent]) -> Tournament:
    return replay("t-absences", enumerate(events, start=1))


def outcomes(t: Tournament) -> dict:
    return {key: result_of_forfeit(forfeit) for key, forfeit in t.forfeits.items()}


def result_of(draw: random.Random) -> tuple[str, str]:
    """A board's (result, reason): mostly games played, some forfeits and short games."""
    roll = draw.random()
    if roll < 0.08:
        return draw.choice(["south_wins", "north_wins"]), "forfeit"
    if roll < 0.10:
        return "double_forfeit", "forfeit"
    if roll < 0.13:
        return draw.choice(["south_wins", "north_wins", "draw"]), "short_game"
    return draw.choices(["south_wins", "north_wins", "draw"], weights=[4, 3, 3])[0], "played"


def tournament(seed: int) -> Tournament:
    """The tournament of a seed: 8 to 200 players, 4 to 9 rounds."""
    return folded(list(events_of(seed)))


@functools.cache  # made once a test run: the tests that read them share them
def events_of(seed: int) -> tuple[TournamentEvent, ...]:
    """The events of the tournament of a seed, in order."""
    draw = random.Random(seed)
    players, rounds = draw.randint(8, 200), draw.randint(4, 9)
    body = {"name": f"Absences s{seed:03d} (seed {seed})", "variant": "qelat", "format": "swiss", "rounds": rounds}
    body["absence_points"] = draw.choice([0, 0.5])
    events: list[TournamentEvent] = [decide.decide_create(body)]
    late = [draw.random() < 0.08 for _ in range(players)]

    t = folded(events)

    def apply(new: Sequence[TournamentEvent]) -> Tournament:
        folded_so_far = t_box[0]
        for event in new:
            events.append(event)
            folded_so_far = applied(folded_so_far, event, len(events))
        t_box[0] = folded_so_far
        return folded_so_far

    t_box = [t]
    for n in range(players):
        if not late[n]:
            rating = draw.choice([None, draw.randint(1000, 2700)]) if draw.random() < 0.1 else draw.randint(1000, 2700)
            t = apply(decide.decide_register(t, {"name": f"Player {n + 1:03d}", "rating": rating}))
    for r in range(1, rounds + 1):
        t = declare_absences(t, apply, draw, r, rounds)
        t = apply(decide.decide_pair(t, outcomes(t), {}))
        for board in t.rounds[-1].boards:
            result, reason = result_of(draw)
            t = apply([BoardResultRecorded(r, board.board, result, reason)])
        t = withdraw_some(t, apply, draw, r, rounds)
        if r < rounds:
            for n in range(players):
                if late[n] and draw.random() < 0.3:
                    late[n] = False
                    entry = {"name": f"Late {n + 1:03d}", "rating": draw.randint(1000, 2000)}
                    t = apply(decide.decide_register(t, entry))
    return tuple(events)


def round_robin(seed: int) -> Tournament:
    """A round robin of a seed: 4 to 16 players, single or double, absences declared for
    rounds to come (the absent player's board left out, his opponent a full-point bye),
    withdrawals (his boards then forfeits), results as in a Swiss."""
    draw = random.Random(5000 + seed)
    players, format_ = draw.randint(4, 16), draw.choice(["round_robin", "double_round_robin"])
    body: dict[str, object] = {
        "name": f"Absences r{seed:03d} (round robin, seed {seed})",
        "variant": "qelat",
        "format": format_,
    }
    body["absence_points"] = draw.choice([0, 0.5])
    events: list[TournamentEvent] = [decide.decide_create(body)]
    box = [folded(events)]

    def apply(new: Sequence[TournamentEvent]) -> Tournament:
        for event in new:
            events.append(event)
            box[0] = applied(box[0], event, len(events))
        return box[0]

    t = box[0]
    for n in range(players):
        rating = draw.randint(1000, 2700) if draw.random() < 0.9 else None
        t = apply(decide.decide_register(t, {"name": f"Player {n + 1:03d}", "rating": rating}))
    rounds = t.planned_rounds or 0
    for r in range(1, rounds + 1):
        t = declare_absences(t, apply, draw, r, rounds)
        t = apply(decide.decide_pair(t, outcomes(t), {}))
        for board in t.rounds[-1].boards:
            if (r, board.board) not in t.forfeits:  # a withdrawn player's board is decided already
                result, reason = result_of(draw)
                t = apply([BoardResultRecorded(r, board.board, result, reason)])
        t = withdraw_some(t, apply, draw, r, rounds)
    return t


def declare_absences(t: Tournament, apply, draw: random.Random, r: int, rounds: int) -> Tournament:
    """About 6% of the active players say they will miss this round or a later one."""
    for e in t.active_in(r):
        if draw.random() < 0.06:
            wanted = draw.randint(r, rounds)
            if t.absence(e.number, wanted) is None:
                t = apply(decide.decide_absence(t, {"player": e.number, "round": wanted}))
    return t


def withdraw_some(t: Tournament, apply, draw: random.Random, r: int, rounds: int) -> Tournament:
    if r == rounds:
        return t
    for e in t.active_in(r + 1):
        if draw.random() < 0.015:
            t = apply(decide.decide_withdraw(t, e.number, {}))
    return t


def text(seed: int) -> str:
    t = tournament(seed)
    return trf.write(t, outcomes(t))


def round_robin_text(seed: int) -> str:
    t = round_robin(seed)
    return trf.write(t, outcomes(t))


def created(text_: str) -> TournamentCreated:
    return TournamentCreated(variant="qelat", options={}, format="swiss", **trf.creation_fields(trf.parse(text_)))


# --------------------------------------------------------------------------- through the API

API_SEEDS = range(1, 7)
ADMIN = {"Authorization": "Bearer admin-token-for-tests"}  # tournament_support.ADMIN_TOKEN


def through_api(client, seed: int) -> str:
    """A Swiss of 8 to 40 players run through the HTTP API as an arbiter runs one: absences
    declared (and some taken back) with POST /absences, withdrawals, late entries, games
    started and ended by resignation or agreement, forfeits and double forfeits. Returns
    the tournament's id."""
    draw = random.Random(1000 + seed)
    players, rounds = draw.randint(8, 40), draw.randint(4, 7)
    body: dict[str, object] = {"name": f"Absences a{seed:03d} (API, seed {seed})", "variant": "qelat"}
    body.update(format="swiss", rounds=rounds, absence_points=draw.choice([0, 0.5]))
    tid = ok(client.post("/api/tournaments", json=body, headers=ADMIN))["id"]
    base = f"/api/tournaments/{tid}"
    for n in range(1, players + 1):
        ok(client.post(f"{base}/players", json={"name": f"Player {n:03d}", "rating": 2400 - 7 * n}, headers=ADMIN))
    for r in range(1, rounds + 1):
        api_absences(client, base, draw, r, rounds)
        paired = ok(client.post(f"{base}/rounds", json={}, headers=ADMIN))
        for board in paired["boards"]:
            api_result(client, base, r, board["board"], draw)
        if r < rounds:
            api_changes(client, base, draw, r)
    return tid


def ok(response) -> dict:
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


def api_absences(client, base: str, draw: random.Random, r: int, rounds: int) -> None:
    t = ok(client.get(base))
    for p in t["players"]:
        if not p["withdrawn"] and p["entered_round"] <= r and draw.random() < 0.08:
            body = {"player": p["number"], "round": draw.randint(r, rounds)}
            response = client.post(f"{base}/absences", json=body, headers=ADMIN)
            assert response.status_code in (201, 409), response.get_json()  # 409: declared before
            if response.status_code == 201 and draw.random() < 0.2:
                ok(client.delete(f"{base}/absences/{body['round']}/{body['player']}", headers=ADMIN))


def api_result(client, base: str, r: int, board: int, draw: random.Random) -> None:
    roll = draw.random()
    if roll < 0.1:
        result = draw.choice(["south_wins", "north_wins", "double_forfeit"])
        ok(client.post(f"{base}/rounds/{r}/boards/{board}/result", json={"result": result}, headers=ADMIN))
        return
    game = ok(client.post(f"{base}/rounds/{r}/boards/{board}/game", json={}, headers=ADMIN))
    winner = draw.choices(["south", "north", None], weights=[4, 3, 3])[0]
    command = {"type": "result", "kind": "resignation" if winner else "agreement", "winner": winner}
    ok(client.post(f"/api/games/{game['id']}/commands", json={**command, "expected_version": 1}, headers=ADMIN))


def api_changes(client, base: str, draw: random.Random, r: int) -> None:
    """After a round: now and then a withdrawal, now and then a late entry."""
    t = ok(client.get(base))
    for p in t["players"]:
        if not p["withdrawn"] and draw.random() < 0.03:
            ok(client.post(f"{base}/players/{p['number']}/withdrawal", json={}, headers=ADMIN))
    if draw.random() < 0.3:
        body = {"name": f"Late {r:02d}", "rating": draw.randint(1400, 2000)}
        ok(client.post(f"{base}/players", json=body, headers=ADMIN))
