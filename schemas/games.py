"""Schemas for games: the setup a client sends and the game the service returns."""

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate

from recorder.core.clocks import MOST_STAGES
from recorder.rules import VARIANTS

from .fields import MAX_STORED_INT, Cursor, Int64, StrictInteger, date, name, player, search_name

VARIANT_NAMES = tuple(VARIANTS)  # GEN-1's order, as the registry holds them


class PositionField(fields.Field):
    """A start position (GEN-42): the §8 JSON object, or its one-line text (docs/notation.md)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            if not 0 < len(value) <= 400:
                raise ValidationError("a position text holds 1 to 400 characters")
            return value
        return fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True)).deserialize(value)


TIME_CONTROL = (
    "The time control, as metadata (the rules record readings, not controls): stages, each "
    "`moves` sowings by each player (every stage but the last) in `base_ms`, with "
    "`increment_ms` (Fischer) or `delay_ms` (Bronstein), not both. 40 moves in 90 minutes, "
    "then 30 minutes, 30 s added per sowing throughout: "
    '{"stages": [{"moves": 40, "base_ms": 5400000, "increment_ms": 30000}, '
    '{"base_ms": 1800000, "increment_ms": 30000}]}. A match runs one clock across its rounds.'
)


class TimeControlStageSchema(Schema):
    """One stage of a time control; what can exist is checked by ``core.clocks``."""

    moves = StrictInteger(validate=validate.Range(min=1))
    base_ms = StrictInteger(required=True, validate=validate.Range(min=0))
    increment_ms = StrictInteger(validate=validate.Range(min=0))
    delay_ms = StrictInteger(validate=validate.Range(min=0))


class TimeControlSchema(Schema):
    stages = fields.List(
        fields.Nested(TimeControlStageSchema), required=True, validate=validate.Length(min=1, max=MOST_STAGES)
    )


def time_control(**kwargs) -> fields.Nested:
    return fields.Nested(TimeControlSchema, metadata={"description": TIME_CONTROL}, **kwargs)


class GameCreateSchema(Schema):
    """POST /api/games (GEN-23, GEN-29, GEN-30, GEN-42)."""

    variant = fields.String(required=True, validate=validate.OneOf(VARIANT_NAMES))
    options = fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True), load_default=dict)
    south = name(required=True)
    north = name(required=True)
    first_player = player(allow_none=True, load_default=None)
    position = PositionField(allow_none=True, load_default=None)  # the §8 object or a position text
    event = name(allow_none=True)
    site = name(allow_none=True)
    date = date(allow_none=True)
    round = name(allow_none=True)
    # The registry players (docs/players.md) a game outside tournaments may name.
    south_player = fields.String(allow_none=True, validate=validate.Regexp(r"^p-[0-9a-f]{1,64}\Z"))
    north_player = fields.String(allow_none=True, validate=validate.Regexp(r"^p-[0-9a-f]{1,64}\Z"))
    time_control = time_control(allow_none=True)


CLOCK_FACE = (
    "The clocks (null without a time control or a reading): the latest reading "
    '{"south": ms, "north": ms}, "running" (the clock that runs: south, north, or null when paused, '
    'over or before the first move), "paused", and "at" and "seq": when and by which event the '
    "reading, pause or resume was recorded. A device ticks the running clock down from at."
)


class GameSchema(Schema):
    """A game as the service shows it (all fields are the server's)."""

    id = fields.String(dump_only=True)
    variant = fields.String(dump_only=True)
    options = fields.Dict(dump_only=True)
    south = fields.String(dump_only=True)
    north = fields.String(dump_only=True)
    # GET /api/games/{id}: the Ge'ez names of the registry players on each side (null: none, or none in Ge'ez)
    south_geez = fields.String(dump_only=True, allow_none=True)
    north_geez = fields.String(dump_only=True, allow_none=True)
    first_player = fields.String(dump_only=True, allow_none=True)
    position = fields.Dict(dump_only=True, allow_none=True)
    metadata = fields.Dict(dump_only=True)
    version = StrictInteger(dump_only=True)
    status = fields.String(dump_only=True)
    result = fields.String(dump_only=True, allow_none=True)
    created_at = fields.String(dump_only=True)
    state = fields.Dict(dump_only=True)
    clock = fields.Dict(dump_only=True, allow_none=True, metadata={"description": CLOCK_FACE})


class GameSummarySchema(Schema):
    id = fields.String(dump_only=True)
    variant = fields.String(dump_only=True)
    south = fields.String(dump_only=True)
    north = fields.String(dump_only=True)
    # the Ge'ez names of the registry players on each side (null: none, or none in Ge'ez)
    south_geez = fields.String(dump_only=True, allow_none=True)
    north_geez = fields.String(dump_only=True, allow_none=True)
    status = fields.String(dump_only=True)
    result = fields.String(dump_only=True, allow_none=True)
    created_at = fields.String(dump_only=True)
    updated_at = fields.String(dump_only=True, allow_none=True)
    metadata = fields.Dict(dump_only=True)


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSummarySchema), dump_only=True)
    next = Cursor(dump_only=True, allow_none=True)  # the next page's ``after``; null on the last page


class GameQuerySchema(Schema):
    """GET /api/games filters, newest first. ``after`` (the previous page's ``next``)
    pages by keyset, one page's cost however deep; ``offset`` costs what it skips."""

    variant = fields.String(validate=validate.OneOf(VARIANT_NAMES))
    player = search_name()
    tournament = search_name()
    event = search_name()
    limit = Int64(load_default=100, validate=validate.Range(min=1, max=1000))
    offset = Int64(load_default=0, validate=validate.Range(min=0, max=MAX_STORED_INT))
    after = Cursor(load_default=None)


class StateQuerySchema(Schema):
    at = Int64(validate=validate.Range(min=1, max=MAX_STORED_INT), load_default=None)


class EventSchema(Schema):
    """One stored event: sequence number, time, who recorded it, and the hash chain."""

    game_id = fields.String(dump_only=True)
    seq = StrictInteger(dump_only=True)
    type = fields.String(dump_only=True)
    payload = fields.Dict(dump_only=True)
    recorded_at = fields.String(dump_only=True)
    recorded_by = fields.String(dump_only=True, allow_none=True)
    prev_hash = fields.String(dump_only=True)
    hash = fields.String(dump_only=True)
    # Derived by folding (recorder/audit.py), never stored: who withdrew a move, and what a retraction withdrew.
    retracted_by_seq = StrictInteger(dump_only=True)
    retracts = fields.List(StrictInteger(), dump_only=True)


class EventListSchema(Schema):
    game_id = fields.String(dump_only=True)
    events = fields.List(fields.Nested(EventSchema), dump_only=True)


class RecordedSchema(Schema):
    """201 from POST /commands: the stored event, the new state and the new ETag."""

    event = fields.Nested(EventSchema, dump_only=True)
    events = fields.List(fields.Nested(EventSchema), dump_only=True)
    state = fields.Dict(dump_only=True)
    version = StrictInteger(dump_only=True)
    etag = fields.String(dump_only=True)


class VariantSchema(Schema):
    name = fields.String(dump_only=True)
    title = fields.String(dump_only=True)
    summary = fields.String(dump_only=True)
    board = fields.Dict(dump_only=True)
    tracks = fields.Dict(dump_only=True)
    default_owners = fields.Dict(dump_only=True)
    seeds_per_hole = StrictInteger(dump_only=True)
    total_seeds = StrictInteger(dump_only=True)
    special_kind = fields.String(dump_only=True, allow_none=True)
    decisions = fields.List(fields.String(), dump_only=True)
    needs_first_player = fields.Boolean(dump_only=True)
    options = fields.Dict(dump_only=True)


class VariantListSchema(Schema):
    variants = fields.List(fields.Nested(VariantSchema), dump_only=True)


class ProblemSchema(Schema):
    """RFC 9457 problem details, with the fields that help a client recover."""

    class Meta:
        # RFC 9457 problems are extensible (field, option, expected, actual, ...):
        # the document says so with additionalProperties: true (fuzzing).
        unknown = INCLUDE

    type = fields.String(dump_only=True)
    title = fields.String(dump_only=True)
    status = StrictInteger(dump_only=True)
    detail = fields.String(dump_only=True)
    instance = fields.String(dump_only=True)
    errors = fields.Dict(dump_only=True)
    to_move = fields.String(dump_only=True, allow_none=True)
    awaiting = fields.String(dump_only=True, allow_none=True)
    legal_moves = fields.List(fields.String(), dump_only=True)


game_create_schema = GameCreateSchema()
game_schema = GameSchema()
game_list_schema = GameListSchema()
game_query_schema = GameQuerySchema()
state_query_schema = StateQuerySchema()
event_schema = EventSchema()
event_list_schema = EventListSchema()
recorded_schema = RecordedSchema()
variant_list_schema = VariantListSchema()
