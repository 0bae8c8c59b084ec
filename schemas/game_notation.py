"""Schemas for one game's notation and move list (GET /api/games/{id}/notation, /moves)."""

from marshmallow import Schema, fields, validate

from .fields import StrictInteger


class NotationQuerySchema(Schema):
    """``history=full`` writes every recorded event, retractions included (docs/notation.md)."""

    history = fields.String(validate=validate.OneOf(("effective", "full")), load_default="effective")


class MoveSchema(Schema):
    seq = StrictInteger(dump_only=True)
    type = fields.String(dump_only=True)
    notation = fields.String(dump_only=True)
    # TIME-2: each player's remaining milliseconds just after the move, when it was recorded
    clock = fields.Dict(keys=fields.String(), values=StrictInteger(), dump_only=True)


class MoveListSchema(Schema):
    """The effective moves, each written as the notation writes it."""

    game_id = fields.String(dump_only=True)
    moves = fields.List(fields.Nested(MoveSchema), dump_only=True)


notation_query_schema = NotationQuerySchema()
move_list_schema = MoveListSchema()
