"""OpenAPI paths of the tournament endpoints (appended to ``openapi.EXTENSIONS``)."""

from __future__ import annotations

from apispec import APISpec

import schemas.tournaments as tournament_schemas

from .openapi import IDEMPOTENCY, IF_MATCH, _json, _problems

# Nested schemas come before the schemas that hold them, so apispec refers to them by name.
SCHEMAS = (
    "TournamentCreate",
    "PlayerCreate",
    "Withdrawal",
    "Absence",
    "ForbiddenPair",
    "Tiebreaks",
    "Broadcast",
    "ManualBoard",
    "ManualBye",
    "Pair",
    "BoardGame",
    "BoardResult",
    "Correction",
    "TokenCreate",
    "Entrant",
    "Round",
    "Token",
    "Standing",
    "CrosstableRow",
    "TournamentSummary",
    "Tournament",
    "TournamentList",
    "Standings",
    "Crosstable",
    "TokenList",
    "RoundCheck",
    "PairingCheck",
    "TokenSelf",
    "ProposedRound",
    "Finish",
    "Signin",
    "SigninList",
    "PlayerSignin",
    "PlayerSigninList",
    "DisputeList",
    "CheckIn",
)
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
TOURNAMENT_ID = {"name": "tournament_id", "in": "path", "required": True, "schema": {"type": "string"}}


def component(name: str) -> str:
    """Component names carry "Tournament" so they never clash with other resources'."""
    return name if name.startswith("Tournament") else f"Tournament{name}"


def _int(name: str) -> dict:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}


def _reply(status: int, description: str, ref: str) -> dict:
    ref = component(ref) if ref in SCHEMAS else ref
    return {str(status): {"description": description, "content": _json(ref)}}


def _read(summary: str, ref: str, *parameters) -> dict:
    return {
        "get": {
            "summary": summary,
            "parameters": [TOURNAMENT_ID, *parameters],
            "responses": {**_reply(200, summary, ref), **_problems(404)},
        }
    }


def _write(summary: str, body: str, reply: str, *parameters, status: int = 201, admin: bool = False) -> dict:
    who = "the admin token" if admin else "an arbiter token of this tournament (or the admin token)"
    return {
        "summary": summary,
        "description": f"Needs {who}.",
        "security": BEARER,
        "parameters": [*parameters, IF_MATCH, IDEMPOTENCY],
        "requestBody": {"required": False, "content": _json(component(body))},
        "responses": {**_reply(status, "Done", reply), **_problems(400, 401, 403, 404, 409, 422)},
    }


def document_tournament_paths(spec: APISpec) -> None:
    for name in SCHEMAS:
        spec.components.schema(component(name), schema=getattr(tournament_schemas, f"{name}Schema"))
    _tournament_paths(spec)
    _round_paths(spec)
    _finish_path(spec)
    _signin_paths(spec)
    _player_paths(spec)
    _token_paths(spec)


def _player_paths(spec: APISpec) -> None:
    """Players' sign-ins for their badges, a player's check-in, the open disputes."""
    who = "Needs an arbiter token of this tournament (or the admin token)."
    listing = {
        "summary": "The players' sign-ins, revoked ones too (never their tokens)",
        "security": BEARER,
        "description": who,
        "parameters": [TOURNAMENT_ID],
        "responses": {**_reply(200, "Sign-ins", "PlayerSigninList"), **_problems(401, 403, 404)},
    }
    issue = {
        "summary": "Issue a sign-in per player still in (or per player in `players`), each shown once with its"
        " address and QR code for his badge; a player's earlier sign-ins are revoked",
        "security": BEARER,
        "description": who,
        "parameters": [TOURNAMENT_ID],
        "responses": {**_reply(201, "Issued", "PlayerSigninList"), **_problems(401, 403, 404, 422)},
    }
    spec.path(path="/api/tournaments/{tournament_id}/players/signins", operations={"get": listing, "post": issue})
    check_in = _write(
        "Check in for a round with a player's own sign-in: present, or absent (the arbiter's absence decision)",
        "CheckIn",
        "Tournament",
        TOURNAMENT_ID,
        _int("round_number"),
    )
    check_in["description"] = "Needs a player's sign-in of this tournament (kind player)."
    spec.path(path="/api/tournaments/{tournament_id}/rounds/{round_number}/check-in", operations={"post": check_in})
    disputes = {
        "summary": "The open disputes and appeals of the tournament's board games",
        "security": BEARER,
        "description": who,
        "parameters": [TOURNAMENT_ID],
        "responses": {**_reply(200, "Open disputes", "DisputeList"), **_problems(401, 403, 404)},
    }
    spec.path(path="/api/tournaments/{tournament_id}/disputes", operations={"get": disputes})


def _tournament_paths(spec: APISpec) -> None:
    spec.path(
        path="/api/tournaments",
        operations={
            "get": {
                "summary": "List tournaments, newest first",
                "parameters": [{"in": "query", "schema": tournament_schemas.PageSchema}],
                "responses": {**_reply(200, "Tournaments", "TournamentList"), **_problems(422)},
            },
            "post": _write("Create a tournament", "TournamentCreate", "Tournament", admin=True),
        },
    )
    spec.path(
        path="/api/tournaments/trf",
        operations={
            "post": {
                "summary": "Create a tournament from a FIDE TRF (TRF-2026 or TRF-16): players, ratings, played rounds",
                "description": (
                    "Needs the admin token. A refused line is a 422 naming its line and column. The new"
                    " tournament's id comes from the file's content: the same file imported again is a 200"
                    " with the tournament it made."
                ),
                "security": BEARER,
                "parameters": [{"in": "query", "schema": tournament_schemas.TrfImportQuerySchema}, IDEMPOTENCY],
                "requestBody": {"required": True, "content": {"text/plain": {"schema": {"type": "string"}}}},
                "responses": {
                    **_reply(200, "Imported before: the tournament this file made", "Tournament"),
                    **_reply(201, "Created", "Tournament"),
                    **_problems(400, 401, 403, 409, 415, 422),
                },
            }
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/trf",
        operations={
            "get": {
                "summary": "The tournament as a FIDE TRF (TRF-2026, or TRF-16 with layout=16)",
                "parameters": [TOURNAMENT_ID, {"in": "query", "schema": tournament_schemas.TrfQuerySchema}],
                "responses": {
                    "200": {"description": "The file", "content": {"text/plain": {"schema": {"type": "string"}}}},
                    **_problems(404, 422),
                },
            }
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}",
        operations=_read("A tournament: players, rounds, boards, results", "Tournament"),
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/events",
        operations={
            "get": {
                "summary": "The tournament's event log with hashes",
                "parameters": [TOURNAMENT_ID],
                "responses": {"200": {"description": "Events", "content": _json("EventList")}, **_problems(404)},
            }
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/players",
        operations={
            "post": _write(
                "Register a player (a late entry after round 1 in a Swiss)", "PlayerCreate", "Entrant", TOURNAMENT_ID
            )
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/players/{number}/withdrawal",
        operations={
            "post": _write(
                "Withdraw a player from the rounds not yet paired",
                "Withdrawal",
                "Entrant",
                TOURNAMENT_ID,
                _int("number"),
            )
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/absences",
        operations={
            "post": _write(
                "Declare a player's absence from a round not yet paired (he has the absence bye)",
                "Absence",
                "Tournament",
                TOURNAMENT_ID,
            )
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/absences/{round_number}/{number}",
        operations={
            "delete": {
                "summary": "Take back a declared absence, before its round is paired",
                "security": BEARER,
                "description": "Needs an arbiter token of this tournament (or the admin token).",
                "parameters": [TOURNAMENT_ID, _int("round_number"), _int("number"), IF_MATCH, IDEMPOTENCY],
                "responses": {**_reply(200, "Taken back", "Tournament"), **_problems(401, 403, 404, 409, 422)},
            }
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/forbidden-pairs",
        operations={
            "post": _write(
                "Forbid pairings: players no two of whom may meet (family, team-mates)",
                "ForbiddenPair",
                "Tournament",
                TOURNAMENT_ID,
            )
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/tiebreaks",
        operations={
            "put": _write(
                "Choose the order of tiebreaks (before round 1)", "Tiebreaks", "Tournament", TOURNAMENT_ID, status=200
            )
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/broadcast",
        operations={
            "put": _write(
                "Set the public's broadcast delay (whole seconds) and whether a finished game is public at once",
                "Broadcast",
                "Tournament",
                TOURNAMENT_ID,
                status=200,
            )
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/standings", operations=_read("Standings with tiebreaks", "Standings")
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/check",
        operations=_read("The pairing checker: every round re-paired by the rules and compared", "PairingCheck"),
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/crosstable",
        operations=_read("The crosstable, rows in standings order", "Crosstable"),
    )


def _finish_path(spec: APISpec) -> None:
    spec.path(
        path="/api/tournaments/{tournament_id}/finish",
        operations={
            "post": _write(
                "Finish the tournament once every paired round has its results: its arbiters' rights end",
                "Finish",
                "Tournament",
                TOURNAMENT_ID,
            )
        },
    )


def _round_paths(spec: APISpec) -> None:
    round_number, board = _int("round_number"), _int("board")
    spec.path(
        path="/api/tournaments/{tournament_id}/rounds",
        operations={
            "post": _write("Pair the next round (Berger, Swiss, or the boards given)", "Pair", "Round", TOURNAMENT_ID)
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/rounds/proposal",
        operations={
            "post": _write(
                "The next round as the engine would pair it now, with the checker's findings; stores nothing",
                "Pair",
                "ProposedRound",
                TOURNAMENT_ID,
                status=200,
            )
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/rounds/check",
        operations={
            "post": _write(
                "The checker's findings on a proposed round (boards, byes), each naming its criterion; stores nothing",
                "Pair",
                "ProposedRound",
                TOURNAMENT_ID,
                status=200,
            )
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/rounds/{round_number}",
        operations=_read("A round: boards, games, results, byes", "Round", round_number),
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/rounds/{round_number}/boards/{board}/game",
        operations={
            "post": _write(
                "Create the game of a board (its setup comes from the pairing)",
                "BoardGame",
                "Game",
                TOURNAMENT_ID,
                round_number,
                board,
            )
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/rounds/{round_number}/boards/{board}/result",
        operations={
            "post": _write(
                "Enter the result of a board without a game: a game played on paper (kind played) or a forfeit",
                "BoardResult",
                "Round",
                TOURNAMENT_ID,
                round_number,
                board,
            )
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/rounds/{round_number}/boards/{board}/correction",
        operations={
            "post": _write(
                "Correct a board of a finished tournament, saying why (the board's game's commands follow)",
                "Correction",
                "Tournament",
                TOURNAMENT_ID,
                round_number,
                board,
                admin=True,
            )
        },
    )


def _signin_paths(spec: APISpec) -> None:
    round_number = _int("round_number")
    token_id = {"name": "token_id", "in": "path", "required": True, "schema": {"type": "string"}}
    who = "Needs an arbiter token of this tournament (or the admin token)."
    spec.path(
        path="/api/tournaments/{tournament_id}/rounds/{round_number}/signins",
        operations={
            "get": {
                "summary": "The round's board sign-ins, revoked ones too (never their tokens)",
                "security": BEARER,
                "description": who,
                "parameters": [TOURNAMENT_ID, round_number],
                "responses": {**_reply(200, "Sign-ins", "SigninList"), **_problems(401, 403, 404)},
            },
            "post": {
                "summary": "Issue a sign-in per board of the round still to be played, each shown once"
                " with its address and QR code; a board's earlier sign-ins are revoked",
                "security": BEARER,
                "description": who,
                "parameters": [TOURNAMENT_ID, round_number],
                "responses": {**_reply(201, "Issued", "SigninList"), **_problems(401, 403, 404)},
            },
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/rounds/{round_number}/signins/{token_id}",
        operations={
            "delete": {
                "summary": "Revoke a board sign-in",
                "security": BEARER,
                "description": who,
                "parameters": [TOURNAMENT_ID, round_number, token_id],
                "responses": {**_reply(200, "Revoked", "Signin"), **_problems(401, 403, 404)},
            }
        },
    )


def _token_paths(spec: APISpec) -> None:
    token_id = {"name": "token_id", "in": "path", "required": True, "schema": {"type": "string"}}
    spec.path(
        path="/api/tournaments/{tournament_id}/tokens",
        operations={
            "get": {
                "summary": "The tournament's arbiter tokens (never their secrets)",
                "security": BEARER,
                "description": "Needs the admin token.",
                "parameters": [TOURNAMENT_ID],
                "responses": {**_reply(200, "Tokens", "TokenList"), **_problems(401, 403, 404)},
            },
            "post": _write("Issue an arbiter token (shown once)", "TokenCreate", "Token", TOURNAMENT_ID, admin=True),
        },
    )
    spec.path(
        path="/api/tournaments/{tournament_id}/tokens/{token_id}",
        operations={
            "delete": {
                "summary": "Revoke an arbiter token",
                "security": BEARER,
                "description": "Needs the admin token.",
                "parameters": [TOURNAMENT_ID, token_id],
                "responses": {**_reply(200, "Revoked", "Token"), **_problems(401, 403, 404)},
            }
        },
    )
