"""The web pages: record and review games in a browser, served by the same Flask app.

Thin shells only. Each page is an HTML template that names what it shows (a game id, a
tournament id) in ``data-`` attributes; JavaScript modules in ``static/js`` read and
write through the JSON API under ``/api`` exactly as any other client does, with the
same version check (``If-Match``). Nothing here reads the store except to answer 404
for an unknown game, and nothing is fetched from outside the service: the pages are
served with a Content-Security-Policy that allows this origin only.
"""

from __future__ import annotations

from flask import Blueprint, Flask, abort, current_app, render_template

bp = Blueprint(
    "web",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/web-static",  # not /static: the app may have its own one day
)

# Same origin only: no CDN, no inline script, no external font (issue 9).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)


@bp.after_request
def same_origin_only(response):
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    return response


@bp.get("/")
def home():
    return render_template("home.html")


@bp.get("/games/<game_id>")
def game_page(game_id: str):
    if current_app.extensions["recorder"].store.version(game_id) == 0:
        abort(404, description=f"There is no game {game_id}.")
    return render_template("game.html", game_id=game_id)


@bp.get("/tournaments/<tournament_id>")
def tournament_page(tournament_id: str):
    return render_template("tournament.html", tournament_id=tournament_id)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
