"""The OpenAPI document, derived from the app's routes and the marshmallow schemas (apispec).

Each view states its own operation: its docstring's first paragraph is the summary, and
the YAML after ``---`` the rest (apispec's FlaskPlugin reads it; a schema named there is a
``schemas`` class, which the MarshmallowPlugin turns into its component). What every
operation of a kind shares is added here once, from what the route says
(``RouteConventions``): the path parameters from the rule's converters and the 404 of a
path naming nothing, the bearer security and the refusals of a write, the 409 of a view
taking If-Match and the 422 of a view taking a body, the definitions of
the If-Match and Idempotency-Key headers a view names, and the problem+json body of each
error response a view gives as a bare description.

Nothing is registered when a module is imported: the document is built from the app the
first time it is asked for, and kept in the app's extensions.
"""

from __future__ import annotations

import re
from typing import Any

from apispec import APISpec, BasePlugin
from apispec.exceptions import APISpecError
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec_webframeworks.flask import FlaskPlugin
from flask import Blueprint, Flask, current_app, jsonify
from werkzeug.routing import Rule

import schemas.archive as archive_schemas
import schemas.audit as audit_schemas
import schemas.commands as command_schemas
import schemas.game_notation as notation_schemas
import schemas.games as game_schemas
import schemas.knockout as knockout_schemas
import schemas.players as player_schemas
import schemas.positions as position_schemas
import schemas.prizes as prize_schemas
import schemas.signoffs as signoff_schemas
import schemas.teams as team_schemas
import schemas.tournaments as tournament_schemas

from .access import OPEN_POSTS, READS

bp = Blueprint("openapi", __name__, url_prefix="/api")

PROBLEM = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
HEADERS = {
    "If-Match": {
        "name": "If-Match",
        "in": "header",
        "required": False,
        "description": 'The version last seen, as the ETag: "N". A command needs it (or expected_version), else 428.',
        "schema": {"type": "string"},
    },
    "Idempotency-Key": {"name": "Idempotency-Key", "in": "header", "required": False, "schema": {"type": "string"}},
}
# What the guard and the app answer to any write before its view runs (recorder/api/access.py).
REFUSALS = {
    "400": "Malformed body",
    "401": "No valid bearer token",
    "403": "The token does not reach this resource",
    "413": "Body over the size limit (nothing stored)",
    "415": "Not application/json",
    "503": "Database unavailable",
}
# Every integer in a path counts from 1: an event's seq, a round, a board, an entrant's number.
CONVERTERS = {"int": {"type": "integer", "minimum": 1}}
# What a path parameter names, for the 404 of a path that names nothing.
NOUNS = {
    "game_id": "game",
    "seq": "event",
    "tournament_id": "tournament",
    "round_number": "round",
    "player_id": "player",
    "team_id": "team",
    "token_id": "token",
    "variant": "game",
    "code": "category",
}
ARGUMENT = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")

# The components, by name, in the order apispec must meet them: a nested schema before the
# schemas that hold it, so they refer to it by name. The prefixes keep the names of the
# tournaments' and the registry's resources from clashing (their players, their teams).
COMPONENTS: tuple[tuple[str, Any, tuple[str, ...]], ...] = (
    ("", game_schemas, ("GameCreate", "Game", "GameList", "EventList", "Recorded", "VariantList", "Problem")),
    ("", archive_schemas, ("ImportReport",)),
    (
        "Tournament",
        tournament_schemas,
        (
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
        ),
    ),
    (
        "",
        audit_schemas,
        (
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
        ),
    ),
    ("", notation_schemas, ("MoveList",)),
    ("", position_schemas, ("PositionSearch",)),
    (
        "Tournament",
        knockout_schemas,
        (
            "Handover",
            "Lot",
            "BracketPlayer",
            "BracketGame",
            "BracketMatch",
            "BracketStage",
            "BracketSeeding",
            "Bracket",
        ),
    ),
    (
        "Registry",
        player_schemas,
        (
            "PlayerCreate",
            "Rename",
            "Affiliation",
            "Particulars",
            "Merge",
            "Reason",
            "PlayerSummary",
            "Player",
            "PlayerList",
            "RatingList",
        ),
    ),
    (
        "Tournament",
        prize_schemas,
        ("Category", "Categories", "Prize", "Prizes", "CategoryStanding", "CategoryStandings", "Award", "PrizeList"),
    ),
    ("", signoff_schemas, ("Confirmation", "Dispute", "Decision")),
    ("Registry", team_schemas, ("Roster", "TeamCreate", "Team", "TeamList")),
    (
        "Tournament",
        team_schemas,
        (
            "TeamEntry",
            "Lineup",
            "Lineups",
            "TeamStanding",
            "TeamStandings",
            "TeamMatches",
            "BoardPrizes",
            "CaptainSignin",
        ),
    ),
)


def command_component(kind: str) -> str:
    """A command's component: ``next_round`` is ``NextRoundCommand``."""
    return "".join(part.title() for part in kind.split("_")) + "Command"


def _component_schemas(spec: APISpec) -> None:
    for prefix, module, names in COMPONENTS:
        for name in names:
            component = name if name.startswith(prefix) else prefix + name
            spec.components.schema(component, schema=getattr(module, f"{name}Schema"))
    for kind, schema in command_schemas.COMMAND_SCHEMAS.items():
        spec.components.schema(command_component(kind), schema=type(schema))
        spec.components.schemas[command_component(kind)]["properties"]["type"]["enum"] = [kind]


def path_parameters(rule: Rule) -> list[dict]:
    """The rule's arguments in the order the path names them, typed by their converters."""
    return [
        {"name": name, "in": "path", "required": True, "schema": dict(CONVERTERS.get(converter, {"type": "string"}))}
        for converter, name in ARGUMENT.findall(rule.rule)
    ]


def unknown(rule: Rule) -> str:
    """The 404's words: what the path's parameters name (``Unknown tournament, round or board``)."""
    nouns = [NOUNS.get(name, name) for _, name in ARGUMENT.findall(rule.rule)]
    return "Unknown " + (f"{', '.join(nouns[:-1])} or {nouns[-1]}" if len(nouns) > 1 else nouns[0])


def writes(method: str, rule: Rule) -> bool:
    """Does this operation need a bearer token? Every method but a read, except the open POSTs."""
    return method not in READS and rule.endpoint not in OPEN_POSTS


def summary_of(view: Any) -> str | None:
    """The docstring's first paragraph, on one line (the words before any ``---``)."""
    prose = (view.__doc__ or "").split("---")[0].strip()
    return " ".join(prose.split("\n\n")[0].split()) or None


def implied_refusals(operation: dict, rule: Rule, method: str) -> dict[str, str]:
    """The refusals an operation's route and declaration imply, beside those its view states:
    the 404 of a path naming something, the 409 of a view taking If-Match, the 422 of one
    taking a body, and what the guard answers to any write (``REFUSALS``)."""
    refusals = {}
    if rule.arguments:
        refusals["404"] = unknown(rule)
    if "If-Match" in operation.get("parameters", []):
        refusals["409"] = "Stale version"
    if "requestBody" in operation:
        refusals["422"] = "Invalid body or illegal move"
    if writes(method, rule):
        refusals.update(REFUSALS)
    return refusals


class RouteConventions(BasePlugin):
    """Completes each operation a view declares with what its route implies (the module's docstring)."""

    def operation_helper(self, path: str | None = None, operations: dict | None = None, **kwargs: Any) -> None:
        rule, view = kwargs["rule"], kwargs["view"]
        assert operations is not None
        methods = {method.lower() for method in rule.methods - {"HEAD", "OPTIONS"}}
        if set(operations) != methods:
            raise APISpecError(f"{rule.endpoint}: its docstring declares {sorted(operations)}, it serves {methods}")
        for method, operation in operations.items():
            self._complete(operation, rule, view, method.upper())

    @staticmethod
    def _complete(operation: dict, rule: Rule, view: Any, method: str) -> None:
        if "summary" not in operation and summary_of(view):
            operation["summary"] = summary_of(view)
        refusals = implied_refusals(operation, rule, method)  # before the headers' names become definitions
        named = [HEADERS[p] if isinstance(p, str) else p for p in operation.get("parameters", [])]
        if named or rule.arguments:
            operation["parameters"] = [*path_parameters(rule), *named]
        if writes(method, rule):
            operation["security"] = BEARER
        responses = {
            str(status): {"description": response, "content": PROBLEM} if isinstance(response, str) else response
            for status, response in operation.get("responses", {}).items()
        }
        for status, text in refusals.items():
            responses.setdefault(status, {"description": text, "content": PROBLEM})
        operation["responses"] = dict(sorted(responses.items()))


def derive_spec(app: Flask) -> dict:
    """The document of every route the app serves under /api, from its views and schemas."""
    spec = APISpec(
        title="Mancala record service",
        version="1.0.0",
        openapi_version="3.0.3",
        plugins=[FlaskPlugin(), RouteConventions(), MarshmallowPlugin()],
        info={"description": "Records Selus, Gabata, Qelat, Lahemay Walida and Tuz games as immutable events."},
    )
    spec.components.security_scheme("bearerAuth", {"type": "http", "scheme": "bearer"})
    _component_schemas(spec)
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            spec.path(view=app.view_functions[rule.endpoint], app=app, rule=rule)
    return spec.to_dict()


def build_spec(app: Flask) -> dict:
    """The app's document, derived the first time it is asked for."""
    if "openapi" not in app.extensions:
        app.extensions["openapi"] = derive_spec(app)
    return app.extensions["openapi"]


@bp.get("/openapi.json")
def openapi_document():
    """This document: every operation of the API, derived from its routes and schemas.

    ---
    get:
      responses:
        200:
          description: The OpenAPI document
          content: {application/json: {schema: {type: object}}}
    """
    return jsonify(build_spec(current_app))
