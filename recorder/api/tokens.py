"""Recorder tokens over HTTP (the admin's): issue, list, revoke; and, for any holder,
what the token presented names (``GET /api/tokens/self``).

A recorder token may create games outside tournaments and write the games it created
(recorder/auth/policy.py). The token is in the response that issues it and nowhere else;
the database keeps its digest. Arbiter tokens are issued under their tournament
(recorder/api/tournaments.py); this list shows every kind but the admin's.
"""

from __future__ import annotations

from flask import Blueprint, request

from recorder.auth.policy import Action, Resource, allowed, refusal
from recorder.auth.tokens import Principal
from recorder.errors import Unauthorized
from recorder.tournaments import views
from schemas.tournaments import (
    token_create_schema,
    token_list_schema,
    token_schema,
    token_self_query_schema,
    token_self_schema,
)

from .access import authenticator, bearer_token, game_resource, rights_ended
from .body import json_body

bp = Blueprint("tokens", __name__, url_prefix="/api/tokens")


@bp.get("")
def list_tokens():
    """Every recorder and arbiter token (never their secrets)

    ---
    get:
      description: Needs the admin token.
      security:
      - {bearerAuth: []}
      responses: {200: {description: Tokens, content: {application/json: {schema: TokenListSchema}}}}
    """
    rows = authenticator().tokens.list_tokens()
    return token_list_schema.dump({"tokens": [views.token_json(r) for r in rows]})


@bp.post("")
def issue_token():
    """Issue a recorder token (shown once): it creates games and writes the games it created

    ---
    post:
      description: Needs the admin token.
      requestBody: {required: true, content: {application/json: {schema: TokenCreateSchema}}}
      responses:
        201: {description: Issued, content: {application/json: {schema: TokenSchema}}}
    """
    data = token_create_schema.load(json_body())
    row, token = authenticator().issue("recorder", data["holder"])
    return token_schema.dump({**views.token_json(row), "token": token}), 201, {"Cache-Control": "no-store"}


@bp.get("/self")
def token_self():
    """The principal the bearer token names (401 for none, unknown or revoked) and, for a
    named game or tournament, whether it may write there: what a page needs to know before
    offering to record. One indexed lookup of the token's digest, as for any write; the
    token is its own proof, so nothing can be learnt here about any other token.

    ---
    get:
      summary: Who the presented token names, and whether it may write a game or a tournament
      description: Any valid token (or none in open mode). With ?game=ID or ?tournament=ID the answer says whether
        the token may write there (may_write) and, if not, why (refusal).
      security:
      - {bearerAuth: []}
      parameters:
      - {name: game, in: query, required: false, schema: {type: string}}
      - {name: tournament, in: query, required: false, schema: {type: string}}
      responses:
        200:
          description: The token's principal
          content: {application/json: {schema: TokenSelfSchema}}
        401: Problem
        404: Unknown game or tournament
        422: Invalid body or illegal move
    """
    query = token_self_query_schema.load(request.args)
    token = bearer_token()
    principal = authenticator().authenticate(token)
    if principal is None:
        raise Unauthorized("the bearer token is unknown or revoked" if token else "no bearer token was sent")
    answer = {
        "kind": principal.kind,
        "holder": principal.holder,
        "tournament_id": principal.tournament_id,
        "id": principal.token_id,
    }
    if principal.kind == "player":
        answer["player"] = principal.player  # his starting number in his tournament
    asked = _asked_about(query, principal)
    if asked is not None:
        action, resource = asked
        may = allowed(principal, action, resource)
        answer.update(may_write=may, refusal=None if may else refusal(principal, action, resource))
        if "game" in query and principal.kind == "player":  # may he confirm or dispute its record?
            answer.update(may_sign=allowed(principal, "sign_record", resource))
    return token_self_schema.dump(answer), 200, {"Cache-Control": "no-store", "Vary": "Authorization"}


def _asked_about(query: dict, principal: Principal) -> tuple[Action, Resource] | None:
    if "game" in query:
        return "write_game", game_resource(query["game"], principal)
    if "tournament" in query:
        tournament_id = query["tournament"]
        finished = rights_ended(principal, tournament_id)
        return "write_tournament", Resource(tournament_id=tournament_id, finished=finished)
    return None


@bp.delete("/<token_id>")
def revoke_token(token_id: str):
    """Revoke a token

    ---
    delete:
      description: Needs the admin token.
      responses:
        200: {description: Revoked, content: {application/json: {schema: TokenSchema}}}
    """
    return token_schema.dump(views.token_json(authenticator().revoke(token_id)))
