"""OpenAPI paths of the auditing endpoints (appended to ``openapi.EXTENSIONS``)."""

from __future__ import annotations

from apispec import APISpec

import schemas.audit as audit_schemas

from .openapi import GAME_ID, _json, _problems

SCHEMAS = (
    "Claim",
    "ClaimReport",
    "WhatIf",
    "WhatIfReport",
    "CheckpointBody",
    "CheckpointCheck",
    "VerifyReport",
    "Checkpoint",
    "PublicKey",
    "Trace",
)
SEQ = {"name": "seq", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}


def _ok(description: str, ref: str) -> dict:
    return {"200": {"description": description, "content": _json(ref)}}


def _body(ref: str) -> dict:
    return {"required": True, "content": _json(ref)}


def document_audit_paths(spec: APISpec) -> None:
    for name in SCHEMAS:
        spec.components.schema(name, schema=getattr(audit_schemas, f"{name}Schema"))
    spec.path(
        path="/api/games/{game_id}/events/{seq}/trace",
        operations={
            "get": {
                "summary": "How event N made its position: ordered steps, each citing a rule id",
                "parameters": [GAME_ID, SEQ],
                "responses": {**_ok("Trace", "Trace"), **_problems(404)},
            }
        },
    )
    spec.path(
        path="/api/games/{game_id}/claims",
        operations={
            "post": {
                "summary": "Every point where a claimed position stood, or the closest one and its differences",
                "parameters": [GAME_ID],
                "requestBody": _body("Claim"),
                "responses": {**_ok("Claim report", "ClaimReport"), **_problems(400, 404, 422)},
            }
        },
    )
    spec.path(
        path="/api/games/{game_id}/what-if",
        operations={
            "post": {
                "summary": "Replay the record under other options: first differing and first illegal event",
                "parameters": [GAME_ID],
                "requestBody": _body("WhatIf"),
                "responses": {**_ok("What-if report", "WhatIfReport"), **_problems(400, 404, 422)},
            }
        },
    )
    spec.path(
        path="/api/games/{game_id}/verify",
        operations={
            "get": {
                "summary": "Recompute the hash chain and replay every event with full validation",
                "parameters": [GAME_ID],
                "responses": {**_ok("Verification", "VerifyReport"), **_problems(404)},
            },
            "post": {
                "summary": "Verify the record and check a printed checkpoint against it",
                "parameters": [GAME_ID],
                "requestBody": _body("CheckpointBody"),
                "responses": {**_ok("Verification", "VerifyReport"), **_problems(400, 404, 422)},
            },
        },
    )
    spec.path(
        path="/api/games/{game_id}/checkpoint",
        operations={
            "get": {
                "summary": "A finished game's signed checkpoint (head hash and version, Ed25519)",
                "parameters": [GAME_ID],
                "responses": {**_ok("Checkpoint", "Checkpoint"), **_problems(404, 409)},
            }
        },
    )
    spec.path(
        path="/api/games/{game_id}/checkpoint.svg",
        operations={
            "get": {
                "summary": "The checkpoint as a QR code (SVG) holding its text, for the printed scoresheet",
                "parameters": [GAME_ID],
                "responses": {
                    "200": {"description": "SVG", "content": {"image/svg+xml": {"schema": {"type": "string"}}}},
                    **_problems(404, 409),
                },
            }
        },
    )
    spec.path(
        path="/api/games/{game_id}/dossier",
        operations={
            "get": {
                "summary": "The signed appeal dossier: the whole stream, traces, clock readings, pairing check,"
                " checkpoint (docs/auditing.md); recorder verify --dossier checks it offline",
                "parameters": [GAME_ID, {"in": "query", "schema": audit_schemas.DossierQuerySchema}],
                "responses": {
                    "200": {
                        "description": "mancala-dossier/1: the format line, the canonical JSON body, the key id and"
                        " the Ed25519 signature over the first two lines' bytes",
                        "content": {"application/vnd.mancala-dossier": {"schema": {"type": "string"}}},
                    },
                    **_problems(404, 409, 422),
                },
            }
        },
    )
    spec.path(
        path="/api/keys/public",
        operations={
            "get": {
                "summary": "The service's Ed25519 public key: raw base64 and PEM",
                "responses": _ok("Public key", "PublicKey"),
            }
        },
    )
    spec.path(
        path="/api/games/{game_id}/board.svg",
        operations={
            "get": {
                "summary": "The board after event N as an SVG diagram",
                "parameters": [GAME_ID, {"in": "query", "schema": audit_schemas.BoardQuerySchema}],
                "responses": {
                    "200": {"description": "SVG", "content": {"image/svg+xml": {"schema": {"type": "string"}}}},
                    **_problems(404, 422),
                },
            }
        },
    )
