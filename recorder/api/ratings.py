"""Rating lists over HTTP (public): a game's list for a month as JSON or CSV.

A month that is over answers with its published list (stored, immutable); the current
month with the list as it stands now, marked ``published: false``.
"""

from __future__ import annotations

import csv
import io
import json

from flask import Blueprint, Flask, Response, current_app

from recorder.errors import NotFound
from recorder.ratings.lists import PROVISIONAL_RD
from recorder.ratings.service import Ratings
from recorder.render.csv_cells import spreadsheet_row
from recorder.rules import VARIANTS
from schemas.players import rating_list_schema, rating_query_schema

from .problems import load_query

bp = Blueprint("ratings", __name__, url_prefix="/api/ratings")
CORRECTION_COLUMNS = ("game_id", "period", "before", "after")
CSV_COLUMNS = (
    "rank",
    "id",
    "name",
    "name_geez",
    "federation",
    "club",
    "rating",
    "rd",
    "volatility",
    "games",
    "provisional",
)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)


def ratings() -> Ratings:
    return current_app.extensions["ratings"]


def entry_json(row: dict, player: dict | None) -> dict:
    player = player or {}
    return {
        "rank": row["rank"],
        "id": row["player_id"],
        "name": player.get("name"),
        "name_geez": player.get("name_geez"),
        "federation": player.get("federation"),
        "club": player.get("club"),
        "rating": round(row["rating"], 2),
        "rd": round(row["rd"], 2),
        "volatility": round(row["volatility"], 6),
        "games": row["games"],
        "provisional": bool(row["provisional"]),
        "explanation": json.loads(row["explanation"]),
    }


def rating_list(variant: str) -> dict:
    if variant not in VARIANTS:
        raise NotFound(f"no rating list for {variant!r}: the games are {', '.join(VARIANTS)}", variant=variant)
    query = load_query(rating_query_schema)
    service = ratings()
    period = query.get("period") or service.month()
    rows, published, fixes = service.period(variant, period)
    players = service.tables.rows([r["player_id"] for r in rows])
    entries = [entry_json(r, players.get(r["player_id"])) for r in rows]
    if query.get("federation"):
        entries = [e for e in entries if e["federation"] == query["federation"]]
    return {
        "variant": variant,
        "period": period,
        "published": published,
        "provisional_above": PROVISIONAL_RD,
        "periods": service.tables.periods(variant),
        "players": entries,
        "corrections": [correction_json(c) for c in fixes],
    }


def correction_json(row: dict) -> dict:
    """A correction the list applies: the game, the month it counts in, its result before → after."""
    return {"game_id": row["game_id"], "period": row["game_period"], "before": row["before"], "after": row["after"]}


@bp.get("/<variant>")
def get_rating_list(variant: str):
    """A game's rating list for a month (Glicko-2; default: this month, not yet published)

    ---
    get:
      description: A month that is over answers with its published list; each entry explains its change (the games,
        each opponent's rating and deviation, the expected and actual score); `corrections` states each result
        of an earlier month's game corrected since the month before and applied in this list (the game, its month,
        the result before and after).
      parameters:
      - {in: query, schema: RatingQuerySchema}
      responses:
        200: {description: Rating list, content: {application/json: {schema: RatingListSchema}}}
        422: Invalid body or illegal move
    """
    return rating_list_schema.dump(rating_list(variant))


@bp.get("/<variant>.csv")
def export_rating_list(variant: str):
    """The same list as CSV (rank, id, names, federation, club, rating, rd, volatility, games); after a blank line, the
    corrections it applies (game_id, period, before, after)

    ---
    get:
      parameters:
      - {in: query, schema: RatingQuerySchema}
      responses:
        200: {description: CSV, content: {text/csv: {schema: {type: string}}}}
        422: Invalid body or illegal move
    """
    listing = rating_list(variant)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for entry in listing["players"]:  # names and clubs are typed by people: never a formula (csv_cells)
        writer.writerow(spreadsheet_row(entry[c] for c in CSV_COLUMNS))
    if listing["corrections"]:  # after a blank line: the corrections of earlier months' results it applies
        writer.writerow([])
        writer.writerow(CORRECTION_COLUMNS)
        for correction in listing["corrections"]:
            writer.writerow(spreadsheet_row("" if correction[c] is None else correction[c] for c in CORRECTION_COLUMNS))
    name = f"ratings-{variant}-{listing['period']}.csv"
    return Response(
        out.getvalue(), mimetype="text/csv", headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )
