"""Position search: ``GET /api/positions?fen=…`` (recorder/projections.py ``search``).

Every game and event after which the given position stood, from the position index
(a projection rebuilt by ``recorder rebuild``), with each game's variant and options.
"""

from __future__ import annotations

from apispec import APISpec
from flask import Blueprint

from recorder.projections import search
from schemas.positions import position_query_schema, position_search_schema

from . import openapi
from .broadcast import horizon
from .games import recorder
from .problems import load_query

bp = Blueprint("positions", __name__, url_prefix="/api")


@bp.get("/positions")
def find_position():
    query = load_query(position_query_schema)
    return position_search_schema.dump(search(recorder(), query["fen"], limit=query["limit"], horizon=horizon))


def document_position_paths(spec: APISpec) -> None:
    import schemas.positions as position_schemas

    spec.components.schema("PositionSearch", schema=position_schemas.PositionSearchSchema)
    spec.path(
        path="/api/positions",
        operations={
            "get": {
                "summary": "Where a position occurred: games and event numbers (docs/notation.md, Position text)",
                "parameters": [{"in": "query", "schema": position_schemas.PositionQuerySchema}],
                "responses": {
                    "200": {"description": "The occurrences", "content": openapi._json("PositionSearch")},
                    **openapi._problems(422),
                },
            }
        },
    )


openapi.EXTENSIONS.append(document_position_paths)
