"""The one guard in front of every write: authenticate, authorize, then admit the body.

``before_request`` maps the request's endpoint to an action and a resource and asks the
policy (recorder/auth/policy.py) once, before anything is read or stored. A write
endpoint missing from ``ACTIONS`` is the admin's alone, so a new endpoint is never open
by accident. Then the body: JSON endpoints take ``application/json`` only (415 for a form
or ``text/plain``, so no cross-site page can write) and no body is cut short (413 for a
chunked body over the limit). No CORS headers are sent anywhere.
"""

from __future__ import annotations

import hashlib

from flask import Flask, current_app, g, request
from werkzeug.exceptions import RequestEntityTooLarge, UnsupportedMediaType

from recorder.archive.transfer import was_imported
from recorder.auth.policy import Action, Resource, require
from recorder.auth.service import Authenticator
from recorder.auth.tokens import Principal
from recorder.core import ids
from recorder.errors import CorrectionNeeded, IdempotencyMismatch, NotFound, Unauthorized, UnknownGame
from recorder.players.reach import player_reach
from recorder.store import Idempotency

# Endpoint -> (action, what the resource is found from). Reads are public unless listed.
ACTIONS: dict[str, tuple[Action, str | None]] = {
    "games.create_game": ("create_game", None),
    "games.record_command": ("write_game", "game"),
    "archive.import_archive": ("import", None),
    "audit.verify_checkpoint": ("verify", None),
    "tournaments.create_tournament": ("create_tournament", None),
    "tournaments.import_trf": ("create_tournament", None),
    "tournaments.register_player": ("write_tournament", "tournament"),
    "tournaments.withdraw_player": ("write_tournament", "tournament"),
    "tournaments.declare_absence": ("write_tournament", "tournament"),
    "tournaments.cancel_absence": ("write_tournament", "tournament"),
    "tournaments.choose_tiebreaks": ("write_tournament", "tournament"),
    "tournaments.forbid_pairing": ("write_tournament", "tournament"),
    "tournaments.set_broadcast": ("write_tournament", "tournament"),
    "tournaments.pair_round": ("write_tournament", "tournament"),
    "tournaments.propose_round": ("write_tournament", "tournament"),  # stores nothing: a pairing's cost
    "tournaments.check_proposed_round": ("write_tournament", "tournament"),
    "tournaments.start_board_game": ("start_board_game", "tournament"),
    "tournaments.record_board_result": ("write_tournament", "tournament"),
    "tournaments.correct_board": ("correct_result", "tournament"),
    "tournaments.finish_tournament": ("write_tournament", "tournament"),
    "prizes.set_categories": ("write_tournament", "tournament"),
    "prizes.set_prizes": ("write_tournament", "tournament"),
    "knockout.hand_over": ("write_tournament", "tournament"),
    "knockout.draw_lot": ("write_tournament", "tournament"),
    "team_events.enter_team": ("write_tournament", "tournament"),
    "team_events.submit_lineup": ("submit_lineup", "tournament"),  # the arbiter's, or the team captain's sign-in
    "team_events.issue_captain_signin": ("write_tournament", "tournament"),
    "team_events.list_lineups": ("write_tournament", "tournament"),  # a read, but the arbiter's: kept till paired
    "tournaments.issue_signins": ("write_tournament", "tournament"),
    "tournaments.list_signins": ("write_tournament", "tournament"),  # a read, but the arbiter's
    "tournaments.revoke_signin": ("write_tournament", "tournament"),
    "tournaments.issue_player_signins": ("write_tournament", "tournament"),
    "tournaments.list_player_signins": ("write_tournament", "tournament"),  # a read, but the arbiter's
    "tournaments.list_disputes": ("write_tournament", "tournament"),  # a read, but the arbiter's
    "tournaments.check_in": ("check_in", "tournament"),
    "signoffs.confirm_record": ("sign_record", "game"),
    "signoffs.dispute_record": ("sign_record", "game"),
    "signoffs.decide_dispute": ("decide_dispute", "game"),
    "tournaments.list_tokens": ("manage_tokens", "tournament"),
    "tournaments.issue_token": ("manage_tokens", "tournament"),
    "tournaments.revoke_token": ("manage_tokens", "tournament"),
    "players.register_player": ("register_player", None),
    "teams.register_team": ("register_player", None),  # as a player: the admin or an arbiter
    "players.rename_player": ("write_player", "player"),
    "players.change_affiliation": ("write_player", "player"),
    "players.change_particulars": ("write_player", "player"),
    # players.merge_player and players.withdraw_merge: unlisted, so the admin's alone
    "tokens.list_tokens": ("manage_tokens", None),
    "tokens.issue_token": ("manage_tokens", None),
    "tokens.revoke_token": ("manage_tokens", None),
}
# POSTs that store nothing and stay open (docs/security.md): claims and what-if replays.
OPEN_POSTS = frozenset({"audit.claim", "audit.what_if"})
NOT_JSON = frozenset({"archive.import_archive", "tournaments.import_trf"})  # notation, NDJSON or TRF text
READS = frozenset({"GET", "HEAD", "OPTIONS"})
NO_ADMIN = (
    "no admin token is configured, so nobody may write: set RECORDER_ADMIN_TOKEN in the server's environment"
    " (or start `recorder serve` once, which creates one beside the database)"
)


class NoAdminToken(Unauthorized):
    title = "No admin token configured"


def init_app(app: Flask) -> None:
    app.before_request(guard)
    if app.config["OPEN"]:  # said at start, whoever starts the app (recorder serve prints it too)
        app.logger.warning("open mode: anyone may write games outside tournaments (docs/security.md)")


def authenticator() -> Authenticator:
    return current_app.extensions["auth"]


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def guard() -> None:
    """Refuse (401/403, then 413/415) before any view reads or stores anything."""
    if not request.path.startswith("/api/") or request.routing_exception is not None:
        return  # not the API, or no such route: the 404 or 405 says so
    rule = _rule(request.endpoint, request.method)
    if rule is not None:
        action, scope = rule
        token = bearer_token()
        principal = authenticator().authenticate(token)
        if principal is None and not authenticator().has_admin():
            # A token sent here is likely meant as the admin's: say what is missing.
            raise NoAdminToken(NO_ADMIN)
        if principal is not None:
            g.principal = principal  # before the resource: an unknown game is 404 only to a holder
        g.principal = require(principal, token is not None, action, _resource(scope, principal))
        if g.principal.is_admin:
            _require_correction(g.principal, request.endpoint, request.view_args or {})
    if request.method not in READS:
        _admit_body()


def _rule(endpoint: str | None, method: str) -> tuple[Action, str | None] | None:
    if endpoint in ACTIONS:
        return ACTIONS[endpoint]
    if method in READS or endpoint in OPEN_POSTS:
        return None
    return ("admin", None)  # a write nobody has classified: the admin only


def _resource(scope: str | None, principal: Principal | None) -> Resource:
    args = request.view_args or {}
    if scope == "tournament":
        tournament_id = args.get("tournament_id")
        board = (args["round_number"], args["board"]) if "round_number" in args and "board" in args else None
        return Resource(tournament_id=tournament_id, finished=rights_ended(principal, tournament_id), board=board)
    if scope == "game":
        return game_resource(args.get("game_id", ""), principal)
    if scope == "player":
        return player_resource(args.get("player_id", ""), principal)
    return Resource()


RIGHTS_END = ("arbiter", "signin", "player", "captain")  # the principals whose rights end with their tournament


def rights_ended(principal: Principal | None, tournament_id: str | None, *, unfinished_game: bool = False) -> bool:
    """Has this arbiter's (or board sign-in's) tournament finished (or been corrected),
    ending his rights? Asked of the tournament's own arbiters and sign-ins only: nobody
    else's answer depends on it."""
    if principal is None or principal.kind not in RIGHTS_END or principal.tournament_id != tournament_id:
        return False
    return tournament_over(tournament_id, unfinished_game=unfinished_game) and not _a_retry(principal)


def _a_retry(principal: Principal) -> bool:
    """Does this request carry an Idempotency-Key its principal used on this path before?
    Then the view answers with what that request stored (or 422 for another body) and
    stores nothing: the retry of the write that finished the tournament is not refused."""
    key = request.headers.get("Idempotency-Key")
    if not key:
        return False
    probe = Idempotency(_scoped_key(principal.identity, key), fingerprint="")  # no request's fingerprint
    try:
        return current_app.extensions["recorder"].store.replayed(probe) is not None
    except IdempotencyMismatch:
        return True  # the key is stored (under the request's own fingerprint)


def tournament_over(tournament_id: str | None, *, unfinished_game: bool = False) -> bool:
    if tournament_id is None:
        return False
    try:
        return current_app.extensions["tournaments"].is_over(tournament_id, unfinished_game=unfinished_game)
    except NotFound:
        return False  # no such tournament: the view says so


def player_resource(player_id: str, principal: Principal | None) -> Resource:
    """What decides an arbiter's rights over a registry record (recorder/players/reach.py):
    the tournaments he entered, who registered him, his rated games; and whether the
    arbiter's own tournament is over. Read for an arbiter only: the admin may always."""
    if principal is None or principal.kind != "arbiter":
        return Resource()
    reach = player_reach(current_app.extensions["recorder"], current_app.extensions["players"], player_id)
    return Resource(
        tournaments=reach.tournaments,
        registered_in=reach.registered_in,
        rated=reach.rated,
        finished=rights_ended(principal, principal.tournament_id),
    )


def game_resource(game_id: str, principal: Principal | None) -> Resource:
    """A game's tournament and creator, from its first stored event (one indexed row)."""
    first = current_app.extensions["recorder"].store.read(game_id, upto=1)
    if not first or first[0].type != "game_created":
        if principal is None:
            return Resource(created_by="\0nobody")  # refused as 401 before revealing anything
        raise UnknownGame(f"no game {game_id!r}", game_id=game_id)
    metadata = first[0].payload.get("metadata") or {}
    # a board's id names its tournament even if a restored setup does not (as on import)
    tournament_id = metadata.get("tournament_id") or ids.tournament_of_board(game_id)
    imported = was_imported(game_id, first[0].payload)  # nobody's own (docs/security.md, "Imports")
    finished = game_over = False
    if tournament_id is not None and principal is not None and principal.kind in RIGHTS_END:
        game_over = _game_finished(game_id)
        # a game still being played means its tournament is not finished: no result is read
        finished = rights_ended(principal, tournament_id, unfinished_game=not game_over)
    return Resource(
        tournament_id=tournament_id,
        created_by=first[0].recorded_by,
        imported=imported,
        finished=finished,
        board=ids.board_of(game_id),
        game_finished=game_over,
        seats=_seats(tournament_id, ids.board_of(game_id))
        if principal is not None and principal.kind == "player"
        else (),
    )


def _a_player(principal: Principal | None) -> bool:
    return principal is not None and principal.kind == "player"


def _seats(tournament_id: str | None, board: tuple[int, int] | None) -> tuple[int, ...]:
    """The starting numbers of a board's two players (none for a board not paired)."""
    if tournament_id is None or board is None:
        return ()
    try:
        rnd = current_app.extensions["tournaments"].latest(tournament_id).round(board[0])
    except NotFound:
        return ()
    seated = rnd.board(board[1]) if rnd is not None else None
    return () if seated is None else tuple(n for n in (seated.south, seated.north) if n is not None)


def _game_finished(game_id: str) -> bool:
    row = current_app.extensions["recorder"].games.row(game_id)
    return row is not None and row["status"] == "finished"


# The admin's writes to a board: a finished tournament's board changes only after a correction.
BOARD_WRITES = frozenset({"games.record_command", "tournaments.record_board_result", "tournaments.start_board_game"})


def _require_correction(admin: Principal, endpoint: str | None, args: dict) -> None:
    """The admin's change to a board of a finished tournament must follow a correction on
    the tournament (the board, the admin, a reason: POST .../boards/{b}/correction), so
    it is shown as one; 409 otherwise, nothing stored (the retry of a write stored before
    the tournament finished is answered, as any retry)."""
    if endpoint not in BOARD_WRITES:
        return
    tournament_id, board = _board_written(endpoint, args)
    if board is None or not tournament_over(tournament_id, unfinished_game=_unfinished_board(endpoint, args)):
        return
    t = current_app.extensions["tournaments"].latest(tournament_id)
    if not t.corrected(*board) and not _a_retry(admin):
        round_number, number = board
        raise CorrectionNeeded(
            f"tournament {tournament_id} is finished: record a correction of round {round_number} board {number}"
            f" first (POST /api/tournaments/{tournament_id}/rounds/{round_number}/boards/{number}/correction"
            " with a reason), then change it",
            tournament_id=tournament_id,
        )


def _board_written(endpoint: str, args: dict) -> tuple[str | None, tuple[int, int] | None]:
    if endpoint == "games.record_command":
        game_id = args.get("game_id", "")
        return ids.tournament_of_board(game_id), ids.board_of(game_id)
    round_number, board = args.get("round_number"), args.get("board")
    return args.get("tournament_id"), (round_number, board) if round_number and board else None


def _unfinished_board(endpoint: str, args: dict) -> bool:
    return endpoint == "games.record_command" and not _game_finished(args.get("game_id", ""))


def principal() -> Principal:
    """Who this (guarded) request is from."""
    return g.principal


def recorded_by() -> str:
    return g.principal.holder


def scoped_idempotency(fingerprint: str) -> Idempotency | None:
    """The client's Idempotency-Key, scoped to its principal and to this game or endpoint
    (the path), so one client's key never blocks or replays another's."""
    key = request.headers.get("Idempotency-Key")
    if not key:
        return None
    who = g.principal.identity if "principal" in g else "public"
    return Idempotency(_scoped_key(who, key), fingerprint)


def _scoped_key(who: str, key: str) -> str:
    return hashlib.sha256("\0".join((who, request.path, key)).encode("utf-8", "surrogatepass")).hexdigest()


def _admit_body() -> None:
    if request.endpoint not in NOT_JSON and (request.content_type or request.content_length):
        if request.mimetype != "application/json":
            raise UnsupportedMediaType(f"send application/json, not {request.mimetype or 'an untyped body'}")
    _read_within_limit()


def _read_within_limit() -> None:
    """Read the whole body now, refusing one over the limit: a chunked body carries no
    Content-Length, and reading it later would cut it short instead (then store it)."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if request.content_length is not None or not limit or not request.environ.get("wsgi.input_terminated"):
        return  # werkzeug refuses a declared length over the limit; an unterminated body reads as empty
    stream = request.environ["wsgi.input"]
    chunks, size = [], 0
    while True:
        chunk = stream.read(min(65536, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise RequestEntityTooLarge(f"the body is over {limit} bytes; nothing was stored")
    request._cached_data = b"".join(chunks)  # what get_data() returns from now on
