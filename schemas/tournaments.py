"""Schemas for tournaments: what organisers and arbiters send, and what everyone reads."""

from collections.abc import Callable
from datetime import date
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from recorder.tournaments import (
    BOARD_RESULT_KINDS,
    BOARD_RESULTS,
    FORMATS,
    MAX_BROADCAST_DELAY,
    MAX_FORBIDDEN_GROUP,
    MAX_RATING,
    MAX_ROUNDS,
    TIEBREAKS,
)
from recorder.tournaments.events import PAIRING_RULES

from .fields import Int64, StrictInteger, player
from .fields import name as text
from .games import VARIANT_NAMES, time_control
from .knockout import KnockoutSettingsSchema


def calendar_day(value: str) -> None:
    """A date written YYYY-MM-DD that is a day of the calendar (2026-02-30 is none)."""
    try:
        date.fromisoformat(value)
    except ValueError:
        raise ValidationError("a date is YYYY-MM-DD, a day of the calendar") from None


# The pattern first (the OpenAPI document shows it), then the calendar.
DATE: list[Callable[[str], Any]] = [
    validate.Regexp(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}\Z", error="a date is YYYY-MM-DD"),
    calendar_day,
]
POINTS = (0, 0.5, 1)


def broadcast_delay(**kwargs) -> fields.Field:
    """Whole seconds the public waits for a move: 0 (none) to a day (86,400)."""
    return StrictInteger(validate=validate.Range(min=0, max=MAX_BROADCAST_DELAY), **kwargs)


class StrictNumber(fields.Float):
    """A JSON number (not a string, not a boolean)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValidationError("Not a valid number.")
        return value


def points(**kwargs) -> StrictNumber:
    return StrictNumber(validate=validate.OneOf(POINTS), **kwargs)


class TournamentCreateSchema(Schema):
    """POST /api/tournaments (admin token)."""

    name = text(required=True)
    variant = fields.String(required=True, validate=validate.OneOf(VARIANT_NAMES))
    options = fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True), load_default=dict)
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    rounds = StrictInteger(allow_none=True, validate=validate.Range(min=1, max=MAX_ROUNDS))
    tiebreaks = fields.List(fields.String(validate=validate.OneOf(TIEBREAKS)), allow_none=True)
    bye_points = points()
    site = text(allow_none=True)
    start_date = fields.String(allow_none=True, validate=DATE)
    end_date = fields.String(allow_none=True, validate=DATE)
    rated = fields.Boolean(load_default=False)  # its finished games count in the rating lists
    broadcast_delay = broadcast_delay(load_default=0)
    finished_public = fields.Boolean(load_default=True)
    pairing_rules = fields.String(validate=validate.OneOf(PAIRING_RULES))  # Swiss only; default the 2026 text
    acceleration = fields.String(allow_none=True, validate=validate.OneOf(("baku",)))  # C.04.5.1, Swiss only
    time_control = time_control(allow_none=True)  # every game's, as POST /api/games takes it
    knockout = fields.Nested(KnockoutSettingsSchema, allow_none=True)  # a knock-out's matches and play-offs
    team_boards = StrictInteger(allow_none=True)  # a team event's boards a match (1 to 20)
    team_primary_score = fields.String(allow_none=True)  # a team Swiss's: match_points (default) or game_points
    team_colour_preferences = fields.String(allow_none=True)  # a team Swiss's: type_a (default), type_b or none
    # a team event's ranking order, its primary score first (codes checked where it is decided)
    team_tiebreaks = fields.List(fields.String(validate=validate.Length(max=8)), allow_none=True)
    absence_points = StrictNumber(allow_none=True, validate=validate.OneOf((0, 0.5)))  # a declared absence's bye
    require_confirmation = fields.Boolean(load_default=False)  # a game's result counts once both players confirmed it


class TrfImportQuerySchema(Schema):
    """POST /api/tournaments/trf?variant=...: the body is the TRF itself (text/plain)."""

    variant = fields.String(required=True, validate=validate.OneOf(VARIANT_NAMES))
    # absent: a team event when the file has team records (013), its XMR 0000 FORMAT saying a
    # team Swiss, else a team round robin; a Swiss otherwise
    format = fields.String(
        load_default=None, validate=validate.OneOf(("swiss", "manual", "team_round_robin", "team_swiss"))
    )


class TrfQuerySchema(Schema):
    """GET /api/tournaments/{id}/trf?layout=2026|16."""

    layout = fields.String(load_default="2026", validate=validate.OneOf(("2026", "16")))


class PlayerCreateSchema(Schema):
    """POST /api/tournaments/{id}/players: a registration, or a late entry in a Swiss.
    ``player_id`` picks a registry player (his name and federation by default);
    ``register`` registers a new one first (docs/players.md), ``force`` as there."""

    name = text()
    federation = text(allow_none=True)
    rating = StrictInteger(allow_none=True, validate=validate.Range(min=0, max=MAX_RATING))
    player_id = fields.String(validate=validate.Regexp(r"^p-[0-9a-f]{1,64}\Z"))
    register = fields.Boolean(load_default=False)
    force = fields.Boolean(load_default=False)
    name_geez = text(allow_none=True)
    club = text(allow_none=True)
    birth_year = StrictInteger(allow_none=True)
    sex = fields.String(allow_none=True, validate=validate.Length(max=20))


class ForbiddenPairSchema(Schema):
    """POST /api/tournaments/{id}/forbidden-pairs: players no two of whom may meet."""

    players = fields.List(
        StrictInteger(validate=validate.Range(min=1, max=9999)),
        required=True,
        validate=validate.Length(min=2, max=MAX_FORBIDDEN_GROUP),
    )
    first_round = StrictInteger(allow_none=True, validate=validate.Range(min=1, max=MAX_ROUNDS))
    last_round = StrictInteger(allow_none=True, validate=validate.Range(min=1, max=MAX_ROUNDS))


class WithdrawalSchema(Schema):
    reason = fields.String(allow_none=True, validate=validate.Length(max=2000))


class AbsenceSchema(Schema):
    """POST /api/tournaments/{id}/absences: a player will miss a round not yet paired."""

    player = StrictInteger(required=True, validate=validate.Range(min=1, max=9999))
    round = StrictInteger(required=True, validate=validate.Range(min=1, max=MAX_ROUNDS))


class CheckInSchema(Schema):
    """POST /api/tournaments/{id}/rounds/{r}/check-in: a player's own sign-in says he is
    present for the round, or absent (the arbiter's absence decision)."""

    present = fields.Boolean(required=True)


class BroadcastSchema(Schema):
    """PUT /api/tournaments/{id}/broadcast: the public's delay from now on (arbiter or admin)."""

    broadcast_delay = broadcast_delay(required=True)
    finished_public = fields.Boolean()


class TiebreaksSchema(Schema):
    tiebreaks = fields.List(fields.String(validate=validate.OneOf(TIEBREAKS)), required=True)


class ManualBoardSchema(Schema):
    south = StrictInteger(required=True, validate=validate.Range(min=1))
    north = StrictInteger(required=True, validate=validate.Range(min=1))


class ManualByeSchema(Schema):
    player = StrictInteger(required=True, validate=validate.Range(min=1))
    points = points(required=True)


class PairSchema(Schema):
    """POST /api/tournaments/{id}/rounds: the next round, paired by the format or by hand."""

    boards = fields.List(fields.Nested(ManualBoardSchema), allow_none=True)
    byes = fields.List(fields.Nested(ManualByeSchema), allow_none=True)


class ProposedRoundSchema(Schema):
    """POST …/rounds/proposal and POST …/rounds/check: a round as it would be stored (the
    engine's, or the one checked), the engine's for comparison, and the checker's findings
    (each its ``code``, the ``criterion`` it names, ``board``, ``players`` and ``text``);
    a team round's proposal names the boards its line-ups leave empty (``empty_boards``)."""

    tournament_id = fields.String(dump_only=True)
    version = StrictInteger(dump_only=True)
    round = StrictInteger(dump_only=True)
    method = fields.String(dump_only=True)
    boards = fields.List(fields.Dict(), dump_only=True)
    byes = fields.List(fields.Dict(), dump_only=True)
    forfeits = fields.List(fields.Dict(), dump_only=True)
    empty_boards = fields.List(fields.Dict(), dump_only=True)  # a team round's, its line-ups' empty seats
    expected = fields.Dict(dump_only=True, allow_none=True)
    findings = fields.List(fields.Dict(), dump_only=True)
    breaks = fields.List(fields.String(), dump_only=True)


class BoardGameSchema(Schema):
    """POST .../boards/{board}/game: the rest of the setup comes from the pairing."""

    first_player = player(allow_none=True)
    date = fields.String(allow_none=True, validate=DATE)


class BoardResultSchema(Schema):
    """POST .../boards/{board}/result, for a board on which no game started: a game played
    on the board and recorded on paper (``kind`` played), or a forfeit (``kind`` forfeit,
    the default: what every result meant before kinds). ``corrects``: this result replaces
    the board's recorded one, as a new event."""

    result = fields.String(required=True, validate=validate.OneOf(BOARD_RESULTS))
    kind = fields.String(validate=validate.OneOf(BOARD_RESULT_KINDS))
    corrects = fields.Boolean()
    note = fields.String(allow_none=True, validate=validate.Length(max=2000))


class CorrectionSchema(Schema):
    """POST .../boards/{board}/correction: the admin's correction of a finished tournament's
    board, and why; his commands to the board's game follow."""

    reason = fields.String(required=True, validate=validate.Length(max=2000))


class FinishSchema(Schema):
    """POST /api/tournaments/{id}/finish: the tournament is over (every paired round has its
    results); an optional note says why, e.g. when it ends before its planned rounds."""

    note = fields.String(allow_none=True, validate=validate.Length(max=2000))


class TokenCreateSchema(Schema):
    holder = text(required=True)


class PageSchema(Schema):
    limit = Int64(load_default=100, validate=validate.Range(min=1, max=1000))
    offset = Int64(load_default=0, validate=validate.Range(min=0))


# ---- what the service returns (dump only)


class EntrantSchema(Schema):
    number = StrictInteger(dump_only=True)
    name = fields.String(dump_only=True)
    name_geez = fields.String(dump_only=True, allow_none=True)  # the registry player's, when he has one
    federation = fields.String(dump_only=True, allow_none=True)
    rating = StrictInteger(dump_only=True, allow_none=True)
    entered_round = StrictInteger(dump_only=True)
    withdrawn = fields.Boolean(dump_only=True)
    withdrawn_after = StrictInteger(dump_only=True, allow_none=True)
    player_id = fields.String(dump_only=True, allow_none=True)  # the registry player


class RoundSchema(Schema):
    round = StrictInteger(dump_only=True)
    method = fields.String(dump_only=True)
    # each board's south and north, and each bye: number, name, name_geez (the registry player's, or null)
    boards = fields.List(fields.Dict(), dump_only=True)
    byes = fields.List(fields.Dict(), dump_only=True)
    complete = fields.Boolean(dump_only=True)
    # a team event's: each board a line-up left empty, {board, south, north, result}, the empty seat null
    empty_boards = fields.List(fields.Dict(), dump_only=True)


class TournamentSchema(Schema):
    id = fields.String(dump_only=True)
    name = fields.String(dump_only=True)
    site = fields.String(dump_only=True, allow_none=True)
    start_date = fields.String(dump_only=True, allow_none=True)
    end_date = fields.String(dump_only=True, allow_none=True)
    variant = fields.String(dump_only=True)
    options = fields.Dict(dump_only=True)
    format = fields.String(dump_only=True)
    rounds_planned = StrictInteger(dump_only=True, allow_none=True)
    tiebreaks = fields.List(fields.String(), dump_only=True)
    bye_points = fields.Raw(dump_only=True)
    rated = fields.Boolean(dump_only=True)
    pairing_rules = fields.String(dump_only=True, allow_none=True)
    berger_order = fields.String(dump_only=True, allow_none=True)  # a double round robin's
    initial_colour = fields.String(dump_only=True)
    acceleration = fields.String(dump_only=True, allow_none=True)
    forbidden_pairs = fields.List(fields.Dict(), dump_only=True)
    broadcast_delay = StrictInteger(dump_only=True)
    finished_public = fields.Boolean(dump_only=True)
    time_control = fields.Dict(dump_only=True, allow_none=True)  # every game's (POST /api/games' time_control)
    team_boards = StrictInteger(dump_only=True, allow_none=True)  # a team event's boards a match
    team_primary_score = fields.String(dump_only=True, allow_none=True)  # a team Swiss's primary score
    team_colour_preferences = fields.String(dump_only=True, allow_none=True)  # a team Swiss's colour preferences
    team_tiebreaks = fields.List(fields.String(), dump_only=True, allow_none=True)  # its ranking order
    teams = fields.List(
        fields.Dict(), dump_only=True
    )  # a team event's: {number, id, name, name_geez, players, reserves}
    next_stages = fields.List(fields.Dict(), dump_only=True)  # [{id, name}]: the knock-outs it handed over to
    absence_points = fields.Raw(dump_only=True)  # a declared absence's bye: 0 or 0.5
    absences = fields.List(
        fields.Dict(), dump_only=True
    )  # for rounds to come, of players still in: player, round, points
    lots_seed = fields.String(dump_only=True)  # what the drawing of lots (LOTS) is seeded by
    require_confirmation = fields.Boolean(dump_only=True)  # results count once both players confirmed
    check_ins = fields.List(fields.Dict(), dump_only=True)  # each: round, player (present, by his sign-in)
    status = fields.String(dump_only=True)
    version = StrictInteger(dump_only=True)
    players = fields.List(fields.Nested(EntrantSchema), dump_only=True)
    rounds = fields.List(fields.Nested(RoundSchema), dump_only=True)
    corrected = fields.Boolean(dump_only=True)  # the admin corrected it after it finished
    corrections = fields.List(fields.Dict(), dump_only=True)  # each: board, game, reason, who, when


class TournamentSummarySchema(Schema):
    id = fields.String(dump_only=True)
    name = fields.String(dump_only=True)
    variant = fields.String(dump_only=True)
    format = fields.String(dump_only=True)
    site = fields.String(dump_only=True, allow_none=True)
    start_date = fields.String(dump_only=True, allow_none=True)
    end_date = fields.String(dump_only=True, allow_none=True)
    created_at = fields.String(dump_only=True)


class TournamentListSchema(Schema):
    tournaments = fields.List(fields.Nested(TournamentSummarySchema), dump_only=True)


class StandingSchema(Schema):
    rank = StrictInteger(dump_only=True)
    number = StrictInteger(dump_only=True)
    name = fields.String(dump_only=True)
    name_geez = fields.String(dump_only=True, allow_none=True)  # the registry player's, when he has one
    federation = fields.String(dump_only=True, allow_none=True)
    rating = StrictInteger(dump_only=True, allow_none=True)
    points = fields.Raw(dump_only=True)
    tiebreaks = fields.Dict(dump_only=True)


class StandingsSchema(Schema):
    tournament_id = fields.String(dump_only=True)
    status = fields.String(dump_only=True)
    rounds_played = StrictInteger(dump_only=True)
    tiebreaks = fields.List(fields.String(), dump_only=True)
    lots_seed = fields.String(dump_only=True, allow_none=True)  # when the list ends with LOTS: its seed
    standings = fields.List(fields.Nested(StandingSchema), dump_only=True)


class RoundCheckSchema(Schema):
    round = StrictInteger(dump_only=True)
    method = fields.String(dump_only=True)
    status = fields.String(dump_only=True)  # same, differs, no_pairing, not_swiss (a manual tournament)
    manual = fields.Boolean(dump_only=True)
    board_order_differs = fields.Boolean(dump_only=True)
    stored = fields.List(fields.Dict(), dump_only=True)
    stored_bye = StrictInteger(dump_only=True, allow_none=True)
    expected = fields.List(fields.Dict(), dump_only=True)
    expected_bye = StrictInteger(dump_only=True, allow_none=True)
    forfeits = fields.List(fields.Dict(), dump_only=True)
    detail = fields.String(dump_only=True)


class PairingCheckSchema(Schema):
    """GET /api/tournaments/{id}/check: every round re-paired from the history before it."""

    tournament_id = fields.String(dump_only=True)
    pairing_rules = fields.String(dump_only=True, allow_none=True)
    berger_order = fields.String(dump_only=True, allow_none=True)  # a double round robin's
    differing_rounds = fields.List(StrictInteger(), dump_only=True)
    rounds = fields.List(fields.Nested(RoundCheckSchema), dump_only=True)


class CrosstableRowSchema(StandingSchema):
    place = StrictInteger(dump_only=True)
    cells = fields.List(fields.Dict(), dump_only=True)


class CrosstableSchema(Schema):
    tournament_id = fields.String(dump_only=True)
    format = fields.String(dump_only=True)
    rows = fields.List(fields.Nested(CrosstableRowSchema), dump_only=True)


class TokenSchema(Schema):
    """An arbiter or recorder token; ``token`` is present once, in the response that issues it."""

    id = fields.String(dump_only=True)
    kind = fields.String(dump_only=True)
    tournament_id = fields.String(dump_only=True, allow_none=True)
    holder = fields.String(dump_only=True)
    created_at = fields.String(dump_only=True)
    revoked_at = fields.String(dump_only=True, allow_none=True)
    token = fields.String(dump_only=True)


class SigninSchema(TokenSchema):
    """A board sign-in (kind ``signin``): it records the game of one board of one round;
    ``token``, ``address`` (the sign-in page, the token in its fragment) and ``qr_svg``
    (that address as a QR code) are present once, in the response that issues it."""

    round = StrictInteger(dump_only=True)
    board = StrictInteger(dump_only=True)
    game_id = fields.String(dump_only=True)
    south = fields.String(dump_only=True)
    north = fields.String(dump_only=True)
    address = fields.String(dump_only=True)
    qr_svg = fields.String(dump_only=True)


class SigninListSchema(Schema):
    round = StrictInteger(dump_only=True)
    signins = fields.List(fields.Nested(SigninSchema), dump_only=True)


class PlayerSigninSchema(TokenSchema):
    """A player's sign-in (kind ``player``): it speaks for one entrant (``player``, his
    starting number); ``token``, ``address`` and ``qr_svg`` are present once, when issued."""

    player = StrictInteger(dump_only=True)
    name = fields.String(dump_only=True)
    address = fields.String(dump_only=True)
    qr_svg = fields.String(dump_only=True)


class PlayerSigninListSchema(Schema):
    signins = fields.List(fields.Nested(PlayerSigninSchema), dump_only=True)


class DisputeListSchema(Schema):
    """The open disputes and appeals of a tournament's board games (the console's list)."""

    disputes = fields.List(fields.Dict(), dump_only=True)


class TokenListSchema(Schema):
    tokens = fields.List(fields.Nested(TokenSchema), dump_only=True)


class TokenSelfSchema(Schema):
    """Who the presented token names and what it reaches (GET /api/tokens/self); never the secret.

    ``may_write`` and ``refusal`` are there when the question named a game or a tournament."""

    kind = fields.String(dump_only=True)
    holder = fields.String(dump_only=True)
    tournament_id = fields.String(dump_only=True, allow_none=True)
    id = fields.String(dump_only=True, allow_none=True)
    player = StrictInteger(dump_only=True, allow_none=True)  # a player's sign-in: his starting number
    may_write = fields.Boolean(dump_only=True)
    may_sign = fields.Boolean(dump_only=True)  # a game named: may this token confirm or dispute its record
    refusal = fields.String(dump_only=True, allow_none=True)


class TokenSelfQuerySchema(Schema):
    """The one game or tournament the question is about (neither: the token alone)."""

    game = fields.String(validate=validate.Length(min=1, max=200))
    tournament = fields.String(validate=validate.Length(min=1, max=200))


tournament_create_schema = TournamentCreateSchema()
player_create_schema = PlayerCreateSchema()
trf_import_query_schema = TrfImportQuerySchema()
forbidden_pair_schema = ForbiddenPairSchema()
trf_query_schema = TrfQuerySchema()
withdrawal_schema = WithdrawalSchema()
absence_schema = AbsenceSchema()
tiebreaks_schema = TiebreaksSchema()
broadcast_schema = BroadcastSchema()
pair_schema = PairSchema()
proposed_round_schema = ProposedRoundSchema()
board_game_schema = BoardGameSchema()
board_result_schema = BoardResultSchema()
correction_schema = CorrectionSchema()
finish_schema = FinishSchema()
token_create_schema = TokenCreateSchema()
page_schema = PageSchema()
tournament_schema = TournamentSchema()
tournament_list_schema = TournamentListSchema()
round_schema = RoundSchema()
entrant_schema = EntrantSchema()
standings_schema = StandingsSchema()
crosstable_schema = CrosstableSchema()
pairing_check_schema = PairingCheckSchema()
token_schema = TokenSchema()
token_list_schema = TokenListSchema()
signin_schema = SigninSchema()
signin_list_schema = SigninListSchema()
player_signin_list_schema = PlayerSigninListSchema()
dispute_list_schema = DisputeListSchema()
check_in_schema = CheckInSchema()
token_self_schema = TokenSelfSchema()
token_self_query_schema = TokenSelfQuerySchema()
