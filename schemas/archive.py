"""Schemas for archives: the export filters and the import report (recorder/archive.py)."""

from marshmallow import Schema, fields, validate

from .fields import StrictInteger, date, search_name
from .games import VARIANT_NAMES

RESULT_FILTERS = ("south_wins", "north_wins", "draw", "unfinished")


class ExportQuerySchema(Schema):
    """GET /api/export filters; the format comes from the Accept header."""

    variant = fields.String(validate=validate.OneOf(VARIANT_NAMES))
    player = search_name()
    tournament = search_name()
    date_from = date()
    date_to = date()
    result = fields.String(validate=validate.OneOf(RESULT_FILTERS))
    history = fields.String(validate=validate.OneOf(("effective", "full")), load_default="effective")


class ImportQuerySchema(Schema):
    """POST /api/import: ``source`` names the file in error messages."""

    source = fields.String(validate=validate.Length(min=1, max=200), load_default="request")


class ImportErrorSchema(Schema):
    """Why a game was refused, and where: line and column in the file, what was expected."""

    title = fields.String(dump_only=True)
    detail = fields.String(dump_only=True)
    source = fields.String(dump_only=True)
    game = StrictInteger(dump_only=True)
    game_id = fields.String(dump_only=True)
    line = StrictInteger(dump_only=True)
    column = StrictInteger(dump_only=True)
    expected = fields.String(dump_only=True)
    field = fields.String(dump_only=True)  # the field at fault, when one is named (a restore's recorded_at)


class GameReportSchema(Schema):
    index = StrictInteger(dump_only=True)
    status = fields.String(dump_only=True, metadata={"enum": ["imported", "exists", "refused"]})
    game_id = fields.String(dump_only=True)
    events = StrictInteger(dump_only=True)
    players = fields.Dict(keys=fields.String(), values=fields.String(), dump_only=True)
    error = fields.Nested(ImportErrorSchema, dump_only=True)
    detail = fields.String(dump_only=True)  # for "exists": the same record was imported before


class ImportReportSchema(Schema):
    """What an import did, game by game."""

    imported = StrictInteger(dump_only=True)
    existing = StrictInteger(dump_only=True)  # games whose record was imported before (content ids)
    refused = StrictInteger(dump_only=True)
    games = fields.List(fields.Nested(GameReportSchema), dump_only=True)


export_query_schema = ExportQuerySchema()
import_query_schema = ImportQuerySchema()
import_report_schema = ImportReportSchema()
