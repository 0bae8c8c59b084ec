"""Schemas for commands: one per ``type``, unknown fields rejected (GEN-21..GEN-28, GEN-31)."""

from marshmallow import Schema, ValidationError, fields, validate

from recorder.rules.base import RESULT_KINDS
from recorder.rules.values import HOLE_NAMES, OPENING_CHOICES

from .fields import PLAYERS, StrictInteger, hole, player

RACE_HOLES = (
    "An object naming every hole of the board (a1 ... f3) with the seeds it holds after the race, "
    'in all 54: {"a1": 4, "b1": 4, ..., "f3": 3}.'
)
RACE_EXAMPLE = dict(zip(HOLE_NAMES, (4, 4, 4, 3, 2, 4, 2, 3, 1, 5, 4, 2, 3, 1, 5, 2, 2, 3), strict=True))
DRAW_WINNER = "Must be one of: south, north, or null for a draw."
CLOCK = (
    "TIME-2: each player's remaining time in whole milliseconds just after this event, "
    'both keys, integers ≥ 0: {"south": 5321000, "north": 5400000}. Optional; never null.'
)

CLOCK_WHEN_STOPPED = (
    'Each player\'s remaining time in whole milliseconds when the clocks were stopped: {"south": 5321000, '
    '"north": 5400000}. Required.'
)


class ClockSchema(Schema):
    """TIME-2: a clock reading, exactly ``south`` and ``north`` (unknown keys refused)."""

    south = StrictInteger(required=True, validate=validate.Range(min=0))
    north = StrictInteger(required=True, validate=validate.Range(min=0))


def clock() -> fields.Nested:
    """The optional reading any sowing or decision may carry (TIME-2)."""
    return fields.Nested(ClockSchema, metadata={"description": CLOCK})


class CommandSchema(Schema):
    type = fields.String(required=True)
    expected_version = StrictInteger(validate=validate.Range(min=1))


class SowCommandSchema(CommandSchema):
    """GEN-21: the hole lifted; ``player``, if given, must be the player to move."""

    hole = hole(required=True)
    player = player()
    clock = clock()


class RaceCommandSchema(CommandSchema):
    """GEN-24, GEN-37: the race's winner and the whole board after it (Gabata)."""

    winner = player(required=True)
    holes = fields.Dict(
        keys=fields.String(),
        values=StrictInteger(validate=validate.Range(min=0)),
        required=True,
        error_messages={"invalid": RACE_HOLES.replace("{", "{{").replace("}", "}}")},  # marshmallow formats it
        metadata={"description": RACE_HOLES, "example": RACE_EXAMPLE},
    )
    clock = clock()


class OpeningCommandSchema(CommandSchema):
    """GEN-25: the Tuz opening."""

    choice = fields.String(required=True, validate=validate.OneOf(OPENING_CHOICES))
    clock = clock()


class LotCommandSchema(CommandSchema):
    """GEN-26."""

    winner = player(required=True)
    clock = clock()


class NextRoundCommandSchema(CommandSchema):
    """GEN-27, GEN-38: ``allocation: null`` is the same as omitting it."""

    first_player = player(required=True)
    allocation = fields.Dict(
        keys=fields.String(validate=validate.OneOf(("south", "north"))),
        values=fields.List(hole()),
        allow_none=True,
        load_default=None,
    )
    clock = clock()


class ResultCommandSchema(CommandSchema):
    """GEN-28, TIME-1: ``winner`` is required, ``null`` for a draw (``time``: both flags fell)."""

    kind = fields.String(required=True, validate=validate.OneOf(RESULT_KINDS))
    winner = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(PLAYERS, error=DRAW_WINNER),
        metadata={"description": DRAW_WINNER},
    )
    note = fields.String(allow_none=True, validate=validate.Length(max=2000))
    clock = clock()


class RetractCommandSchema(CommandSchema):
    """Withdraw the latest ``count`` effective moves, with a reason; nothing is erased."""

    count = StrictInteger(required=True, validate=validate.Range(min=1))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=2000))


class AnnotateCommandSchema(CommandSchema):
    text = fields.String(required=True, validate=validate.Length(min=1, max=5000))


class PauseClocksCommandSchema(CommandSchema):
    """The arbiter stops both clocks; ``clock`` is their reading when stopped (required)."""

    clock = fields.Nested(ClockSchema, required=True, metadata={"description": CLOCK_WHEN_STOPPED})


class ResumeClocksCommandSchema(CommandSchema):
    """The arbiter starts the clocks again; ``clock`` only when the reading changed."""

    clock = clock()


COMMAND_SCHEMAS = {
    "sow": SowCommandSchema(),
    "race": RaceCommandSchema(),
    "opening": OpeningCommandSchema(),
    "lot": LotCommandSchema(),
    "next_round": NextRoundCommandSchema(),
    "result": ResultCommandSchema(),
    "retract": RetractCommandSchema(),
    "annotate": AnnotateCommandSchema(),
    "pause_clocks": PauseClocksCommandSchema(),
    "resume_clocks": ResumeClocksCommandSchema(),
}


def load_command(data) -> dict:
    """Pick the schema by ``type`` and load; ValidationError names every field at fault."""
    if not isinstance(data, dict):
        raise ValidationError({"_schema": ["a command is a JSON object"]})
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in COMMAND_SCHEMAS:  # a list or an object cannot be looked up
        raise ValidationError({"type": [f"must be one of: {', '.join(COMMAND_SCHEMAS)}"]})
    return COMMAND_SCHEMAS[kind].load(data)
