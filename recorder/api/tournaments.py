"""Tournaments over HTTP: reads are public, writes need a bearer token.

The admin token creates tournaments and issues or revokes arbiter tokens; an arbiter
token writes to its one tournament: players, pairings, forfeits, the games on its boards
and the commands of those games. The guard in recorder/api/access.py decides before
any view runs: 401 without a valid token, 403 with one that does not reach.
"""

from __future__ import annotations

from flask import Blueprint, Flask, Response, current_app, json, request, url_for
from werkzeug.exceptions import UnsupportedMediaType

from recorder.auth.policy import principal_record
from recorder.errors import InvalidRecord
from recorder.players.decide import federation_code, registered_names
from recorder.players.particulars import sex_and_birth
from recorder.tournaments import board_game_id, views
from recorder.tournaments.decide import decide_register
from recorder.tournaments.service import Tournaments
from schemas.tournaments import (
    absence_schema,
    board_game_schema,
    board_result_schema,
    broadcast_schema,
    correction_schema,
    crosstable_schema,
    entrant_schema,
    forbidden_pair_schema,
    page_schema,
    pair_schema,
    pairing_check_schema,
    player_create_schema,
    round_schema,
    standings_schema,
    tiebreaks_schema,
    token_create_schema,
    token_list_schema,
    token_schema,
    tournament_create_schema,
    tournament_list_schema,
    tournament_schema,
    trf_import_query_schema,
    trf_query_schema,
    withdrawal_schema,
)

from . import openapi
from .access import authenticator, principal, recorded_by
from .archive import body_text
from .body import json_body
from .broadcast import visible_state_of
from .games import expected_version, game_json, idempotency, with_etag
from .problems import load_query
from .tournaments_openapi import document_tournament_paths

bp = Blueprint("tournaments", __name__, url_prefix="/api/tournaments")
openapi.EXTENSIONS.append(document_tournament_paths)


def init_app(app: Flask) -> None:
    app.extensions["tournaments"] = Tournaments(app.extensions["recorder"])
    app.register_blueprint(bp)


def tournaments() -> Tournaments:
    return current_app.extensions["tournaments"]


# -- Helpers ---------------------------------------------------------------------------


def body() -> dict:
    """The JSON body; an empty body is an empty object (POST .../rounds needs nothing)."""
    return json_body(empty_is_object=True)


def write_options(raw) -> dict:
    return {
        "expected_version": expected_version(None),
        "recorded_by": recorded_by(),
        "idempotency": idempotency(raw),
    }


def respond(payload: dict, version: int, status: int = 200, **headers) -> Response:
    response = Response(json.dumps(payload), status=status, mimetype="application/json")
    response.headers["ETag"] = f'"{version}"'
    response.headers.update(headers)
    return response


# -- Tournaments -----------------------------------------------------------------------


@bp.get("")
def list_tournaments():
    page = load_query(page_schema)
    return tournament_list_schema.dump({"tournaments": tournaments().list_tournaments(**page)})


@bp.post("")
def create_tournament():
    raw = body()
    data = tournament_create_schema.load(raw)
    written = tournaments().create(data, recorded_by=recorded_by(), idempotency=idempotency(raw))
    view = tournaments().view(written.tournament.tournament_id)
    location = url_for("tournaments.get_tournament", tournament_id=view.tournament.tournament_id)
    return respond(tournament_schema.dump(tournament_json(view)), view.tournament.version, 201, Location=location)


@bp.post("/trf")
def import_trf():
    """A tournament from a TRF (text/plain body), with its players and played rounds."""
    query = load_query(trf_import_query_schema)
    if request.mimetype != "text/plain":
        raise UnsupportedMediaType(f"send the TRF as text/plain, not {request.mimetype or 'nothing'}")
    text = body_text()
    key = idempotency({"trf": text, **query})
    registry = current_app.extensions["players"]
    written = tournaments().import_trf(
        text, query, recorded_by=recorded_by(), idempotency=key, survivor=registry.survivor_id
    )
    view = tournaments().view(written.tournament.tournament_id)
    location = url_for("tournaments.get_tournament", tournament_id=view.tournament.tournament_id)
    status = 200 if written.existed else 201  # 200: the same file made this tournament before
    return respond(tournament_schema.dump(tournament_json(view)), view.tournament.version, status, Location=location)


@bp.get("/<tournament_id>/trf")
def get_trf(tournament_id: str):
    layout = load_query(trf_query_schema)["layout"]
    registry = current_app.extensions["players"]
    text = tournaments().trf(tournament_id, layout, visible_state_of, lambda t: sex_and_birth(registry, t))
    response = Response(text, mimetype="text/plain")
    response.headers["Content-Disposition"] = f'attachment; filename="{tournament_id}.trf"'
    return response


@bp.get("/<tournament_id>")
def get_tournament(tournament_id: str):
    view = tournaments().view(tournament_id, visible_state_of)
    return respond(tournament_schema.dump(tournament_json(view)), view.tournament.version)


@bp.get("/<tournament_id>/events")
def get_tournament_events(tournament_id: str):
    events = [e.to_dict() for e in tournaments().events(tournament_id)]
    return {"tournament_id": tournament_id, "events": events}


@bp.post("/<tournament_id>/players")
def register_player(tournament_id: str):
    raw = body()
    data = registry_entry(tournament_id, player_create_schema.load(raw))
    written = tournaments().register(tournament_id, data, **write_options(raw))
    entrant = written.tournament.entrants[written.events[-1].payload["number"] - 1]
    return respond(entrant_schema.dump(views.entrant_json(entrant)), written.tournament.version, 201)


def registry_rating(tournament_id: str, p) -> int | None:
    """A rated tournament's entrant is seeded and paired by his registry rating of its
    game as it stands at his entry (this month's list, rounded), when he has one."""
    t = tournaments().tournament(tournament_id)
    if not t.rated:
        return None
    current = current_app.extensions["ratings"].current(t.variant)
    entry = next((e for e in current.entries if e.player_id == p.player_id), None)
    return round(entry.rating.rating) if entry is not None else None


def registry_entry(tournament_id: str, data: dict) -> dict:
    """An entry that picks a registry player (his name and federation unless given) or
    registers a new one first (once the tournament would take the entry: a refused entry
    registers nobody)."""
    registry = current_app.extensions["players"]
    register, force = data.pop("register"), data.pop("force")
    details = {k: data.pop(k) for k in ("name_geez", "club", "birth_year", "sex") if k in data}
    if data.get("player_id") is not None:
        p = registry.survivor(registry.must_exist(data["player_id"], field="player_id").player_id)
        return {
            **data,
            "player_id": p.player_id,
            "name": data.get("name") or p.name,
            "federation": data.get("federation") or p.federation,
            "rating": data.get("rating") if data.get("rating") is not None else registry_rating(tournament_id, p),
        }
    if register and not (data.get("name") or "").strip() and details.get("name_geez"):
        data["name"] = registered_names({"name_geez": details["name_geez"]})[0]  # the Ge'ez name transliterated
    if not (data.get("name") or "").strip():
        raise InvalidRecord("a player needs a name, or the player_id of a registered player", field="name")
    if not register:
        return data
    data["federation"] = federation_code(data.get("federation"))  # as the registry reads it ("eri" is ERI)
    decide_register(tournaments().tournament(tournament_id), data)  # refused here: nothing registered
    who = principal_record(principal())
    written = registry.register({**data, **details}, recorded_by=recorded_by(), principal=who, force=force)
    return {**data, "player_id": written.player.player_id}


@bp.post("/<tournament_id>/players/<int:number>/withdrawal")
def withdraw_player(tournament_id: str, number: int):
    raw = body()
    written = tournaments().withdraw(tournament_id, number, withdrawal_schema.load(raw), **write_options(raw))
    entrant = written.tournament.seated(number)
    return respond(entrant_schema.dump(views.entrant_json(entrant)), written.tournament.version, 201)


@bp.post("/<tournament_id>/absences")
def declare_absence(tournament_id: str):
    """A player will miss a round not yet paired: left out of it, with the absence bye."""
    raw = body()
    written = tournaments().declare_absence(tournament_id, absence_schema.load(raw), **write_options(raw))
    return tournament_answer(tournament_id, written.tournament.version, 201)


@bp.delete("/<tournament_id>/absences/<int:round_number>/<int:number>")
def cancel_absence(tournament_id: str, round_number: int, number: int):
    """A declared absence taken back, before its round is paired."""
    raw = {"absence": [round_number, number]}  # what an Idempotency-Key retry must repeat
    written = tournaments().cancel_absence(tournament_id, number, round_number, **write_options(raw))
    return tournament_answer(tournament_id, written.tournament.version)


def tournament_answer(tournament_id: str, version: int, status: int = 200):
    """The tournament as it stands after a write to its settings."""
    view = tournaments().view(tournament_id)
    return respond(tournament_schema.dump(tournament_json(view)), version, status)


@bp.post("/<tournament_id>/forbidden-pairs")
def forbid_pairing(tournament_id: str):
    raw = body()
    written = tournaments().forbid(tournament_id, forbidden_pair_schema.load(raw), **write_options(raw))
    return tournament_answer(tournament_id, written.tournament.version, 201)


@bp.put("/<tournament_id>/broadcast")
def set_broadcast(tournament_id: str):
    raw = body()
    written = tournaments().set_broadcast(tournament_id, broadcast_schema.load(raw), **write_options(raw))
    return tournament_answer(tournament_id, written.tournament.version)


@bp.put("/<tournament_id>/tiebreaks")
def choose_tiebreaks(tournament_id: str):
    raw = body()
    written = tournaments().choose_tiebreaks(tournament_id, tiebreaks_schema.load(raw), **write_options(raw))
    return tournament_answer(tournament_id, written.tournament.version)


# -- Rounds and boards -----------------------------------------------------------------


@bp.post("/<tournament_id>/rounds")
def pair_round(tournament_id: str):
    raw = body()
    written = tournaments().pair(tournament_id, pair_schema.load(raw), **write_options(raw))
    number = len(written.tournament.rounds)
    return round_response(tournament_id, number, 201)


@bp.get("/<tournament_id>/rounds/<int:round_number>")
def get_round(tournament_id: str, round_number: int):
    return round_response(tournament_id, round_number)


def round_response(tournament_id: str, round_number: int, status: int = 200) -> Response:
    view = tournaments().view(tournament_id, visible_state_of)
    payload = round_schema.dump(views.round_json(view, views.find_round(view, round_number)))
    location = url_for("tournaments.get_round", tournament_id=tournament_id, round_number=round_number)
    return respond(payload, view.tournament.version, status, Location=location)


@bp.post("/<tournament_id>/rounds/<int:round_number>/boards/<int:board>/game")
def start_board_game(tournament_id: str, round_number: int, board: int):
    raw = body()
    recorded = tournaments().start_game(
        tournament_id,
        round_number,
        board,
        board_game_schema.load(raw),
        recorded_by=recorded_by(),
        idempotency=idempotency(raw),
    )
    game = recorded.game
    location = url_for("games.get_game", game_id=game.game_id)
    return with_etag(game_json(game, recorded.events[0].recorded_at), game, 201, Location=location)


@bp.post("/<tournament_id>/rounds/<int:round_number>/boards/<int:board>/result")
def record_board_result(tournament_id: str, round_number: int, board: int):
    raw = body()
    data = board_result_schema.load(raw)
    tournaments().record_forfeit(tournament_id, round_number, board, data, **write_options(raw))
    return round_response(tournament_id, round_number, 201)


@bp.post("/<tournament_id>/rounds/<int:round_number>/boards/<int:board>/correction")
def correct_board(tournament_id: str, round_number: int, board: int):
    """The admin's correction of a finished tournament's board: recorded first, with a
    reason, so the changes to its game that follow are shown as a correction."""
    raw = body()
    data = correction_schema.load(raw)
    who = principal_record(principal())
    written = tournaments().correct(tournament_id, round_number, board, data, principal=who, **write_options(raw))
    return tournament_answer(tournament_id, written.tournament.version, 201)


def tournament_json(view) -> dict:
    """The tournament as every answer gives it, with the admin's corrections after it finished."""
    return {**views.tournament_json(view), **corrections_json(view.tournament)}


def corrections_json(t) -> dict:
    """Each correction with who made it and when (its event's envelope)."""
    events = {e.seq: e for e in tournaments().events(t.tournament_id)} if t.corrections else {}
    return {
        "corrected": bool(t.corrections),
        "corrections": [
            {
                "round": c.round,
                "board": c.board,
                "game_id": board_game_id(t.tournament_id, c.round, c.board),
                "reason": c.reason,
                "recorded_by": events[c.seq].recorded_by,
                "recorded_at": events[c.seq].recorded_at,
                "principal": c.principal,
                "seq": c.seq,
            }
            for c in t.corrections
        ],
    }


# -- Standings ---------------------------------------------------------------------------


@bp.get("/<tournament_id>/standings")
def get_standings(tournament_id: str):
    view = tournaments().view(tournament_id, visible_state_of)
    return respond(standings_schema.dump(views.standings_json(view)), view.tournament.version)


@bp.get("/<tournament_id>/check")
def get_pairing_check(tournament_id: str):
    view, checks = tournaments().check(tournament_id, visible_state_of)
    return respond(pairing_check_schema.dump(views.check_json(view, checks)), view.tournament.version)


@bp.get("/<tournament_id>/crosstable")
def get_crosstable(tournament_id: str):
    view = tournaments().view(tournament_id, visible_state_of)
    return respond(crosstable_schema.dump(views.crosstable_json(view)), view.tournament.version)


# -- Tokens (admin) ------------------------------------------------------------------------


@bp.get("/<tournament_id>/tokens")
def list_tokens(tournament_id: str):
    tournaments().events(tournament_id)  # NotFound for an unknown tournament
    rows = authenticator().tokens.list_tokens(kind="arbiter", tournament_id=tournament_id)
    return token_list_schema.dump({"tokens": [views.token_json(r) for r in rows]})


@bp.post("/<tournament_id>/tokens")
def issue_token(tournament_id: str):
    data = token_create_schema.load(body())
    tournaments().events(tournament_id)
    row, token = authenticator().issue("arbiter", data["holder"], tournament_id)
    response = token_schema.dump({**views.token_json(row), "token": token})
    return response, 201, {"Cache-Control": "no-store"}


@bp.delete("/<tournament_id>/tokens/<token_id>")
def revoke_token(tournament_id: str, token_id: str):
    return token_schema.dump(views.token_json(authenticator().revoke(token_id, tournament_id)))
