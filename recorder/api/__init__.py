"""The JSON API: one blueprint per resource, errors as problem+json. The services the views
use are built by the app factory (recorder/app.py, ``build_services``)."""

from flask import Flask

from . import (
    access,  # who may write: the one guard (recorder/auth)
    archive,  # notation and NDJSON import/export
    audit,  # traces, claims, what-if, verify, checkpoints, board.svg
    broadcast,  # a tournament's broadcast delay: what public reads show of its games
    game_notation,  # one game's notation and move list, for the game page
    games,
    headers,  # nosniff, no active content and no framing on every answer but a page
    hosts,  # Host and Origin checked before anything else (DNS rebinding)
    knockout,  # a knock-out's bracket, its stage hand-over and lots
    live,  # live boards: Server-Sent Events for a game and a tournament
    openapi,
    players,  # the player registry
    positions,  # position search over the position index
    prizes,  # a tournament's categories and prize list
    problems,
    ratings,  # the rating lists (Glicko-2 over months)
    signoffs,  # the players' confirmations and disputes of a board game's record, the decisions
    team_events,  # a team event: teams entered, team standings
    teams,  # teams in the registry: names, affiliation, roster in board order
    tokens,  # recorder tokens
    tournaments,  # tournaments, pairings, standings, tokens
    variants,
)


def init_app(app: Flask) -> None:
    problems.init_app(app)
    headers.init_app(app)
    hosts.init_app(app)
    access.init_app(app)
    app.register_blueprint(tokens.bp)
    for module in (variants, games, openapi):
        app.register_blueprint(module.bp)
    app.register_blueprint(audit.bp)
    app.register_blueprint(signoffs.bp)
    tournaments.init_app(app)
    broadcast.init_app(app)
    players.init_app(app)
    teams.init_app(app)
    team_events.init_app(app)
    prizes.init_app(app)
    knockout.init_app(app)
    ratings.init_app(app)
    app.register_blueprint(archive.bp)
    app.register_blueprint(game_notation.bp)
    live.init_app(app)
    app.register_blueprint(positions.bp)
