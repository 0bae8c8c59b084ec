"""Recorder tokens over HTTP (the admin's): issue, list, revoke.

A recorder token may create games outside tournaments and write the games it created
(recorder/auth/policy.py). The token is in the response that issues it and nowhere else;
the database keeps its digest. Arbiter tokens are issued under their tournament
(recorder/api/tournaments.py); this list shows every kind but the admin's.
"""

from __future__ import annotations

from apispec import APISpec
from flask import Blueprint

from recorder.tournaments import views
from schemas.tournaments import token_create_schema, token_list_schema, token_schema

from . import openapi
from .access import authenticator
from .body import json_body

bp = Blueprint("tokens", __name__, url_prefix="/api/tokens")


@bp.get("")
def list_tokens():
    rows = authenticator().tokens.list_tokens()
    return token_list_schema.dump({"tokens": [views.token_json(r) for r in rows]})


@bp.post("")
def issue_token():
    data = token_create_schema.load(json_body())
    row, token = authenticator().issue("recorder", data["holder"])
    return token_schema.dump({**views.token_json(row), "token": token}), 201, {"Cache-Control": "no-store"}


@bp.delete("/<token_id>")
def revoke_token(token_id: str):
    return token_schema.dump(views.token_json(authenticator().revoke(token_id)))


def document_token_paths(spec: APISpec) -> None:
    token_id = {"name": "token_id", "in": "path", "required": True, "schema": {"type": "string"}}
    admin = "Needs the admin token."
    spec.path(
        path="/api/tokens",
        operations={
            "get": {
                "summary": "Every recorder and arbiter token (never their secrets)",
                "description": admin,
                "security": openapi.BEARER,
                "responses": {"200": {"description": "Tokens", "content": openapi._json("TournamentTokenList")}},
            },
            "post": {
                "summary": "Issue a recorder token (shown once): it creates games and writes the games it created",
                "description": admin,
                "requestBody": {"required": True, "content": openapi._json("TournamentTokenCreate")},
                "responses": {
                    "201": {"description": "Issued", "content": openapi._json("TournamentToken")},
                    **openapi._problems(422),
                },
            },
        },
    )
    spec.path(
        path="/api/tokens/{token_id}",
        operations={
            "delete": {
                "summary": "Revoke a token",
                "description": admin,
                "parameters": [token_id],
                "responses": {
                    "200": {"description": "Revoked", "content": openapi._json("TournamentToken")},
                    **openapi._problems(404),
                },
            }
        },
    )


openapi.EXTENSIONS.append(document_token_paths)
