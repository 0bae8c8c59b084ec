"""Games: create, list, read, record commands, read the log and the state at any event.

Views are thin: load (schemas) -> work (Recorder) -> dump. The version check uses the
game's ETag: send it back in ``If-Match`` (or ``expected_version``) to record a command.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Response, current_app, json, request, url_for

from recorder.api.problems import load_query
from recorder.audit.trace import mark_retractions
from recorder.core.clocks import clock_face
from recorder.core.game import FoldedGame
from recorder.errors import InvalidRecord
from recorder.games.service import fingerprint
from recorder.rules.position_text import position_text
from recorder.rules.state import state_to_json
from recorder.rules.values import is_whole_number
from recorder.store import Idempotency
from schemas import (
    event_schema,
    game_create_schema,
    game_list_schema,
    game_query_schema,
    game_schema,
    load_command,
    state_query_schema,
)

from .access import recorded_by, scoped_idempotency
from .body import json_body
from .broadcast import recorder, seen_at, visible_events, visible_game, visible_row

bp = Blueprint("games", __name__, url_prefix="/api/games")


def etag(game: FoldedGame) -> str:
    return f'"{game.version}"'


def state_json(game: FoldedGame) -> dict:
    """The §8 state, its version, and its one-line text (docs/notation.md, for copying)."""
    text = position_text(game.rules, game.state)
    return {**state_to_json(game.rules, game.state), "version": game.version, "position_text": text}


def game_json(
    game: FoldedGame, created_at: str | None = None, at_of: Callable[[int], str | None] | None = None
) -> dict:
    """The game as ``GET /api/games/{id}`` shows it. ``at_of``: when the event of a seq was
    recorded (for the clock face's ``at``); a game just created has only its setup."""
    setup, state = game.setup, game.state
    return {
        "id": game.game_id,
        "variant": setup.variant,
        "options": setup.options,
        "south": setup.south,
        "north": setup.north,
        "first_player": setup.first_player,
        "position": setup.position,
        "metadata": setup.metadata,
        "version": game.version,
        "status": "finished" if state.game_over else "in_progress",
        "result": state.result.name if state.game_over else None,
        "created_at": created_at,
        "state": state_json(game),
        "clock": clock_face(game, at_of or (lambda _seq: created_at)),
    }


def seen_at_of(game_id: str) -> Callable[[int], str | None]:
    """When this reader sees each event of the game: when it was recorded (read from the
    store when asked), later by a broadcast delay that holds the reader back."""
    store = recorder().store
    return lambda seq: seen_at(game_id, store.read(game_id, after=seq - 1, upto=seq)[0].recorded_at)


def idempotency(body) -> Idempotency | None:
    """The Idempotency-Key, scoped to the principal and this path (recorder/api/access.py)."""
    return scoped_idempotency(fingerprint(request.method, request.path, body))


def with_etag(payload: dict, game: FoldedGame, status: int = 200, **headers) -> Response:
    response = Response(json.dumps(payload), status=status, mimetype="application/json")
    response.headers["ETag"] = etag(game)
    response.headers.update(headers)
    return response


@bp.post("")
def create_game():
    """Create a game (GEN-23, GEN-42)

    ---
    post:
      parameters: [Idempotency-Key]
      requestBody: {required: true, content: {application/json: {schema: GameCreateSchema}}}
      responses:
        201: {description: Created, content: {application/json: {schema: GameSchema}}}
    """
    body = json_body()
    data = game_create_schema.load(body)
    for side in ("south_player", "north_player"):
        if data.get(side) is not None:
            current_app.extensions["players"].must_exist(data[side], field=side)
    recorded = recorder().create_game(data, recorded_by=recorded_by(), idempotency=idempotency(body))
    game = recorded.game
    location = url_for("games.get_game", game_id=game.game_id)
    payload = game_schema.dump(game_json(game, recorded.events[0].recorded_at))
    return with_etag(payload, game, 201, Location=location)


@bp.get("")
def list_games():
    """List games

    ---
    get:
      parameters:
      - {in: query, schema: GameQuerySchema}
      responses:
        200: {description: Games, content: {application/json: {schema: GameListSchema}}}
        422: Invalid body or illegal move
    """
    query = load_query(game_query_schema)
    rows = recorder().games.page(**query)
    games = [{**visible_row(row), "id": row["game_id"]} for row in rows]
    # The registry players' names in Ge'ez, read with the page: a search by either script finds the game.
    geez = current_app.extensions["players"].geez_names_of_games([(g["id"], g.get("metadata") or {}) for g in games])
    for game in games:
        game["south_geez"], game["north_geez"] = geez.get((game["id"], "south")), geez.get((game["id"], "north"))
    last = (rows[-1]["created_at"], rows[-1]["game_id"]) if len(rows) == query["limit"] else None
    return game_list_schema.dump({"games": games, "next": last})


@bp.get("/<game_id>")
def get_game(game_id: str):
    """A game and its latest state

    ---
    get:
      responses:
        200: {description: Game, content: {application/json: {schema: GameSchema}}}
    """
    game = visible_game(game_id)
    created_at = recorder().store.read(game_id, upto=1)[0].recorded_at
    return with_etag(game_schema.dump({**game_json(game, created_at, seen_at_of(game_id)), **names_geez(game)}), game)


def names_geez(game: FoldedGame) -> dict:
    """The Ge'ez names of the registry players on the game's sides (those its metadata
    names, else those linked to it since), read when asked: a rename shows at once."""
    geez = current_app.extensions["players"].geez_names_of_games([(game.game_id, game.setup.metadata or {})])
    return {f"{side}_geez": geez.get((game.game_id, side)) for side in ("south", "north")}


@bp.post("/<game_id>/commands")
def record_command(game_id: str):
    """Record one sowing or decision

    ---
    post:
      description: Needs a bearer token that may write this game (docs/security.md) and the version last seen
        (If-Match or expected_version; 428 without).
      parameters: [If-Match, Idempotency-Key]
      requestBody:
        required: true
        content:
          application/json:
            schema:
              oneOf:
              - {$ref: '#/components/schemas/SowCommand'}
              - {$ref: '#/components/schemas/RaceCommand'}
              - {$ref: '#/components/schemas/OpeningCommand'}
              - {$ref: '#/components/schemas/LotCommand'}
              - {$ref: '#/components/schemas/NextRoundCommand'}
              - {$ref: '#/components/schemas/ResultCommand'}
              - {$ref: '#/components/schemas/RetractCommand'}
              - {$ref: '#/components/schemas/AnnotateCommand'}
              - {$ref: '#/components/schemas/PauseClocksCommand'}
              - {$ref: '#/components/schemas/ResumeClocksCommand'}
      responses:
        201: {description: Recorded, content: {application/json: {schema: RecordedSchema}}}
        428: No If-Match or expected_version
    """
    body = json_body()
    command = load_command(body)
    expected = expected_version(command.pop("expected_version", None))
    recorded = recorder().record(
        game_id, command, expected_version=expected, recorded_by=recorded_by(), idempotency=idempotency(body)
    )
    game = recorded.game
    # The hot path: each event is dumped once, straight from the stored
    # event; the envelope's other fields are plain values, built in RecordedSchema's shape.
    events = event_schema.dump(recorded.events, many=True)
    payload = {
        "event": events[-1],
        "events": events,
        "state": state_json(game),
        "version": game.version,
        "etag": etag(game),
    }
    location = url_for("games.get_events", game_id=game_id)
    return with_etag(payload, game, 201, Location=location)


def expected_version(from_body: int | None) -> int | None:
    """If-Match (the ETag) or ``expected_version``; when both are given they must agree."""
    header = request.headers.get("If-Match")
    if not header or header.strip() == "*":
        return from_body
    tag = header.strip().removeprefix("W/").strip('"')
    if not is_whole_number(tag):
        raise InvalidRecord(f'If-Match must be the game\'s ETag, such as "3", not {header}', field="If-Match")
    if from_body is not None and from_body != int(tag):
        raise InvalidRecord("If-Match and expected_version disagree", field="expected_version")
    return int(tag)


@bp.get("/<game_id>/events")
def get_events(game_id: str):
    """The event log with hashes

    ---
    get:
      responses:
        200: {description: Events, content: {application/json: {schema: EventListSchema}}}
    """
    events = visible_events(game_id)
    # Retracted moves name their retraction and retractions name what they withdrew (by folding).
    entries = mark_retractions(game_id, [e.to_dict() for e in events])
    # Already in EventListSchema's shape (StoredEvent.to_dict + the two marks): dumping a
    # long log field by field through marshmallow would cost more than reading it.
    return {"game_id": game_id, "events": entries}


@bp.get("/<game_id>/state")
def get_state(game_id: str):
    """The state after event N (default: latest)

    ---
    get:
      parameters:
      - {in: query, schema: StateQuerySchema}
      responses:
        200: {description: State, content: {application/json: {schema: {type: object}}}}
        422: Invalid body or illegal move
    """
    game = visible_game(game_id, load_query(state_query_schema)["at"])
    return with_etag(state_json(game), game)
