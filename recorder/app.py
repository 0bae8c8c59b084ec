"""The web application: ``create_app(test_config=None)`` builds the Flask app: configuration, the event store,
the recording service and the API blueprints.
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
    from .service import Recorder
    from .store.backends import open_store

    store = open_store(app.config["DATABASE"])
    app.extensions["recorder"] = Recorder(
        store,
        max_events_per_game=app.config["MAX_EVENTS_PER_GAME"],
        max_bytes_per_game=app.config["MAX_BYTES_PER_GAME"],
    )
    api.init_app(app)
    from . import web  # the pages: HTML and JS over the same JSON API

    web.init_app(app)
    return app
