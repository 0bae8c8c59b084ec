"""Schemas for auditing: claims, what-if replays, traces, verification, checkpoints, diagrams."""

from marshmallow import Schema, fields, pre_load, validate

from .fields import Int64, StrictInteger, hole, player
from .games import EventSchema

SPECIAL_KINDS = ("wegue", "walda", "tuz")


class ClaimedSpecialSchema(Schema):
    """GEN-8: a special hole's kind and the player who made it."""

    kind = fields.String(required=True, validate=validate.OneOf(SPECIAL_KINDS))
    owner = player(required=True)


class ClaimedStoresSchema(Schema):
    south = StrictInteger(required=True, validate=validate.Range(min=0))
    north = StrictInteger(required=True, validate=validate.Range(min=0))


class ClaimedPositionSchema(Schema):
    """A position in the §8 shape; ``holes`` is required, every other field is compared only if given."""

    holes = fields.Dict(keys=hole(), values=StrictInteger(validate=validate.Range(min=0)), required=True)
    specials = fields.Dict(keys=hole(), values=fields.Nested(ClaimedSpecialSchema))
    owners = fields.Dict(keys=hole(), values=player())
    stores = fields.Nested(ClaimedStoresSchema)
    to_move = player(allow_none=True)


class ClaimSchema(Schema):
    """POST /api/games/{id}/claims: ``{"position": {...}}``, or the position itself."""

    position = fields.Nested(ClaimedPositionSchema, required=True)

    @pre_load
    def bare_position(self, data, **kwargs):
        if isinstance(data, dict) and "holes" in data and "position" not in data:
            return {"position": data}
        return data


class WhatIfSchema(Schema):
    """POST /api/games/{id}/what-if: option values to replay under (GEN-29), merged over the recorded ones."""

    options = fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True), required=True)


class CheckpointBodySchema(Schema):
    """POST /api/games/{id}/verify: a printed checkpoint to check against the record."""

    checkpoint = fields.String(required=True, validate=validate.Length(min=1, max=1000))


class BoardQuerySchema(Schema):
    """GET /api/games/{id}/board.svg: after event ``at`` (default latest), ``size`` pixels wide."""

    at = Int64(validate=validate.Range(min=1), load_default=None)
    size = Int64(validate=validate.Range(min=200, max=2000), load_default=640)


class DossierQuerySchema(Schema):
    """GET /api/games/{id}/dossier: ``moves``, the disputed events' seqs, comma-separated (at
    most 16); each ``what_if`` (at most 4) ``NAME=VALUE;NAME=VALUE`` (a VALUE is JSON or a
    plain word); each ``claim`` (at most 4) a position text (docs/notation.md)."""

    moves = fields.String(load_default="", validate=validate.Regexp(r"^(\d{1,9}(,\d{1,9}){0,15})?\Z"))
    what_if = fields.List(
        fields.String(validate=validate.Regexp(r"^[a-z_]{1,64}=[^;]{1,200}(;[a-z_]{1,64}=[^;]{1,200}){0,15}\Z")),
        load_default=list,
        validate=validate.Length(max=4),
    )
    claim = fields.List(
        fields.String(validate=validate.Length(min=1, max=400)), load_default=list, validate=validate.Length(max=4)
    )


class TraceSchema(EventSchema):
    """One stored event (the log's fields) with the positions around it and the engine's steps."""

    before = fields.Dict(dump_only=True, allow_none=True)
    after = fields.Dict(dump_only=True)
    steps = fields.List(fields.Dict(), dump_only=True)


class ClaimReportSchema(Schema):
    game_id = fields.String(dump_only=True)
    claim = fields.Dict(dump_only=True)
    stood = fields.Boolean(dump_only=True)
    matches = fields.List(fields.Dict(), dump_only=True)
    closest = fields.Dict(dump_only=True, allow_none=True)


class WhatIfReportSchema(Schema):
    game_id = fields.String(dump_only=True)
    recorded_options = fields.Dict(dump_only=True)
    what_if_options = fields.Dict(dump_only=True)
    events = StrictInteger(dump_only=True)
    replayed_to = StrictInteger(dump_only=True)
    diverges = fields.Boolean(dump_only=True)
    first_difference = fields.Dict(dump_only=True, allow_none=True)
    first_illegal = fields.Dict(dump_only=True, allow_none=True)
    recorded_final = fields.Dict(dump_only=True)
    what_if_final = fields.Dict(dump_only=True, allow_none=True)


class CheckpointCheckSchema(Schema):
    valid = fields.Boolean(dump_only=True)
    detail = fields.String(dump_only=True)
    checkpoint = fields.Dict(dump_only=True)
    record_version = StrictInteger(dump_only=True)
    later_events = fields.List(fields.Dict(), dump_only=True)


class VerifyReportSchema(Schema):
    game_id = fields.String(dump_only=True)
    ok = fields.Boolean(dump_only=True)
    version = StrictInteger(dump_only=True)
    head_hash = fields.String(dump_only=True, allow_none=True)
    chain_intact = fields.Boolean(dump_only=True)
    replay_valid = fields.Boolean(dump_only=True)
    first_broken_link = StrictInteger(dump_only=True, allow_none=True)
    detail = fields.String(dump_only=True)
    problems = fields.List(fields.Dict(), dump_only=True)
    result = fields.String(dump_only=True, allow_none=True)
    checkpoint = fields.Nested(CheckpointCheckSchema, dump_only=True)


class CheckpointSchema(Schema):
    game_id = fields.String(dump_only=True)
    version = StrictInteger(dump_only=True)
    head_hash = fields.String(dump_only=True)
    result = fields.String(dump_only=True)
    key_id = fields.String(dump_only=True)
    signature = fields.String(dump_only=True)
    text = fields.String(dump_only=True)


class PublicKeySchema(Schema):
    algorithm = fields.String(dump_only=True)
    key_id = fields.String(dump_only=True)
    public_key = fields.String(dump_only=True, metadata={"description": "raw 32-byte Ed25519 key, base64"})
    pem = fields.String(dump_only=True, metadata={"description": "SubjectPublicKeyInfo PEM"})


claim_schema = ClaimSchema()
what_if_schema = WhatIfSchema()
checkpoint_body_schema = CheckpointBodySchema()
board_query_schema = BoardQuerySchema()
dossier_query_schema = DossierQuerySchema()
trace_schema = TraceSchema()
claim_report_schema = ClaimReportSchema()
what_if_report_schema = WhatIfReportSchema()
verify_report_schema = VerifyReportSchema()
checkpoint_schema = CheckpointSchema()
public_key_schema = PublicKeySchema()
