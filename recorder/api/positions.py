"""Position search: ``GET /api/positions?fen=…`` (recorder/projections.py ``search``).

Every game and event after which the given position stood, from the position index
(a projection rebuilt by ``recorder rebuild``), with each game's variant and options.
"""

from __future__ import annotations

from flask import Blueprint

from recorder.projections import search
from schemas.positions import position_query_schema, position_search_schema

from .broadcast import horizon
from .games import recorder
from .problems import load_query

bp = Blueprint("positions", __name__, url_prefix="/api")


@bp.get("/positions")
def find_position():
    """Where a position occurred: games and event numbers (docs/notation.md, Position text)

    ---
    get:
      parameters:
      - {in: query, schema: PositionQuerySchema}
      responses:
        200:
          description: The occurrences
          content: {application/json: {schema: PositionSearchSchema}}
        422: Invalid body or illegal move
    """
    query = load_query(position_query_schema)
    return position_search_schema.dump(search(recorder(), query["fen"], limit=query["limit"], horizon=horizon))
