"""The web pages: record and review games in a browser, served by the same Flask app.

Thin shells only. Each page is an HTML template that names what it shows (a game id, a
tournament id) in ``data-`` attributes; JavaScript modules in ``static/js`` read and
write through the JSON API under ``/api`` exactly as any other client does, with the
same version check (``If-Match``). Nothing here reads the store except to answer 404
for an unknown game, and nothing is fetched from outside the service: the pages are
served with a Content-Security-Policy that allows this origin only.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    make_response,
    render_template,
    request,
    send_file,
    url_for,
)
from flask_babel import force_locale, get_locale, gettext
from werkzeug.exceptions import HTTPException, NotFound

from . import i18n, runtime

bp = Blueprint(
    "web",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/web-static",  # not /static: the app may have its own one day
)

# Same origin only: no CDN, no inline script, no external font.
SAME_ORIGIN_SOURCES = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'"
)
# No page may be framed (clickjacking) but the embeddable boards, by the admin's list.
CONTENT_SECURITY_POLICY = f"{SAME_ORIGIN_SOURCES}; frame-ancestors 'none'"
# The game page and its rules worker compile Pyodide's WebAssembly (recorder/web/runtime.py):
# that, and nothing else (no eval), is added for them.
RULES_POLICY = CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")
RULES_WORKER = "js/rules-worker.js"


@bp.after_request
def same_origin_only(response):
    if "Content-Security-Policy" not in response.headers:
        compiles = request.endpoint == "web.game_page" or (
            request.endpoint == "web.static" and (request.view_args or {}).get("filename") == RULES_WORKER
        )
        response.headers["Content-Security-Policy"] = RULES_POLICY if compiles else CONTENT_SECURITY_POLICY
        response.headers.setdefault("X-Frame-Options", "DENY")  # for browsers without frame-ancestors
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    # The sign-in address carries a token (?token=) until the page takes it out: no
    # request the page makes may pass it on as a Referer.
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response


@bp.errorhandler(404)
def not_found(error: NotFound):
    """An unknown game or list: a page in the reader's language that says so, still a 404."""
    return render_template("error.html", title=gettext("Not found"), detail=error.description), 404


def error_page(error: HTTPException):
    """An address outside every page and the API (``/nope``): the same page as an unknown
    game, never Flask's English one. Other errors keep Flask's answer."""
    if error.code != 404:
        return error
    page = render_template(
        "error.html", title=gettext("Not found"), detail=gettext("There is no page at this address.")
    )
    return same_origin_only(make_response(page, 404))  # a page's policy: its styles and scripts load


@bp.record_once
def _answer_unknown_addresses(state) -> None:
    state.app.extensions["error_page"] = error_page  # called by the one HTTP error handler (api/problems.py)


@bp.get("/")
def home():
    return render_template("home.html")


@bp.get("/games/<game_id>")
def game_page(game_id: str):
    return game_view(game_id, "record")


@bp.get("/games/<game_id>/watch")
def watch_page(game_id: str):
    """The spectator view: the same board, live, with nothing to record."""
    return game_view(game_id, "watch")


def game_view(game_id: str, mode: str):
    if current_app.extensions["recorder"].store.version(game_id) == 0:
        abort(404, description=gettext("There is no game %(id)s.", id=game_id))
    return render_template("game.html", game_id=game_id, mode=mode, **rules_urls(mode))


def rules_urls(mode: str) -> dict[str, str]:
    """Where the recording page finds Pyodide and the rules; nothing when it has no use for
    them (the spectator view) or the service has no Pyodide (the page says so)."""
    if mode != "record" or not runtime.installed():
        return {"runtime_url": "", "rules_url": "", "rules_files": "[]"}
    _, digest = runtime.rules_archive()
    files = [url_for("web.runtime_file", version=runtime.PYODIDE_VERSION, name=name) for name in runtime.PYODIDE_FILES]
    rules = url_for("web.rules_zip", digest=digest)
    return {"runtime_url": files[0], "rules_url": rules, "rules_files": json.dumps([*files, rules])}


@bp.get("/games/<game_id>/scoresheet")
def scoresheet_page(game_id: str):
    """A game's scoresheet to print: players, event, moves, result, signatures, the checkpoint's QR."""
    if current_app.extensions["recorder"].store.version(game_id) == 0:
        abort(404, description=gettext("There is no game %(id)s.", id=game_id))
    return render_template("scoresheet.html", game_id=game_id, tournament_id=None, round_number=None)


@bp.get("/games/<game_id>/dossier")
def dossier_page(game_id: str):
    """A game's appeal dossier to print and to save as its signed file (docs/auditing.md)."""
    if current_app.extensions["recorder"].store.version(game_id) == 0:
        abort(404, description=gettext("There is no game %(id)s.", id=game_id))
    return render_template("dossier.html", game_id=game_id)


@bp.get("/tournaments/<tournament_id>/rounds/<int:round_number>/scoresheets")
def round_scoresheets_page(tournament_id: str, round_number: int):
    """An empty scoresheet per board of a round, printed before play."""
    return render_template("scoresheet.html", game_id=None, tournament_id=tournament_id, round_number=round_number)


@bp.get("/tournaments/<tournament_id>/rounds/<int:round_number>/signin-cards")
def signin_cards_page(tournament_id: str, round_number: int):
    """A round's board sign-in cards to print: issued on the page by its arbiter (POST
    …/rounds/{r}/signins), each board's QR code holding its sign-in address."""
    return render_template("signin_cards.html", tournament_id=tournament_id, round_number=round_number)


@bp.get("/tournaments/<tournament_id>/badges")
def badges_page(tournament_id: str):
    """The players' badges to print: issued on the page by the arbiter (POST
    …/players/signins), each badge's QR code holding its player's sign-in address."""
    return render_template("badges.html", tournament_id=tournament_id)


@bp.get("/tournaments/<tournament_id>/teams/<int:team>/captain-card")
def captain_card_page(tournament_id: str, team: int):
    """A team captain's card to print: issued on the page by the arbiter (POST
    …/teams/{n}/captain-signin), its QR code holding the captain's page's address."""
    return render_template("captain_card.html", tournament_id=tournament_id, team=team)


@bp.get("/tournaments/<tournament_id>/teams/<int:team>/captain")
def captain_page(tournament_id: str, team: int):
    """Where a captain's card leads (…/captain#token=…): the token in the fragment never
    reaches the server; the page keeps it and hands in the team's line-up for the next round."""
    return render_template("captain.html", tournament_id=tournament_id, team=team)


@bp.get("/sign-in")
def sign_in_page():
    """Where a sign-in card's QR code leads (/sign-in#token=…&next=…): the token in the
    fragment never reaches the server; the page keeps it and opens the board's game."""
    return render_template("signin.html")


@bp.get("/tournaments/<tournament_id>")
def tournament_page(tournament_id: str):
    return render_template("tournament.html", tournament_id=tournament_id)


@bp.get("/console")
def console_page():
    """The admin's and arbiters' console: the tournaments, a new one, a TRF to import."""
    return render_template("console.html")


@bp.get("/tournaments/<tournament_id>/console")
def tournament_console_page(tournament_id: str):
    """One tournament's console: players, rounds, results and lists, all through the API."""
    return render_template("console_tournament.html", tournament_id=tournament_id)


@bp.get("/players/<player_id>")
def player_page(player_id: str):
    """A player: names, affiliation, ratings with their history, tournaments and games."""
    return render_template("player.html", player_id=player_id)


@bp.get("/ratings/<variant>")
def ratings_page(variant: str):
    """A game's rating list for a month, filtered by federation."""
    return render_template("ratings.html", variant=variant)


@bp.get("/tournaments/<tournament_id>/projector")
def projector_page(tournament_id: str):
    """All boards of a round on one screen for the hall, live (?round=N, else the latest)."""
    return render_template("projector.html", tournament_id=tournament_id)


@bp.get("/tournaments/<tournament_id>/bracket")
def bracket_page(tournament_id: str):
    """A knock-out's bracket as a tree, each match's games and score, live; it prints as it shows."""
    return render_template("bracket.html", tournament_id=tournament_id)


@bp.get("/tournaments/<tournament_id>/teams")
def team_page(tournament_id: str):
    """A team event's standings and each round's matches, board by board, live; it prints on
    A4 as the standings and a match sheet a round."""
    return render_template("team.html", tournament_id=tournament_id)


PRINT_LISTS = ("pairings", "standings", "crosstable", "prizes", "board-prizes")


@bp.get("/tournaments/<tournament_id>/print")
def print_page(tournament_id: str):
    """Print-ready lists (?list=pairings&round=N | standings[&category=CODE] | crosstable |
    prizes | board-prizes): A4, black on white, 40 rows a page."""
    list_name = request.args.get("list", "pairings")
    if list_name not in PRINT_LISTS:
        abort(
            404,
            description=gettext("No list %(name)s: choose %(lists)s.", name=list_name, lists=", ".join(PRINT_LISTS)),
        )
    round_number = request.args.get("round", type=int)
    category = request.args.get("category", "")
    return render_template(
        "print.html", tournament_id=tournament_id, list_name=list_name, round_number=round_number, category=category
    )


# -- Embeddable boards: one game, or a round's boards, for an <iframe> elsewhere ------------


def embeddable(body: str) -> Response:
    """A page that the admin's origins (``EMBED_ANCESTORS``) may frame, and no one else."""
    response = Response(body, mimetype="text/html")
    ancestors = current_app.config["EMBED_FRAME_ANCESTORS"]
    response.headers["Content-Security-Policy"] = f"{SAME_ORIGIN_SOURCES}; frame-ancestors {ancestors}"
    return response


@bp.get("/embed/games/<game_id>")
def embed_game_page(game_id: str):
    """One game's board, live, with no site around it."""
    if current_app.extensions["recorder"].store.version(game_id) == 0:
        abort(404, description=gettext("There is no game %(id)s.", id=game_id))
    return embeddable(render_template("embed.html", game_id=game_id, tournament_id=None, round_number=None))


@bp.get("/embed/tournaments/<tournament_id>/bracket")
def embed_bracket_page(tournament_id: str):
    """A knock-out's bracket, live, with no site around it."""
    return embeddable(render_template("embed_bracket.html", tournament_id=tournament_id))


@bp.get("/embed/tournaments/<tournament_id>/team-standings")
def embed_team_standings_page(tournament_id: str):
    """A team event's standings, live, with no site around them."""
    return embeddable(render_template("embed_team.html", tournament_id=tournament_id))


@bp.get("/embed/tournaments/<tournament_id>/rounds/<int:round_number>")
def embed_round_page(tournament_id: str, round_number: int):
    """A round's boards, live, with no site around them."""
    return embeddable(
        render_template("embed.html", game_id=None, tournament_id=tournament_id, round_number=round_number)
    )


# -- Offline: the service worker and the web app manifest -----------------------------------

STATIC = Path(__file__).resolve().parent / "static"


@lru_cache(maxsize=1)
def static_files() -> tuple[tuple[str, ...], str]:
    """Every static file the pages use, and a digest of their contents: a new release
    changes the digest, so browsers install the new service worker and its cache."""
    files = sorted(p for p in STATIC.rglob("*") if p.is_file())
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in files)).hexdigest()[:16]
    return tuple(p.relative_to(STATIC).as_posix() for p in files), digest


@bp.get("/sw.js")
def service_worker():
    files, digest = static_files()
    assets = [url_for("web.home")] + [url_for("web.static", filename=name) for name in files]
    body = render_template(
        "sw.js", assets=assets, version=digest, offline=offline_words(), default_language=i18n.DEFAULT_LANGUAGE
    )
    response = Response(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"  # the browser checks for a new worker on every visit
    return response


def offline_words() -> dict[str, dict[str, str]]:
    """What the worker says offline, in every language: it picks the reader's when the
    network is down (the ``lang`` cookie, else the browser's languages), so one worker
    serves every reader and a language chosen later needs no new worker."""
    words = {}
    for code in i18n.languages():
        with force_locale(code):
            locale = get_locale()
            words[code] = {
                "dir": locale.text_direction if locale else "ltr",
                "title": gettext("Offline"),
                "page": gettext(
                    "This page was not opened on this device while the network was up, so it cannot be"
                    " shown offline. Games opened before are kept."
                ),
                "detail": gettext("the service cannot be reached and this was not saved on the device"),
            }
    return words


# -- The rules in the browser: Pyodide and the rules' sources (recorder/web/runtime.py) ------

# Both addresses name their version or digest: what they serve never changes.
IMMUTABLE = "public, max-age=31536000, immutable"
RUNTIME_TYPES = {
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json",
}


@bp.get("/web-runtime/pyodide-<version>/<name>")
def runtime_file(version: str, name: str):
    """One of the Pyodide files a page loads; nothing else from the runtime's folder."""
    if version != runtime.PYODIDE_VERSION or name not in runtime.PYODIDE_FILES or not runtime.installed():
        abort(404, description=gettext("This service has no such runtime file."))
    sent = runtime.served_file(runtime.runtime_dir(), name, gzipped="gzip" in request.accept_encodings)
    response = send_file(sent, mimetype=RUNTIME_TYPES[Path(name).suffix], conditional=True)
    if sent.suffix == ".gz":
        response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    response.headers["Cache-Control"] = IMMUTABLE
    return response


@bp.get("/web-runtime/rules-<digest>.zip")
def rules_zip(digest: str):
    """The pure rules' sources, the same files the service imports."""
    data, current = runtime.rules_archive()
    if digest != current:
        abort(404, description=gettext("These rules are not the ones this service runs."))
    response = Response(data, mimetype="application/zip")
    response.headers["Cache-Control"] = IMMUTABLE
    return response


def init_app(app: Flask) -> None:
    i18n.init_app(app)
    app.register_blueprint(bp)
