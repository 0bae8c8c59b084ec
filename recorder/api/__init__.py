"""The JSON API: one blueprint per resource, errors as problem+json."""

from flask import Flask

from . import games, openapi, problems, variants


def init_app(app: Flask) -> None:
    problems.init_app(app)
    for module in (variants, games, openapi):
        app.register_blueprint(module.bp)
