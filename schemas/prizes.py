"""Schemas for a tournament's categories and prize list: what an arbiter sends, what
everyone reads. What a category or a prize list may be (an age and its bound, places 1,
2, 3... in order) is decided in recorder/tournaments/categories.py, which names the field
it refuses."""

from marshmallow import Schema, fields, validate

from .fields import StrictInteger
from .fields import name as text
from .tournaments import StandingSchema, StandingsSchema

KINDS = ("age", "sex", "region", "rating")
SHORT = validate.Length(max=20)


class CategorySchema(Schema):
    """One category: ``code`` (U16, W, ERI, U1800), its ``kind`` and what decides it."""

    code = fields.String(required=True, validate=SHORT)
    name = text(allow_none=True)  # as the organiser writes it on his lists; the code by default
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    under = StrictInteger()  # age: U16 is under 16
    at_least = StrictInteger()  # age: S50 is at least 50
    sex = fields.String(validate=SHORT)  # sex: m or w
    federations = fields.List(fields.String(validate=SHORT))  # region
    clubs = fields.List(text())  # region
    min = StrictInteger()  # rating: the rating at entry, both ends included
    max = StrictInteger()


class CategoriesSchema(Schema):
    """PUT /api/tournaments/{id}/categories: the whole list, replacing the one before."""

    categories = fields.List(fields.Nested(CategorySchema), required=True)


class PrizeSchema(Schema):
    place = StrictInteger(required=True, validate=validate.Range(min=1, max=1000))
    amount = StrictInteger(required=True)  # whole units of the currency
    category = fields.String(allow_none=True, validate=SHORT)  # absent or null: the overall list


class PrizesSchema(Schema):
    """PUT /api/tournaments/{id}/prizes: the whole prize list and how a tie shares it."""

    prizes = fields.List(fields.Nested(PrizeSchema), required=True)
    sharing = fields.String(load_default="none", validate=validate.OneOf(("none", "hort")))
    currency = fields.String(allow_none=True, validate=SHORT)


class CategoryQuerySchema(Schema):
    """GET /api/tournaments/{id}/standings?category=CODE: one category's standings."""

    category = fields.String(validate=validate.Length(min=1, max=20))


class CategoryStandingSchema(StandingSchema):
    overall_rank = StrictInteger(dump_only=True)  # ``rank`` is the place in the category


class CategoryStandingsSchema(StandingsSchema):
    category = fields.Dict(dump_only=True)
    standings = fields.List(fields.Nested(CategoryStandingSchema), dump_only=True)


class AwardSchema(Schema):
    number = StrictInteger(dump_only=True)
    name = fields.String(dump_only=True)
    name_geez = fields.String(dump_only=True, allow_none=True)  # the registry player's, when he has one
    rank = StrictInteger(dump_only=True)  # in the standings
    category = fields.String(dump_only=True, allow_none=True)  # the list he is paid from (null: overall)
    place = StrictInteger(dump_only=True, allow_none=True)  # the place he took (null: joined a tie)
    amount = StrictInteger(dump_only=True)
    shared_places = fields.List(StrictInteger(), dump_only=True)  # the places a tie pooled (Hort)
    sharers = StrictInteger(dump_only=True)


class PrizeListSchema(Schema):
    tournament_id = fields.String(dump_only=True)
    status = fields.String(dump_only=True)
    final = fields.Boolean(dump_only=True)  # the tournament is finished
    sharing = fields.String(dump_only=True)
    currency = fields.String(dump_only=True, allow_none=True)
    offered = StrictInteger(dump_only=True)
    paid = StrictInteger(dump_only=True)
    categories = fields.List(fields.Dict(), dump_only=True)
    prizes = fields.List(fields.Dict(), dump_only=True)  # each: place, amount, category, taken_by
    awards = fields.List(fields.Nested(AwardSchema), dump_only=True)


categories_schema = CategoriesSchema()
prizes_schema = PrizesSchema()
category_query_schema = CategoryQuerySchema()
prize_list_schema = PrizeListSchema()
category_standings_schema = CategoryStandingsSchema()
