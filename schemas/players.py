"""Schemas for the player registry and the rating lists: what the admin and arbiters
send, and what everyone reads. The registry's own rules (a federation is three capital
letters, a birth year is not in the future) are decided in recorder/players/decide.py,
which names the field it refuses."""

from marshmallow import Schema, fields, validate

from .fields import Int64, StrictInteger
from .fields import name as text
from .games import VARIANT_NAMES

PERIOD = validate.Regexp(r"^[0-9]{4}-(0[1-9]|1[0-2])\Z", error="a period is a month, YYYY-MM")


class PlayerCreateSchema(Schema):
    """POST /api/players (the admin, or an arbiter). ``name`` may be left out when
    ``name_geez`` is given: the record's Latin name is then its transliteration."""

    name = text()
    name_geez = text(allow_none=True)
    federation = fields.String(required=True, validate=validate.Length(max=20))
    club = text(allow_none=True)
    birth_year = StrictInteger(allow_none=True)
    sex = fields.String(allow_none=True, validate=validate.Length(max=20))  # m or w (decided in players/decide.py)
    external_id = text(allow_none=True)
    force = fields.Boolean(load_default=False)  # another person with the same name: register anyway


class RenameSchema(Schema):
    """POST /api/players/{id}/name: the names as they now read."""

    name = text()
    name_geez = text(allow_none=True)


class AffiliationSchema(Schema):
    federation = fields.String(validate=validate.Length(max=20))
    club = text(allow_none=True)


class ParticularsSchema(Schema):
    """POST /api/players/{id}/particulars: sex (m or w) and birth year; null clears one."""

    sex = fields.String(allow_none=True, validate=validate.Length(max=20))
    birth_year = StrictInteger(allow_none=True)


class MergeSchema(Schema):
    """POST /api/players/{id}/merge (the admin): this record is a duplicate of ``into``."""

    into = fields.String(required=True, validate=validate.Length(max=80))
    # both records are entrants of one tournament (the 409 names it): merge them all the same
    entered_twice = fields.Boolean(load_default=False)
    reason = fields.String(allow_none=True, validate=validate.Length(max=2000))


class ReasonSchema(Schema):
    reason = fields.String(allow_none=True, validate=validate.Length(max=2000))


class PlayerQuerySchema(Schema):
    """GET /api/players: ``q`` matched from any word of either name on, case, spacing and
    diacritics ignored."""

    q = fields.String(load_default="", validate=validate.Length(max=200))
    limit = Int64(load_default=20, validate=validate.Range(min=1, max=100))


class RatingQuerySchema(Schema):
    period = fields.String(validate=PERIOD)
    federation = fields.String(validate=validate.Length(max=20))


class PlayerSummarySchema(Schema):
    id = fields.String(dump_only=True)
    name = fields.String(dump_only=True)
    name_geez = fields.String(dump_only=True, allow_none=True)
    federation = fields.String(dump_only=True)
    club = fields.String(dump_only=True, allow_none=True)
    birth_year = fields.Integer(dump_only=True, allow_none=True)
    sex = fields.String(dump_only=True, allow_none=True)


class PlayerSchema(PlayerSummarySchema):
    external_id = fields.String(dump_only=True, allow_none=True)
    merged_into = fields.String(dump_only=True, allow_none=True)
    survivor = fields.Nested(PlayerSummarySchema, dump_only=True, allow_none=True)
    version = fields.Integer(dump_only=True)
    tournaments = fields.List(fields.Dict(), dump_only=True)
    games = fields.List(fields.Dict(), dump_only=True)
    ratings = fields.Dict(dump_only=True)
    changes = fields.List(fields.Dict(), dump_only=True)  # who changed what: each event's recorder and principal


class PlayerListSchema(Schema):
    players = fields.List(fields.Nested(PlayerSummarySchema), dump_only=True)


class RatingListSchema(Schema):
    variant = fields.String(dump_only=True, validate=validate.OneOf(VARIANT_NAMES))
    period = fields.String(dump_only=True)
    published = fields.Boolean(dump_only=True)
    provisional_above = fields.Float(dump_only=True)
    periods = fields.List(fields.String(), dump_only=True)
    players = fields.List(fields.Dict(), dump_only=True)
    corrections = fields.List(fields.Dict(), dump_only=True)


player_create_schema = PlayerCreateSchema()
rename_schema = RenameSchema()
affiliation_schema = AffiliationSchema()
merge_schema = MergeSchema()
particulars_schema = ParticularsSchema()
reason_schema = ReasonSchema()
player_query_schema = PlayerQuerySchema()
rating_query_schema = RatingQuerySchema()
player_schema = PlayerSchema()
player_list_schema = PlayerListSchema()
rating_list_schema = RatingListSchema()
