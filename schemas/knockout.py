"""Schemas for knock-outs: the settings at creation, a stage's hand-over, a lot (docs/tournaments.md)."""

from marshmallow import Schema, fields, validate

from recorder.tournaments import TOURNAMENT_PREFIX
from recorder.tournaments.knockout import MAX_KNOCKOUT_PLAYERS, MAX_MATCH_GAMES, MAX_PLAYOFF_GAMES

from .fields import StrictInteger
from .games import time_control


class KnockoutSettingsSchema(Schema):
    """POST /api/tournaments, ``knockout``: each match's games, its play-off games and their clocks."""

    match_games = StrictInteger(load_default=2, validate=validate.Range(min=1, max=MAX_MATCH_GAMES))
    playoff_games = StrictInteger(load_default=2, validate=validate.Range(min=0, max=MAX_PLAYOFF_GAMES))
    playoff_time_control = time_control(allow_none=True)  # the play-off's faster clocks; absent: the tournament's


class HandoverSchema(Schema):
    """POST /api/tournaments/{id}/knockout/seeding: the top ``qualifiers`` of a finished stage."""

    source = fields.String(
        required=True, validate=[validate.Length(max=64), validate.Regexp(f"^{TOURNAMENT_PREFIX}[0-9a-f]+\\Z")]
    )
    qualifiers = StrictInteger(required=True, validate=validate.Range(min=2, max=MAX_KNOCKOUT_PLAYERS))


class LotSchema(Schema):
    """POST /api/tournaments/{id}/knockout/lots: the winner of a match level after its play-offs."""

    stage = StrictInteger(required=True, validate=validate.Range(min=1, max=8))
    match = StrictInteger(required=True, validate=validate.Range(min=1, max=MAX_KNOCKOUT_PLAYERS // 2))
    winner = StrictInteger(required=True, validate=validate.Range(min=1, max=MAX_KNOCKOUT_PLAYERS))
    note = fields.String(allow_none=True, validate=validate.Length(max=2000))


knockout_settings_schema = KnockoutSettingsSchema()
handover_schema = HandoverSchema()
lot_schema = LotSchema()


class BracketPlayerSchema(Schema):
    number = fields.Integer()
    name = fields.String()
    name_geez = fields.String(allow_none=True)  # the registry player's Ge'ez name, when he has one
    seed = fields.Integer()


class BracketGameSchema(Schema):
    """A game of a match: its board's game, who sat south (moved first), its result once over."""

    game = fields.Integer()
    round = fields.Integer()
    board = fields.Integer()
    game_id = fields.String(allow_none=True)  # null until the board's game is created
    south = fields.Integer()
    north = fields.Integer()
    playoff = fields.Boolean()
    result = fields.String(allow_none=True)


class BracketMatchSchema(Schema):
    """A match: its two places (null: a bye, or not yet known), score, play-off score, lot, winner."""

    stage = fields.Integer()
    match = fields.Integer()
    players = fields.List(fields.Nested(BracketPlayerSchema, allow_none=True))
    state = fields.String(metadata={"description": "game, playoff, lot (level after its play-offs), won, waiting"})
    score = fields.List(fields.Float())
    playoff_score = fields.List(fields.Float())
    lot = fields.Integer(allow_none=True)
    winner = fields.Integer(allow_none=True)
    games = fields.List(fields.Nested(BracketGameSchema))


class BracketStageSchema(Schema):
    stage = fields.Integer()
    name = fields.String(metadata={"description": "round_of_N, quarter_final, semi_final, final"})
    matches = fields.List(fields.Nested(BracketMatchSchema))


class BracketSeedingSchema(Schema):
    by = fields.String(metadata={"description": "rating, or standings (a stage's hand-over)"})
    source = fields.String(allow_none=True)
    source_places = fields.List(fields.Integer(), allow_none=True)


class BracketSchema(Schema):
    """GET /api/tournaments/{id}/bracket: every stage's matches, as the public sees the results."""

    tournament_id = fields.String()
    name = fields.String()
    status = fields.String()
    size = fields.Integer(allow_none=True)
    match_games = fields.Integer()
    playoff_games = fields.Integer()
    playoff_time_control = fields.Dict(allow_none=True)
    seeding = fields.Nested(BracketSeedingSchema, allow_none=True)
    stages = fields.List(fields.Nested(BracketStageSchema))
    champion = fields.Nested(BracketPlayerSchema, allow_none=True)


bracket_schema = BracketSchema()
