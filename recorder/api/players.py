"""The player registry over HTTP: reads are public, writes need a bearer token.

The admin registers, renames, changes affiliations and merges; an arbiter registers
players and renames or re-affiliates only those his tournament registered, entered
nowhere else, with no rated game, until it finishes (recorder/auth/policy.py). Each event
names the principal that made it; a record lists who changed what. A merged id keeps
answering: its record names the survivor.
"""

from __future__ import annotations

from flask import Blueprint, Flask, current_app, json, url_for

from recorder.auth.policy import principal_record
from recorder.players.fold import RegisteredPlayer
from recorder.players.service import Players, candidate_json
from schemas.players import (
    affiliation_schema,
    merge_schema,
    particulars_schema,
    player_create_schema,
    player_list_schema,
    player_query_schema,
    player_schema,
    reason_schema,
    rename_schema,
)

from .access import principal, recorded_by
from .body import json_body
from .broadcast import horizon, visible_game
from .games import idempotency
from .problems import load_query
from .tournaments import respond, write_options

bp = Blueprint("players", __name__, url_prefix="/api/players")


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)


def players() -> Players:
    return current_app.extensions["players"]


def summary_json(p: RegisteredPlayer) -> dict:
    return {
        "id": p.player_id,
        "name": p.name,
        "name_geez": p.name_geez,
        "federation": p.federation,
        "club": p.club,
        "birth_year": p.birth_year,
        "sex": p.sex,
    }


def player_json(p: RegisteredPlayer, *, full: bool = False) -> dict:
    """A record as stored, and the survivor it points to when it is merged; ``full``
    adds his tournaments, games and ratings (the survivor's, for a merged id)."""
    survivor = players().survivor(p.player_id) if p.merged else None
    found = {
        **summary_json(p),
        "external_id": p.external_id,
        "merged_into": p.merged_into,
        "survivor": summary_json(survivor) if survivor is not None else None,
        "version": p.version,
    }
    if full:
        found.update(record_of((survivor or p).player_id))
        found["changes"] = changes_of(p.player_id)
    return found


def changes_of(player_id: str) -> list[dict]:
    """Who changed what: each event of the record, who recorded it and as which principal
    (absent from events stored before principals were kept)."""
    return [
        {
            "seq": e.seq,
            "type": e.type,
            "recorded_by": e.recorded_by,
            "recorded_at": e.recorded_at,
            "principal": e.payload.get("principal"),
        }
        for e in players().events(player_id)
    ]


def player_write_options(raw) -> dict:
    """As a tournament's writes, and the principal each registry event names."""
    return {**write_options(raw), "principal": principal_record(principal())}


def record_of(player_id: str) -> dict:
    """Every tournament and game of a player (and of the records merged into him), and his
    rating history per game."""
    from recorder.players.record import player_record

    record = player_record(current_app.extensions["recorder"], players(), player_id)
    record["games"] = [visible_entry(game) for game in record["games"]]
    played = {t["variant"] for t in record["tournaments"] if t["rated"]}
    history = current_app.extensions["ratings"].history(player_id, played)
    record["ratings"] = {
        variant: [
            {
                "period": r["period"],
                "rank": r["rank"],
                "rating": round(r["rating"], 2),
                "rd": round(r["rd"], 2),
                "games": r["games"],
                "provisional": bool(r["provisional"]),
                "explanation": json.loads(r["explanation"]),
            }
            for r in rows
        ]
        for variant, rows in history.items()
    }
    return record


def visible_entry(game: dict) -> dict:
    """A game of a player's record as the reader may see it: a tournament's broadcast delay
    holds back its status, result and score too (docs/security.md)."""
    if game["tournament_id"] is None or horizon(game["game_id"]) is None:
        return game
    state = visible_game(game["game_id"]).state
    if not state.game_over:
        return {**game, "status": "in_progress", "result": None, "score": None}
    result = state.result.name
    score = 0.5 if result == "draw" else (1.0 if result == f"{game['side']}_wins" else 0.0)
    return {**game, "status": "finished", "result": result, "score": score}


@bp.get("")
def search_players():
    """Search players by name (case, spacing and diacritics ignored; Latin or Ge'ez)

    ---
    get:
      parameters:
      - {in: query, schema: PlayerQuerySchema}
      responses:
        200: {description: Players, content: {application/json: {schema: PlayerListSchema}}}
        422: Invalid body or illegal move
    """
    query = load_query(player_query_schema)
    found = players().search(query["q"], limit=query["limit"])
    return player_list_schema.dump({"players": [candidate_json(row) for row in found]})


@bp.post("")
def register_player():
    """Register a player (409 with the candidates when the name is taken, unless force)

    ---
    post:
      description: Needs the admin token or an arbiter token.
      parameters: [Idempotency-Key]
      requestBody:
        required: true
        content: {application/json: {schema: schemas.players.PlayerCreateSchema}}
      responses:
        201: {description: Done, content: {application/json: {schema: PlayerSchema}}}
        404: Unknown game
        409: Stale version
    """
    raw = json_body()
    data = player_create_schema.load(raw)
    force = data.pop("force")
    who = principal_record(principal())
    written = players().register(
        data, recorded_by=recorded_by(), principal=who, idempotency=idempotency(raw), force=force
    )
    p = written.player
    location = url_for("players.get_player", player_id=p.player_id)
    return respond(player_schema.dump(player_json(p)), p.version, 201, Location=location)


@bp.get("/<player_id>")
def get_player(player_id: str):
    """A player: names, affiliation, tournaments, games, ratings (a merged id names its survivor)

    ---
    get:
      responses:
        200: {description: Player, content: {application/json: {schema: PlayerSchema}}}
    """
    p = players().player(player_id)
    return respond(player_schema.dump(player_json(p, full=True)), p.version)


@bp.get("/<player_id>/events")
def get_player_events(player_id: str):
    """The player's event log with hashes

    ---
    get:
      responses:
        200: {description: Events, content: {application/json: {schema: EventListSchema}}}
    """
    return {"player_id": player_id, "events": [e.to_dict() for e in players().events(player_id)]}


@bp.post("/<player_id>/name")
def rename_player(player_id: str):
    """Rename a player (both names, as they now read)

    ---
    post:
      description: Needs the admin token, or an arbiter token of a tournament this player entered.
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: RenameSchema}}}
      responses:
        201: {description: Done, content: {application/json: {schema: PlayerSchema}}}
    """
    raw = json_body()
    written = players().rename(player_id, rename_schema.load(raw), **player_write_options(raw))
    return respond(player_schema.dump(player_json(written.player)), written.player.version, 201)


@bp.post("/<player_id>/affiliation")
def change_affiliation(player_id: str):
    """Change a player's federation or club

    ---
    post:
      description: Needs the admin token, or an arbiter token of a tournament this player entered.
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: AffiliationSchema}}}
      responses:
        201: {description: Done, content: {application/json: {schema: PlayerSchema}}}
    """
    raw = json_body()
    written = players().change_affiliation(player_id, affiliation_schema.load(raw), **player_write_options(raw))
    return respond(player_schema.dump(player_json(written.player)), written.player.version, 201)


@bp.post("/<player_id>/particulars")
def change_particulars(player_id: str):
    """Change a player's sex or birth year

    ---
    post:
      description: Needs the admin token, or an arbiter token of a tournament this player entered.
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: ParticularsSchema}}}
      responses:
        201: {description: Done, content: {application/json: {schema: PlayerSchema}}}
    """
    raw = json_body()
    written = players().change_particulars(player_id, particulars_schema.load(raw), **player_write_options(raw))
    return respond(player_schema.dump(player_json(written.player)), written.player.version, 201)


@bp.post("/<player_id>/merge")
def merge_player(player_id: str):
    """Merge this duplicate into another record

    ---
    post:
      description: Needs the admin token.
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: MergeSchema}}}
      responses:
        201: {description: Done, content: {application/json: {schema: PlayerSchema}}}
    """
    raw = json_body()
    written = players().merge(player_id, merge_schema.load(raw), **player_write_options(raw))
    current_app.extensions["ratings"].rebuild()  # the lists as if the record had always been one
    return respond(player_schema.dump(player_json(written.player)), written.player.version, 201)


@bp.post("/<player_id>/merge/withdrawal")
def withdraw_merge(player_id: str):
    """Withdraw a wrong merge

    ---
    post:
      description: Needs the admin token.
      parameters: [If-Match, Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: ReasonSchema}}}
      responses:
        201: {description: Done, content: {application/json: {schema: PlayerSchema}}}
    """
    raw = json_body(empty_is_object=True)
    written = players().withdraw_merge(player_id, reason_schema.load(raw), **player_write_options(raw))
    current_app.extensions["ratings"].rebuild()
    return respond(player_schema.dump(player_json(written.player)), written.player.version, 201)
