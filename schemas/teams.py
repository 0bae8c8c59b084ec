"""Schemas for teams in the registry: what the admin and arbiters send, and what everyone
reads. The registry's own rules (both names, distinct registered players) are decided in
recorder/teams/decide.py, which names the field it refuses."""

from marshmallow import Schema, fields, validate

from .fields import Int64, StrictInteger
from .fields import name as text


class RosterSchema(Schema):
    """PUT /api/teams/{id}/roster: the players in board order (board 1 first), the reserves."""

    players = fields.List(
        fields.String(validate=validate.Length(max=80)), required=True, validate=validate.Length(max=40)
    )
    reserves = fields.List(
        fields.String(validate=validate.Length(max=80)), load_default=list, validate=validate.Length(max=40)
    )


class TeamCreateSchema(RosterSchema):
    """POST /api/teams (the admin, or an arbiter): names in both scripts, federation or region, club."""

    name = text(required=True)
    name_geez = text(required=True)
    federation = fields.String(required=True, validate=validate.Length(max=200))
    club = text(allow_none=True)


class TeamSchema(Schema):
    id = fields.String()
    name = fields.String()
    name_geez = fields.String()
    federation = fields.String()
    club = fields.String(allow_none=True)
    players = fields.List(fields.Dict())  # {id, name, name_geez, board}, board order
    reserves = fields.List(fields.Dict())  # {id, name, name_geez}
    version = StrictInteger()


class TeamQuerySchema(Schema):
    """GET /api/teams: ``q`` matched as the player search matches (from any word of either
    name on, case, spacing and diacritics aside), or a team's id."""

    q = fields.String(load_default="", validate=validate.Length(max=200))
    limit = Int64(load_default=20, validate=validate.Range(min=1, max=100))


class FoundTeamSchema(Schema):
    id = fields.String()
    name = fields.String()
    name_geez = fields.String()
    federation = fields.String()
    club = fields.String(allow_none=True)
    players = StrictInteger()  # the roster's board players
    reserves = StrictInteger()


class TeamListSchema(Schema):
    teams = fields.List(fields.Nested(FoundTeamSchema))


roster_schema = RosterSchema()
team_query_schema = TeamQuerySchema()
team_list_schema = TeamListSchema()
team_create_schema = TeamCreateSchema()
team_schema = TeamSchema()


class TeamEntrySchema(Schema):
    """POST /api/tournaments/{id}/teams (its arbiter): a registry team entered in a team event."""

    team_id = fields.String(required=True, validate=validate.Length(min=1, max=80))


class LineupSchema(Schema):
    """POST /api/tournaments/{id}/rounds/{n}/lineups (its arbiter): the team's number in the
    event and, board 1 first, an entrant number or null (an empty board) for every board."""

    round = StrictInteger(dump_only=True)
    team = StrictInteger(required=True)
    players = fields.List(StrictInteger(allow_none=True), required=True, validate=validate.Length(max=20))


class LineupsSchema(Schema):
    """GET /api/tournaments/{id}/rounds/{n}/lineups (its arbiter): each team's line-up,
    ``{team, name, players, handed_in}``; a team that handed in none fields its first boards."""

    round = StrictInteger()
    lineups = fields.List(fields.Dict())


class TeamStandingSchema(Schema):
    rank = StrictInteger()
    team = fields.Dict()  # {number, id, name, name_geez}
    match_points = StrictInteger()
    game_points = fields.Float()
    played = StrictInteger()  # matches with every board's result
    tiebreaks = fields.Dict(keys=fields.String(), values=fields.Float())  # C.07's team tie-breaks by code


class TeamStandingsSchema(Schema):
    tournament_id = fields.String()
    primary = fields.String()  # match_points or game_points: the score ranked by first
    order = fields.List(fields.String())  # the event's ranking order, primary score first (C.07's team codes)
    status = fields.String()
    standings = fields.List(fields.Nested(TeamStandingSchema))


class TeamMatchesSchema(Schema):
    """GET …/team-matches: each round's matches, round 1 first. A match: ``first`` and
    ``second`` (teams as in the standings), ``score`` (game points of the boards with a
    result so far, the first-named team's first), ``complete``, ``match_points`` once complete,
    and its ``boards`` as a round's boards are given, each with ``board_in_match``,
    ``first_seat`` (the first-named team's seat on it) and ``points`` (first's, second's)."""

    tournament_id = fields.String()
    team_boards = StrictInteger()
    status = fields.String()
    rounds = fields.List(fields.Dict())  # {round, complete, off: team | null, matches}


class BoardPrizesSchema(Schema):
    """GET /api/tournaments/{id}/board-prizes: board by board, its players ranked, each
    ``{rank, number, name, team, games, points, percentage, minimum, qualified}`` (rank null
    below the minimum of games)."""

    tournament_id = fields.String()
    status = fields.String()
    boards = fields.List(fields.Dict())


class CaptainSigninSchema(Schema):
    """POST /api/tournaments/{id}/teams/{n}/captain-signin (its arbiter): the token, shown once,
    with the address of the captain's page that holds it and that address as a QR code."""

    id = fields.String()
    kind = fields.String()  # captain
    holder = fields.String()
    tournament_id = fields.String(allow_none=True)
    created_at = fields.String()
    revoked_at = fields.String(allow_none=True)
    team = StrictInteger()
    token = fields.String()
    address = fields.String()  # the captain's page, the token in its fragment
    qr_svg = fields.String()  # that address as a QR code, for his card


board_prizes_schema = BoardPrizesSchema()
captain_signin_schema = CaptainSigninSchema()
team_entry_schema = TeamEntrySchema()
team_matches_schema = TeamMatchesSchema()
lineup_schema = LineupSchema()
lineups_schema = LineupsSchema()
team_standings_schema = TeamStandingsSchema()
