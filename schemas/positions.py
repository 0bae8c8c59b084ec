"""Schemas for position search: GET /api/positions (recorder/api/positions.py)."""

from marshmallow import Schema, fields, validate

from .fields import StrictInteger


class PositionQuerySchema(Schema):
    """``fen``: a position text (docs/notation.md, "Position text"); ``limit``: occurrences at most."""

    fen = fields.String(required=True, validate=validate.Length(min=1, max=400))
    limit = fields.Integer(strict=False, validate=validate.Range(min=1, max=1000), load_default=100)


class OccurrenceSchema(Schema):
    game_id = fields.String(dump_only=True)
    seq = StrictInteger(dump_only=True)
    variant = fields.String(dump_only=True)
    options = fields.Dict(dump_only=True)
    south = fields.String(dump_only=True)
    north = fields.String(dump_only=True)
    clock = fields.Dict(
        keys=fields.String(),
        values=StrictInteger(),
        dump_only=True,
        metadata={"description": "TIME-2: the reading the event carried, when it carried one"},
    )


class PositionSearchSchema(Schema):
    position = fields.String(dump_only=True)
    occurrences = fields.List(fields.Nested(OccurrenceSchema), dump_only=True)
    truncated = fields.Boolean(dump_only=True)


position_query_schema = PositionQuerySchema()
position_search_schema = PositionSearchSchema()
