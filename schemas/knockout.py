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
