"""A tournament's categories and prize list over HTTP: set by its arbiter (or the admin)
until it finishes, read by anyone, as the public sees the results (a broadcast delay holds).

The registry's particulars of the entrants (sex, birth year, club) decide the categories'
members at every read: as they stand, or as they stood when the tournament finished
(recorder/players/particulars.py).
"""

from __future__ import annotations

from flask import Blueprint, Flask, current_app

from recorder.players.particulars import entrants_particulars
from recorder.tournaments import prize_views
from schemas.prizes import categories_schema, category_standings_schema, prize_list_schema, prizes_schema

from .broadcast import visible_state_of
from .tournaments import body, respond, tournament_view, tournaments, write_options

bp = Blueprint("prizes", __name__, url_prefix="/api/tournaments")


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)


@bp.put("/<tournament_id>/categories")
def set_categories(tournament_id: str):
    """Set the tournament's categories (the whole list)

    ---
    put:
      description: Needs an arbiter token of this tournament (or the admin token); refused once it is finished.
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: CategoriesSchema}}}
      responses:
        200:
          description: The prize list as it now reads
          content: {application/json: {schema: PrizeListSchema}}
    """
    raw = body()
    tournaments().set_categories(tournament_id, categories_schema.load(raw), **write_options(raw))
    return get_prizes(tournament_id)


@bp.put("/<tournament_id>/prizes")
def set_prizes(tournament_id: str):
    """Set the prize list and how a tie shares it (none or hort)

    ---
    put:
      description: Needs an arbiter token of this tournament (or the admin token); refused once it is finished.
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: PrizesSchema}}}
      responses:
        200:
          description: The prize list as it now reads
          content: {application/json: {schema: PrizeListSchema}}
    """
    raw = body()
    tournaments().set_prizes(tournament_id, prizes_schema.load(raw), **write_options(raw))
    return get_prizes(tournament_id)


@bp.get("/<tournament_id>/categories/<code>/standings")
def get_category_standings(tournament_id: str, code: str):
    """One category's standings: its players' places beside the overall rank

    ---
    get:
      responses:
        200:
          description: 'One category''s standings: its players'' places beside the overall rank'
          content: {application/json: {schema: CategoryStandingsSchema}}
    """
    view = tournament_view(tournament_id, visible_state_of)
    particulars = entrants_particulars(current_app.extensions["players"], tournaments(), view)
    found = prize_views.category_standings_json(view, particulars, code)
    return respond(category_standings_schema.dump(found), view.tournament.version)


@bp.get("/<tournament_id>/prizes")
def get_prizes(tournament_id: str):
    """The prize list and who is paid what, by the standings

    ---
    get:
      responses:
        200:
          description: The prize list and who is paid what, by the standings
          content: {application/json: {schema: PrizeListSchema}}
    """
    view = tournament_view(tournament_id, visible_state_of)
    particulars = entrants_particulars(current_app.extensions["players"], tournaments(), view)
    return respond(prize_list_schema.dump(prize_views.prizes_json(view, particulars)), view.tournament.version)
