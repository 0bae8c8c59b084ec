"""Tournaments over HTTP: reads are public, writes need a bearer token.

The admin token creates tournaments and issues or revokes arbiter tokens; an arbiter
token writes to its one tournament: players, pairings, forfeits, the games on its boards
and the commands of those games. The guard in recorder/api/access.py decides before
any view runs: 401 without a valid token, 403 with one that does not reach.
"""

from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, Flask, Response, current_app, json, request, url_for
from werkzeug.exceptions import UnsupportedMediaType

from recorder.audit.qr import address_qr_svg
from recorder.auth.policy import principal_record
from recorder.auth.tokens import signin_board, signin_player
from recorder.errors import InvalidRecord, NotFound
from recorder.players.decide import federation_code, registered_names
from recorder.players.particulars import sex_and_birth
from recorder.tournaments import board_game_id, views
from recorder.tournaments import teams as team_rules
from recorder.tournaments.decide import decide_register
from recorder.tournaments.fold import EmptyBoard
from recorder.tournaments.service import Tournaments, View, entries_of
from schemas.tournaments import (
    absence_schema,
    board_game_schema,
    board_result_schema,
    broadcast_schema,
    check_in_schema,
    correction_schema,
    crosstable_schema,
    dispute_list_schema,
    entrant_schema,
    finish_schema,
    forbidden_pair_schema,
    page_schema,
    pair_schema,
    pairing_check_schema,
    player_create_schema,
    player_signin_list_schema,
    proposed_round_schema,
    round_schema,
    signin_list_schema,
    signin_schema,
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

from .access import authenticator, principal, recorded_by
from .archive import body_text
from .body import json_body
from .broadcast import visible_state_of
from .games import expected_version, game_json, idempotency, with_etag
from .problems import load_query
from .proposal_words import finding_json

bp = Blueprint("tournaments", __name__, url_prefix="/api/tournaments")


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)


def tournaments() -> Tournaments:
    return current_app.extensions["tournaments"]


def tournament_view(tournament_id: str, state_of=None) -> View:
    """The tournament as a read shows it, with its registry players' Ge'ez names."""
    return with_names_geez(tournaments().view(tournament_id, state_of))


def with_names_geez(view: View) -> View:
    """The view with each entrant's registry Ge'ez name: one batched read of the registry's
    rows for the whole answer (and one per step of a merge), never one per row."""
    entries = entries_of(view.tournament)
    if not entries:
        return view
    geez = current_app.extensions["players"].geez_names(sorted({player_id for _, player_id in entries}))
    return replace(view, names_geez={number: geez[player_id] for number, player_id in entries if player_id in geez})


def entrant_answer(t, number: int) -> dict:
    """One entrant as a write answers with him, his registry Ge'ez name read for him alone."""
    entrant = t.seated(number)
    geez = current_app.extensions["players"].geez_names([entrant.player_id]) if entrant.player_id else {}
    names = {number: geez[entrant.player_id]} if entrant.player_id in geez else {}
    return entrant_schema.dump(views.entrant_json(entrant, names))


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
    """List tournaments, newest first

    ---
    get:
      parameters:
      - {in: query, schema: PageSchema}
      responses:
        200:
          description: Tournaments
          content: {application/json: {schema: TournamentListSchema}}
        422: Invalid body or illegal move
    """
    page = load_query(page_schema)
    return tournament_list_schema.dump({"tournaments": tournaments().list_tournaments(**page)})


@bp.post("")
def create_tournament():
    """Create a tournament

    ---
    post:
      description: Needs the admin token.
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: false, content: {application/json: {schema: TournamentCreateSchema}}}
      responses:
        201: {description: Done, content: {application/json: {schema: TournamentSchema}}}
        404: Unknown game
    """
    raw = body()
    data = tournament_create_schema.load(raw)
    written = tournaments().create(data, recorded_by=recorded_by(), idempotency=idempotency(raw))
    view = tournament_view(written.tournament.tournament_id)
    location = url_for("tournaments.get_tournament", tournament_id=view.tournament.tournament_id)
    return respond(tournament_schema.dump(tournament_json(view)), view.tournament.version, 201, Location=location)


@bp.post("/trf")
def import_trf():
    """A tournament from a TRF (text/plain body), with its players and played rounds.

    ---
    post:
      summary: 'Create a tournament from a FIDE TRF (TRF-2026 or TRF-16): players, ratings, played rounds'
      description: 'Needs the admin token. A refused line is a 422 naming its line and column. The new tournament''s
        id comes from the file''s content: the same file imported again is a 200 with the tournament it made.'
      parameters:
      - {in: query, schema: TrfImportQuerySchema}
      - Idempotency-Key
      requestBody: {required: true, content: {text/plain: {schema: {type: string}}}}
      responses:
        200:
          description: 'Imported before: the tournament this file made'
          content: {application/json: {schema: TournamentSchema}}
        201: {description: Created, content: {application/json: {schema: TournamentSchema}}}
        409: Stale version
    """
    query = load_query(trf_import_query_schema)
    if request.mimetype != "text/plain":
        raise UnsupportedMediaType(f"send the TRF as text/plain, not {request.mimetype or 'nothing'}")
    text = body_text()
    key = idempotency({"trf": text, **query})
    registry = current_app.extensions["players"]
    written = tournaments().import_trf(
        text, query, recorded_by=recorded_by(), idempotency=key, survivor=registry.survivor_id
    )
    view = tournament_view(written.tournament.tournament_id)
    location = url_for("tournaments.get_tournament", tournament_id=view.tournament.tournament_id)
    status = 200 if written.existed else 201  # 200: the same file made this tournament before
    return respond(tournament_schema.dump(tournament_json(view)), view.tournament.version, status, Location=location)


@bp.get("/<tournament_id>/trf")
def get_trf(tournament_id: str):
    """The tournament as a FIDE TRF (TRF-2026, or TRF-16 with layout=16)

    ---
    get:
      parameters:
      - {in: query, schema: TrfQuerySchema}
      responses:
        200: {description: The file, content: {text/plain: {schema: {type: string}}}}
        422: Invalid body or illegal move
    """
    layout = load_query(trf_query_schema)["layout"]
    registry = current_app.extensions["players"]
    text = tournaments().trf(tournament_id, layout, visible_state_of, lambda t: sex_and_birth(registry, t))
    response = Response(text, mimetype="text/plain")
    response.headers["Content-Disposition"] = f'attachment; filename="{tournament_id}.trf"'
    return response


@bp.get("/<tournament_id>")
def get_tournament(tournament_id: str):
    """A tournament: players, rounds, boards, results

    ---
    get:
      responses:
        200:
          description: 'A tournament: players, rounds, boards, results'
          content: {application/json: {schema: TournamentSchema}}
    """
    view = tournament_view(tournament_id, visible_state_of)
    return respond(tournament_schema.dump(tournament_json(view)), view.tournament.version)


@bp.get("/<tournament_id>/events")
def get_tournament_events(tournament_id: str):
    """The tournament's event log with hashes

    ---
    get:
      responses:
        200: {description: Events, content: {application/json: {schema: EventListSchema}}}
    """
    stored = tournaments().events(tournament_id)
    paired = sum(1 for e in stored if e.type == "round_paired")
    events = [e.to_dict() for e in stored if not team_rules.sealed_lineup(e.type, e.payload, paired)]
    return {"tournament_id": tournament_id, "events": events}


@bp.post("/<tournament_id>/players")
def register_player(tournament_id: str):
    """Register a player (a late entry after round 1 in a Swiss)

    ---
    post:
      description: Needs an arbiter token of this tournament (or the admin token).
      parameters: [If-Match, Idempotency-Key]
      requestBody:
        required: false
        content: {application/json: {schema: schemas.tournaments.PlayerCreateSchema}}
      responses:
        201: {description: Done, content: {application/json: {schema: EntrantSchema}}}
    """
    raw = body()
    data = registry_entry(tournament_id, player_create_schema.load(raw))
    written = tournaments().register(tournament_id, data, **write_options(raw))
    number = written.events[-1].payload["number"]
    return respond(entrant_answer(written.tournament, number), written.tournament.version, 201)


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
    """Withdraw a player from the rounds not yet paired

    ---
    post:
      description: Needs an arbiter token of this tournament (or the admin token).
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: false, content: {application/json: {schema: WithdrawalSchema}}}
      responses:
        201: {description: Done, content: {application/json: {schema: EntrantSchema}}}
    """
    raw = body()
    written = tournaments().withdraw(tournament_id, number, withdrawal_schema.load(raw), **write_options(raw))
    return respond(entrant_answer(written.tournament, number), written.tournament.version, 201)


@bp.post("/<tournament_id>/absences")
def declare_absence(tournament_id: str):
    """A player will miss a round not yet paired: left out of it, with the absence bye.

    ---
    post:
      summary: Declare a player's absence from a round not yet paired (he has the absence bye)
      description: Needs an arbiter token of this tournament (or the admin token).
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: false, content: {application/json: {schema: AbsenceSchema}}}
      responses:
        201: {description: Done, content: {application/json: {schema: TournamentSchema}}}
    """
    raw = body()
    written = tournaments().declare_absence(tournament_id, absence_schema.load(raw), **write_options(raw))
    return tournament_answer(tournament_id, written.tournament.version, 201)


@bp.delete("/<tournament_id>/absences/<int:round_number>/<int:number>")
def cancel_absence(tournament_id: str, round_number: int, number: int):
    """A declared absence taken back, before its round is paired.

    ---
    delete:
      summary: Take back a declared absence, before its round is paired
      description: Needs an arbiter token of this tournament (or the admin token).
      parameters: [If-Match, Idempotency-Key]
      responses:
        200: {description: Taken back, content: {application/json: {schema: TournamentSchema}}}
        422: Invalid body or illegal move
    """
    raw = {"absence": [round_number, number]}  # what an Idempotency-Key retry must repeat
    written = tournaments().cancel_absence(tournament_id, number, round_number, **write_options(raw))
    return tournament_answer(tournament_id, written.tournament.version)


def tournament_answer(tournament_id: str, version: int, status: int = 200):
    """The tournament as it stands after a write to its settings."""
    view = tournament_view(tournament_id)
    return respond(tournament_schema.dump(tournament_json(view)), version, status)


@bp.post("/<tournament_id>/forbidden-pairs")
def forbid_pairing(tournament_id: str):
    """Forbid pairings: players no two of whom may meet (family, team-mates)

    ---
    post:
      description: Needs an arbiter token of this tournament (or the admin token).
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: false, content: {application/json: {schema: ForbiddenPairSchema}}}
      responses:
        201: {description: Done, content: {application/json: {schema: TournamentSchema}}}
    """
    raw = body()
    written = tournaments().forbid(tournament_id, forbidden_pair_schema.load(raw), **write_options(raw))
    return tournament_answer(tournament_id, written.tournament.version, 201)


@bp.put("/<tournament_id>/broadcast")
def set_broadcast(tournament_id: str):
    """Set the public's broadcast delay (whole seconds) and whether a finished game is public at once

    ---
    put:
      description: Needs an arbiter token of this tournament (or the admin token).
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: false, content: {application/json: {schema: BroadcastSchema}}}
      responses:
        200: {description: Done, content: {application/json: {schema: TournamentSchema}}}
    """
    raw = body()
    written = tournaments().set_broadcast(tournament_id, broadcast_schema.load(raw), **write_options(raw))
    return tournament_answer(tournament_id, written.tournament.version)


@bp.put("/<tournament_id>/tiebreaks")
def choose_tiebreaks(tournament_id: str):
    """Choose the order of tiebreaks (before round 1)

    ---
    put:
      description: Needs an arbiter token of this tournament (or the admin token).
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: false, content: {application/json: {schema: TiebreaksSchema}}}
      responses:
        200: {description: Done, content: {application/json: {schema: TournamentSchema}}}
    """
    raw = body()
    written = tournaments().choose_tiebreaks(tournament_id, tiebreaks_schema.load(raw), **write_options(raw))
    return tournament_answer(tournament_id, written.tournament.version)


# -- Rounds and boards -----------------------------------------------------------------


@bp.post("/<tournament_id>/rounds")
def pair_round(tournament_id: str):
    """Pair the next round (Berger, Swiss, or the boards given)

    ---
    post:
      description: Needs an arbiter token of this tournament (or the admin token).
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: false, content: {application/json: {schema: PairSchema}}}
      responses:
        201: {description: Done, content: {application/json: {schema: RoundSchema}}}
    """
    raw = body()
    written = tournaments().pair(tournament_id, pair_schema.load(raw), **write_options(raw))
    number = len(written.tournament.rounds)
    return round_response(tournament_id, number, 201)


@bp.post("/<tournament_id>/rounds/proposal")
def propose_round(tournament_id: str):
    """The next round as ``POST …/rounds`` with ``{}`` would pair it now; stores nothing.

    ---
    post:
      summary: The next round as the engine would pair it now, with the checker's findings; stores nothing
      description: Needs an arbiter token of this tournament (or the admin token).
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: false, content: {application/json: {schema: PairSchema}}}
      responses:
        200: {description: Done, content: {application/json: {schema: ProposedRoundSchema}}}
    """
    body()  # nothing to take, but a body that is not JSON is refused as anywhere
    t, proposal = tournaments().propose(tournament_id)
    answer = {
        **proposed_json(t, proposal.paired, proposal.findings),
        "forfeits": [{"board": e.board, "result": e.result} for e in proposal.forfeits],
        "empty_boards": proposed_empty_boards(t, proposal.paired),
        "expected": None,
    }
    return respond(proposed_round_schema.dump(answer), t.version)


@bp.post("/<tournament_id>/rounds/check")
def check_proposed_round(tournament_id: str):
    """The checker's findings on a proposed round (boards and byes, as ``POST …/rounds``
    takes them), against the engine's own; stores nothing.

    ---
    post:
      summary: The checker's findings on a proposed round (boards, byes), each naming its criterion; stores nothing
      description: Needs an arbiter token of this tournament (or the admin token).
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: false, content: {application/json: {schema: PairSchema}}}
      responses:
        200: {description: Done, content: {application/json: {schema: ProposedRoundSchema}}}
    """
    data = pair_schema.load(body())
    t, (proposed, expected, findings) = tournaments().check_proposal(tournament_id, data)
    answer = {**proposed_json(t, proposed, findings), "forfeits": []}
    answer["expected"] = None if expected is None else paired_json(t, expected)
    return respond(proposed_round_schema.dump(answer), t.version)


def proposed_empty_boards(t, paired) -> list[dict]:
    """A team round's boards its line-ups leave empty, as the pairing would store them: no
    game, the side that sits winning by forfeit."""
    ref = lambda n: None if n is None else {"number": n, "name": t.seated(n).name}  # noqa: E731
    empty = [EmptyBoard(e["board"], e["south"], e["north"], tuple(e["teams"])) for e in paired.empty or ()]
    return [{"board": e.board, "south": ref(e.south), "north": ref(e.north), "result": e.result} for e in empty]


def paired_json(t, paired) -> dict:
    ref = lambda n: {"number": n, "name": t.seated(n).name}  # noqa: E731
    return {
        "boards": [{"board": b["board"], "south": ref(b["south"]), "north": ref(b["north"])} for b in paired.boards],
        "byes": [{**ref(b["player"]), "points": b["points"]} for b in paired.byes],
    }


def proposed_json(t, paired, findings) -> dict:
    return {
        "tournament_id": t.tournament_id,
        "version": t.version,
        "round": paired.round,
        "method": paired.method,
        **paired_json(t, paired),
        "findings": [finding_json(t, f) for f in findings],
        "breaks": sorted({f.criterion for f in findings if f.criterion}),
    }


@bp.get("/<tournament_id>/rounds/<int:round_number>")
def get_round(tournament_id: str, round_number: int):
    """A round: boards, games, results, byes

    ---
    get:
      responses:
        200:
          description: 'A round: boards, games, results, byes'
          content: {application/json: {schema: RoundSchema}}
    """
    return round_response(tournament_id, round_number)


def round_response(tournament_id: str, round_number: int, status: int = 200) -> Response:
    view = tournament_view(tournament_id, visible_state_of)
    payload = round_schema.dump(views.round_json(view, views.find_round(view, round_number)))
    location = url_for("tournaments.get_round", tournament_id=tournament_id, round_number=round_number)
    return respond(payload, view.tournament.version, status, Location=location)


@bp.post("/<tournament_id>/rounds/<int:round_number>/boards/<int:board>/game")
def start_board_game(tournament_id: str, round_number: int, board: int):
    """Create the game of a board (its setup comes from the pairing)

    ---
    post:
      description: Needs an arbiter token of this tournament (or the admin token).
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: false, content: {application/json: {schema: BoardGameSchema}}}
      responses:
        201: {description: Done, content: {application/json: {schema: GameSchema}}}
    """
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
    """Enter the result of a board without a game: a game played on paper (kind played) or a forfeit

    ---
    post:
      description: Needs an arbiter token of this tournament (or the admin token).
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: false, content: {application/json: {schema: BoardResultSchema}}}
      responses:
        201: {description: Done, content: {application/json: {schema: RoundSchema}}}
    """
    raw = body()
    data = board_result_schema.load(raw)
    tournaments().record_forfeit(tournament_id, round_number, board, data, **write_options(raw))
    return round_response(tournament_id, round_number, 201)


@bp.post("/<tournament_id>/rounds/<int:round_number>/boards/<int:board>/correction")
def correct_board(tournament_id: str, round_number: int, board: int):
    """The admin's correction of a finished tournament's board: recorded first, with a
    reason, so the changes to its game that follow are shown as a correction.

    ---
    post:
      summary: Correct a board of a finished tournament, saying why (the board's game's commands follow)
      description: Needs the admin token.
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: false, content: {application/json: {schema: CorrectionSchema}}}
      responses:
        201: {description: Done, content: {application/json: {schema: TournamentSchema}}}
    """
    raw = body()
    data = correction_schema.load(raw)
    who = principal_record(principal())
    written = tournaments().correct(tournament_id, round_number, board, data, principal=who, **write_options(raw))
    return tournament_answer(tournament_id, written.tournament.version, 201)


@bp.post("/<tournament_id>/finish")
def finish_tournament(tournament_id: str):
    """The tournament finished by its arbiter or the admin: its arbiters' rights end.

    ---
    post:
      summary: 'Finish the tournament once every paired round has its results: its arbiters'' rights end'
      description: Needs an arbiter token of this tournament (or the admin token).
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: false, content: {application/json: {schema: FinishSchema}}}
      responses:
        201: {description: Done, content: {application/json: {schema: TournamentSchema}}}
    """
    raw = body()
    data = finish_schema.load(raw)
    who = principal_record(principal())
    written = tournaments().finish(tournament_id, data, principal=who, **write_options(raw))
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
    """Standings with tiebreaks

    ---
    get:
      responses:
        200:
          description: Standings with tiebreaks
          content: {application/json: {schema: StandingsSchema}}
    """
    view = tournament_view(tournament_id, visible_state_of)
    return respond(standings_schema.dump(views.standings_json(view)), view.tournament.version)


@bp.get("/<tournament_id>/check")
def get_pairing_check(tournament_id: str):
    """The pairing checker: every round re-paired by the rules and compared

    ---
    get:
      responses:
        200:
          description: 'The pairing checker: every round re-paired by the rules and compared'
          content: {application/json: {schema: PairingCheckSchema}}
    """
    view, checks = tournaments().check(tournament_id, visible_state_of)
    return respond(pairing_check_schema.dump(views.check_json(view, checks)), view.tournament.version)


@bp.get("/<tournament_id>/crosstable")
def get_crosstable(tournament_id: str):
    """The crosstable, rows in standings order

    ---
    get:
      responses:
        200:
          description: The crosstable, rows in standings order
          content: {application/json: {schema: CrosstableSchema}}
    """
    view = tournament_view(tournament_id, visible_state_of)
    return respond(crosstable_schema.dump(views.crosstable_json(view)), view.tournament.version)


# -- Board sign-ins (the round's arbiter or the admin) ------------------------------------------

NO_STORE = {"Cache-Control": "no-store"}  # a token is shown once: kept by no cache


@bp.post("/<tournament_id>/rounds/<int:round_number>/signins")
def issue_signins(tournament_id: str, round_number: int):
    """A sign-in per board of the round still to be played, each shown once, with its
    sign-in address and that address as a QR code (the token in the address's fragment,
    which no browser sends to a server); a board's earlier sign-ins are revoked.

    ---
    post:
      summary: Issue a sign-in per board of the round still to be played, each shown once with its address and
        QR code; a board's earlier sign-ins are revoked
      description: Needs an arbiter token of this tournament (or the admin token).
      responses:
        201: {description: Issued, content: {application/json: {schema: SigninListSchema}}}
    """
    body()
    t = tournaments().tournament(tournament_id)
    boards = tournaments().boards_to_play(tournament_id, round_number)
    issued = [signin_answer(t, *authenticator().issue_signin(tournament_id, round_number, b)) for b in boards]
    answer = signin_list_schema.dump({"round": round_number, "signins": issued})
    return respond(answer, t.version, 201, **NO_STORE)


def signin_json(t, row: dict) -> dict:
    round_number, board = signin_board(row["token_id"]) or (0, 0)
    seats = t.round(round_number).board(board)
    return {
        **views.token_json(row),
        "round": round_number,
        "board": board,
        "game_id": board_game_id(t.tournament_id, round_number, board),
        "south": t.seated(seats.south).name,
        "north": t.seated(seats.north).name,
    }


def signin_answer(t, row: dict, token: str) -> dict:
    """An issued sign-in: the token and the address that signs a device in with it."""
    answer = signin_json(t, row)
    address = f"{request.host_url.rstrip('/')}/sign-in#token={token}&next=/games/{answer['game_id']}"
    return {**answer, "token": token, "address": address, "qr_svg": address_qr_svg(address)}


@bp.get("/<tournament_id>/rounds/<int:round_number>/signins")
def list_signins(tournament_id: str, round_number: int):
    """The round's board sign-ins, revoked ones too (never their tokens).

    ---
    get:
      summary: The round's board sign-ins, revoked ones too (never their tokens)
      description: Needs an arbiter token of this tournament (or the admin token).
      security:
      - {bearerAuth: []}
      responses:
        200: {description: Sign-ins, content: {application/json: {schema: SigninListSchema}}}
        401: Problem
        403: Problem
    """
    t = tournaments().tournament(tournament_id)
    tournaments().boards_to_play(tournament_id, round_number)  # NotFound for a round not paired
    rows = authenticator().board_signins(tournament_id, round_number)
    answer = {"round": round_number, "signins": [signin_json(t, r) for r in rows]}
    return respond(signin_list_schema.dump(answer), t.version, 200, **NO_STORE)


@bp.delete("/<tournament_id>/rounds/<int:round_number>/signins/<token_id>")
def revoke_signin(tournament_id: str, round_number: int, token_id: str):
    """Revoke a board sign-in

    ---
    delete:
      description: Needs an arbiter token of this tournament (or the admin token).
      responses:
        200: {description: Revoked, content: {application/json: {schema: SigninSchema}}}
    """
    at = signin_board(token_id)
    if at is None or at[0] != round_number:
        raise NotFound(f"round {round_number} has no sign-in {token_id!r}", token_id=token_id)
    t = tournaments().tournament(tournament_id)
    return signin_schema.dump(signin_json(t, authenticator().revoke(token_id, tournament_id)))


# -- Players' sign-ins (the arbiter or the admin), check-in and disputes ------------------------


@bp.post("/<tournament_id>/players/signins")
def issue_player_signins(tournament_id: str):
    """A sign-in per player still in (or per player named in ``players``), each shown once
    with its sign-in address and QR code for his badge; a player's earlier sign-ins are
    revoked (a badge lost or printed again).

    ---
    post:
      summary: Issue a sign-in per player still in (or per player in `players`), each shown once with its address
        and QR code for his badge; a player's earlier sign-ins are revoked
      description: Needs an arbiter token of this tournament (or the admin token).
      responses:
        201: {description: Issued, content: {application/json: {schema: PlayerSigninListSchema}}}
        422: Invalid body or illegal move
    """
    raw = body()
    t = tournaments().tournament(tournament_id)
    wanted = raw.get("players") if isinstance(raw, dict) else None
    numbers = [e.number for e in t.entrants if not e.withdrawn]
    if wanted is not None:
        if not isinstance(wanted, list) or any(n not in numbers or type(n) is not int for n in wanted):
            raise InvalidRecord("players lists starting numbers of players still in", field="players")
        numbers = [n for n in numbers if n in wanted]
    issued = [player_signin_answer(t, *authenticator().issue_player_signin(tournament_id, n)) for n in numbers]
    return respond(player_signin_list_schema.dump({"signins": issued}), t.version, 201, **NO_STORE)


@bp.get("/<tournament_id>/players/signins")
def list_player_signins(tournament_id: str):
    """The players' sign-ins, revoked ones too (never their tokens).

    ---
    get:
      summary: The players' sign-ins, revoked ones too (never their tokens)
      description: Needs an arbiter token of this tournament (or the admin token).
      security:
      - {bearerAuth: []}
      responses:
        200:
          description: Sign-ins
          content: {application/json: {schema: PlayerSigninListSchema}}
        401: Problem
        403: Problem
    """
    t = tournaments().tournament(tournament_id)
    rows = authenticator().player_signins(tournament_id)
    answer = {"signins": [player_signin_json(t, row) for row in rows]}
    return respond(player_signin_list_schema.dump(answer), t.version, 200, **NO_STORE)


def player_signin_json(t, row: dict) -> dict:
    number = signin_player(row["token_id"]) or 0
    entrant = t.entrant(number)
    return {**views.token_json(row), "player": number, "name": entrant.name if entrant else None}


def player_signin_answer(t, row: dict, token: str) -> dict:
    """An issued player's sign-in: the token and the address his badge's QR code holds."""
    answer = player_signin_json(t, row)
    address = f"{request.host_url.rstrip('/')}/sign-in#token={token}&next=/tournaments/{t.tournament_id}"
    return {**answer, "token": token, "address": address, "qr_svg": address_qr_svg(address)}


@bp.post("/<tournament_id>/rounds/<int:round_number>/check-in")
def check_in(tournament_id: str, round_number: int):
    """The player of the presented sign-in checks in for a round: present, or absent (the
    absence the pairing knows, decided as the arbiter's ``POST …/absences``).

    ---
    post:
      summary: 'Check in for a round with a player''s own sign-in: present, or absent (the arbiter''s absence
        decision)'
      description: Needs a player's sign-in of this tournament (kind player).
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: false, content: {application/json: {schema: CheckInSchema}}}
      responses:
        201: {description: Done, content: {application/json: {schema: TournamentSchema}}}
    """
    raw = body()
    present = check_in_schema.load(raw)["present"]
    number = principal().player
    if number is None:
        raise InvalidRecord("a check-in is the player's own, made with his sign-in", field="token")
    written = tournaments().check_in(tournament_id, number, round_number, present, **write_options(raw))
    return tournament_answer(tournament_id, written.tournament.version, 201)


@bp.get("/<tournament_id>/disputes")
def list_disputes(tournament_id: str):
    """The open disputes and appeals of the tournament's board games, by round and board.

    ---
    get:
      summary: The open disputes and appeals of the tournament's board games
      description: Needs an arbiter token of this tournament (or the admin token).
      security:
      - {bearerAuth: []}
      responses:
        200:
          description: Open disputes
          content: {application/json: {schema: DisputeListSchema}}
        401: Problem
        403: Problem
    """
    t = tournaments().tournament(tournament_id)
    answer = dispute_list_schema.dump({"disputes": tournaments().open_disputes(t)})
    return respond(answer, t.version, 200, **NO_STORE)


# -- Tokens (admin) ------------------------------------------------------------------------


@bp.get("/<tournament_id>/tokens")
def list_tokens(tournament_id: str):
    """The tournament's arbiter tokens (never their secrets)

    ---
    get:
      description: Needs the admin token.
      security:
      - {bearerAuth: []}
      responses:
        200: {description: Tokens, content: {application/json: {schema: TokenListSchema}}}
        401: Problem
        403: Problem
    """
    tournaments().events(tournament_id)  # NotFound for an unknown tournament
    rows = authenticator().tokens.list_tokens(kind="arbiter", tournament_id=tournament_id)
    return token_list_schema.dump({"tokens": [views.token_json(r) for r in rows]})


@bp.post("/<tournament_id>/tokens")
def issue_token(tournament_id: str):
    """Issue an arbiter token (shown once)

    ---
    post:
      description: Needs the admin token.
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: false, content: {application/json: {schema: TokenCreateSchema}}}
      responses:
        201: {description: Done, content: {application/json: {schema: TokenSchema}}}
    """
    data = token_create_schema.load(body())
    tournaments().events(tournament_id)
    row, token = authenticator().issue("arbiter", data["holder"], tournament_id)
    response = token_schema.dump({**views.token_json(row), "token": token})
    return response, 201, {"Cache-Control": "no-store"}


@bp.delete("/<tournament_id>/tokens/<token_id>")
def revoke_token(tournament_id: str, token_id: str):
    """Revoke an arbiter token

    ---
    delete:
      description: Needs the admin token.
      responses:
        200: {description: Revoked, content: {application/json: {schema: TokenSchema}}}
    """
    return token_schema.dump(views.token_json(authenticator().revoke(token_id, tournament_id)))
