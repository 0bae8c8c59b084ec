"""A team event over HTTP: a registry team entered and a round's line-ups (its arbiter), the
team standings and the team matches (anyone, the broadcast delay holding as for every read;
a tournament not of teams has neither: 404). Pairing, the boards' games and their results
go through the tournament endpoints as in every event."""

from __future__ import annotations

from flask import Blueprint, Flask, request

from recorder.audit.qr import address_qr_svg
from recorder.auth.policy import lineup_refusal
from recorder.errors import Forbidden
from recorder.tournaments import board_prizes as board_prize_rules
from recorder.tournaments import team_tiebreaks, team_views, views
from recorder.tournaments import teams as teams_rules
from schemas.teams import (
    board_prizes_schema,
    captain_signin_schema,
    lineup_schema,
    lineups_schema,
    team_entry_schema,
    team_matches_schema,
    team_standings_schema,
)

from .access import authenticator, principal
from .broadcast import visible_state_of
from .teams import teams
from .tournaments import NO_STORE, body, respond, tournament_answer, tournament_view, tournaments, write_options

bp = Blueprint("team_events", __name__, url_prefix="/api/tournaments")


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)


@bp.post("/<tournament_id>/teams")
def enter_team(tournament_id: str):
    """Enter a registry team: its players in board order and reserves become entrants

    ---
    post:
      description: Needs an arbiter token of this tournament (or the admin token).
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: TeamEntrySchema}}}
      responses:
        201:
          description: The tournament
          content: {application/json: {schema: TournamentSchema}}
    """
    raw = body()
    data = team_entry_schema.load(raw)
    written = tournaments().enter_team(tournament_id, teams().entry(data["team_id"]), **write_options(raw))
    return tournament_answer(tournament_id, written.tournament.version, 201)


@bp.post("/<tournament_id>/teams/<int:number>/captain-signin")
def issue_captain_signin(tournament_id: str, number: int):
    """A sign-in for team ``number``'s captain, shown once: it hands in his team's line-ups
    and does nothing else; his earlier one is revoked (a card lost or given to another).

    ---
    post:
      summary: 'A sign-in for a team''s captain, shown once: it hands in that team''s line-ups alone'
      description: Its arbiter's token (or the admin's); revokes the team's earlier one.
      responses:
        201:
          description: The sign-in and its token
          content: {application/json: {schema: CaptainSigninSchema}}
        422: Invalid body or illegal move
    """
    body()  # nothing to take, but a body that is not JSON is refused as anywhere
    t = tournaments().tournament(tournament_id)
    teams_rules.check_team_of(t, number)
    row, token = authenticator().issue_captain_signin(tournament_id, number)
    address = captain_page_address(tournament_id, number, token)
    answer = {**views.token_json(row), "team": number, "token": token, "address": address}
    answer["qr_svg"] = address_qr_svg(address)
    return respond(captain_signin_schema.dump(answer), t.version, 201, **NO_STORE)


def captain_page_address(tournament_id: str, number: int, token: str) -> str:
    """The captain's page his card's QR code opens: the token in the fragment, which no
    browser sends to a server, so it reaches no log."""
    return f"{request.host_url.rstrip('/')}/tournaments/{tournament_id}/teams/{number}/captain#token={token}"


@bp.post("/<tournament_id>/rounds/<int:round_number>/lineups")
def submit_lineup(tournament_id: str, round_number: int):
    """A team's line-up for the next round until it is paired: board order kept, empties last

    ---
    post:
      description: An arbiter token of this tournament, the admin token or the team's captain's sign-in.
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: LineupSchema}}}
      responses:
        201:
          description: The line-up as stored
          content: {application/json: {schema: LineupSchema}}
    """
    raw = body()
    data = lineup_schema.load(raw)
    refused = lineup_refusal(principal(), data["team"])
    if refused is not None:
        raise Forbidden(refused)
    written = tournaments().submit_lineup(tournament_id, round_number, data, **write_options(raw))
    answer = {"round": round_number, "team": data["team"], "players": data["players"]}
    return respond(lineup_schema.dump(answer), written.tournament.version, 201)


@bp.get("/<tournament_id>/rounds/<int:round_number>/lineups")
def list_lineups(tournament_id: str, round_number: int):
    """The round's line-ups as the pairing takes (or took) them: the arbiter's, as they are
    kept from the public until the round is paired.

    ---
    get:
      summary: Each team's line-up for a paired round or the next (kept from the public until paired)
      description: Needs an arbiter token of this tournament (or the admin token).
      security:
      - {bearerAuth: []}
      responses:
        200: {description: The line-ups, content: {application/json: {schema: LineupsSchema}}}
        401: Problem
        403: Problem
    """
    t = tournaments().tournament(tournament_id)
    answer = {"round": round_number, "lineups": teams_rules.lineups_json(t, round_number)}
    return respond(lineups_schema.dump(answer), t.version)


@bp.get("/<tournament_id>/team-standings")
def get_team_standings(tournament_id: str):
    """A team event's standings ranked by its order of C.07's team tie-breaks

    ---
    get:
      responses:
        200:
          description: The team standings
          content: {application/json: {schema: TeamStandingsSchema}}
    """
    view, standings = tournaments().team_standings(tournament_id, visible_state_of)
    t = team_views.of_teams(view.tournament)
    rows = teams_rules.standings_json(t, standings)
    order = team_tiebreaks.order_of(t)
    answer = {
        "tournament_id": t.tournament_id,
        "primary": team_tiebreaks.PRIMARY[order[0]],
        "order": order,
        "status": view.status,
        "standings": rows,
    }
    return respond(team_standings_schema.dump(answer), t.version)


@bp.get("/<tournament_id>/team-matches")
def get_team_matches(tournament_id: str):
    """A team event's rounds as team matches: teams, score, each board's players, seats, result

    ---
    get:
      responses:
        200:
          description: The team matches
          content: {application/json: {schema: TeamMatchesSchema}}
    """
    view = tournament_view(tournament_id, visible_state_of)
    t = team_views.of_teams(view.tournament)
    answer = {
        "tournament_id": t.tournament_id,
        "team_boards": t.team_boards,
        "status": view.status,
        "rounds": team_views.team_matches_json(view),
    }
    return respond(team_matches_schema.dump(answer), t.version)


@bp.get("/<tournament_id>/board-prizes")
def get_board_prizes(tournament_id: str):
    """A team event's board prizes: each board's players by percentage, then games played

    ---
    get:
      responses:
        200:
          description: The board prizes
          content: {application/json: {schema: BoardPrizesSchema}}
    """
    view, prizes = tournaments().board_prizes(tournament_id, visible_state_of)
    t = view.tournament
    boards = board_prize_rules.board_prizes_json(t, prizes)
    answer = {"tournament_id": t.tournament_id, "status": view.status, "boards": boards}
    return respond(board_prizes_schema.dump(answer), t.version)
