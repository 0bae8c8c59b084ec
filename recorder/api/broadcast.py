"""A tournament's broadcast delay in a request: who reads, and when.

The filter itself, a request's or a live stream's ``Audience``, is recorder/live/audience.py.
The time is read here (``app.config["CLOCK"]``, a function returning an aware
``datetime``; tests set their own) and handed down as a cut-off text that sorts with the
stored ``recorded_at``: nothing below the API reads a clock.
Every read that shows a game's events or what follows from them asks ``horizon``
(docs/security.md, "Broadcast delay", lists them).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from flask import Flask, Response, current_app, g

from recorder.auth.tokens import Principal
from recorder.core.game import FoldedGame
from recorder.games.service import Recorder
from recorder.live.audience import STORED_TIME, Audience
from recorder.store import StoredEvent

from .access import authenticator, bearer_token


def system_clock() -> datetime:
    return datetime.now(UTC)


def init_app(app: Flask) -> None:
    app.config.setdefault("CLOCK", system_clock)
    app.after_request(vary_by_token)


def recorder() -> Recorder:
    """The games' service (recorder/app.py builds it): every view asks here."""
    return current_app.extensions["recorder"]


def audience() -> Audience:
    """This request's reader (its token read once)."""
    if "audience" not in g:
        clock = current_app.config["CLOCK"]
        g.audience = Audience(recorder(), current_app.extensions["broadcasts"], clock, token_reaches())
    return g.audience


def token_reaches() -> Callable[[str], bool]:
    """Whether the request's token is the admin's or an arbiter's of a tournament. The
    token is looked up (once) only when a delaying tournament asks: most reads never do."""
    token, auth = bearer_token(), authenticator()  # kept: a stream may ask after its request
    principal: list[Principal | None] = []

    def reaches(tournament_id: str) -> bool:
        if not principal:
            principal.append(auth.authenticate(token))
        holder = principal[0]
        if holder is None:
            return False
        return holder.is_admin or (holder.kind == "arbiter" and holder.tournament_id == tournament_id)

    return reaches


def horizon(game_id: str) -> int | None:
    return audience().horizon(game_id)


def seen_at(game_id: str, recorded_at: str | None) -> str | None:
    """When this reader sees an event recorded at ``recorded_at``: a broadcast delay shows
    it that much later, so a clock ticks on the reader's device as the hall's did then,
    never ahead of the moves it may see."""
    delay = audience().held_back_seconds(game_id)
    if not delay or recorded_at is None:
        return recorded_at
    return (datetime.strptime(recorded_at, STORED_TIME) + timedelta(seconds=delay)).strftime(STORED_TIME)


def visible_events(game_id: str) -> list[StoredEvent]:
    """The game's events this request may see (UnknownGame for no game)."""
    events = recorder().events(game_id)
    upto = horizon(game_id)
    return events if upto is None else events[:upto]


def visible_game(game_id: str, at: int | None = None) -> FoldedGame:
    return audience().game(game_id, at)


def visible_row(row: dict) -> dict:
    return audience().row(row)


def visible_state_of(game_id: str):
    """The state a tournament read shows for a board's game (standings, rounds)."""
    return visible_game(game_id).state


def vary_by_token(response: Response) -> Response:
    """A read a delay shaped differs by token: no shared cache may hand one to another."""
    if "audience" in g and g.audience.shaped:
        response.vary.add("Authorization")
        response.headers.setdefault("Cache-Control", "private, no-cache")
    return response
