"""The web application: ``create_app(test_config=None)`` builds the Flask app: configuration, the event store,
every service over it (``build_services``, the one place they are made, in the order they need each other), the
API blueprints and the pages.
"""

from __future__ import annotations

import os

from flask import Flask
from flask.json.provider import DefaultJSONProvider

DEFAULT_DB = "recorder.sqlite3"


def database_path(explicit: str | None = None) -> str:
    """The database file: an explicit path, else $RECORDER_DB, else recorder.sqlite3 here."""
    return explicit or os.environ.get("RECORDER_DB") or DEFAULT_DB


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.config.from_mapping(
        DATABASE=database_path(),
        MAX_CONTENT_LENGTH=1024 * 1024,  # a whole archive import fits; anything larger is refused (413)
        JSON_SORT_KEYS=False,
    )
    from . import limits

    app.config.from_mapping(
        # Limits that say no early (docs/deployment.md): $RECORDER_MAX_EVENTS_PER_GAME,
        # $RECORDER_MAX_BYTES_PER_GAME, $RECORDER_IMPORT_MAX_GAMES and
        # $RECORDER_IMPORT_MAX_EVENTS, or these keys.
        MAX_EVENTS_PER_GAME=limits.events_per_game(),
        MAX_BYTES_PER_GAME=limits.bytes_per_game(),
        IMPORT_MAX_GAMES=limits.from_environment("IMPORT_MAX_GAMES", limits.IMPORT_GAMES),
        IMPORT_MAX_EVENTS=limits.from_environment("IMPORT_MAX_EVENTS", limits.IMPORT_EVENTS),
        # Who may frame the embeddable boards (docs/deployment.md): checked below, before
        # anything is opened.
        EMBED_ANCESTORS=os.environ.get("RECORDER_EMBED_ANCESTORS"),
    )
    if test_config:
        app.config.update(test_config)
    from .web.embed import frame_ancestors

    app.config["EMBED_FRAME_ANCESTORS"] = frame_ancestors(app.config["EMBED_ANCESTORS"])
    if isinstance(app.json, DefaultJSONProvider):
        app.json.sort_keys = False

    from . import api

    build_services(app)
    api.init_app(app)
    from . import web  # the pages: HTML and JS over the same JSON API

    web.init_app(app)
    return app


def build_services(app: Flask) -> None:
    """The event store and every service over it, kept in ``app.extensions`` for the views:
    the games (``recorder``), the tokens (``auth``), the tournaments and their broadcast
    settings, the player registry, the teams and the rating lists."""
    from .auth.service import Authenticator
    from .errors import Unavailable
    from .feature_tables import ensure_all
    from .games.service import Recorder
    from .live.audience import Settings
    from .players.service import Players
    from .ratings.service import Ratings
    from .store.backends import open_store
    from .teams.service import Teams
    from .tournaments.service import Tournaments

    store = open_store(app.config["DATABASE"])
    ensure_all(store)  # every feature's tables, before the first request
    recorder = Recorder(
        store,
        max_events_per_game=app.config["MAX_EVENTS_PER_GAME"],
        max_bytes_per_game=app.config["MAX_BYTES_PER_GAME"],
    )
    app.config.setdefault("ADMIN_TOKEN", os.environ.get("RECORDER_ADMIN_TOKEN") or None)
    app.config.setdefault("OPEN", os.environ.get("RECORDER_OPEN", "") in ("1", "true", "yes"))
    players = Players(recorder)
    try:
        players.fill_sound_keys()  # a registry from before them; a single query otherwise
    except Unavailable:
        pass  # a database not writable now: the duplicate check misses near spellings until a later start
    tournaments = Tournaments(recorder)
    app.extensions.update(
        recorder=recorder,
        auth=Authenticator(recorder.store, app.config["ADMIN_TOKEN"], open_mode=bool(app.config["OPEN"])),
        tournaments=tournaments,
        broadcasts=Settings(tournaments),
        players=players,
        teams=Teams(recorder, players),
        ratings=Ratings(recorder),
    )
