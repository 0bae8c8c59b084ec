"""Schemas for one game's notation and move list (GET /api/games/{id}/notation, /moves)."""

from marshmallow import Schema, fields, validate

from .fields import StrictInteger


class NotationQuerySchema(Schema):
    """``history=full`` writes every recorded event, retractions included (docs/notation.md)."""

    history = fields.String(validate=validate.OneOf(("effective", "full")), load_default="effective")


THINK = (
    "A sowing's think time: its player's previous reading minus this one, plus what the sowing added "
    "(the increment; the next stage's base time as a stage ends). With a delay, what the clock ran past it. "
    "Only when both readings are known."
)


class MoveSchema(Schema):
    seq = StrictInteger(dump_only=True)
    type = fields.String(dump_only=True)
    notation = fields.String(dump_only=True)
    player = fields.String(dump_only=True, metadata={"description": "A sowing's player: south or north."})
    # TIME-2: each player's remaining milliseconds just after the move, when it was recorded
    clock = fields.Dict(keys=fields.String(), values=StrictInteger(), dump_only=True)
    # What a sowing cost its player's clock, in milliseconds, when its readings say it
    think_ms = StrictInteger(dump_only=True, metadata={"description": THINK})


class MoveListSchema(Schema):
    """The effective moves, each written as the notation writes it."""

    game_id = fields.String(dump_only=True)
    moves = fields.List(fields.Nested(MoveSchema), dump_only=True)


notation_query_schema = NotationQuerySchema()
move_list_schema = MoveListSchema()
